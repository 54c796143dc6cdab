"""The week view's layout: seven days from the language's first weekday (`WEEK_START`
overrides), read as the month grid reads its days (each day's first events and how many it
has, app/events/repository/day_query.py), then laid out for week.html:

- all-day and multi-day events in a band above the days, each spanning the columns of its
  days in the week, stacked in as few rows as they fit;
- timed events of one day on that day's time grid, rows of `SLOT_MINUTES` from the earliest
  hour shown, side by side where they overlap.

The template places them by custom properties (grid lines) alone: no script. On a phone the
stylesheet turns the same markup into a list of the seven days."""

from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from typing import Any

from app.core.settings import Settings
from app.events.query import EventQuery
from app.pages.calendar import DayRead
from app.pages.content import Content
from app.pages.views import Search, today

Body = dict[str, Any]
# Events read per day: the day view has them all ("+N more" links there). A week shows at
# most 70 events: the page stays small whatever the week holds.
WEEK_PER_DAY = 10
SLOT_MINUTES = 15  # the time grid's rows
# The shortest box on the grid (two rows): a link at least 24 px high (WCAG 2.2's target
# size, almanac.css's `--week-slot`).
MIN_SLOTS = 2
# The hours the grid always shows (a day's working hours); earlier or later events widen it.
FIRST_HOUR, LAST_HOUR = 8, 18
MINUTES_PER_DAY = 24 * 60


def week_bounds(day: date, first_weekday: int) -> tuple[date, date]:
    """The first and last day of the week holding `day` (0 Monday ... 6 Sunday first)."""
    first = day - timedelta(days=(day.weekday() - first_weekday) % 7)
    return first, first + timedelta(days=6)


def _moments(event: Body) -> tuple[datetime, datetime]:
    return datetime.fromisoformat(event["start_date"]), datetime.fromisoformat(event["end_date"])


def last_day(start: datetime, end: datetime) -> date:
    """The last day an event covers: an end at midnight does not reach that day (as the
    month grid lays them out)."""
    if end.time() == time.min and end.date() > start.date():
        return end.date() - timedelta(days=1)
    return end.date()


def in_band(event: Body) -> bool:
    """All-day events and those that run over more than one day go in the band."""
    start, end = _moments(event)
    return bool(event.get("all_day")) or last_day(start, end) > start.date()


@dataclass(frozen=True, slots=True)
class Banded:
    """An event of the band: its columns (1 to 7, `last` the line after its last day), its
    row, and whether it begins before the week or ends after it."""

    event: Body
    first: int
    last: int
    row: int
    before: bool
    after: bool


@dataclass(frozen=True, slots=True)
class Timed:
    """A timed event on its day's grid: rows `first` to `last` (grid lines), its column
    `lane` spanning `span` columns."""

    event: Body
    first: int
    last: int
    lane: int
    span: int


@dataclass
class WeekDay:
    day: date
    today: bool
    banded: list[Body] = field(default_factory=list)  # the phone's list of the day
    timed: list[Timed] = field(default_factory=list)
    lanes: int = 1
    more: int = 0  # events of the day not read (the day view has them)


@dataclass
class Week:
    first: date
    last: date
    days: list[WeekDay]
    band: list[Banded]
    band_rows: int
    first_hour: int
    last_hour: int

    @property
    def hours(self) -> list[time]:
        return [time(hour) for hour in range(self.first_hour, self.last_hour)]

    @property
    def rows(self) -> int:
        return (self.last_hour - self.first_hour) * 60 // SLOT_MINUTES


def _minutes(start: datetime, end: datetime) -> tuple[int, int]:
    """A one-day event's start and end in minutes of its day (an end at midnight: 24:00),
    at least `MIN_SLOTS` long."""
    begin = start.hour * 60 + start.minute
    finish = MINUTES_PER_DAY if end.date() > start.date() else end.hour * 60 + end.minute
    shortest = SLOT_MINUTES * MIN_SLOTS
    # Late in the day the box keeps its size within the day (its times say when it is).
    return min(begin, MINUTES_PER_DAY - shortest), min(
        max(finish, begin + shortest), MINUTES_PER_DAY
    )


