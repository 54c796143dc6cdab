"""The desk's templates: one Jinja2 environment per language, with the desk's catalog
(app/i18n/locale/<lang>/LC_MESSAGES/desk.po) and Babel's dates."""

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from app.i18n import DESK_TEXTS, LANGUAGES
from app.i18n.dates import Dates

TEMPLATES = Path(__file__).parent / "templates"


def _environment(language: str) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(["html", "xml"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(DESK_TEXTS.translations(language), newstyle=True)  # type: ignore[attr-defined]
    env.globals["dates"] = Dates(language)
    env.globals["language"] = language
    return env


class DeskTemplates:
    """One environment per language, made once."""

    def __init__(self) -> None:
        self._environments = {language: _environment(language) for language in LANGUAGES}

    def render(self, language: str, name: str, **values: Any) -> str:
        return self._environments[language].get_template(name).render(**values)
