"""When an event happens: its dates read in its time zone, all-day days, and the columns
they stand for (instants and local wall times)."""

from datetime import UTC, datetime, time, tzinfo
from urllib.parse import urlsplit

from app.core.errors import invalid, note
from app.core.rules.constants import END_OF_DAY
from app.core.rules.dates import ZoneError, parse_zone, zone_abbreviation
from app.events.commands import EventWrite
from app.events.records import Schedule
from app.http.params import check


def _zone(name: str) -> tzinfo:
    try:
        return parse_zone(name)
    except ZoneError:
        raise invalid("timezone", note("bad_timezone", name="timezone")) from None


def _local(moment: datetime, zone: tzinfo) -> datetime:
    """A wall time in `zone`: an instant read there, a wall time as it is."""
    return moment if moment.tzinfo is None else moment.astimezone(zone).replace(tzinfo=None)


def schedule(
    command: EventWrite, site_timezone: str, current: Schedule | None = None
) -> Schedule | None:
    """The new schedule from the write (None when nothing about it was sent).

    Wall times are in the event's time zone (the one sent, else the current one, else the
    site's); an instant is converted to it. All-day events span whole days.
    """
    sent = (command.start, command.end, command.timezone, command.all_day)
    if current is not None and all(value is None for value in sent):
        return None
    zone_name = (command.timezone or "").strip() or (current.timezone if current else site_timezone)
    zone = _zone(zone_name)
    start = _local(command.start, zone) if command.start is not None else current.start_local  # type: ignore[union-attr]
    end = _local(command.end, zone) if command.end is not None else current.end_local  # type: ignore[union-attr]
    all_day = command.all_day if command.all_day is not None else bool(current and current.all_day)
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
