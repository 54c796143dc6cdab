"""Event queries: single records, their relations in a constant number of queries, writes."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import CATEGORY, Event, EventTranslation, event_organizers
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
