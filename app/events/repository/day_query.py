"""The month grid's read: for each day of a range, the list's first few events on that day
and how many there are, in one statement built on the list's own query (its conditions,
visibility, filters and order: `EventListQuery`), so that a day shows its titles whatever
the size of the month.

A day's events are those whose local dates cover it (an event on each of its days; an end
at midnight does not reach the next day, as `app/pages/calendar.py` lays them out). Each
day's first events walk the list's start index from the day minus the longest duration of
any date (the duration index, migration 28a0c1d2e3f4), check the dates that cover the day
against the list's conditions and stop at the cap (`LATERAL ... LIMIT`); the counts
(day_counts.py) read the grid's dates once, from an index alone for a visitor, or for a
visitor's plain month a table of the dates' spans kept by triggers."""

from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from sqlalchemy import DateTime, Integer, Select, bindparam, func, or_, select, true
from sqlalchemy import cast as sql_cast
from sqlalchemy import literal_column as sql
from sqlalchemy.orm import aliased

from app.events.records import EventSummary
from app.events.repository.day_counts import ONE_DAY, day_counts, stored_counts
from app.events.repository.list_query import EventListQuery, StatementsByShape
from app.models import Occurrence

MAX_DAYS = 42  # six weeks: the longest month grid


@dataclass(slots=True)
class DayEvents:
    """One day of the range: its first events (the list's order) and how many it has."""

    day: date
    total: int
    events: list[EventSummary] = field(default_factory=list)


def _statement(query: EventListQuery, stored: bool) -> Select[Any]:
    # Wall times (no zone: a day is 24 hours), the number of days a constant for the
    # planner (a series of unknown length counts as a thousand rows).
    first: Any = sql_cast(bindparam("grid_first", type_=DateTime()), DateTime())
    last: Any = sql_cast(bindparam("grid_last", type_=DateTime()), DateTime())
    series = select(func.generate_series(first, last, ONE_DAY).label("day"))
    days = series.limit(sql(str(MAX_DAYS), Integer)).cte("grid_days")
    day = days.c.day
    # Each day's walk: candidates in the list's order from an index alone (for a visitor,
    # the listed dates' index holds the start and end), the dates that cover the day; only
    # those are looked up by ID and checked against the list's conditions (the grid's own
    # bounds among them: in UTC mode instants, which no such index holds).
    candidate = aliased(Occurrence, name="candidate")
    start, end = candidate.start_local, candidate.end_local
    covers = [
        start < day + ONE_DAY,
        # Nothing that started earlier than the longest date lasts reaches the day.
        start >= day - query.longest_duration(),
        or_(start >= day, end > day),
    ]
    if query.anonymous():
        covers.append(candidate.listed == true())
    # A category's, a tag's or an organizer's dates: checked on the event's ID, which the
    # listed dates' index holds, before any is looked up by ID (most of a day's are not).
    covers.extend(query.linked(candidate, probes=True))
    # The start's weekday and time of day, from the index too.
    covers.extend(query.start_conditions(candidate))
    # A subquery per candidate (an index probe), not a join: the planner would join the
    # grid's dates by hash for every day.
    listed = query.occurrences(true()).where(Occurrence.id == candidate.id).scalar_subquery()
    firsts = (
        select(candidate.id)
        .where(*covers, listed.is_(True))
        .order_by(candidate.start_local, candidate.published_at, candidate.id)
        .limit(bindparam("per_day", type_=Integer))
        .lateral("firsts")
    )
    picks = select(day, firsts.c.id).select_from(days).join(firsts, true()).cte("picks")
    counts = day_counts(query, days, first, last, stored)
    summaries = query.repo.select_summaries()
    return (
        summaries.add_columns(picks.c.day, counts.c.total)
        .join(picks, picks.c.id == Occurrence.id)
        .join(counts, counts.c.day == picks.c.day)
        .order_by(picks.c.day, *query.order(summaries))
    )


class DayQuery:
    """The first `per_day` events of each day from `first` to `last` under a list query,
    and each day's total. Days without events are left out."""

    def __init__(self, query: EventListQuery, first: date, last: date, per_day: int) -> None:
        if (last - first).days >= MAX_DAYS:
            raise ValueError(f"at most {MAX_DAYS} days")
        if query.filters.orderby != "start_date" or query.filters.descending:
            # Each day walks the start index: other orders read other tables.
            raise ValueError("days are read in start order")
        self.query = query
        self.stored = stored_counts(query, first, last)
        self.values = {
            "grid_first": datetime.combine(first, time.min),
            "grid_last": datetime.combine(last, time.min),
            "per_day": per_day,
        }

    def _built(self) -> Select[Any]:
        shape = (*self.query.shape(), self.stored)
        return _DAY_STATEMENTS.get(shape, lambda: _statement(self.query, self.stored))

    def statement(self) -> Select[Any]:
        """The statement with its values (e.g. to EXPLAIN it)."""
        return self._built().params(**self.query.parameters(), **self.values)

    async def days(self) -> list[DayEvents]:
        # No plan choice for a search (the list's `_choose_plan`): days walk in start order.
        values = {**self.query.parameters(), **self.values}
        connection = await self.query.repo.session.connection()
        result = await connection.execute(self._built(), values)
        days: dict[date, DayEvents] = {}
        for row in result:
            *columns, day, total = row
            moment = day.date()
            entry = days.get(moment) or days.setdefault(moment, DayEvents(moment, int(total)))
            entry.events.append(EventSummary(*columns))
        return list(days.values())


_DAY_STATEMENTS: StatementsByShape[Select[Any]] = StatementsByShape()
