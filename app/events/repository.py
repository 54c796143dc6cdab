"""All of the events' SQL: single records and pages, each with its relations in one statement,
the list query, and writes."""

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Integer,
    Select,
    and_,
    bindparam,
    delete,
    false,
    func,
    insert,
    literal,
    literal_column,
    or_,
    select,
    text,
    true,
    tuple_,
    type_coerce,
    update,
)
from sqlalchemy.dialects.postgresql import TSQUERY, aggregate_order_by
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.core.caching import CountCache, read_version, version_column
from app.core.constants import TRASH
from app.core.slugs import make_slug
from app.core.sql import (
    add_trashed_suffix,
    insert_with_unique_slug,
    json_object,
    lock_row,
    rename_to_unique_slug,
    taken_slugs,
    upsert_translation,
)
from app.events.search import cached_lexemes, remember_lexemes
from app.models import (
    CATEGORY,
    Event,
    EventTranslation,
    Image,
    Occurrence,
    Organizer,
    Term,
    Venue,
    event_organizers,
    event_terms,
)
from app.models.base import utcnow
from app.organizers.repository import OrganizerRecord, OrganizerRepository
from app.posts.records import ImageRecord
from app.terms.repository import TermRecord, TermRepository
from app.venues.repository import VenueRecord, VenueRepository

IMAGE_FIELDS = ("id", "url", "extension", "width", "height")
# The words PostgreSQL's parser makes of each search word, as the search index holds them.
_LEXEMES = text(
    "SELECT word, array(SELECT lexeme FROM unnest(to_tsvector('simple', word)))"
    " FROM unnest(CAST(:words AS text[])) AS word"
)
SLUG_CONSTRAINT = "events_slug_key"
DAY = timedelta(days=1)


@dataclass(slots=True)
class EventRecord:
    id: int
    author_id: int | None
    status: str
    slug: str
    published_at: datetime
    modified_at: datetime
    password: str | None
    title: str
    description: str
    excerpt: str
    start_at: datetime
    end_at: datetime
    start_local: datetime
    end_local: datetime
    timezone: str
    timezone_abbr: str
    all_day: bool
    cost: str
    cost_details: dict[str, Any]
    website: str | None
    show_map: bool
    show_map_link: bool
    hide_from_listings: bool
    sticky: bool
    featured: bool
    image_id: int | None
    venue_id: int | None
    parent_id: int | None
    revision: int = 0
    # The occurrence's series (its own ID for a single event) and the event row showing it
    # (the series, or an override of this one date); `recurrence`: the series' rules.
    series_id: int = 0
    content_id: int = 0
    recurrence: list[str] | None = None
    original_start: datetime | None = None
    venue: VenueRecord | None = None
    organizers: list[OrganizerRecord] = field(default_factory=list)
    image: ImageRecord | None = None
    categories: list[TermRecord] = field(default_factory=list)
    tags: list[TermRecord] = field(default_factory=list)


# The occurrence's own columns, then those of the event row showing it (`Event`: the series
# or an override); a single event's occurrence has its ID and dates, so its body is as ever.
_SERIES = aliased(Event, name="series")
_SERIES_SLUG = (
    select(_SERIES.slug).where(_SERIES.id == Event.series_id).scalar_subquery().correlate(Event)
)
_OWN_COLUMNS: tuple[Any, ...] = (
    Event.author_id,
    Event.status,
    # An override's own slug is internal: the occurrence shows the series' slug.
    func.coalesce(_SERIES_SLUG, Event.slug).label("slug"),
    Event.published_at,
    Event.modified_at,
    Event.password,
)
_EVENT_COLUMNS: tuple[Any, ...] = (
    Event.timezone,
    Event.timezone_abbr,
    Event.all_day,
    Event.cost,
    Event.cost_details,
    Event.website,
    Event.show_map,
    Event.show_map_link,
    Event.hide_from_listings,
    Event.sticky,
    Event.featured,
    Event.image_id,
    Event.venue_id,
    Event.parent_id,
    Event.revision,
    Event.recurrence,
)
_OCCURRENCE_COLUMNS = (
    Occurrence.id,
    *_OWN_COLUMNS,
    Occurrence.start_at,
    Occurrence.end_at,
    Occurrence.start_local,
    Occurrence.end_local,
    *_EVENT_COLUMNS,
    Occurrence.series_id,
    Event.id.label("content_id"),
    Occurrence.original_start,
)
# An event row read as itself: a series whose own date is cancelled still answers its ID.
_ROW_COLUMNS = (
    Event.id,
    *_OWN_COLUMNS,
    Event.start_at,
    Event.end_at,
    Event.start_local,
    Event.end_local,
    *_EVENT_COLUMNS,
    Event.id.label("series_id"),
    Event.id.label("content_id"),
    Event.start_at.label("original_start"),
)


