"""Every text of the site has its German and Slovak translation, with the placeholders of
its English text (app/i18n/locale/<lang>/LC_MESSAGES/<domain>.po):

- the API's and the feeds' messages: every key of the domain's template (`<domain>.pot`);
- the pages' and the desk's texts: every text of their templates (`_()`, `ngettext`) and
  every one their code marks (`N_()`, `PAGE_TEXTS.gettext(language, ...)`,
  `DESK_TEXTS.ngettext(language, ...)`, `DeskRefused(status, ...)`), found as Babel's
  extractors find them."""

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.extract import extract
from babel.messages.pofile import read_po
from jinja2.ext import babel_extract

from app.i18n import (
    API_MESSAGES,
    CATALOGS,
    DESK_TEXTS,
    FEED_TEXTS,
    MAIL_TEXTS,
    PAGE_TEXTS,
    Catalog,
)

APP = Path(__file__).parents[2] / "app"
TRANSLATED = ["de", "sk"]
PYTHON_KEYWORDS = {
    "N_": None,
    "gettext": (2,),  # Catalog.gettext(language, text, ...)
    "ngettext": (2, 3),  # Catalog.ngettext(language, one, many, count, ...)
    "DeskRefused": (2,),
    "_": None,
}
TEMPLATE_OPTIONS = {"extensions": "jinja2.ext.i18n", "trim_blocks": "1", "lstrip_blocks": "1"}
# Where each shown domain's texts are written.
SOURCES = {PAGE_TEXTS.domain: APP / "pages", DESK_TEXTS.domain: APP / "desk"}
# Texts whose translation is the same word.
UNCHANGED = {
    ("pages", "de"): {"Website"},
    ("desk", "de"): {"Administrator", "Browser", "Status", "Check-in", "Ticket", "Tickets"},
    ("desk", "sk"): {"Editor"},
}
PLACEHOLDER = re.compile(r"%\((\w+)\)")


def entries(catalog: Catalog, language: str) -> list[Message]:
    with catalog.path(language).open("rb") as source:
        return [message for message in read_po(source, locale=language) if message.id]


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda catalog: catalog.domain)
def test_every_translation_keeps_the_placeholders(catalog: Catalog, language: str) -> None:
    """A translation fills in the values its English text names, no other: each form of a
    plural names some of the values of its two English forms (German's "täglich" for "every
    day" leaves out the number)."""
    wrong = []
    for message in entries(catalog, language):
        if isinstance(message.id, str):
            names = placeholders(message.id)
            text = str(message.string)
            kept = placeholders(text) == names and formats(text, names)
        else:
            names = set().union(*(placeholders(text) for text in message.id))
            kept = all(
                placeholders(form) <= names and formats(form, names) for form in message.string
            )
        if not kept:
            wrong.append(message.id if isinstance(message.id, str) else message.id[0])
    assert wrong == []


def formats(text: str, names: set[str]) -> bool:
    """Does `text` fill in (a lone `%`, not written `%%`, would fail where it is shown)?"""
    try:
        text % dict.fromkeys(names, 1)
    except (ValueError, TypeError, KeyError):
        return False
    return True


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize(
    "catalog", [API_MESSAGES, FEED_TEXTS, MAIL_TEXTS], ids=lambda catalog: catalog.domain
)
def test_every_keyed_message_is_translated(catalog: Catalog, language: str) -> None:
    """Each key of the template, with the same English text, translated (not fuzzy), and no
    translation of a key the template no longer has."""
    translated = {
        str(message.context): message
        for message in entries(catalog, language)
        if message.string and not message.fuzzy
    }
    template = catalog.template()
    assert {key for key in template if key not in translated} == set()
    assert {key: message.id for key, message in translated.items() if key not in template} == {}
    assert {key for key, english in template.items() if translated[key].id != english} == set()


def test_the_keyed_messages_are_found() -> None:
    assert API_MESSAGES.text("rest-event-not-found", "de", id=7) == (
        "Die Veranstaltung mit der ID 7 existiert nicht."
    )
    note = ("kind_venue", {})
    assert API_MESSAGES.text("unknown_ids", "sk", name="venue", kind=note, ids="3, 4") == (
        "venue: miesto konania s ID 3, 4 neexistuje."
    )
    assert API_MESSAGES.text("no such key", "de") == "no such key"
    assert FEED_TEXTS.text("quoted", "de", text="Jazz") == "\u201eJazz\u201c"


# A plural text (its singular) -> (singular, plural).
Plurals = dict[str, tuple[str, str]]


def _ids(message: str | tuple[str, ...], plurals: Plurals) -> list[str]:
    texts = (
        [text for text in message if isinstance(text, str)] if isinstance(message, tuple) else []
    )
    if len(texts) == 2:  # a template's ngettext also gives its count (None)
        plurals[texts[0]] = (texts[0], texts[1])
        return [texts[0]]
    return list(message) if isinstance(message, tuple) else [message]


def shown_texts(domain: str, plurals: Plurals | None = None) -> dict[str, str]:
    """Every marked text of the pages or the desk: text -> where it is."""
    here = SOURCES[domain]
    plurals = {} if plurals is None else plurals
    found: dict[str, str] = {}
    for path in sorted(here.rglob("*.html")):
        with path.open("rb") as source:
            for line, _, message, _ in babel_extract(
                source, ("_", "gettext", "ngettext"), [], TEMPLATE_OPTIONS
            ):
                for text in _ids(message, plurals):
                    if isinstance(text, str):
                        found.setdefault(text, f"{path.relative_to(APP)}:{line}")
    for path in sorted(here.rglob("*.py")):
        with path.open("rb") as source:
            for line, message, _, _ in extract("python", source, PYTHON_KEYWORDS):
                for text in _ids(message, plurals):
                    if text:
                        found.setdefault(text, f"{path.relative_to(APP)}:{line}")
    return found


def test_the_texts_are_found() -> None:
    desk = shown_texts("desk")
    assert "Sign in to the desk" in desk  # a template's
    assert "My sessions" in desk  # the nav's, marked in the code
    assert "This form was sent from another site." in desk  # a refusal's
    assert "%(num)d event published." in desk  # a plural in the code
    plurals: Plurals = {}
    pages = shown_texts("pages", plurals)
    assert "every %(days)s" in pages  # the code's
    assert "every day" in pages
    assert plurals["every day"][1] == "every %(num)d days"


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("catalog", [PAGE_TEXTS, DESK_TEXTS], ids=lambda catalog: catalog.domain)
def test_every_shown_text_is_translated(catalog: Catalog, language: str) -> None:
    translations = catalog.translations(language)
    unchanged = UNCHANGED.get((catalog.domain, language), set())

    plurals: Plurals = {}
    texts = shown_texts(catalog.domain, plurals)

    def untranslated(text: str) -> bool:
        if text in plurals:  # in each of its forms
            one, many = plurals[text]
            return any(translations.ngettext(one, many, n) in (one, many) for n in (1, 2, 5))
        return translations.gettext(text) == text

    missing = {
        text: where for text, where in texts.items() if untranslated(text) and text not in unchanged
    }
    assert missing == {}


def test_every_catalog_reads_without_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    """Babel prints what it cannot read (an entry without its `msgstr`) on standard output,
    where it ends up in the command line's answers (a JSON one stopped being JSON)."""
    for path in sorted((APP / "i18n" / "locale").rglob("*.po*")):
        with path.open("rb") as source:
            read_po(source)
        printed = capsys.readouterr()
        assert printed.out + printed.err == "", path
