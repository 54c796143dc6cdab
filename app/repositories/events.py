"""Event queries: single records, their relations in a constant number of queries, writes."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, false, func, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import CATEGORY, Event, EventTranslation, event_organizers, event_terms
from app.repositories.terms import TermRecord, TermRepository


@dataclass(slots=True, frozen=True)
class Ownership:
    author_id: int | None
    status: str


async def event_ownership(session: AsyncSession, event_id: int) -> Ownership | None:
    """Author and status of an event, to decide whether a caller may see it."""
    row = (
        await session.execute(select(Event.author_id, Event.status).where(Event.id == event_id))
    ).first()
    return Ownership(author_id=row.author_id, status=row.status) if row else None


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
    organizer_ids: list[int] = field(default_factory=list)
    categories: list[TermRecord] = field(default_factory=list)
    tags: list[TermRecord] = field(default_factory=list)


_PLAIN_COLUMNS = (
    Event.id,
    Event.author_id,
    Event.status,
    Event.slug,
    Event.published_at,
    Event.modified_at,
    Event.password,
    Event.start_at,
    Event.end_at,
    Event.start_local,
    Event.end_local,
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
)


class EventRepository:
    def __init__(self, session: AsyncSession, language: str, default_language: str) -> None:
        self.session = session
        self.language = language
        self.default_language = default_language
        self.translated = language != default_language

    def select_records(self) -> Select[Any]:
        """Event columns with the texts of the request language (falling back to the default)."""
        if not self.translated:
            return select(*_PLAIN_COLUMNS, Event.title, Event.description, Event.excerpt)
        tr = EventTranslation
        return select(
            *_PLAIN_COLUMNS,
            func.coalesce(tr.title, Event.title).label("title"),
            func.coalesce(tr.description, Event.description).label("description"),
            func.coalesce(tr.excerpt, Event.excerpt).label("excerpt"),
        ).outerjoin(tr, and_(tr.event_id == Event.id, tr.language == self.language))

    async def get(self, event_id: int) -> EventRecord | None:
        records = await self._fetch(self.select_records().where(Event.id == event_id))
        return records[0] if records else None

    async def get_by_slug(self, slug: str) -> EventRecord | None:
        records = await self._fetch(self.select_records().where(Event.slug == slug))
        return records[0] if records else None

    async def _fetch(self, stmt: Select[Any]) -> list[EventRecord]:
        rows = (await self.session.execute(stmt)).mappings().all()
        records = [EventRecord(**row) for row in rows]
        await self.attach_relations(records)
        return records

    async def attach_relations(self, records: Sequence[EventRecord]) -> None:
        """Organizer IDs (in order) and terms of every record: two queries, whatever the count."""
        if not records:
            return
        by_id = {record.id: record for record in records}
        ids = list(by_id)
        links = await self.session.execute(
            select(event_organizers.c.event_id, event_organizers.c.organizer_id)
            .where(event_organizers.c.event_id.in_(ids))
            .order_by(event_organizers.c.event_id, event_organizers.c.position)
        )
        for event_id, organizer_id in links:
            by_id[event_id].organizer_ids.append(organizer_id)
        terms = TermRepository(self.session, None, self.language, self.default_language)
        for event_id, term in await terms.of_events(ids):
            record = by_id[event_id]
            (record.categories if term.taxonomy == CATEGORY else record.tags).append(term)


@dataclass(slots=True)
class EventListFilters:
    """A normalised event list query. Date bounds are naive site-time wall clock values,
    compared with the events' local start/end (the reference's "event" time zone mode)."""

    start_min: datetime | None = None  # start >= (start_date)
    end_max: datetime | None = None  # end <= (end_date)
    starts_before: datetime | None = None
    starts_after: datetime | None = None
    ends_before: datetime | None = None
    ends_after: datetime | None = None
    include: list[int] | None = None
    words: list[str] = field(default_factory=list)
    term_ids: list[list[int]] = field(default_factory=list)  # each inner list: any of them
    venue_ids: list[int] | None = None
    organizer_ids: list[int] | None = None
    featured: bool | None = None
    parent_id: int | None = None
    statuses: tuple[str, ...] = ("publish",)
    # Only these statuses of other people's events; own events in any of `statuses`.
    others_statuses: tuple[str, ...] | None = None
    viewer_id: int | None = None
    include_hidden: bool = False
    orderby: str = "start_date"
    descending: bool = False


def _words_condition(words: list[str], columns: list[Any]) -> list[Any]:
    """Every word occurs (case-insensitively) in one of the columns."""
    conditions = []
    for word in words:
        pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        conditions.append(or_(*(column.ilike(pattern) for column in columns)))
    return conditions


ORDER_COLUMNS = {
    "start_date": Event.start_local,
    "end_date": Event.end_local,
    "date": Event.published_at,
    "modified": Event.modified_at,
    "id": Event.id,
}


class EventListQuery:
    """Builds the event list statement from a filter object: one place for the window."""

    def __init__(self, repo: EventRepository, filters: EventListFilters) -> None:
        self.repo = repo
        self.filters = filters

    def conditions(self, stmt: Select[Any]) -> list[Any]:
        f = self.filters
        e = Event
        where: list[Any] = [self._visibility()]
        if not f.include_hidden:
            # Hidden events stay out of lists for those who may not edit them (DESIGN §8).
            # `= false` (not `IS false`) so that the partial listing index applies.
            shown = e.hide_from_listings == false()
            where.append(shown if f.viewer_id is None else or_(shown, e.author_id == f.viewer_id))
        bounds = (
            (f.start_min, e.start_local.__ge__),
            (f.end_max, e.end_local.__le__),
            (f.starts_before, e.start_local.__lt__),
            (f.starts_after, e.start_local.__gt__),
            (f.ends_before, e.end_local.__lt__),
            (f.ends_after, e.end_local.__gt__),
        )
        where.extend(compare(value) for value, compare in bounds if value is not None)
        if f.include is not None:
            where.append(e.id.in_(f.include))
        if f.words:
            columns = stmt.selected_columns
            where.extend(
                _words_condition(f.words, [columns.title, columns.description, columns.excerpt])
            )
        for term_ids in f.term_ids:
            where.append(
                e.id.in_(select(event_terms.c.event_id).where(event_terms.c.term_id.in_(term_ids)))
            )
        if f.venue_ids is not None:
            where.append(e.venue_id.in_(f.venue_ids))
        if f.organizer_ids is not None:
            where.append(
                e.id.in_(
                    select(event_organizers.c.event_id).where(
                        event_organizers.c.organizer_id.in_(f.organizer_ids)
                    )
                )
            )
        if f.featured is not None:
            where.append(e.featured.is_(f.featured))
        if f.parent_id is not None:
            where.append(e.parent_id == f.parent_id)
        return where

    def _visibility(self) -> Any:
        f = self.filters
        if f.others_statuses is None or f.viewer_id is None:
            return Event.status.in_(f.statuses)
        return or_(
            Event.status.in_(f.others_statuses),
            and_(Event.author_id == f.viewer_id, Event.status.in_(f.statuses)),
        )

    def order(self, stmt: Select[Any]) -> list[Any]:
        f = self.filters
        column: Any = (
            func.lower(stmt.selected_columns.title)
            if f.orderby == "title"
            else ORDER_COLUMNS[f.orderby]
        )
        keys = [column, Event.published_at, Event.id]
        return [key.desc() if f.descending else key.asc() for key in keys]

    def statement(self) -> Select[Any]:
        """The filtered statement (unordered, unpaged): the base of the page and the count."""
        stmt = self.repo.select_records()
        return stmt.where(*self.conditions(stmt))

    def page_statement(self, offset: int, limit: int) -> Select[Any]:
        stmt = self.statement()
        return stmt.order_by(*self.order(stmt)).offset(offset).limit(limit)

    async def page(self, offset: int, limit: int) -> tuple[list[EventRecord], int]:
        counted = self.statement().with_only_columns(literal(1), maintain_column_froms=True)
        total = await self.repo.session.scalar(select(func.count()).select_from(counted.subquery()))
        records = await self.repo._fetch(self.page_statement(offset, limit))
        return records, total or 0
