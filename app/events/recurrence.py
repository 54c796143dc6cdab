"""Recurrence rules: RFC 5545 `RRULE`, `RDATE` and `EXDATE` lines (as Google Calendar takes
them) read, checked and expanded into the start times of a series' occurrences.

Rules run in the event's time zone on wall-clock times, so a 19:00 class stays at 19:00 on
both sides of a DST change; dateutil's `rrule` does the expansion. The series' own start is
always its first occurrence (RFC 5545: DTSTART is the first instance), unless an `EXDATE`
removes it.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from heapq import merge
from itertools import islice

from dateutil.rrule import rrule, rrulestr

from app.core.edge.errors import InvalidParams, note
from app.core.rules.dates import ZoneError, parse_zone

FIELD = "recurrence"
MAX_LINES = 50
MAX_RULES = 5  # RRULE lines
MAX_LINE_LENGTH = 2000
MAX_DATES_PER_LINE = 1000
# A rule checked for emptiness looks this far ahead of the series' start: an impossible rule
# such as "every 30 February" would otherwise be walked to the year 9999 (an hourly one
# hour by hour, hence its shorter look).
LOOKAHEAD = timedelta(days=366 * 10)
HOURLY_LOOKAHEAD = timedelta(days=366)
FREQUENCIES = ("YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY")
LINE = re.compile(r"^(RRULE|RDATE|EXDATE)((?:;[A-Z-]+=[^;:]*)*):(.+)$", re.IGNORECASE)
UNTIL_PART = re.compile(r"(?i)(?<![A-Z])UNTIL=([0-9]{8}(?:T[0-9]{6}Z?)?)")
_STAMP = re.compile(r"^([0-9]{8})(?:T([0-9]{6})(Z?))?$")
_FREQ = re.compile(r"(?i)(?<![A-Z])FREQ=([A-Z]+)")
# BYxxx parts refused with some frequencies (RFC 5545 3.3.10, and BYSETPOS below a week,
# where a period holds one candidate at most in practice).
_NOT_WITH: dict[str, tuple[str, ...]] = {
    "BYMONTHDAY": ("WEEKLY",),
    "BYYEARDAY": ("MONTHLY", "WEEKLY", "DAILY", "HOURLY"),
    "BYWEEKNO": ("MONTHLY", "WEEKLY", "DAILY", "HOURLY"),
    "BYSETPOS": ("DAILY", "HOURLY"),
}
_LONGEST_MONTH = {
    1: 31,
    2: 29,
    3: 31,
    4: 30,
    5: 31,
    6: 30,
    7: 31,
    8: 31,
    9: 30,
    10: 31,
    11: 30,
    12: 31,
}
_BOUNDED = re.compile(r"(?i)(?<![A-Z])(UNTIL|COUNT)=")


def _problem(key: str, **values: object) -> InvalidParams:
    return InvalidParams({FIELD: note(key, name=FIELD, **values)})


@dataclass(frozen=True, slots=True)
class Recurrence:
    """A series' rules, read: expand() gives its occurrences' local start times."""

    lines: tuple[str, ...]
    start: datetime  # the series' start, aware, in its zone
    rules: tuple[rrule, ...]
    dates: tuple[datetime, ...]  # RDATE, aware
    excluded: frozenset[datetime]  # EXDATE, as UTC instants

    def starts(self) -> Iterator[datetime]:
        """Local wall times of every occurrence in order (endless for an endless rule)."""
        zone = self.start.tzinfo
        streams = [iter(rule) for rule in self.rules]
        streams.append(iter(sorted({self.start, *self.dates})))
        last: datetime | None = None
        for moment in merge(*streams):
            local = moment.astimezone(zone).replace(tzinfo=None)
            if local == last or _instant(local, zone) in self.excluded:
                continue
            if local < self.start.replace(tzinfo=None):
                continue  # an RDATE before the start: not part of the series
            last = local
            yield local

    def complete(self, until: datetime, cap: int) -> bool:
        """Whether expand(until, cap) stores every date the series will ever store: its
        first `cap` dates (all of them, when the rules end sooner) are all up to `until`."""
        return all(start <= until for start in islice(self.starts(), cap))

    def expand(self, until: datetime, cap: int) -> list[datetime]:
        """Local start times up to `until` (a local wall time), at most `cap` of them; the
        first one always (a series that starts beyond the horizon is still there)."""
        starts = list(islice(self.starts(), cap))
        return starts[:1] + [start for start in starts[1:] if start <= until]


# `dates_until` of a series whose every date is stored (its rules end, or the cap is met).
SERIES_COMPLETE = datetime(9999, 12, 31, tzinfo=UTC)


def _instant(local: datetime, zone: tzinfo | None) -> datetime:
    return local.replace(tzinfo=zone).astimezone(UTC)


def parse_recurrence(lines: list[str], start_local: datetime, zone_name: str) -> Recurrence:
    """The rules of `lines` for a series starting at `start_local` in `zone_name`; a 400
    naming the line when one cannot be read, is more frequent than hourly, or yields
    nothing."""
    if len(lines) > MAX_LINES:
        raise _problem("recurrence_too_many", max=MAX_LINES)
    zone = parse_zone(zone_name)
    start = start_local.replace(tzinfo=zone)
    rules: list[rrule] = []
    dates: list[datetime] = []
    excluded: set[datetime] = set()
    for line in lines:
        text = line.strip()
        match = LINE.match(text) if len(text) <= MAX_LINE_LENGTH else None
        if match is None:
            raise _problem("recurrence_bad_line", line=text[:200])
        name, params, value = match.group(1).upper(), match.group(2), match.group(3)
        if name == "RRULE":
            if len(rules) == MAX_RULES:
                raise _problem("recurrence_too_many_rules", max=MAX_RULES)
            rules.append(_rule(text, value, start, zone))
            continue
        moments = _dates(text, params, value, start, zone)
        if name == "RDATE":
            dates.extend(moments)
        else:
            excluded.update(moment.astimezone(UTC) for moment in moments)
    recurrence = Recurrence(tuple(lines), start, tuple(rules), tuple(dates), frozenset(excluded))
    if next(recurrence.starts(), None) is None:
        raise _problem("recurrence_empty")
    return recurrence


def _rule(line: str, value: str, start: datetime, zone: tzinfo) -> rrule:
    frequency = _FREQ.search(value)
    if frequency is None or frequency.group(1).upper() not in FREQUENCIES:
        if frequency is not None and frequency.group(1).upper() in ("MINUTELY", "SECONDLY"):
            raise _problem("recurrence_too_frequent", line=line[:200])
        raise _problem("recurrence_bad_line", line=line[:200])
    _check_parts(line, value, frequency.group(1).upper())
    # RFC 5545 wants UNTIL in UTC when the start has a zone; a date or a local time is read
    # in the event's zone instead of being refused (a date: up to the end of that day).
    value = UNTIL_PART.sub(lambda m: "UNTIL=" + until_utc(m.group(1), zone), value)
    try:
        rule = rrulestr(value, dtstart=start)
        if not isinstance(rule, rrule):
            raise ValueError(value)
        ahead = start + (HOURLY_LOOKAHEAD if frequency.group(1).upper() == "HOURLY" else LOOKAHEAD)
        bounded = rule if _BOUNDED.search(value) else rule.replace(until=ahead)
        first = bounded.after(start, inc=True)
    except (ValueError, TypeError, OverflowError):
        raise _problem("recurrence_bad_line", line=line[:200]) from None
    if first is None:
        raise _problem("recurrence_empty_rule", line=line[:200])
    return rule


def _check_parts(line: str, value: str, frequency: str) -> None:
    """RFC 5545's table of which BYxxx parts go with which FREQ, and months that have the
    asked days: a rule that breaks them yields nothing, and dateutil would look for its
    first date until the year 9999 (minutes, for an hourly one)."""
    parts = {key.upper(): item for key, _, item in (p.partition("=") for p in value.split(";"))}
    if any(name in parts and frequency in refused for name, refused in _NOT_WITH.items()):
        raise _problem("recurrence_bad_line", line=line[:200])
    try:
        months = [int(m) for m in parts["BYMONTH"].split(",")] if "BYMONTH" in parts else []
        days = [int(d) for d in parts["BYMONTHDAY"].split(",")] if "BYMONTHDAY" in parts else []
    except ValueError:
        raise _problem("recurrence_bad_line", line=line[:200]) from None
    if days and not any(
        abs(day) <= _LONGEST_MONTH.get(month, 0) for day in days for month in months or range(1, 13)
    ):
        raise _problem("recurrence_empty_rule", line=line[:200])


def until_utc(stamp: str, zone: tzinfo) -> str:
    match = _STAMP.match(stamp)
    assert match is not None  # the pattern only finds such stamps
    day, clock, utc = match.groups()
    if utc:
        return stamp
    wall = datetime.combine(_day(day), _clock(clock) if clock else time(23, 59, 59))
    return wall.replace(tzinfo=zone).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _day(text: str) -> date:
    return date(int(text[:4]), int(text[4:6]), int(text[6:8]))


def _clock(text: str) -> time:
    return time(int(text[:2]), int(text[2:4]), int(text[4:6]))


def _dates(line: str, params: str, value: str, start: datetime, zone: tzinfo) -> list[datetime]:
    """The moments of an RDATE/EXDATE line: UTC (`Z`), in its `TZID`, else in the event's
    zone; a date alone (VALUE=DATE) means the series' start time on that day."""
    names = dict(
        part.split("=", 1) for part in params.split(";") if part and "=" in part
    )  # e.g. {"TZID": "Europe/Berlin", "VALUE": "DATE"}
    names = {key.upper(): item for key, item in names.items()}
    if set(names) - {"TZID", "VALUE"}:
        raise _problem("recurrence_bad_line", line=line[:200])
    own = zone
    if "TZID" in names:
        try:
            own = parse_zone(names["TZID"].strip('"'))
        except ZoneError:
            raise _problem("recurrence_bad_line", line=line[:200]) from None
    items = value.split(",")
    if len(items) > MAX_DATES_PER_LINE:
        raise _problem("recurrence_too_many", max=MAX_DATES_PER_LINE)
    moments = []
    for item in items:
        match = _STAMP.match(item.strip())
        try:
            if match is None:
                raise ValueError(item)
            day, clock, utc = match.groups()
            if clock is None:
                moments.append(datetime.combine(_day(day), start.timetz().replace(tzinfo=zone)))
                continue
            wall = datetime.combine(_day(day), _clock(clock))
            moments.append(wall.replace(tzinfo=UTC if utc else own).astimezone(zone))
        except ValueError:
            raise _problem("recurrence_bad_line", line=line[:200]) from None
    return moments
