"""When an event happens: its dates read in its time zone, all-day days, and the columns
they stand for (instants and local wall times)."""

from datetime import UTC, datetime, time, tzinfo
from typing import Any
from urllib.parse import urlsplit

from app.core.edge.errors import invalid, note
from app.core.rules.constants import END_OF_DAY
from app.core.rules.dates import ZoneError, parse_when, parse_zone, zone_abbreviation
from app.events.params import EventWriteParams
from app.events.records import Schedule
from app.http.params import check


def _zone(name: str) -> tzinfo:
    try:
        return parse_zone(name)
    except ZoneError:
        raise invalid("timezone", note("bad_timezone", name="timezone")) from None


def _when(name: str, value: Any, zone: tzinfo) -> datetime:
    try:
        return parse_when(value, zone)
    except ValueError:
        raise invalid(name, note("bad_date", name=name)) from None


def schedule(
    params: EventWriteParams, site_timezone: str, current: Schedule | None = None
) -> Schedule | None:
    """The new schedule from the payload (None when nothing about it was sent).

    Dates are read in the event's time zone (the payload's, else the current one, else the
    site's); a date with an offset is converted to it. All-day events span whole days.
    """
    sent = (params.start_date, params.end_date, params.timezone, params.all_day)
    if current is not None and all(value is None for value in sent):
        return None
    zone_name = (params.timezone or "").strip() or (current.timezone if current else site_timezone)
    zone = _zone(zone_name)
    start = (
        _when("start_date", params.start_date, zone).astimezone(zone).replace(tzinfo=None)
        if params.start_date is not None
        else current.start_local  # type: ignore[union-attr]
    )
    end = (
        _when("end_date", params.end_date, zone).astimezone(zone).replace(tzinfo=None)
        if params.end_date is not None
        else current.end_local  # type: ignore[union-attr]
    )
    all_day = params.all_day if params.all_day is not None else bool(current and current.all_day)
    if all_day:
        start = datetime.combine(start.date(), time.min)
        end = datetime.combine(end.date(), END_OF_DAY)
    start, end = start.replace(microsecond=0), end.replace(microsecond=0)
    why = note("end_before_start", start=start.isoformat(" "), end=end.isoformat(" "))
    check("end_date", end >= start, why)
    start_at = start.replace(tzinfo=zone).astimezone(UTC)
    end_at = end.replace(tzinfo=zone).astimezone(UTC)
    return Schedule(
        start_at=start_at,
        end_at=end_at,
        start_local=start,
        end_local=end,
        timezone=zone_name,
        timezone_abbr=zone_abbreviation(zone_name, zone, start_at),
        all_day=all_day,
    )


def valid_website(value: str) -> bool:
    if value == "":
        return True
    parts = urlsplit(value.strip())
    return parts.scheme in ("http", "https") and bool(parts.netloc) and " " not in value.strip()
