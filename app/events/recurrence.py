"""Recurrence rules: RFC 5545 `RRULE`, `RDATE` and `EXDATE` lines (as Google Calendar takes
them) read, checked and expanded into the start times of a series' occurrences.

Rules run in the event's time zone on wall-clock times, so a 19:00 class stays at 19:00 on
both sides of a DST change; dateutil's `rrule` does the expansion. The series' own start is
always its first occurrence (RFC 5545: DTSTART is the first instance), unless an `EXDATE`
removes it.

Every expansion is bounded (docs/design.md#limits): a rule gives at most MAX_DATES_PER_DAY
dates a day and steps by at most MAX_INTERVAL periods, and dateutil never walks a rule more
than WALK_YEARS past the series' start or this year (app/events/rule_walk.py), so one rule
costs a request milliseconds, whatever it says.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, tzinfo
from heapq import merge
from itertools import islice

from dateutil.rrule import rrule, rrulestr

from app.core.errors import InvalidParams, note
from app.core.rules.dates import ZoneError, parse_zone
from app.events.rule_walk import Walk

FIELD = "recurrence"
MAX_LINES = 50
MAX_RULES = 5  # RRULE lines
MAX_LINE_LENGTH = 2000
MAX_DATES_PER_LINE = 1000
# A rule checked for emptiness looks this many years ahead of the series' start for its first
# date (an hourly one, one year: it may have 24 candidates a day to look through).
LOOKAHEAD_YEARS = 10
HOURLY_LOOKAHEAD_YEARS = 1
# Expanding a series looks this many years past its start, or past this year for a series that
# started long ago: the stored dates reach two years ahead (the horizon), and a rule with no
# date for decades after that is walked no further (the series is then not marked complete).
WALK_YEARS = 50
# At most this many dates a day (BYHOUR x BYMINUTE x BYSECOND, hourly: 24 / INTERVAL at most):
# FREQ=HOURLY's pace. A rule listing every second of a day gave 86,400 candidates a day for
# dateutil to build, a minute of CPU for one request (issue 40).
MAX_DATES_PER_DAY = 24
# RFC 5545 wants a positive INTERVAL; 0 never advances (dateutil loops forever). The upper
# bound keeps dateutil's date arithmetic (DAILY: one month at a time) short.
MAX_INTERVAL = 1000
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
_TIME_PARTS = ("BYHOUR", "BYMINUTE", "BYSECOND")
# BYDAY's numbered weekdays ("2TU", "-1FR") count within a month or a year (RFC 5545 3.3.10),
# so only MONTHLY (up to 5) and YEARLY (up to 53, not with BYWEEKNO) rules take them;
# dateutil fails on the others.
_WEEKDAY = re.compile(r"^([+-]?[0-9]{1,2})?(MO|TU|WE|TH|FR|SA|SU)$")
_NUMBERED_WEEKDAYS = {"MONTHLY": 5, "YEARLY": 53}


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
    walk_to: int  # the last year a rule is walked through (WALK_YEARS)

    def starts(self) -> Iterator[datetime]:
        """Local wall times of every occurrence in order, up to the end of `walk_to`."""
        return self._starts([Walk(rule, self.walk_to) for rule in self.rules])

    def _walks(self, until: datetime) -> list[Walk]:
        last_year = max(self.walk_to, until.year + 1)
        return [Walk(rule, last_year) for rule in self.rules]

    def _starts(self, walks: list[Walk]) -> Iterator[datetime]:
        zone = self.start.tzinfo
        streams: list[Iterator[datetime]] = [iter(walk) for walk in walks]
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

    def stored(self, until: datetime, cap: int) -> tuple[list[datetime], bool]:
        """The local start times a series stores, up to `until` (a local wall time) and at
        most `cap` of them, the first one always (a series that starts beyond the horizon is
        still there); and whether they are every date the series will ever store: its first
        `cap` dates (all of them, when the rules end sooner) are all up to `until`, and no
        rule was cut short by the walk's bound. One walk gives both."""
        walks = self._walks(until)
        starts = list(islice(self._starts(walks), cap))
        complete = all(start <= until for start in starts) and (
            len(starts) == cap or not any(walk.truncated for walk in walks)
        )
        return starts[:1] + [start for start in starts[1:] if start <= until], complete

    def expand(self, until: datetime, cap: int) -> list[datetime]:
        """The local start times a series stores (`stored`'s first half)."""
        return self.stored(until, cap)[0]