_RELATION_COLUMNS: dict[tuple[str, str], tuple[Any, ...]] = {}


class EventRepository:
    def __init__(self, session: AsyncSession, language: str, default_language: str) -> None:
        self.session = session
        self.language = language
        self.default_language = default_language
        self.translated = language != default_language

    def select_records(self, *, rows: bool = False) -> Select[Any]:
        """Occurrences (or with `rows`, event rows themselves) with the texts of the request
        language, falling back to the default. The event is an outer join, which the
        planner drops from a count that does not look at it (an index-only count)."""
        columns = _ROW_COLUMNS if rows else _OCCURRENCE_COLUMNS
        if not self.translated:
            texts: tuple[Any, ...] = (Event.title, Event.description, Event.excerpt)
        else:
            tr = EventTranslation
            texts = (
                func.coalesce(tr.title, Event.title).label("title"),
                func.coalesce(tr.description, Event.description).label("description"),
                func.coalesce(tr.excerpt, Event.excerpt).label("excerpt"),
            )
        stmt = select(*columns, *texts)
        if not rows:
            stmt = stmt.select_from(Occurrence).outerjoin(Event, Event.id == Occurrence.content_id)
        if self.translated:
            tr = EventTranslation
            stmt = stmt.outerjoin(tr, and_(tr.event_id == Event.id, tr.language == self.language))
        return stmt

    def with_relations(self, stmt: Select[Any]) -> Select[Any]:
        """Add the venue, organizers (in order), terms and image of each event as JSON columns,
        so that a page of events with everything embedded is one query, whatever its size."""
        key = (self.language, self.default_language)
        columns = _RELATION_COLUMNS.get(key)
        if columns is None:
            # Building these subqueries costs more than running them: once per language.
            columns = _RELATION_COLUMNS[key] = self._relation_columns()
        return stmt.add_columns(*columns)

    def _relation_columns(self) -> tuple[Any, ...]:
        venues = VenueRepository(self.session, self.language, self.default_language)
        organizers = OrganizerRepository(self.session, self.language, self.default_language)
        terms = TermRepository(self.session, None, self.language, self.default_language)
        venue = venues.json_select(Venue.id == Event.venue_id).scalar_subquery()
        links = event_organizers.c
        organizer_rows = organizers.json_select(links.event_id == Event.id).join(
            event_organizers, links.organizer_id == Organizer.id
        )
        organizer_list = organizer_rows.with_only_columns(
            func.json_agg(aggregate_order_by(organizer_rows.selected_columns[0], links.position)),
            maintain_column_froms=True,
        ).scalar_subquery()
        term_rows = terms.select_for_events(Event.id)
        term_list = term_rows.with_only_columns(
            func.json_agg(
                aggregate_order_by(
                    json_object(term_rows), func.lower(term_rows.selected_columns.name), Term.id
                )
            ),
            maintain_column_froms=True,
        ).scalar_subquery()
        image = (
            select(json_object(select(*(getattr(Image, name) for name in IMAGE_FIELDS))))
            .where(Image.id == Event.image_id)
            .scalar_subquery()
        )
        return (
            type_coerce(venue, JSON).label("venue_json"),
            type_coerce(organizer_list, JSON).label("organizers_json"),
            type_coerce(term_list, JSON).label("terms_json"),
            type_coerce(image, JSON).label("image_json"),
        )

    def _one_statement(self, by: str) -> Select[Any]:
        """Occurrences by `id` or several by `ids` (bound parameters), or with `row_id`,
        `row_ids`, `slug`: event rows themselves (not overrides); with their relations,
        built once per language."""
        key = (by, self.language, self.default_language)
        stmt = _ONE_STATEMENTS.get(key)
        if stmt is None:
            rows = by in ("row_id", "row_ids", "slug")
            ident = Event.id if rows else Occurrence.id
            condition: Any
            if by in ("ids", "row_ids"):
                condition = ident.in_(bindparam(by, expanding=True))
            elif by == "slug":
                condition = Event.slug == bindparam(by)
            else:
                condition = ident == bindparam(by)
            stmt = self.select_records(rows=rows).where(condition)
            if rows:
                stmt = stmt.where(Event.series_id.is_(None))
            stmt = self.with_relations(stmt)
            _ONE_STATEMENTS[key] = stmt
        return stmt

    async def get(self, event_id: int) -> EventRecord | None:
        """The occurrence of this ID, else the event row (a series whose own date is gone)."""
        records = await self.fetch(self._one_statement("id"), {"id": event_id})
        return records[0] if records else await self.get_row(event_id)

    async def get_row(self, event_id: int) -> EventRecord | None:
        """The event row of this ID as itself: a series with its own dates (no override)."""
        records = await self.fetch(self._one_statement("row_id"), {"row_id": event_id})
        return records[0] if records else None

    async def get_many(self, event_ids: Sequence[int]) -> list[EventRecord]:
        """The events of `event_ids` that exist (in no particular order): one query, and
        one more for IDs that are series rows without their own occurrence."""
        if not event_ids:
            return []
        records = await self.fetch(self._one_statement("ids"), {"ids": list(event_ids)})
        missing = set(event_ids) - {record.id for record in records}
        if missing:
            rows = await self.fetch(self._one_statement("row_ids"), {"row_ids": list(missing)})
            records.extend(rows)
        return records

    async def get_by_slug(self, slug: str) -> EventRecord | None:
        """The event of this slug: a series as its ID reads (its first date)."""
        # Slugs are stored in lower case (as venues' and organizers' are).
        records = await self.fetch(self._one_statement("slug"), {"slug": slug.lower()})
        if not records:
            return None
        return await self.get(records[0].id) or records[0]

    async def occurrence_on(self, series_id: int, day: date) -> EventRecord | None:
        """The series' first occurrence starting on that local day."""
        start = datetime.combine(day, time.min)
        found = await self.session.execute(
            select(Occurrence.id)
            .where(
                Occurrence.series_id == series_id,
                Occurrence.start_local >= start,
                Occurrence.start_local < start + DAY,
            )
            .order_by(Occurrence.start_local, Occurrence.id)
            .limit(1)
        )
        occurrence_id = found.scalar()
        return None if occurrence_id is None else await self.get(occurrence_id)

    async def fetch(
        self,
        stmt: Select[Any],
        values: dict[str, Any],
        extras: dict[str, Any] | None = None,
    ) -> list[EventRecord]:
        """Events of `stmt` (with its relations, see with_relations) and the values of its
        parameters: one query. Columns named in `extras` are not event fields: the first
        row's values are stored there."""
        # A Core execution on the session's connection: these rows are plain values, and
        # the ORM's result processing would only cost time.
        connection = await self.session.connection()
        result = await connection.execute(stmt, values)
        venues = VenueRepository(self.session, self.language, self.default_language)
        organizers = OrganizerRepository(self.session, self.language, self.default_language)
        records = []
        for row in result.mappings():
            values = dict(row)
            for name in extras or {}:
                extras[name] = values.pop(name)  # type: ignore[index]
            venue = values.pop("venue_json")
            linked = values.pop("organizers_json") or []
            terms = [TermRecord(**term) for term in values.pop("terms_json") or []]
            image = values.pop("image_json")
            records.append(
                EventRecord(
                    **values,
                    venue=venues.record_from_json(venue) if venue else None,
                    organizers=[organizers.record_from_json(item) for item in linked],
                    image=ImageRecord(**image) if image else None,
                    categories=[t for t in terms if t.taxonomy == CATEGORY],
                    tags=[t for t in terms if t.taxonomy != CATEGORY],
                )
            )
        return records

    # ---- writes ---------------------------------------------------------------------

    async def insert(self, columns: dict[str, Any], texts: dict[str, str], slug: str) -> int:
        """A new event under the first free slug of `slug`; texts in the request language
        become the default-language texts too, so that no event is ever empty."""
        base = make_slug(slug)
        taken = await taken_slugs(self.session, Event.slug, base)

        def build(candidate: str) -> Event:
            return Event(slug=candidate, **texts, **columns)

        event = await insert_with_unique_slug(self.session, build, base, taken, SLUG_CONSTRAINT)
        if self.translated:
            await self._save_translation(event.id, texts)
        return event.id

    async def update(
        self, event_id: int, columns: dict[str, Any], texts: dict[str, str], slug: str | None
    ) -> None:
        """Change what is given; a `slug` taken by another record gets the next free `-N`."""
        values = {**columns, "modified_at": utcnow()}
        if not self.translated:
            values.update(texts)
        await self.session.execute(update(Event).where(Event.id == event_id).values(**values))
        if slug is not None:
            await rename_to_unique_slug(
                self.session, Event, event_id, make_slug(slug), SLUG_CONSTRAINT
            )
        if texts and self.translated:
            await self._save_translation(event_id, texts)

    async def _save_translation(self, event_id: int, texts: dict[str, str]) -> None:
        key = {"event_id": event_id, "language": self.language}
        await upsert_translation(self.session, EventTranslation, key, texts)

    async def link_terms(
        self, event_id: int, taxonomy: str, term_ids: list[int], *, replace: bool
    ) -> None:
        if replace:
            await self.session.execute(
                delete(event_terms).where(
                    event_terms.c.event_id == event_id,
                    event_terms.c.term_id.in_(select(Term.id).where(Term.taxonomy == taxonomy)),
                )
            )
        if term_ids:
            rows = [{"event_id": event_id, "term_id": term_id} for term_id in term_ids]
            await self.session.execute(insert(event_terms), rows)

    async def link_organizers(
        self, event_id: int, organizer_ids: list[int], *, replace: bool
    ) -> None:
        """Link organizers in this order (their position)."""
        links = event_organizers
        if replace:
            await self.session.execute(delete(links).where(links.c.event_id == event_id))
        if organizer_ids:
            rows = [
                {"event_id": event_id, "organizer_id": organizer_id, "position": position}
                for position, organizer_id in enumerate(organizer_ids)
            ]
            await self.session.execute(insert(links), rows)

    async def lock(self, event_id: int) -> bool:
        """Lock the event for this transaction (see core.sql.lock_row); False if missing.
        An occurrence locks its series: every write of a series runs one at a time."""
        series_id = await self.session.scalar(
            select(Occurrence.series_id).where(Occurrence.id == event_id)
        )
        return await lock_row(self.session, Event, series_id or event_id)

    async def trash(self, event_id: int) -> None:
        """Move to the trash; the slug becomes `<slug>__trashed` (free for another event)."""
        await self.session.execute(
            update(Event).where(Event.id == event_id).values(status=TRASH, modified_at=utcnow())
        )
        await add_trashed_suffix(self.session, Event, event_id, SLUG_CONSTRAINT)

    async def search_lexemes(self, words: list[str]) -> list[tuple[str, ...]]:
        """The parser's words of each search word (app/events/search.py)."""
        missing = [word for word in dict.fromkeys(words) if cached_lexemes(word) is None]
        if missing:
            for word, lexemes in await self.session.execute(_LEXEMES, {"words": missing}):
                remember_lexemes(word, tuple(lexemes))
        return [cached_lexemes(word) or () for word in words]

    async def delete(self, event_id: int) -> None:
        await self.session.execute(delete(Event).where(Event.id == event_id))


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
    parent_id: int | None = None
    # Only the first occurrence of each series in the window (the add-on's parameter).
    first_of_series: bool = False
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
            self.repo.language,
            self.repo.default_language,
            f.utc,
            tuple(getattr(f, name) is not None for name in BOUNDS),
            f.include is not None,
            f.search is not None,
            len(f.term_ids),
            f.venue_ids is not None,
            f.organizer_ids is not None,
            f.featured is not None,
            f.parent_id is not None,
            f.first_of_series,
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
        values.update({f"terms_{i}": ids for i, ids in enumerate(f.term_ids)})
        return {name: value for name, value in values.items() if value is not None}

    # ---- building ---------------------------------------------------------------------

    def conditions(self, o: Any = Occurrence, e: Any = Event) -> list[Any]:
        """The filters on occurrences `o` showing events `e` (aliases in a subquery)."""
        f = self.filters
        where: list[Any] = [self._visibility(o)]
        if not f.include_hidden and not self._public():
            # Hidden events stay out of lists for those who may not edit them
            # (docs/design.md, Event list). Occurrences carry their series' visibility.
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
        if f.include is not None:
            where.append(o.id.in_(bindparam("include", expanding=True)))
        if f.search is not None:
            search = bindparam("search", type_=TSQUERY)
            where.append(e.search_words.op("@@")(search))
        links = event_terms.c
        for index in range(len(f.term_ids)):
            terms: Any = bindparam(f"terms_{index}", expanding=True)
            where.append(e.id.in_(select(links.event_id).where(links.term_id.in_(terms))))
        if f.venue_ids is not None:
            where.append(e.venue_id.in_(bindparam("venue_ids", expanding=True)))
        if f.organizer_ids is not None:
            organizers = event_organizers.c
            linked = organizers.organizer_id.in_(bindparam("organizer_ids", expanding=True))
            where.append(e.id.in_(select(organizers.event_id).where(linked)))
        if f.featured is not None:
            where.append(e.featured == bindparam("featured"))
        if f.parent_id is not None:
            # Children of an event (the reference), or the dates of a series.
            parent: Any = bindparam("parent_id")
            of_series = and_(o.series_id == parent, e.recurrence.is_not(None))
            where.append(or_(e.parent_id == parent, of_series))
        return where

    def _public(self) -> bool:
        """Anonymous visibility: published and listed, which occurrences carry themselves
        (`listed`), so the window and its count are read from their partial indexes."""
        f = self.filters
        return f.statuses == ("publish",) and f.viewer_id is None and not f.include_hidden

    def _visibility(self, o: Any) -> Any:
        f = self.filters
        if self._public():
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
        column: Any = (
            func.lower(stmt.selected_columns.title)
            if f.orderby == "title"
            else ORDER_COLUMNS[f.orderby]
        )
        if self.sparse and f.orderby != "title":
            # The same order, by a value no index is sorted by: the planner must find the
            # rows through the other conditions (the search index) first.
            column = column + (literal_column("interval '0'") if f.orderby != "id" else 0)
        keys = [column, Occurrence.published_at, Occurrence.id]
        return [key.desc() if f.descending else key.asc() for key in keys]

    def statement(self) -> Select[Any]:
        """The filtered statement (unordered, unpaged): the base of the page and the count."""
        stmt = self.repo.select_records()
        stmt = stmt.where(*self.conditions())
        if self.filters.first_of_series:
            stmt = stmt.where(self._first_of_its_series())
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

    def _page(self) -> Select[Any]:
        stmt = self.statement()
        page = stmt.order_by(*self.order(stmt)).offset(bindparam("offset", type_=BigInteger))
        return page.limit(bindparam("limit", type_=Integer))

    def _statements(self) -> tuple[Select[Any], Select[Any]]:
        """(the page with its relations and the data version, the count) of this shape."""
        key = self.shape()
        built = _LIST_STATEMENTS.get(key)
        if built is None:
            page = self.repo.with_relations(self._page().add_columns(version_column()))
            counted = self.statement().with_only_columns(literal(1), maintain_column_froms=True)
            count = select(func.count(), version_column()).select_from(counted.subquery())
            built = (page, cast(Select[Any], count))
            if len(_LIST_STATEMENTS) >= MAX_CACHED_SHAPES:
                _LIST_STATEMENTS.clear()
            _LIST_STATEMENTS[key] = built
        return built

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
        return await self.repo.fetch(page_stmt, paged, {"data_version": None})

    async def _choose_plan(self, values: dict[str, Any], totals: CountCache | None) -> None:
        """The planner cannot tell how many events a search word matches (a word prefix);
        the count can, and a count of the same search seen before is a good guide."""
        if self.filters.search is None:
            return
        key = self._cache_key()
        matches = totals.hint(key) if totals is not None else None
        if matches is None:
            matches = await self._count(values, key, totals)
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
        page_stmt, _ = self._statements()
        extras: dict[str, Any] = {"data_version": None}
        paged = {**values, "offset": offset, "limit": limit}
        records = await self.repo.fetch(page_stmt, paged, extras)
        version = read_version(self.repo.session, extras["data_version"])
        if totals is not None and version is not None:
            cached = totals.get(key, version)
            if cached is not None:
                return records, cached
        return records, await self._count(values, key, totals)

    async def _count(
        self, values: dict[str, Any], key: tuple[Any, ...], totals: CountCache | None
    ) -> int:
        """The exact total, kept in `totals` under the data version read with it."""
        _, count_stmt = self._statements()
        connection = await self.repo.session.connection()
        row = (await connection.execute(count_stmt, values)).one()
        total, version = row[0] or 0, read_version(self.repo.session, row[1])
        if totals is not None and version is not None:
            totals.put(key, version, total)
        return int(total)


# Statements per filter shape (EventListQuery), and per language for single reads.
# Up to this many matches, a search reads its matches through the index and sorts them (a
# few milliseconds); beyond, matches are dense enough to find by walking the list order.
SPARSE_MATCHES = 2000
MAX_CACHED_SHAPES = 512
_LIST_STATEMENTS: dict[tuple[Any, ...], tuple[Select[Any], Select[Any]]] = {}
_ONE_STATEMENTS: dict[tuple[str, str, str], Select[Any]] = {}
