"""The desk's texts: a gettext domain of its own, merged from EVERY catalog file in
`locale/<lang>/LC_MESSAGES/*.po` (each area of the desk keeps its own file: base.po,
editor.po, ...), compiled when first used, so no binary is committed; Babel for dates."""

from datetime import datetime, tzinfo
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel.dates import format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from jinja2 import Environment, FileSystemLoader, select_autoescape

from app.core.infra.settings import LANGUAGES
from app.pages.i18n import Dates

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
LOCALE_DIR = HERE / "locale"
DOMAIN = "desk"


def catalog_files(language: str) -> list[Path]:
    return sorted((LOCALE_DIR / language / "LC_MESSAGES").glob("*.po"))


def _compiled(path: Path, language: str) -> Translations:
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def merged(files: list[Path], language: str) -> NullTranslations:
    """The catalog files as one (no files: the texts as written, in English)."""
    if not files:
        return NullTranslations()
    catalog = _compiled(files[0], language)
    for path in files[1:]:
        catalog.merge(_compiled(path, language))
    return catalog


@cache
def translations(language: str) -> NullTranslations:
    """Every catalog of `language` as one (English, the source language, has none)."""
    return merged(catalog_files(language), language)


def _environment(language: str) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(["html", "xml"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    env.globals["dates"] = Dates(language)
    env.globals["language"] = language
    return env


class DeskTemplates:
    """One environment per language, made once."""

    def __init__(self) -> None:
        self._environments = {language: _environment(language) for language in LANGUAGES}

    def render(self, language: str, name: str, **values: Any) -> str:
        return self._environments[language].get_template(name).render(**values)


def N_(message: str) -> str:
    """Mark a text for the catalogs where it is defined; it is translated where shown
    (tests/unit/test_desk_catalogs.py finds every marked text and checks its translations)."""
    return message


def gettext(language: str, message: str, **values: Any) -> str:
    """A text of the desk in `language`, outside a template (a flash message)."""
    text = translations(language).gettext(message)
    return text % values if values else text


def format_moment(value: datetime, language: str, zone: tzinfo) -> str:
    """A date and time in the site's time zone ("24 Nov 2026, 22:30")."""
    return str(format_datetime(value.astimezone(zone), "medium", locale=language))
