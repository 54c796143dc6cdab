"""The feed's own words (calendar names), in the request language."""

from typing import Final

LABELS: Final[dict[str, dict[str, str]]] = {
    "events": {"en": "Events", "de": "Veranstaltungen", "sk": "Podujatia"},
    "venue": {"en": "Venue", "de": "Ort", "sk": "Miesto"},
    "organizer": {"en": "Organizer", "de": "Veranstalter", "sk": "Organizátor"},
    "featured": {"en": "Featured", "de": "Hervorgehoben", "sk": "Odporúčané"},
    "not_featured": {"en": "Not featured", "de": "Nicht hervorgehoben", "sk": "Neodporúčané"},
    "from": {"en": "from {date}", "de": "ab {date}", "sk": "od {date}"},
    "until": {"en": "until {date}", "de": "bis {date}", "sk": "do {date}"},
}
# Quotation marks around a search phrase.
QUOTES: Final = {"en": ("\u201c", "\u201d"), "de": ("\u201e", "\u201c"), "sk": ("\u201e", "\u201c")}


def label(key: str, language: str, **values: str) -> str:
    texts = LABELS[key]
    return texts.get(language, texts["en"]).format(**values)


def quoted(text: str, language: str) -> str:
    opening, closing = QUOTES.get(language, QUOTES["en"])
    return f"{opening}{text}{closing}"
