"""Dates in words, by Babel's CLDR data: the pages' and the desk's days, times, month and
weekday names, and the first day of a week."""

from datetime import date, datetime, tzinfo

from babel import Locale
from babel.dates import (
    format_date,
    format_datetime,
    format_interval,
    format_time,
    get_timezone_name,
)


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

    def long_day(self, value: date) -> str:
        """ "12 May 2027" (a series' last day)."""
        return format_date(value, "d MMMM y", locale=self.locale)

    def time(self, value: datetime) -> str:
        return format_time(value, "short", locale=self.locale)

    def month(self, value: date) -> str:
        """ "November 2026" (the stand-alone month name, as a heading)."""
        text = format_date(value, "LLLL y", locale=self.locale)
        return text[:1].upper() + text[1:]  # Slovak names are lower case, headings are not

    def short_month(self, value: date) -> str:
        """ "Nov" (the stand-alone abbreviated month name: a date badge's)."""
        return format_date(value, "LLL", locale=self.locale)

    def weekday(self, index: int, width: str = "abbreviated") -> str:
        return str(self.locale.days["stand-alone"][width][index])

    def zone(self, name: str) -> str:
        return str(get_timezone_name(name, locale=self.locale))

    def day_number(self, value: date) -> str:
        return format_date(value, "d", locale=self.locale)

    def days(self, first: date, last: date) -> str:
        """ "Nov 30 – Dec 6, 2026" (a week's heading), as the language writes a range."""
        return str(format_interval(first, last, "yMMMd", locale=self.locale))


def format_moment(value: datetime, language: str, zone: tzinfo) -> str:
    """A date and time in the site's time zone ("24 Nov 2026, 22:30")."""
    return str(format_datetime(value.astimezone(zone), "medium", locale=language))
