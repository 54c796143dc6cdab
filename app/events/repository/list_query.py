"""The event list query: the window, filters, order, paging and the total, as statements built
once per shape of filter."""

import json
import operator
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Generic, TypeVar, cast

from sqlalchemy import (
    BigInteger,
    DateTime,
    Integer,
    Select,
    Text,
    Time,
    and_,
    bindparam,
    case,
    extract,
    false,
    func,
    literal,
    literal_column,
    or_,
    select,
    true,
    tuple_,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy.dialects.postgresql import JSONB, TSQUERY
from sqlalchemy.orm import aliased

from app.core.caching.cache import CountCache
from app.core.database.compiled import fetch_rows
from app.core.database.engine import read_version, replay_column, version_column
from app.events.records import EventRecord, EventSummary
from app.events.repository.events import DAY, EventRepository
from app.events.repository.tickets import ticketed_dates
from app.geo.distance import Near
from app.models import (
    Event,
    Occurrence,
    Venue,
    event_organizers,
    event_terms,
)
from app.venues.repository import distance_from_point, located, near_point, near_values


@dataclass(slots=True)
class EventListFilters:
    """A normalised event list query. Date bounds are naive site-time wall clock values,
    compared with the events' local start/end (the reference's "event" time-zone mode), or
    with `utc` aware UTC instants, compared with the events' instants (docs/design.md,
    Event list)."""

    utc: bool = False
    start_min: datetime | None = None  # start >= (start_date)
    end_max: datetime | None = None  # end <= (end_date)
    starts_before: datetime | None = None
    starts_after: datetime | None = None
    ends_before: datetime | None = None
    ends_after: datetime | None = None
    include: list[int] | None = None
    search: str | None = None  # a tsquery (app/events/search.py)
    term_ids: list[list[int]] = field(default_factory=list)  # each inner list: any of them
    venue_ids: list[int] | None = None
    organizer_ids: list[int] | None = None
    featured: bool | None = None
    # Whose venue has a point (True), has none (False; no venue either), or any (None).
    has_geo: bool | None = None
    # Whose venue is within the circle; the page then reads each event's distance.
    near: Near | None = None
    parent_id: int | None = None
    # Only the first occurrence of each series in the window (the add-on's parameter).
    first_of_series: bool = False
    # Only events with a ticket (True), only those without (False), or any (None).
    ticketed: bool | None = None
    # One of the event's amounts (app/events/cost.py: its cost's numbers, `free` 0) within.
    cost_min: Decimal | None = None
    cost_max: Decimal | None = None
    weekdays: list[int] | None = None  # of the local start, ISO (Monday 1)
    # The local start's hour is one of these, of an event not all-day; with `all_day`, or
    # an all-day event (`all_day` alone: `start_hours` None). None, None: any.
    start_hours: list[int] | None = None
    all_day: bool | None = None
    statuses: tuple[str, ...] = ("publish",)
    # Only these statuses of other people's events; own events in any of `statuses`.
    others_statuses: tuple[str, ...] | None = None
    viewer_id: int | None = None
    include_hidden: bool = False
    orderby: str = "start_date"
    descending: bool = False

    def cache_key(self) -> tuple[Any, ...]:
        """The filter as a hashable value (lists become tuples)."""
        values = []
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            values.append(value)
        return tuple(values)


BOUNDS = ("start_min", "end_max", "starts_before", "starts_after", "ends_before", "ends_after")
# Which side of the window a bound limits, and how: (start or end column, comparison, upper).
BOUND_RULES: dict[str, tuple[str, Callable[[Any, Any], Any], bool]] = {
    "start_min": ("start", operator.ge, False),
    "end_max": ("end", operator.le, True),
    "starts_before": ("start", operator.lt, True),
    "starts_after": ("start", operator.gt, False),
    "ends_before": ("end", operator.lt, True),
    "ends_after": ("end", operator.gt, False),
}


ORDER_COLUMNS = {
    "start_date": Occurrence.start_local,
    "end_date": Occurrence.end_local,
    "date": Occurrence.published_at,
    "modified": Event.modified_at,
    "id": Occurrence.id,
}


# An amount among a cost's values (app/events/cost.py writes numbers with a decimal point).
AMOUNT = r'@ like_regex "^[0-9]+(\\.[0-9]+)?$"'


def amounts_path(low: bool, high: bool) -> str:
    """The SQL/JSON path (a literal) that finds an amount of `cost_details` within the
    bounds `$min` and `$max` (`low`, `high`: which are set); `free` is 0."""
    bounds = [
        f"@.double() {op} ${name}"
        for on, op, name in ((low, ">=", "min"), (high, "<=", "max"))
        if on
    ]
    numeric = " && ".join([AMOUNT, *bounds])
    free = '@ == "free"' + (" && $min <= 0" if low else "")
    return f"'$.values[*] ? (({numeric}) || ({free}))'::jsonpath"


def cost_range(low: Decimal | None, high: Decimal | None) -> str:
    """The path's bounds (`amounts_path`): a JSON object of numbers."""
    bounds = {"min": low, "max": high}
    return json.dumps({name: float(value) for name, value in bounds.items() if value is not None})


def event_distance(e: Any = Event) -> Any:
    """The distance (km) of the event's venue from the list's point (its bound values)."""
    return select(distance_from_point()).where(Venue.id == e.venue_id).scalar_subquery()


def _near_venues(descending: bool) -> Any:
    """The venues within the circle with their distance, in the list's order of distance:
    joined to a list ordered by distance, the planner walks them in that order (a few
    venues) and sorts each one's events by start alone (an incremental sort), where the
    distance of each event's venue would otherwise be sorted over every event in the circle
    (150 ms at 100,000 events, 0.7 ms so: docs/performance.md)."""
    distance = distance_from_point().label("distance")
    nearest = select(Venue.id, distance).where(near_point())
    ordered = nearest.order_by(distance.desc() if descending else distance.asc())
    return ordered.subquery("near_venues")


NEAR_VENUES = {descending: _near_venues(descending) for descending in (False, True)}


def exists_venue(e: Any, *conditions: Any) -> Any:
    """The event's venue exists and meets `conditions`."""
    return select(Venue.id).where(Venue.id == e.venue_id, *conditions).exists()


class EventListQuery:
    """Builds the event list statements from a filter object: one place for the window.

    The statements of one shape of filter (which filters are set, the language, the order)
    are built once and kept, with every value a bound parameter: building and hashing the
    statement of a large query costs more than running it.
    """

    def __init__(self, repo: EventRepository, filters: EventListFilters) -> None:
        self.repo = repo
        self.filters = filters
        # Few matches of a search: read them through the search index and sort them, rather
        # than walk the events in list order looking for them (see page()).
        self.sparse = False

    # ---- the shape: what decides the statement's text ---------------------------------

    def shape(self) -> tuple[Any, ...]:
        f = self.filters
        return (
            *self.repo.shape,
            f.utc,
            tuple(getattr(f, name) is not None for name in BOUNDS),
            f.include is not None,
            f.search is not None,
            len(f.term_ids),
            f.venue_ids is not None,
            f.organizer_ids is not None,
            f.featured is not None,
            f.has_geo,
            f.near is not None,
            f.parent_id is not None,
            f.first_of_series,
            f.ticketed,
            f.cost_min is not None,
            f.cost_max is not None,
            f.weekdays is not None,
            f.start_hours is not None,
            f.all_day,
            f.others_statuses is not None and f.viewer_id is not None,
            f.include_hidden,
            f.viewer_id is not None,
            f.orderby,
            f.descending,
            self.sparse,
        )

    def parameters(self) -> dict[str, Any]:
        """The values of the shape's bound parameters."""
        f = self.filters
        values: dict[str, Any] = {"statuses": list(f.statuses), "viewer_id": f.viewer_id}
        values["others_statuses"] = list(f.others_statuses or ())
        for name in BOUNDS:
            value = getattr(f, name)
            if value is None:
                continue
            if (value.tzinfo is not None) != f.utc:
                raise ValueError("UTC bounds are aware, wall-time bounds naive")
            values[name] = value
            if f.utc:
                # The local-time range the instant implies (see conditions()).
                wall = value.astimezone(UTC).replace(tzinfo=None)
                values[f"{name}_local"] = wall + DAY if BOUND_RULES[name][2] else wall - DAY
        values.update(
            include=f.include,
            venue_ids=f.venue_ids,
            organizer_ids=f.organizer_ids,
            featured=f.featured,
            parent_id=f.parent_id,
        )
        values["search"] = f.search
        if f.cost_min is not None or f.cost_max is not None:
            values["cost_range"] = cost_range(f.cost_min, f.cost_max)
        values.update(weekdays=f.weekdays, start_hours=f.start_hours)
        if f.near is not None:
            values.update(near_values(f.near))
        values.update({f"terms_{i}": ids for i, ids in enumerate(f.term_ids)})
        return {name: value for name, value in values.items() if value is not None}

    # ---- building ---------------------------------------------------------------------

    def conditions(
        self,
        o: Any = Occurrence,
        e: Any = Event,
        *,
        linked: bool = True,
        visible: bool = True,
        near_joined: bool = False,
        near_probed: bool = False,
        weekdays: bool = True,
    ) -> list[Any]:
        """The filters on occurrences `o` showing events `e` (aliases in a subquery); without
        `linked`, not the term and organizer filters (`linked`), which the caller applies;
        without `visible`, not the visibility; with `near_joined`, not the circle (the
        statement joins its venues); with `near_probed`, the circle checked on each event's
        venue as the list's walk meets it (see `statement`); without `weekdays`, not the
        day of the week (a month's stored counts apply it to their days: day_counts.py)."""
        f = self.filters
        where: list[Any] = [self._visibility(o)] if visible else []
        if not f.include_hidden and not self.anonymous():
            # Hidden events stay out of lists for those who may not edit them
            # (docs/design.md#event-list). Occurrences carry their series' visibility.
            shown = o.hide_from_listings == false()
            viewer = o.author_id == bindparam("viewer_id")
            where.append(shown if f.viewer_id is None else or_(shown, viewer))
        columns = {"start": o.start_local, "end": o.end_local}
        instants = {"start": o.start_at, "end": o.end_at}
        for name in BOUNDS:
            if getattr(f, name) is None:
                continue
            side, compare, upper = BOUND_RULES[name]
            if f.utc:
                where.append(compare(instants[side], bindparam(name)))
                # The local range the instant implies, so that the page walks the local-time
                # index in its order instead of reading every past event: a local time is its
                # instant plus the zone's offset, and an offset is under a day.
                limit = operator.le if upper else operator.ge
                where.append(limit(columns[side], bindparam(f"{name}_local")))
            else:
                where.append(compare(columns[side], bindparam(name)))
        if f.ends_after is not None:
            where.append(self._started_by_end(o))
        if f.include is not None:
            where.append(o.id.in_(bindparam("include", expanding=True)))
        if f.search is not None:
            search = bindparam("search", type_=TSQUERY)
            where.append(e.search_words.op("@@")(search))
        if linked:
            where.extend(self.linked(o))
        if f.venue_ids is not None:
            where.append(e.venue_id.in_(bindparam("venue_ids", expanding=True)))
        if f.featured is not None:
            where.append(e.featured == bindparam("featured"))
        if f.has_geo is not None:
            with_point = exists_venue(e, located())
            where.append(with_point if f.has_geo else ~with_point)
        if f.near is not None and not near_joined:
            where.append(self._near(e, near_probed))
        if f.ticketed is not None:
            with_ticket = ticketed_dates(o)
            where.append(with_ticket if f.ticketed else ~with_ticket)
        where.extend(self._start_and_cost(o, weekdays=weekdays))
        if f.parent_id is not None:
            # Children of an event (the reference), or the dates of a series.
            parent: Any = bindparam("parent_id")
            of_series = and_(o.series_id == parent, e.recurrence.is_not(None))
            where.append(or_(e.parent_id == parent, of_series))
        return where

    def _start_and_cost(self, o: Any, *, weekdays: bool = True) -> list[Any]:
        """The local start's weekday and hour (read from the dates' listing index with the
        start, no table), and the event's price (docs/design.md#event-list)."""
        where = self.start_conditions(o, weekdays=weekdays)
        f = self.filters
        if f.cost_min is not None or f.cost_max is not None:
            # A probe of the date's event (its key), not a join: joined, the planner read
            # every event's price and hashed those that pass for a month's count (a second
            # at a million events) rather than look up the month's own.
            event = aliased(Event, name="priced_event")
            path = amounts_path(f.cost_min is not None, f.cost_max is not None)
            bounds = sql_cast(bindparam("cost_range", type_=Text), JSONB)
            priced = func.jsonb_path_exists(event.cost_details, literal_column(path), bounds)
            probe = select(priced).where(event.id == o.content_id).scalar_subquery()
            where.append(probe.is_(True))
        return where

    def start_conditions(self, o: Any, *, weekdays: bool = True) -> list[Any]:
        """The local start's weekday and time of day, on dates `o` (a month's walks check
        them on each candidate from the index, before looking it up: day_query.py)."""
        f = self.filters
        where: list[Any] = []
        if f.weekdays is not None and weekdays:
            where.append(self.on_weekdays(o.start_local))
        if f.start_hours is not None or f.all_day is not None:
            where.append(self._time_of_day(o))
        return where

    @staticmethod
    def on_weekdays(moment: Any) -> Any:
        """`moment` (a local time or date) falls on one of the asked days of the week."""
        return extract("isodow", moment).in_(bindparam("weekdays", expanding=True))

    def _time_of_day(self, o: Any) -> Any:
        """The local start's hour is one of `start_hours` and the date not all-day, or (with
        `all_day`) the date is all-day. An all-day date starts at midnight
        (app/events/schedule.py): only a date that starts then asks its event whether it is
        one (a probe by its `content_id`), so that the others are judged from the dates'
        index alone, as a count or a month grid reads them (no join of the events)."""
        f = self.filters
        midnight = sql_cast(o.start_local, Time) == literal_column("time '00:00'")
        event = aliased(Event, name="started_event")
        probe = select(event.all_day).where(event.id == o.content_id).scalar_subquery()
        all_day = case((midnight, probe), else_=false())
        parts = []
        if f.start_hours is not None:
            hour = extract("hour", o.start_local)
            not_all_day = case((midnight, ~probe), else_=true())
            parts.append(and_(hour.in_(bindparam("start_hours", expanding=True)), not_all_day))
        if f.all_day:
            parts.append(all_day)
        return or_(*parts) if len(parts) > 1 else parts[0]

    def linked(self, o: Any = Occurrence, *, probes: bool = False) -> list[Any]:
        """The term and organizer filters, on the ID of the event a date shows (its
        `content_id`, which a visitor's listing indexes hold, migration 3a1f2b3c4d5e): a
        count or a month grid of a category checks them from an index alone, without the
        date's row or the event's. With `probes`, each a scalar subquery (one index probe
        per date, evaluated before costlier filters of the same scan) instead of an `IN`,
        which the planner turns into a join evaluated after them."""
        if not probes:
            return [o.content_id.in_(events) for events in self.linked_events()]
        where: list[Any] = []
        for event_id, linked in self._links():
            probe = select(true()).where(event_id == o.content_id, linked).limit(1)
            where.append(probe.scalar_subquery().is_(True))
        return where

    def linked_events(self) -> list[Select[Any]]:
        """The IDs of the events each term or organizer filter lets through."""
        return [select(event_id).where(linked) for event_id, linked in self._links()]

    def _links(self) -> list[tuple[Any, Any]]:
        """(the link table's event ID, the condition on its other ID) of each filter."""
        f = self.filters
        links: list[tuple[Any, Any, str]] = [
            (event_terms.c.event_id, event_terms.c.term_id, f"terms_{index}")
            for index in range(len(f.term_ids))
        ]
        if f.organizer_ids is not None:
            organizers = event_organizers.c
            links.append((organizers.event_id, organizers.organizer_id, "organizer_ids"))
        return [
            (event_id, other_id.in_(bindparam(name, expanding=True)))
            for event_id, other_id, name in links
        ]

    def _started_by_end(self, o: Any) -> Any:
        """Events that end after a moment started no earlier than the moment minus the
        longest duration of any date: a bound on the start, so that the list walks the
        start-time index from there rather than from the first event ever (one read of the
        duration index's last entry, once per statement)."""
        # Local mode: the bound itself; UTC mode: the local time it implies (parameters()).
        name = "ends_after_local" if self.filters.utc else "ends_after"
        moment: Any = sql_cast(bindparam(name, type_=DateTime()), DateTime())
        return o.start_local >= moment - self.longest_duration()

    @staticmethod
    def longest_duration() -> Any:
        """The longest duration of any date (zero without dates): the duration index's last
        entry."""
        longest = aliased(Occurrence, name="longest")
        duration = select(func.max(longest.end_local - longest.start_local)).scalar_subquery()
        return func.coalesce(duration, literal_column("interval '0'"))

    def anonymous(self) -> bool:
        """Whether the list shows what a visitor sees: published and listed dates, which
        occurrences carry themselves (`listed`), so the window and its count are read from
        their partial indexes."""
        f = self.filters
        return f.statuses == ("publish",) and f.viewer_id is None and not f.include_hidden

    def _visibility(self, o: Any) -> Any:
        f = self.filters
        if self.anonymous():
            return o.listed == true()
        statuses = o.status.in_(bindparam("statuses", expanding=True))
        if f.others_statuses is None or f.viewer_id is None:
            return statuses
        return or_(
            o.status.in_(bindparam("others_statuses", expanding=True)),
            and_(o.author_id == bindparam("viewer_id"), statuses),
        )

    def order(self, stmt: Select[Any]) -> list[Any]:
        f = self.filters
        if self.by_distance():
            # Nearest first, then as the list goes: by start, then by ID.
            nearest = NEAR_VENUES[f.descending].c.distance
            keys = [nearest, Occurrence.start_local, Occurrence.id]
            return [key.desc() if f.descending else key.asc() for key in keys]
        column: Any = (
            func.lower(stmt.selected_columns.title)
            if f.orderby == "title"
            else ORDER_COLUMNS[f.orderby]
        )
        if self.sparse and f.orderby != "title":
            # The same order, by a value no index is sorted by: the planner must find the
            # rows through the other conditions (the search index, the circle's venues) first.
            column = column + (literal_column("interval '0'") if f.orderby != "id" else 0)
        keys = [column, Occurrence.published_at, Occurrence.id]
        return [key.desc() if f.descending else key.asc() for key in keys]

    @staticmethod
    def _near(e: Any, probed: bool) -> Any:
        """The event's venue is in the circle: the venues in the circle found first (their
        box is an index range), then their events through the events' venue index; or,
        `probed`, one probe of the venue (its primary key) per event the walk meets, which
        the planner cannot turn into that join."""
        if not probed:
            return e.venue_id.in_(select(Venue.id).where(near_point()))
        probe = select(true()).where(Venue.id == e.venue_id, near_point()).limit(1)
        return probe.scalar_subquery().is_(True)

    def by_distance(self) -> bool:
        """Ordered by distance: the venues in the circle are joined, in that order."""
        return self.filters.near is not None and self.filters.orderby == "distance"

    def statement(self, *, summaries: bool = False, counting: bool = False) -> Select[Any]:
        """The filtered statement (unordered, unpaged): the base of the page and (`counting`)
        the count; with `summaries`, of a calendar grid's columns alone (`EventSummary`).

        Near a point in the list's order, the page walks the list's index and probes each
        event's venue, unless the circle is `sparse` (few events: found through their
        venues, then sorted). The planner could choose itself, but a prepared statement's
        generic plan cannot see the circle: at a million events it read the venues first
        and sorted the 100,000 events of a city for every page (docs/performance.md). The
        count always goes through the venues."""
        f = self.filters
        stmt = self.repo.select_summaries() if summaries else self.repo.select_records()
        distance = event_distance()
        if self.by_distance():
            venues = NEAR_VENUES[f.descending]
            stmt, distance = stmt.join(venues, venues.c.id == Event.venue_id), venues.c.distance
        if f.near is not None and not summaries:
            stmt = stmt.add_columns(distance.label("distance"))
        probed = not (counting or self.sparse or self.by_distance())
        stmt = stmt.where(*self.conditions(near_joined=self.by_distance(), near_probed=probed))
        if self.filters.first_of_series:
            stmt = stmt.where(self._first_of_its_series())
        return stmt

    def occurrences(self, *columns: Any, linked: bool = True) -> Select[Any]:
        """The filtered statement of occurrence `columns` alone (unordered, unpaged), the
        event joined only when a filter reads it: the planner does not read a visitor's
        window from the index alone (index-only) while the outer join is in the query, even
        when it drops the join. Without `linked`, not the term and organizer filters."""
        stmt = select(*columns).where(*self.conditions(linked=linked))
        if self.filters.first_of_series:
            stmt = stmt.where(self._first_of_its_series())
        if Event.__table__ in stmt.get_final_froms():
            joined = Occurrence.__table__.outerjoin(Event, Event.id == Occurrence.content_id)
            stmt = stmt.select_from(joined)
        return stmt

    def _first_of_its_series(self) -> Any:
        """No earlier date of the same series passes the filters. A single event is its
        series' only date: the subquery runs for dates of series alone, each an index probe,
        so the page still walks the list's index and stops at its limit."""
        o, e = aliased(Occurrence, name="earlier"), aliased(Event, name="earlier_event")
        earlier = (
            select(literal(1))
            .select_from(o)
            .join(e, e.id == o.content_id)
            .where(
                o.series_id == Occurrence.series_id,
                tuple_(o.start_local, o.id) < tuple_(Occurrence.start_local, Occurrence.id),
                *self.conditions(o, e),
            )
        )
        return or_(Event.recurrence.is_(None), ~earlier.exists())

    def _page(self, *, summaries: bool = False) -> Select[Any]:
        stmt = self.statement(summaries=summaries)
        page = stmt.order_by(*self.order(stmt)).offset(bindparam("offset", type_=BigInteger))
        return page.limit(bindparam("limit", type_=Integer))

    def _statements(self) -> tuple[Select[Any], Select[Any]]:
        """(the page with its relations and the data version, the count) of this shape."""
        return _LIST_STATEMENTS.get(self.shape(), self._build_statements)

    def _build_statements(self) -> tuple[Select[Any], Select[Any]]:
        # The data version and the replay position: what the result is cached under.
        labels = (version_column(), replay_column())
        page = self.repo.with_relations(self._page().add_columns(*labels))
        counted = self.statement(counting=True)
        counted = counted.with_only_columns(literal(1), maintain_column_froms=True)
        count = select(func.count(), *labels).select_from(counted.subquery())
        return page, cast(Select[Any], count)

    def _summary_statement(self) -> Select[Any]:
        """The page of summaries of this shape: no relations, no data version (no count)."""
        return _SUMMARY_STATEMENTS.get(self.shape(), lambda: self._page(summaries=True))

    def page_statement(self, offset: int, limit: int) -> Select[Any]:
        """The page's statement with its values (e.g. to EXPLAIN it)."""
        return self._page().params(**self.parameters(), offset=offset, limit=limit)

    def count_statement(self) -> Select[Any]:
        """The count's statement with its values (e.g. to EXPLAIN it)."""
        _, count = self._statements()
        return count.params(**self.parameters())

    async def records(
        self, offset: int, limit: int, totals: CountCache | None = None
    ) -> list[EventRecord]:
        """Events of the list without their total (the calendar feeds have no pages)."""
        values = self.parameters()
        await self._choose_plan(values, totals)
        page_stmt, _ = self._statements()
        paged = {**values, "offset": offset, "limit": limit}
        return await self.repo.fetch(page_stmt, paged, dict.fromkeys(LABELS))

    async def summaries(
        self, offset: int, limit: int, totals: CountCache | None = None
    ) -> list[EventSummary]:
        """What a calendar view shows of the list's events (the same filters, order and
        paging): a few columns of each, no relations, no total: an event page's neighbours
        and its series' next dates show a title and a link of each (the month grid reads
        per day: day_query.py)."""
        values = self.parameters()
        await self._choose_plan(values, totals)
        paged = {**values, "offset": offset, "limit": limit}
        connection = await self.repo.session.connection()
        result = await connection.execute(self._summary_statement(), paged)
        return [EventSummary(*row) for row in result]

    async def _choose_plan(self, values: dict[str, Any], totals: CountCache | None) -> None:
        """The planner cannot tell how many events a search word matches (a word prefix), nor
        (in a generic plan) a circle; the count can, and a count of the same list seen
        before is a good guide."""
        near = self.filters.near is not None and not self.by_distance()
        if self.filters.search is None and not near:
            return
        key = self._cache_key()
        matches = totals.hint(key) if totals is not None else None
        if matches is None:
            matches = await self._count(values, key, totals, guide=True)
        self.sparse = matches <= SPARSE_MATCHES

    def _cache_key(self) -> tuple[Any, ...]:
        return (self.repo.language, self.filters.cache_key())

    async def page(
        self, offset: int, limit: int, totals: CountCache | None = None
    ) -> tuple[list[EventRecord], int]:
        """A page and the total. The total comes from `totals` when it was counted under the
        data version the page query saw (read in the same statement)."""
        key = self._cache_key()
        values = self.parameters()
        await self._choose_plan(values, totals)
        if offset and not self._known_to_reach(key, offset, totals):
            # A page past the end would skip every row before finding none: count first
            # (cached as ever) and answer an empty page from the total, without the walk.
            total = await self._count_now(values, key, totals)
            if offset >= total:
                return [], total
        page_stmt, _ = self._statements()
        extras: dict[str, Any] = dict.fromkeys(LABELS)
        paged = {**values, "offset": offset, "limit": limit}
        records = await self.repo.fetch(page_stmt, paged, extras)
        found = extras["data_version"], extras["replay_position"]
        version = await read_version(self.repo.session, *found)
        if totals is not None and version is not None:
            cached = totals.get(key, version)
            if cached is not None:
                return records, cached
        return records, await self._count(values, key, totals, version)

    @staticmethod
    def _known_to_reach(key: tuple[Any, ...], offset: int, totals: CountCache | None) -> bool:
        """Whether a count of this list seen before (of any data version: a guide) had rows
        past `offset`: then the page is most likely there and is read first, as page 1 is."""
        known = totals.hint(key) if totals is not None else None
        return known is not None and known > offset

    async def _count(
        self,
        values: dict[str, Any],
        key: tuple[Any, ...],
        totals: CountCache | None,
        version: Hashable | None = None,
        guide: bool = False,
    ) -> int:
        """The exact total, kept in `totals` under the data version read with it. Requests
        asking for the same count together wait for the first one's (`CountCache.counting`)
        and take it when it was counted under their page's `version` (or under any, for a
        `guide` to the plan)."""
        if totals is None or (version is None and not guide):
            return await self._count_now(values, key, totals)
        async with totals.counting(key):
            known = totals.hint(key) if guide else totals.get(key, version, counted=False)
            if known is not None:
                return known
            return await self._count_now(values, key, totals)

    async def _count_now(
        self, values: dict[str, Any], key: tuple[Any, ...], totals: CountCache | None
    ) -> int:
        _, count_stmt = self._statements()
        row = (await fetch_rows(self.repo.session, count_stmt, values))[1][0]
        total, version = row[0] or 0, await read_version(self.repo.session, row[1], row[2])
        if totals is not None and version is not None:
            totals.put(key, version, total)
        return int(total)


# Up to this many matches, a search reads its matches through the index and sorts them (a
# few milliseconds); beyond, matches are dense enough to find by walking the list order.
SPARSE_MATCHES = 2000
MAX_CACHED_SHAPES = 512
LABELS = ("data_version", "replay_position")  # the page's columns that are not event fields

Built = TypeVar("Built")


class StatementsByShape(Generic[Built]):
    """Statements built once per filter shape (`EventListQuery.shape`) and kept: building
    one costs more than running it. Emptied when it holds MAX_CACHED_SHAPES: shapes come
    from request parameters, and a client varying them must not grow it without bound."""

    def __init__(self) -> None:
        self._built: dict[tuple[Any, ...], Built] = {}

    def get(self, shape: tuple[Any, ...], build: Callable[[], Built]) -> Built:
        built = self._built.get(shape)
        if built is None:
            if len(self._built) >= MAX_CACHED_SHAPES:
                self._built.clear()
            built = self._built[shape] = build()
        return built


_LIST_STATEMENTS: StatementsByShape[tuple[Select[Any], Select[Any]]] = StatementsByShape()
_SUMMARY_STATEMENTS: StatementsByShape[Select[Any]] = StatementsByShape()
