"""How many events each day of a month grid has (day_query.py): the list's dates grouped by
their first and last local day (a few hundred groups a month), each group added to the days
between.

A visitor's plain month (no filter but a window around the grid and the days of the week)
reads the groups from `listed_spans`, kept by triggers (migration 4b2a3c4d5e6f), instead of counting its dates
(about 48,000 at a million events), and subtracts the listed dates that cover a day of the
grid but lie outside the window (a date of another time zone near either end: the window's
bounds are instants of the site's midnights). Those can only be near the window's bounds:
two short ranges of the index, a few thousand entries, none read from the table. A filter
(a category, a search) counts the grid's dates themselves, from an index alone for a
visitor."""

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import (
    CTE,
    Date,
    DateTime,
    and_,
    bindparam,
    func,
    not_,
    or_,
    select,
    true,
    union_all,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy import literal_column as sql

from app.events.repository.list_query import EventListQuery
from app.models import Occurrence, listed_spans

ONE_DAY: Any = sql("interval '1 day'")
UTC_TIME = DateTime(timezone=True)
# Just before the end: an end at midnight is on the day before (its last day).
JUST_BEFORE: Any = sql("interval '1 microsecond'")


def stored_counts(query: EventListQuery, first: date, last: date) -> bool:
    """Whether the grid's days can be counted from `listed_spans`: a visitor's list with no
    filter but the days of the week (a span's first day is its dates') and a window that
    holds every date of the grid's inner days (two or more from either end): then a stored date outside it is near one of its bounds (`_excluded`)."""
    f = query.filters
    plain = (
        f.include is None
        and f.search is None
        and not f.term_ids
        and f.venue_ids is None
        and f.organizer_ids is None
        and f.featured is None
        and f.has_geo is None
        and f.near is None
        and f.parent_id is None
        and not f.first_of_series
        and f.ticketed is None
        and f.cost_min is None
        and f.cost_max is None
        and f.start_hours is None
        and f.all_day is None
        and f.start_min is None
        and f.end_max is None
        and f.starts_after is None
        and f.ends_before is None
    )
    if not (plain and query.anonymous()) or f.ends_after is None or f.starts_before is None:
        return False
    # In UTC mode the bounds are instants: their UTC wall times, within a day of any zone's.
    ends_after, starts_before = _wall(f.ends_after), _wall(f.starts_before)
    start, end = datetime.combine(first, time.min), datetime.combine(last, time.min)
    return ends_after <= start + timedelta(days=1) and starts_before >= end


def _wall(moment: datetime) -> datetime:
    return moment if moment.tzinfo is None else moment.astimezone(UTC).replace(tzinfo=None)


def _instant(wall: Any) -> Any:
    """A wall time read as UTC: a local time is its instant give or take under a day."""
    return func.timezone("UTC", wall)


def _on_days(spans: Any, day: Any) -> Any:
    # An end at or before its start: on its first day alone.
    return and_(spans.c.first_day <= day, func.greatest(spans.c.first_day, spans.c.last_day) >= day)


def day_counts(query: EventListQuery, days: CTE, first: Any, last: Any, stored: bool) -> CTE:
    """(day, total) of each grid day with events: `days` the grid's days, `first` and `last`
    the first and last as wall times; with `stored`, from `listed_spans`."""
    day = days.c.day
    first_day = sql_cast(Occurrence.start_local, Date).label("first_day")
    last_day = sql_cast(Occurrence.end_local - JUST_BEFORE, Date).label("last_day")
    # A cast per date, the cheapest; not a row per date and day (a set function per date
    # would make the planner expect a thousand days of each: a parallel plan, JIT).
    dated = query.occurrences(first_day, last_day, func.count().label("n"), linked=False)
    for number, events in enumerate(query.linked_events()):
        # A category's events read once (from the terms' index alone) and hashed: a probe
        # of the terms' index per date is a random read of a large index (at a million
        # events about 48,000 of them, half a second).
        chosen = events.cte(f"linked_{number}").prefix_with("MATERIALIZED")
        # `+ 0`: not by the dates' `content_id` index from each event either (a random read
        # of the table per event, seconds at a million), which a larger estimate of the
        # grid's dates makes the planner choose.
        dated = dated.where((Occurrence.content_id + 0).in_(select(chosen.c.event_id)))
    if query.filters.utc and query.filters.ends_after is not None:
        # In UTC mode, a bound on the start instant too (as the list's on the local start):
        # the listed dates' UTC index holds every column the count reads. A date's length
        # in instants is its wall-clock length give or take a daylight saving shift.
        moment: Any = sql_cast(bindparam("ends_after", type_=UTC_TIME), UTC_TIME)
        earliest = moment - query.longest_duration() - ONE_DAY
        dated = dated.where(Occurrence.start_at >= earliest)
    if not stored:
        spans = dated.group_by(first_day, last_day).subquery("spans")
        rows = select(day, spans.c.n).select_from(days).join(spans, _on_days(spans, day))
        return _summed(rows)
    kept = listed_spans.c
    stored_spans = (
        select(kept.first_day, kept.last_day, kept.dates.label("n"))
        .where(
            kept.first_day <= sql_cast(last, Date),
            kept.first_day >= sql_cast(first - query.longest_duration(), Date),
            # A date's day of the week is its first day's.
            *([query.on_weekdays(kept.first_day)] if query.filters.weekdays is not None else []),
        )
        .subquery("stored_spans")
    )
    excluded = _excluded(query, first, last).subquery("excluded_spans")
    parts = [
        select(day, spans.c.n).select_from(days).join(spans, _on_days(spans, day))
        for spans in (stored_spans, excluded)
    ]
    return _summed(union_all(*parts))


def _excluded(query: EventListQuery, first: Any, last: Any) -> Any:
    """The listed dates that cover a day of the grid but are outside the list's window,
    grouped as the stored spans are and counted negative. With a window that holds the
    grid's inner days (`stored_counts`), such a date ends by the window's start (so it
    starts by then, and no earlier than the grid's first day minus the longest duration)
    or starts from the window's end (and before the grid's last day ends): two short
    ranges of the listed dates' UTC index, each widened by a day (a wall time is its
    instant give or take under a day)."""
    f = query.filters
    ends_after, starts_before = _moment(f.utc, "ends_after"), _moment(f.utc, "starts_before")
    start, local_start = Occurrence.start_at, Occurrence.start_local
    # Those that reach the grid's first day (most dates of the range end before it).
    early = and_(
        start >= _instant(first - query.longest_duration() - ONE_DAY),
        start <= ends_after + ONE_DAY,
        or_(Occurrence.end_local > first, local_start >= first),
    )
    # Disjoint from the first range: a date is subtracted once.
    late = and_(
        start > ends_after + ONE_DAY,
        start >= starts_before - ONE_DAY,
        start < _instant(last + 2 * ONE_DAY),
        local_start < last + ONE_DAY,
    )
    first_day = sql_cast(Occurrence.start_local, Date).label("first_day")
    last_day = sql_cast(Occurrence.end_local - JUST_BEFORE, Date).label("last_day")
    # Not the visibility: a visitor's `listed`, which the index's own condition is (its
    # rows alone are read), else no index holds it.
    # Nor the day of the week: a date on another day is in no stored span counted.
    outside = not_(and_(*query.conditions(visible=False, weekdays=False)))
    if query.filters.weekdays is not None:
        outside = and_(outside, query.on_weekdays(Occurrence.start_local))
    groups = [
        select(first_day, last_day, (-func.count()).label("n"))
        .where(Occurrence.listed == true(), outside, bounds)
        .group_by(first_day, last_day)
        for bounds in (early, late)
    ]
    return union_all(*groups)


def _moment(utc: bool, name: str) -> Any:
    """A window bound as an instant: in local mode its wall time read as UTC."""
    if utc:
        return sql_cast(bindparam(name, type_=UTC_TIME), UTC_TIME)
    return _instant(sql_cast(bindparam(name, type_=DateTime()), DateTime()))


def _summed(rows: Any) -> CTE:
    per_day = rows.subquery("day_rows")
    total = func.sum(per_day.c.n).label("total")
    return select(per_day.c.day, total).group_by(per_day.c.day).cte("counts")
