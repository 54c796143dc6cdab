"""The events' reads by ID and slug (each record with its relations in one statement) and
their writes."""

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import (
    JSON,
    Select,
    and_,
    bindparam,
    delete,
    func,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.dialects.postgresql import aggregate_order_by
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.core.database.compiled import fetch_rows
from app.core.database.sql import (
    MAX_SLUG_ATTEMPTS,
    add_trashed_suffix,
    json_object,
    lock_row,
    rename_to_unique_slug,
    upsert_translation,
)
from app.core.rules.constants import TRASH
from app.core.rules.slugs import make_slug
from app.events.records import EventRecord
from app.events.repository.links import (
    LinkRows,
    insert_statement,
    insert_values,
    link_statement,
)
from app.events.repository.tickets import attendance, attendance_of, ticketed
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
)
from app.models.base import utcnow
from app.organizers.repository import OrganizerRepository
from app.posts.records import ImageRecord
from app.posts.repository import image_columns
from app.terms.repository import TermRecord, TermRepository
from app.venues.repository import VenueRepository

# The words PostgreSQL's parser makes of each search word, as the search index holds them.
_LEXEMES = text(
    "SELECT word, array(SELECT lexeme FROM unnest(to_tsvector('simple', word)))"
    " FROM unnest(CAST(:words AS text[])) AS word"
)
SLUG_CONSTRAINT = "events_slug_key"
DAY = timedelta(days=1)

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
    def __init__(
        self,
        session: AsyncSession,
        language: str,
        default_language: str,
        *,
        attendance: bool = False,
    ) -> None:
        """`attendance`: read each event's attendance figures too (for callers who may see
        attendees: app/events/kind.py); every read has `ticketed`."""
        self.session = session
        self.language = language
        self.default_language = default_language
        self.translated = language != default_language
        self.attendance = attendance

    @property
    def shape(self) -> tuple[str, str, bool]:
        """What decides the text of its statements (with the filters, for a list)."""
        return self.language, self.default_language, self.attendance

    def select_records(self, *, rows: bool = False) -> Select[Any]:
        """Occurrences (or with `rows`, event rows themselves) with the texts of the request
        language, falling back to the default. The event is an outer join, which the
        planner drops from a count that does not look at it (an index-only count)."""
        columns = _ROW_COLUMNS if rows else _OCCURRENCE_COLUMNS
        texts = (self._text("title"), self._text("description"), self._text("excerpt"))
        # A date's own ID and its series' (an event row read as itself is its first date).
        ids = (Event.id, Event.id) if rows else (Occurrence.id, Occurrence.series_id)
        tickets = [ticketed(*ids).label("ticketed")]
        if self.attendance:
            tickets.append(attendance(*ids).label("attendance_json"))
        return self._joined(select(*columns, *texts, *tickets), rows=rows)

    def select_summaries(self) -> Select[Any]:
        """Occurrences as `EventSummary` columns: what a calendar grid shows, read under
        the same joins (and so the same filters) as `select_records`."""
        slug = _OWN_COLUMNS[2]  # a series' slug for its overrides, as in select_records
        columns = (Occurrence.id, slug, self._text("title"), Occurrence.start_local)
        return self._joined(
            select(
                *columns, Occurrence.end_local, Event.recurrence, Occurrence.status, Event.all_day
            )
        )

    def _text(self, name: str) -> Any:
        """A text column in the request language, falling back to the default's."""
        own = getattr(Event, name)
        if not self.translated:
            return own
        return func.coalesce(getattr(EventTranslation, name), own).label(name)

    def _joined(self, stmt: Select[Any], *, rows: bool = False) -> Select[Any]:
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
            select(
                json_object(
                    select(
                        *(
                            column.label(name)
                            for name, column in image_columns(self.language, self.default_language)
                        )
                    )
                )
            )
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
        key = (by, *self.shape)
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

    async def last_stored_start(self, series_id: int) -> datetime | None:
        """The original start of the series' last stored date."""
        return await self.session.scalar(
            select(func.max(Occurrence.original_start)).where(Occurrence.series_id == series_id)
        )

    async def override_ids(self, series_id: int) -> list[int]:
        """The series' occurrences shown by an override row of their own."""
        ids = await self.session.scalars(
            select(Occurrence.id)
            .where(Occurrence.series_id == series_id)
            .where(Occurrence.content_id != Occurrence.series_id)
        )
        return list(ids)

    async def fetch(
        self,
        stmt: Select[Any],
        values: dict[str, Any],
        extras: dict[str, Any] | None = None,
    ) -> list[EventRecord]:
        """Events of `stmt` (with its relations, see with_relations) and the values of its
        parameters: one query. Columns named in `extras` are not event fields: the first
        row's values are stored there."""
        # Plain rows on the session's connection, the statement's text compiled once
        # (app/core/database/compiled.py): the ORM's result processing, and SQLAlchemy's lookup
        # of the compiled form, would only cost time.
        keys, rows = await fetch_rows(self.session, stmt, values)
        venues = VenueRepository(self.session, self.language, self.default_language)
        organizers = OrganizerRepository(self.session, self.language, self.default_language)
        records = []
        for row in rows:
            values = dict(zip(keys, row, strict=True))
            for name in extras or {}:
                extras[name] = values.pop(name)  # type: ignore[index]
            venue = values.pop("venue_json")
            linked = values.pop("organizers_json") or []
            terms = [TermRecord(**term) for term in values.pop("terms_json") or []]
            image = values.pop("image_json")
            figures = attendance_of(values.pop("attendance_json", None))
            records.append(
                EventRecord(
                    **values,
                    attendance=figures,
                    venue=venues.record_from_json(venue) if venue else None,
                    organizers=[organizers.record_from_json(item) for item in linked],
                    image=ImageRecord(**image) if image else None,
                    categories=[t for t in terms if t.taxonomy == CATEGORY],
                    tags=[t for t in terms if t.taxonomy != CATEGORY],
                )
            )
        return records

    # ---- writes ---------------------------------------------------------------------

    async def insert(
        self, columns: dict[str, Any], texts: dict[str, str], slug: str, links: LinkRows
    ) -> int:
        """A new event under the first free slug of `slug`, with its links, in one statement
        (the slug's choice, the row, its terms and organizers; the change log and the other
        triggers fire with it). Texts in the request language become the default-language
        texts too, so that no event is ever empty."""
        base = make_slug(slug)
        columns = {**texts, **columns}
        names, values = insert_values(columns, base, links)
        stmt = insert_statement(names, links)
        connection = await self.session.connection()
        for _ in range(MAX_SLUG_ATTEMPTS):
            event_id = (await connection.execute(stmt, values)).scalar()
            if event_id is not None:
                break  # else a concurrent writer took that slug: choose again
        else:
            raise RuntimeError(f"no free slug for {base!r} after {MAX_SLUG_ATTEMPTS} attempts")
        if self.translated:
            await self._save_translation(event_id, texts)
        return int(event_id)

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

    async def keep_modified(self, event_id: int, modified_at: datetime) -> None:
        """Give back the `modified` an update that changed nothing replaced."""
        await self.session.execute(
            update(Event).where(Event.id == event_id).values(modified_at=modified_at)
        )

    async def _save_translation(self, event_id: int, texts: dict[str, str]) -> None:
        key = {"event_id": event_id, "language": self.language}
        await upsert_translation(self.session, EventTranslation, key, texts)

    async def link(self, event_id: int, links: LinkRows, *, replace: bool) -> None:
        """Link the terms and organizers of `links`; with `replace`, those of the taxonomies
        sent (and the organizers, when sent) that are not in `links` go. One statement."""
        stmt = link_statement(links, replace=replace)
        if stmt is not None:
            connection = await self.session.connection()
            await connection.execute(stmt, {**links.values(), "event_id": event_id})

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


# Single reads, per language.
_ONE_STATEMENTS: dict[tuple[str, str, str, bool], Select[Any]] = {}