def _hours(timed: list[Body]) -> tuple[int, int]:
    """The hours the grid shows: the working hours, widened to every event's."""
    first, last = FIRST_HOUR, LAST_HOUR
    for event in timed:
        begin, finish = _minutes(*_moments(event))
        first = min(first, begin // 60)
        last = max(last, min(24, -(-finish // 60)))
    return first, last


def _lanes(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping spans (start, end; sorted by start) side by side: for each its lane
    (from 1) and its group's number of lanes. A group is a run of spans that overlap one
    another in a chain."""
    placed: list[tuple[int, int]] = []  # (lane, group)
    sizes: list[int] = []
    lane_ends: list[int] = []
    group_end = -1
    for begin, end in spans:
        if begin >= group_end:  # a new group: nothing before it is still on
            sizes.append(0)
            lane_ends = []
        lane = next((n for n, free in enumerate(lane_ends) if free <= begin), len(lane_ends))
        if lane == len(lane_ends):
            lane_ends.append(end)
        else:
            lane_ends[lane] = end
        group_end = max(group_end, end)
        sizes[-1] = max(sizes[-1], lane + 1)
        placed.append((lane + 1, len(sizes) - 1))
    return [(lane, sizes[group]) for lane, group in placed]


def _timed(events: list[Body], first_hour: int) -> tuple[list[Timed], int]:
    """A day's timed events on its grid, and its number of lanes: an event in its group's
    last lane stretches over the lanes its group does not use."""
    offset = first_hour * 60
    rows = []
    for event in events:
        begin, finish = _minutes(*_moments(event))
        first = (begin - offset) // SLOT_MINUTES + 1
        last = -(-(finish - offset) // SLOT_MINUTES) + 1
        rows.append((first, last))
    lanes = _lanes(rows)
    width = max((size for _, size in lanes), default=1)
    placed = [
        Timed(event, first, last, lane, width - size + 1 if lane == size else 1)
        for event, (first, last), (lane, size) in zip(events, rows, lanes, strict=True)
    ]
    return placed, width


def _band(events: list[Body], first: date, last: date) -> tuple[list[Banded], int]:
    """The band's events over the week's columns, each in the first row where it fits
    (longest first among those starting the same day)."""
    spans = []
    for event in events:
        start, end = _moments(event)
        begin = max(start.date(), first)
        finish = min(last_day(start, end), last)
        spans.append((event, (begin - first).days + 1, (finish - first).days + 2, start, end))
    spans.sort(key=lambda span: (span[1], -span[2]))
    row_ends: list[int] = []
    band = []
    for event, column, after, start, end in spans:
        row = next((n for n, free in enumerate(row_ends) if free <= column), len(row_ends))
        if row == len(row_ends):
            row_ends.append(after)
        else:
            row_ends[row] = after
        band.append(
            Banded(event, column, after, row + 1, start.date() < first, last_day(start, end) > last)
        )
    return band, len(row_ends)


def lay_out_week(first: date, days: list[DayRead], today: date) -> Week:
    """The week from `first` with each day's events as read (in the list's order)."""
    last = first + timedelta(days=6)
    shown = {day: WeekDay(day, day == today) for day in (first + timedelta(n) for n in range(7))}
    banded: dict[tuple[Any, str], Body] = {}
    timed: dict[date, list[Body]] = {}
    for day, total, events in days:
        if day not in shown:
            continue
        shown[day].more = total - len(events)
        for event in events:
            if in_band(event):
                shown[day].banded.append(event)
                # A multi-day event is read on each of its days: one bar.
                banded.setdefault((event["id"], event["start_date"]), event)
            else:
                timed.setdefault(day, []).append(event)
    first_hour, last_hour = _hours([event for events in timed.values() for event in events])
    for day, events in timed.items():
        shown[day].timed, shown[day].lanes = _timed(events, first_hour)
    band, rows = _band(list(banded.values()), first, last)
    return Week(first, last, list(shown.values()), band, rows, first_hour, last_hour)


async def week_view(
    content: Content,
    settings: Settings,
    day: date,
    first_weekday: int,
    search: Search,
    scope: EventQuery,
) -> dict[str, Any]:
    """The week holding `day` under the search: its days' first events and totals in one
    read (the month grid's), laid out."""
    first, last = week_bounds(day, first_weekday)
    zone = settings.site_zone
    query = search.of(
        scope,
        ends_after=datetime.combine(first, time.min, zone),
        starts_before=datetime.combine(last + timedelta(days=1), time.min, zone),
    )
    days = await content.days(query, first, last, WEEK_PER_DAY)
    now = today(settings)
    return {
        "week": lay_out_week(first, days, now),
        "previous": first - timedelta(days=7),
        "next": first + timedelta(days=7),
        "current": first <= now <= last,
        # "This week" leaves the search's day out (it would name another week).
        "this_week": replace(search, day=None).query(),
    }
