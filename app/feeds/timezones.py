"""VTIMEZONE components from the zone database, the way RFC 5545 reads them.

Each observance's DTSTART is the local time *before* its change (the onset is DTSTART minus
TZOFFSETFROM, RFC 5545 §3.6.5): spring in Berlin starts at 02:00, as the zone database and
every published VTIMEZONE write it. (icalendar's `Timezone.from_tzinfo` writes the first
local time after the change, 03:00, which puts the onset an hour late.)

A zone is described for whole calendar years around the events that use it, so that its
text depends only on those years and is built once per zone and span.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache

from icalendar import Timezone, TimezoneDaylight, TimezoneStandard

from app.core.rules.dates import parse_zone

DAY = timedelta(days=1)
SECOND = timedelta(seconds=1)


@dataclass(frozen=True, slots=True)
class State:
    """What a zone says at an instant."""

    offset: timedelta
    dst: bool
    name: str

    @classmethod
    def at(cls, zone: tzinfo, instant: datetime) -> "State":
        local = instant.astimezone(zone)
        offset = local.utcoffset() or timedelta()
        return cls(offset, bool(local.dst()), local.tzname() or _offset_name(offset))


def _offset_name(offset: timedelta) -> str:
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"


def _change(zone: tzinfo, before: datetime, after: datetime) -> datetime:
    """The first second in (before, after] with the state of `after` (bisection)."""
    target = State.at(zone, after)
    while after - before > SECOND:
        middle = before + (after - before) / 2
        middle = middle.replace(microsecond=0)
        if State.at(zone, middle) == target:
            after = middle
        else:
            before = middle
    return after


def transitions(
    zone: tzinfo, first: datetime, last: datetime
) -> list[tuple[datetime, State, State]]:
    """(instant, state before, state after) of every change in [first, last], found day by
    day (zones change at most a few times a year) and bisected to the second."""
    found = []
    moment, state = first, State.at(zone, first)
    while moment < last:
        following = min(moment + DAY, last)
        next_state = State.at(zone, following)
        if next_state != state:
            instant = _change(zone, moment, following)
            found.append((instant, state, next_state))
        moment, state = following, next_state
    return found


def _observance(
    start: datetime, before: State, after: State
) -> TimezoneStandard | TimezoneDaylight:
    part = TimezoneDaylight() if after.dst else TimezoneStandard()
    part.add("dtstart", (start + before.offset).replace(tzinfo=None))
    part.add("tzoffsetfrom", before.offset)
    part.add("tzoffsetto", after.offset)
    part.add("tzname", after.name)
    return part


@lru_cache(maxsize=512)
def vtimezone(name: str, first_year: int, last_year: int) -> bytes:
    """The VTIMEZONE of the zone `name` (as events store it) for those years, serialised."""
    zone = parse_zone(name)
    first = datetime(first_year, 1, 1, tzinfo=UTC)
    last = datetime(last_year + 1, 1, 1, tzinfo=UTC)
    component = Timezone()
    component.add("tzid", name)
    initial = State.at(zone, first)
    component.add_component(_observance(first, initial, initial))
    for instant, before, after in transitions(zone, first, last):
        component.add_component(_observance(instant, before, after))
    return bytes(component.to_ical())


def zone_component(name: str, instants: list[datetime]) -> Timezone:
    """The VTIMEZONE of `name` covering the whole years of `instants` (within years 2 to
    9998: a zone's offset moves the extreme instants out of Python's calendar)."""
    years = [moment.year for moment in instants]
    first, last = max(min(years), 2), min(max(years), 9998)
    parsed = Timezone.from_ical(vtimezone(name, first, last))
    assert isinstance(parsed, Timezone)
    return parsed