# `dates_until` of a series whose every date is stored (its rules end, or the cap is met).
SERIES_COMPLETE = datetime(9999, 12, 31, tzinfo=UTC)


def _instant(local: datetime, zone: tzinfo | None) -> datetime:
    return local.replace(tzinfo=zone).astimezone(UTC)


def parse_recurrence(lines: list[str], start_local: datetime, zone_name: str) -> Recurrence:
    """The rules of `lines` for a series starting at `start_local` in `zone_name`; a 400
    naming the line when one cannot be read, is more frequent than hourly or denser than
    MAX_DATES_PER_DAY, never advances, or yields nothing."""
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
    walk_to = max(start.year, datetime.now(UTC).year) + WALK_YEARS
    recurrence = Recurrence(
        tuple(lines), start, tuple(rules), tuple(dates), frozenset(excluded), walk_to
    )
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
        hourly = frequency.group(1).upper() == "HOURLY"
        ahead = start.year + (HOURLY_LOOKAHEAD_YEARS if hourly else LOOKAHEAD_YEARS)
        first = Walk(rule, ahead).first_after(start)
    except (ValueError, TypeError, OverflowError, IndexError):
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
    if "COUNT" in parts and "UNTIL" in parts:  # RFC 5545: one or the other
        raise _problem("recurrence_bad_line", line=line[:200])
    _check_pace(line, parts, frequency)
    _check_weekdays(line, parts.get("BYDAY"), "WEEKLY" if "BYWEEKNO" in parts else frequency)
    try:
        months = [int(m) for m in parts["BYMONTH"].split(",")] if "BYMONTH" in parts else []
        days = [int(d) for d in parts["BYMONTHDAY"].split(",")] if "BYMONTHDAY" in parts else []
    except ValueError:
        raise _problem("recurrence_bad_line", line=line[:200]) from None
    if days and not any(
        abs(day) <= _LONGEST_MONTH.get(month, 0) for day in days for month in months or range(1, 13)
    ):
        raise _problem("recurrence_empty_rule", line=line[:200])


def _check_pace(line: str, parts: dict[str, str], frequency: str) -> None:
    """A rule advances (INTERVAL 1 to MAX_INTERVAL) and gives at most MAX_DATES_PER_DAY
    dates a day: what dateutil builds for each period stays small."""
    try:
        interval = int(parts.get("INTERVAL", "1"))
        per_day = 1
        for name in _TIME_PARTS:
            if name in parts:
                per_day *= len({int(item) for item in parts[name].split(",")})
    except ValueError:
        raise _problem("recurrence_bad_line", line=line[:200]) from None
    if not 1 <= interval <= MAX_INTERVAL:
        raise _problem("recurrence_bad_interval", line=line[:200], max=MAX_INTERVAL)
    if frequency == "HOURLY" and "BYHOUR" not in parts:
        per_day *= -(-24 // interval)  # one date an hour (or every INTERVAL hours) at most
    if per_day > MAX_DATES_PER_DAY:
        raise _problem("recurrence_too_dense", line=line[:200], max=MAX_DATES_PER_DAY)


def _check_weekdays(line: str, days: str | None, frequency: str) -> None:
    for day in (days or "").upper().split(",") if days is not None else ():
        match = _WEEKDAY.match(day.strip())
        if match is None:
            raise _problem("recurrence_bad_line", line=line[:200])
        if match.group(1) is not None:
            number = abs(int(match.group(1)))
            if not 1 <= number <= _NUMBERED_WEEKDAYS.get(frequency, 0):
                raise _problem("recurrence_bad_line", line=line[:200])


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
