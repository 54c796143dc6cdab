"""The pages' templates: one Jinja2 environment per language, with the pages' catalog
(app/i18n/locale/<lang>/LC_MESSAGES/pages.po) and Babel's dates; a theme's templates first."""

from datetime import datetime
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, select_autoescape

from app.i18n import LANGUAGES, PAGE_TEXTS
from app.i18n.dates import Dates
from app.pages.pictures import thumbnail

BUILT_IN_TEMPLATES = Path(__file__).parent / "templates"


def make_environment(language: str, templates_dir: Path | None) -> Environment:
    """Templates from `templates_dir` first (a theme's overrides), then the built-in ones;
    `builtin/<name>` always names the built-in one, so that an override can extend it."""
    built_in = FileSystemLoader(str(BUILT_IN_TEMPLATES))
    overrides = [FileSystemLoader(str(templates_dir))] if templates_dir else []
    env = Environment(
        loader=ChoiceLoader([*overrides, built_in, PrefixLoader({"builtin": built_in})]),
        autoescape=select_autoescape(["html", "xml"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(PAGE_TEXTS.translations(language), newstyle=True)  # type: ignore[attr-defined]
    # JSON-LD in the API's key order (Jinja sorts keys by default).
    env.policies["json.dumps_kwargs"] = {"sort_keys": False, "ensure_ascii": False}
    env.filters["todatetime"] = datetime.fromisoformat
    # A distance in km, to a tenth, as the language writes numbers ("2.5", "2,5").
    env.filters["km"] = lambda value: format_decimal(round(value, 1), "#,##0.#", locale=language)
    env.filters["thumbnail"] = thumbnail  # a list card's image (app/pages/pictures.py)
    env.globals["dates"] = Dates(language)
    env.globals["language"] = language
    return env


class Environments:
    """One environment per language, made once."""

    def __init__(self, templates_dir: Path | None) -> None:
        self._environments = {
            language: make_environment(language, templates_dir) for language in LANGUAGES
        }

    def render(self, language: str, name: str, **values: Any) -> str:
        return self._environments[language].get_template(name).render(**values)
