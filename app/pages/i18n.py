"""The pages' languages: gettext catalogs for the chrome (compiled from the `.po` files when
the app starts, so no binary is committed), Babel for dates, month and weekday names and
plurals, and one Jinja2 environment per language."""

from datetime import date, datetime
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date, format_time, get_timezone_name
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, select_autoescape

from app.core.infra.settings import LANGUAGES

HERE = Path(__file__).parent
BUILT_IN_TEMPLATES = HERE / "templates"
LOCALE_DIR = HERE / "locale"
DOMAIN = "messages"


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: str) -> NullTranslations:
    """The chrome's texts in `language` (English, the source language, has no catalog)."""
    path = catalog_path(language)
    if not path.exists():
        return NullTranslations()
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def first_weekday(language: str, override: int | None) -> int:
    """0 (Monday) to 6 (Sunday): `WEEK_START`, else the language's own by CLDR (Monday for
    German, Slovak, and English without a territory)."""
    return override if override is not None else int(Locale.parse(language).first_week_day)


class Dates:
    """Babel's formats for one language, for the templates."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.locale = Locale.parse(language)

    def day(self, value: date) -> str:
        return format_date(value, "full", locale=self.locale)

    def short_day(self, value: date) -> str:
        return format_date(value, "medium", locale=self.locale)

    def time(self, value: datetime) -> str:
        return format_time(value, "short", locale=self.locale)

    def month(self, value: date) -> str:
        """ "November 2026" (the stand-alone month name, as a heading)."""
        text = format_date(value, "LLLL y", locale=self.locale)
        return text[:1].upper() + text[1:]  # Slovak names are lower case, headings are not

    def weekday(self, index: int, width: str = "abbreviated") -> str:
        return str(self.locale.days["stand-alone"][width][index])

    def zone(self, name: str) -> str:
        return str(get_timezone_name(name, locale=self.locale))

    def day_number(self, value: date) -> str:
        return format_date(value, "d", locale=self.locale)


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
    env.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    # JSON-LD in the API's key order (Jinja sorts keys by default).
    env.policies["json.dumps_kwargs"] = {"sort_keys": False, "ensure_ascii": False}
    env.filters["todatetime"] = datetime.fromisoformat
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


FREQUENCIES = {"DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"}


def describe_series(recurrence: list[str], language: str) -> str:
    """A series' rule in words: "every Tuesday and Thursday until 12 May"."""
    from babel.lists import format_list

    from app.pages.calendar import rule_parts, rule_until, rule_weekdays

    text = translations(language)
    dates = Dates(language)
    parts = rule_parts(recurrence)
    if parts is None or parts.get("FREQ") not in FREQUENCIES:
        return text.gettext("A series of dates")
    interval = int(parts.get("INTERVAL", "1") or 1) if parts.get("INTERVAL", "1").isdigit() else 1
    weekdays = rule_weekdays(parts)
    if parts["FREQ"] == "WEEKLY" and weekdays and interval == 1:
        names = format_list([dates.weekday(day, "wide") for day in weekdays], locale=dates.locale)
        result = text.gettext("every %(days)s") % {"days": names}
    else:
        unit = FREQUENCIES[parts["FREQ"]]
        singular = {
            "day": text.ngettext("every day", "every %(num)d days", interval),
            "week": text.ngettext("every week", "every %(num)d weeks", interval),
            "month": text.ngettext("every month", "every %(num)d months", interval),
            "year": text.ngettext("every year", "every %(num)d years", interval),
        }[unit]
        result = singular % {"num": interval}
    until = rule_until(parts)
    if until is not None:
        day = format_date(until, "d MMMM y", locale=dates.locale)
        result += " " + text.gettext("until %(date)s") % {"date": day}
    elif parts.get("COUNT", "").isdigit():
        count = int(parts["COUNT"])
        result += ", " + text.ngettext("%(num)d time", "%(num)d times", count) % {"num": count}
    return result
