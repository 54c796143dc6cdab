"""How many events each day of a month grid has (day_query.py): the list's dates grouped by
their first and last local day (a few hundred groups a month), each group added to the days
between.

A visitor's plain month (no filter but the grid's own window) reads the groups of its inner
days from `listed_spans`, kept by triggers (migration 4b2a3c4d5e6f), instead of counting
its dates (about 48,000 at a million events). Only days two or more from either end of the
grid: a date that covers one of them lies inside the window whatever its time zone (an
offset is under a day), so the stored groups count them exactly; the two days at each end
are counted from the dates, as before, those that start by the second day and those that
can reach the last two (at most the longest duration before them)."""

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from sqlalchemy import CTE, Date, DateTime, Select, and_, bindparam, func, or_, select, union_all
from sqlalchemy import cast as sql_cast
from sqlalchemy import literal_column as sql

from app.events.repository.list_query import EventListQuery
from app.models import Occurrence, listed_spans

ONE_DAY: Any = sql("interval '1 day'")
UTC_TIME = DateTime(timezone=True)
# Just before the end: an end at midnight is on the day before (its last day).
JUST_BEFORE: Any = sql("interval '1 microsecond'")
# Days from either end of the grid counted from the dates themselves.
EDGE: Any = sql("interval '2 days'")


def stored_counts(query: EventListQuery, first: date, last: date) -> bool:
    """Whether the grid's inner days can be counted from `listed_spans`: a visitor's list
    with no filter but a window that holds every date of those days."""
    f = query.filters
    plain = (
        f.include is None
        and f.search is None
        and not f.term_ids
        and f.venue_ids is None
        and f.organizer_ids is None
        and f.featured is None
        and f.parent_id is None
        and not f.first_of_series
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
    the first and last as wall times; with `stored`, the inner days from `listed_spans`."""
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
        dated = dated.where(Occurrence.content_id.in_(select(chosen.c.event_id)))
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
    inner_first, inner_last = first + EDGE, last - EDGE
    start = Occurrence.start_local
    # The first two days: dates that start before the inner days; the last two: the others
    # that may still last until them. Two ranges of the index, each read once.
    early = dated.where(start < inner_first, Occurrence.start_at < _instant(inner_first + ONE_DAY))
    reach = inner_last + ONE_DAY - query.longest_duration()
    late = dated.where(
        start >= inner_first,
        start >= reach,
        Occurrence.start_at >= _instant(reach - ONE_DAY),
    )
    groups = [part.group_by(first_day, last_day) for part in (early, late)]
    edges = union_all(*groups).subquery("edge_spans")
    edge_days = or_(day < inner_first, day > inner_last)
    edge_rows: Select[Any] = (
        select(day, edges.c.n).select_from(days).join(edges, and_(edge_days, _on_days(edges, day)))
    )
    kept = listed_spans.c
    earliest_day = sql_cast(inner_first - query.longest_duration(), Date)
    inner = (
        select(kept.first_day, kept.last_day, kept.dates.label("n"))
        .where(kept.first_day <= sql_cast(inner_last, Date), kept.first_day >= earliest_day)
        .subquery("stored_spans")
    )
    inner_days = and_(day >= inner_first, day <= inner_last)
    inner_rows = (
        select(day, inner.c.n).select_from(days).join(inner, and_(inner_days, _on_days(inner, day)))
    )
    return _summed(union_all(edge_rows, inner_rows))


def _summed(rows: Any) -> CTE:
    per_day = rows.subquery("day_rows")
    total = func.sum(per_day.c.n).label("total")
    return select(per_day.c.day, total).group_by(per_day.c.day).cte("counts")
