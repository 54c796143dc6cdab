"""Every text of the site in gettext catalogs, one domain per surface, read by Babel:
`locale/<lang>/LC_MESSAGES/<domain>.po`, compiled in memory when first used (so no binary is
committed and no build step is needed: a fresh clone and the image read the `.po` files).

- `pages` and `desk`: the texts are written in English where they are shown (templates,
  `N_()`), the msgid is that text; a domain each, since the two word some texts apart.
- `api`, `feeds` and `mail` (the messages to attendees): the code names a message by key
  (`ApiError`'s `rest-event-not-found`), so the key is the msgctxt and the English text,
  the msgid, comes from the domain's template (`locale/<domain>.pot`), the one place the
  English texts are written.

Placeholders are named (`%(name)s`), filled in the same way in every language.
"""

from collections.abc import Mapping
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Final, TypeGuard

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from app.i18n.languages import SOURCE_LANGUAGE

LOCALE_DIR = Path(__file__).parent / "locale"

# A text of a keyed domain with its values; a value may itself be one (a note inside a note).
Keyed = tuple[str, Mapping[str, object]]


def N_(message: str) -> str:
    """Mark a text for the catalogs where it is defined; it is translated where shown
    (tests/unit/test_catalogs.py finds every marked text and checks its translations)."""
    return message


class Catalog:
    """One gettext domain in every language."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def path(self, language: str) -> Path:
        return LOCALE_DIR / language / "LC_MESSAGES" / f"{self.domain}.po"

    def template_path(self) -> Path:
        return LOCALE_DIR / f"{self.domain}.pot"

    def translations(self, language: str) -> NullTranslations:
        return _translations(self.path(language), language)

    def gettext(self, language: str, message: str, **values: object) -> str:
        """`message` in `language`, its `%(name)s` placeholders filled with `values`."""
        text = self.translations(language).gettext(message)
        return text % values if values else text

    def ngettext(
        self, language: str, singular: str, plural: str, count: int, **values: object
    ) -> str:
        """The form of `count` in `language`, with `num` (the count) and `values` filled in."""
        text = self.translations(language).ngettext(singular, plural, count)
        return text % {"num": count, **values}

    def template(self) -> Mapping[str, str]:
        """A keyed domain's messages: key (msgctxt) -> the English text (msgid)."""
        return _template(self.template_path())

    def has(self, key: str) -> bool:
        """Is `key` a message of this keyed domain?"""
        return key in self.template()

    def text(self, key: str, language: str, **values: object) -> str:
        """The message `key` of a keyed domain in `language` (the key itself when there is
        no such message), filled with `values`; a value that is itself a message (a `Keyed`
        pair) is rendered in the same language first."""
        english = self.template().get(key)
        if english is None:
            return key
        text = str(self.translations(language).pgettext(key, english))
        # Each value as `format()` shows it (an enum member by its value, as `str.format`
        # showed it when these texts were Python templates).
        rendered = {
            name: self.text(value[0], language, **value[1])
            if _is_keyed(value)
            else format(value, "")
            for name, value in values.items()
        }
        return text % rendered


def _is_keyed(value: object) -> TypeGuard[Keyed]:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], Mapping)
    )


@cache
def _translations(path: Path, language: str) -> NullTranslations:
    """The compiled catalog (English, the source language, has none: its texts as written)."""
    if language == SOURCE_LANGUAGE or not path.exists():
        return NullTranslations()
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=path.stem)


@cache
def _template(path: Path) -> Mapping[str, str]:
    """A keyed domain's template: key (msgctxt) -> the English text (msgid)."""
    with path.open("rb") as source:
        catalog = read_po(source)
    return {str(message.context): str(message.id) for message in catalog if message.context}


API_MESSAGES: Final = Catalog("api")
FEED_TEXTS: Final = Catalog("feeds")
PAGE_TEXTS: Final = Catalog("pages")
DESK_TEXTS: Final = Catalog("desk")
MAIL_TEXTS: Final = Catalog("mail")


CATALOGS: Final = (API_MESSAGES, FEED_TEXTS, PAGE_TEXTS, DESK_TEXTS, MAIL_TEXTS)
