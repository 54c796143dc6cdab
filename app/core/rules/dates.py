"""Dates and time zones: parsing request dates (strtotime-like) and formatting responses.

Inputs accepted everywhere a date is: `Y-m-d H:i:s`, `Y-m-d`, ISO 8601 with or without an
offset, Unix timestamps, and relative English forms (`now`, `tomorrow 9am`, `+5 days`,
`next monday`) read by dateparser. A value without an offset is wall time in the zone given.
"""

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from app.core.rules.constants import EARLIEST, LATEST

DATETIME_FORMAT = "%Y-%m-%d %H:%M:%S"
_OFFSET_ZONE = re.compile(r"^UTC(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$", re.IGNORECASE)
_DAY_WORDS = re.compile(r"^\s*(today|tomorrow|yesterday|midnight)\s*$", re.IGNORECASE)
_NUMERIC = re.compile(r"^\s*-?\d+(\.\d+)?\s*$")
_DATEPARSER_SETTINGS: dict[str, Any] = {
    "RETURN_AS_TIMEZONE_AWARE": False,
    "PREFER_DATES_FROM": "current_period",
    "STRICT_PARSING": False,
}


class ZoneError(ValueError):
    pass


def parse_zone(value: str) -> tzinfo:
    """An IANA name (`Europe/Berlin`), `UTC`, or an offset form `UTC+2`, `UTC-5:30`."""
    text = value.strip()
    match = _OFFSET_ZONE.match(text)
    if match:
        sign, hours, minutes = match.groups()
        if sign is None:
            return UTC
        delta = timedelta(hours=int(hours), minutes=int(minutes or 0))
        if delta > timedelta(hours=14) or int(minutes or 0) > 59:
            raise ZoneError(value)
        return timezone(-delta if sign == "-" else delta)
    if not text or len(text) > 64:
        raise ZoneError(value)
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
        # OSError: a key naming a directory of the zone database, such as `Europe`.
        raise ZoneError(value) from exc


def zone_abbreviation(zone_name: str, zone: tzinfo, at: datetime) -> str:
    """`EST`/`EDT` for IANA zones at that instant; offset zones answer with their own name."""
    if isinstance(zone, ZoneInfo):
        return at.astimezone(zone).tzname() or zone_name
    return zone_name


def parse_when(value: Any, zone: tzinfo, now: datetime | None = None) -> datetime:
    """An aware datetime for a request date, or ValueError. Wall times are read in `zone`."""
    parsed = read_when(value, zone, now)
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=zone)


def read_when(value: Any, zone: tzinfo, now: datetime | None = None) -> datetime:
    """A request date, or ValueError: aware when it names an instant (an offset, a Unix
    timestamp), naive when it is a wall time, for the zone it belongs to, which the reader
    may not know yet (an event's). Relative forms count from now in `zone`; the range is
    checked as if the wall time were in `zone`."""
    parsed = _parse_when(value, zone, now)
    aware = parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=zone)
    if not EARLIEST <= aware <= LATEST:
        raise ValueError("date out of range")
    return parsed


def _parse_when(value: Any, zone: tzinfo, now: datetime | None) -> datetime:
    if isinstance(value, bool):
        raise ValueError("not a date")
    if isinstance(value, int | float) or (isinstance(value, str) and _NUMERIC.match(value)):
        # A Unix timestamp is an instant, whatever the zone (strtotime's `@ts`).
        try:
            return datetime.fromtimestamp(float(value), UTC)
        except (OverflowError, OSError, ValueError) as exc:
            raise ValueError("timestamp out of range") from exc
    if not isinstance(value, str) or not value.strip() or len(value) > 100:
        raise ValueError("not a date")
    text = value.strip()
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        parsed = _parse_relative(text, zone, now)
    # A wall time stays naive: read in a zone, one that does not exist (a DST gap) or repeats
    # is resolved by zoneinfo's fold=0.
    return parsed


def _parse_relative(text: str, zone: tzinfo, now: datetime | None) -> datetime:
    base = (now or datetime.now(UTC)).astimezone(zone).replace(tzinfo=None)
    day = _DAY_WORDS.match(text)
    if day:
        word = day.group(1).lower()
        shift = {"today": 0, "midnight": 0, "tomorrow": 1, "yesterday": -1}[word]
        return (base + timedelta(days=shift)).replace(hour=0, minute=0, second=0, microsecond=0)
    # Imported at the first such date: it and its language data cost a process's start
    # (every command and server) more than most of them ever parse.
    import dateparser

    parsed = dateparser.parse(
        text, languages=["en"], settings={**_DATEPARSER_SETTINGS, "RELATIVE_BASE": base}
    )
    if parsed is None:
        raise ValueError(f"unparsable date {text!r}")
    return parsed.replace(microsecond=0)


def in_zone(moment: datetime, zone: tzinfo) -> datetime:
    return moment if moment.tzinfo is zone else moment.astimezone(zone)


def door_time(moment: datetime, zone: tzinfo, now: datetime | None = None) -> str:
    """A moment as a person at the door reads it (a check-in): in `zone`, the time alone
    ("19:42") on the same day, else with its day ("2026-11-28 19:42")."""
    local = in_zone(moment, zone)
    today = in_zone(now or datetime.now(UTC), zone).date() == local.date()
    return local.strftime("%H:%M" if today else "%Y-%m-%d %H:%M")


def format_datetime(moment: datetime, zone: tzinfo | None = None) -> str:
    """`Y-m-d H:i:s` of `moment` (in `zone` when given, else as it is)."""
    if zone is not None:
        moment = in_zone(moment, zone)
    # isoformat is implemented in C: several times faster than strftime or an f-string, and
    # this runs for every date field of every record. Years are zero-padded to four digits.
    return moment.isoformat(" ")[:19]


def date_details(moment: datetime) -> dict[str, str]:
    """The reference's `*_details`: zero-padded strings."""
    return details_of(format_datetime(moment))


def details_of(text: str) -> dict[str, str]:
    """`*_details` of a `Y-m-d H:i:s` string (see format_datetime)."""
    return {
        "year": text[0:4],
        "month": text[5:7],
        "day": text[8:10],
        "hour": text[11:13],
        "minutes": text[14:16],
        "seconds": text[17:19],
    }
