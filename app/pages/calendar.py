"""Laying events out on days: the list grouped by day, the month grid (weeks of seven days
from the chosen first weekday; the days' events and totals are read per day, a multi-day
event on each of its days: app/events/repository/day_query.py), and a series' rule in
words."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from app.pages.content import ListedEvent

Body = dict[str, Any]
CELL_LIMIT = 4  # events shown in a month cell before "+N more"
# Events read per day: a day with one more than the limit shows them all (a "+1 more" would
# take a title's place).
DAY_READ = CELL_LIMIT + 1
# A day of the grid as read: (day, how many events, its first `DAY_READ` events).
DayRead = tuple[date, int, list[Body]]


def by_day(
    events: list[ListedEvent], since: date | None = None
) -> list[tuple[date, list[ListedEvent]]]:
    """The list view's groups: each event under its first day, in its own zone (or
    `since`, when it began before and is still on)."""
    groups: dict[date, list[ListedEvent]] = defaultdict(list)
    for event in events:
        day = event.record.start_local.date()
        groups[max(day, since) if since else day].append(event)
    return sorted(groups.items())


@dataclass
class Cell:
    day: date
    in_month: bool
    today: bool
    events: list[Body] = field(default_factory=list)  # the first ones, in list order
    total: int = 0

    @property
    def shown(self) -> list[Body]:
        return self.events[:CELL_LIMIT] if self.total > DAY_READ else self.events

    @property
    def more(self) -> int:
        return self.total - len(self.shown)


def month_bounds(month: date, first_weekday: int) -> tuple[date, date]:
    """The first and last day of the grid showing `month` (whole weeks)."""
    first = month.replace(day=1)
    start = first - timedelta(days=(first.weekday() - first_weekday) % 7)
    next_month = (first + timedelta(days=32)).replace(day=1)
    last = next_month - timedelta(days=1)
    end = last + timedelta(days=(first_weekday + 6 - last.weekday()) % 7)
    return start, end


def month_grid(
    month: date, first_weekday: int, days: list[DayRead], today: date
) -> list[list[Cell]]:
    """The grid's weeks, each day with the events read for it and its total."""
    start, end = month_bounds(month, first_weekday)
    grid = [start + timedelta(days=n) for n in range((end - start).days + 1)]
    cells = {day: Cell(day, day.month == month.month, day == today) for day in grid}
    for day, total, events in days:
        if day in cells:
            cells[day].events, cells[day].total = events, total
    return [[cells[day] for day in grid[i : i + 7]] for i in range(0, len(grid), 7)]


def add_months(month: date, count: int) -> date:
    index = month.year * 12 + month.month - 1 + count
    return date(index // 12, index % 12 + 1, 1)


def rule_parts(recurrence: list[str]) -> dict[str, str] | None:
    """The first RRULE's parts (FREQ, INTERVAL, BYDAY, UNTIL, COUNT), or None."""
    for line in recurrence:
        name, _, value = line.partition(":")
        if name.upper().startswith("RRULE"):
            parts = dict(part.partition("=")[::2] for part in value.split(";") if "=" in part)
            return {key.upper(): val for key, val in parts.items()}
    return None


WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def rule_until(parts: dict[str, str]) -> date | None:
    value = parts.get("UNTIL")
    if not value:
        return None
    try:
        return datetime.strptime(value[:8], "%Y%m%d").date()
    except ValueError:
        return None


def rule_weekdays(parts: dict[str, str]) -> list[int]:
    days = [code.strip()[-2:].upper() for code in parts.get("BYDAY", "").split(",") if code]
    return [WEEKDAY_CODES.index(code) for code in days if code in WEEKDAY_CODES]
