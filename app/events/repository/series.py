"""The SQL of series and their occurrences (the rules and decisions are in
app/events/occurrences.py): reading a series, storing its dates, override rows and their
copies of the series, moving dates to a split-off series, and the series due for more dates.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    BigInteger,
    String,
    Table,
    bindparam,
    case,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import taken_slugs, under_free_slug
from app.core.rules.slugs import make_slug
from app.events.repository.events import SLUG_CONSTRAINT
from app.models import Event, EventTranslation, Occurrence, event_organizers, event_terms
from app.models.base import POST_ID_SEQ

# Columns an override copies from its series unless it changed them itself (by group).
FOLLOWED = {
    "title": ("title",),
    "description": ("description",),
    "excerpt": ("excerpt",),
    "venue": ("venue_id",),
    "cost": ("cost", "cost_details"),
}
# Columns an override always copies from its series.
SERIES_OWNED = (
    "author_id",
    "status",
    "published_at",
    "modified_at",
    "password",
    "timezone",
    "timezone_abbr",
    "all_day",
    "website",
    "show_map",
    "show_map_link",
    "hide_from_listings",
    "sticky",
    "featured",
    "image_id",
    "parent_id",
    "recurrence",
)
DATE_COLUMNS = ("start_at", "end_at", "start_local", "end_local")
INSERT_CHUNK = 2000  # occurrence rows per INSERT (asyncpg takes up to 32767 parameters)


class OccurrenceRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ---- a series and its stored dates ------------------------------------------------

    async def series(self, series_id: int) -> Any:
        """What materialising a series reads of it."""
        stmt = select(
            Event.start_local,
            Event.end_local,
            Event.start_at,
            Event.timezone,
            Event.recurrence,
            Event.status,
            Event.author_id,
            Event.hide_from_listings,
            Event.published_at,
            Event.slug,
        ).where(Event.id == series_id)
        return (await self.session.execute(stmt)).one()

    async def set_dates_until(self, series_id: int, until: datetime) -> None:
        await self.session.execute(
            update(Event)
            .where(Event.id == series_id, Event.dates_until.is_distinct_from(until))
            .values(dates_until=until)
        )

    async def stored(self, series_id: int) -> Sequence[Any]:
        """The series' occurrences: (id, original_start, content_id)."""
        stmt = select(Occurrence.id, Occurrence.original_start, Occurrence.content_id).where(
            Occurrence.series_id == series_id
        )
        return (await self.session.execute(stmt)).all()

    async def listed_dates(self, series_id: int) -> Sequence[Any]:
        """Every date of the series in date order, with what marks a moved or changed one."""
        stmt = (
            select(
                Occurrence.id,
                Occurrence.start_local,
                Occurrence.start_at,
                Occurrence.original_start,
                Occurrence.content_id,
            )
            .where(Occurrence.series_id == series_id)
            .order_by(Occurrence.start_local, Occurrence.id)
        )
        return (await self.session.execute(stmt)).all()

    async def drop(self, occurrence_ids: list[int], override_ids: list[int]) -> None:
        """Delete these occurrences and these override rows."""
        if occurrence_ids:
            await self.session.execute(delete(Occurrence).where(Occurrence.id.in_(occurrence_ids)))
        if override_ids:
            await self.session.execute(delete(Event).where(Event.id.in_(override_ids)))

    async def single(self, event_id: int) -> None:
        """A single event: its one occurrence, with its ID and dates (no overrides)."""
        await self.session.execute(
            delete(Occurrence).where(Occurrence.series_id == event_id, Occurrence.id != event_id)
        )
        await self.session.execute(delete(Event).where(Event.series_id == event_id))
        await self.session.execute(_SINGLE, {"id": event_id})

    async def new_ids(self, count: int) -> list[int]:
        if count == 0:
            return []
        drawn = await self.session.execute(
            select(POST_ID_SEQ.next_value()).select_from(func.generate_series(1, count))
        )
        return list(drawn.scalars())

    async def upsert(self, rows: list[dict[str, Any]]) -> None:
        """Insert new occurrences; existing ones (not overridden) take the rules' dates."""
        for first in range(0, len(rows), INSERT_CHUNK):
            stmt = pg_insert(Occurrence).values(rows[first : first + INSERT_CHUNK])
            new = stmt.excluded
            changed = func.row(*(getattr(Occurrence, c) for c in DATE_COLUMNS)).is_distinct_from(
                func.row(*(getattr(new, c) for c in DATE_COLUMNS))
            )
            await self.session.execute(
                stmt.on_conflict_do_update(
                    index_elements=[Occurrence.id],
                    set_={c: getattr(new, c) for c in DATE_COLUMNS},
                    where=changed,
                )
            )

    async def move_overrides(self, moved: list[dict[str, Any]]) -> None:
        """Overrides that did not change their dates follow the rules' (a trigger moves
        their occurrences)."""
        for item in moved:
            await self.session.execute(
                update(Event)
                .where(Event.id == item["override"], ~Event.overrides.contains(["dates"]))
                .values({c: item[c] for c in DATE_COLUMNS})
            )

    # ---- overrides --------------------------------------------------------------------

    async def content_of(self, occurrence_id: int) -> int | None:
        """The event row showing the occurrence (its series, or an override)."""
        return await self.session.scalar(
            select(Occurrence.content_id).where(Occurrence.id == occurrence_id)
        )

    async def dates_of(self, occurrence_id: int) -> dict[str, datetime]:
        stmt = select(*(getattr(Occurrence, c) for c in DATE_COLUMNS)).where(
            Occurrence.id == occurrence_id
        )
        return dict((await self.session.execute(stmt)).one()._mapping)

    async def show_with(self, occurrence_id: int, content_id: int) -> None:
        await self.session.execute(
            update(Occurrence).where(Occurrence.id == occurrence_id).values(content_id=content_id)
        )

    async def mark_overridden(self, override_id: int, groups: list[str]) -> None:
        await self.session.execute(
            update(Event)
            .where(Event.id == override_id)
            .values(overrides=func.array_cat(Event.overrides, groups))
        )

    async def copy(self, source_id: int, *, slug: str, series: int | None, **values: Any) -> int:
        """A new event row with the columns of `source_id` (and its translations, terms and
        organizers), under `slug`; `values` replace columns."""
        skipped = {"id", "slug", "search_words", "revision", "series_id", "overrides"}
        columns = [c.name for c in Event.__table__.columns if c.name not in skipped]
        events = cast(Table, Event.__table__)
        copied = [
            bindparam(name, values[name], type_=events.c[name].type)
            if name in values
            else getattr(Event, name)
            for name in columns
        ]
        new_id = await self.session.scalar(
            insert(events)
            .from_select(
                [*columns, "slug", "series_id"],
                select(
                    *copied,
                    bindparam("slug", slug, type_=String),
                    bindparam("series", series, type_=BigInteger),
                ).where(Event.id == source_id),
            )
            .returning(events.c.id)
        )
        assert new_id is not None
        translations = cast(Table, EventTranslation.__table__)
        for table, key in ((translations, "event_id"), (event_terms, "event_id")):
            others = [c for c in table.c if c.name != key]
            await self.session.execute(
                insert(table).from_select(
                    [key, *(c.name for c in others)],
                    select(text(str(int(new_id))), *others).where(table.c[key] == source_id),
                )
            )
        links = event_organizers
        await self.session.execute(
            insert(links).from_select(
                ["event_id", "organizer_id", "position"],
                select(text(str(int(new_id))), links.c.organizer_id, links.c.position).where(
                    links.c.event_id == source_id
                ),
            )
        )
        return int(new_id)

    async def copy_with_free_slug(self, source_id: int, slug: str, **values: Any) -> int:
        """A copy of the event under the first free `-N` of its slug (a concurrent writer
        taking one is met by the next, as for every slug)."""
        base = make_slug(slug)
        taken = await taken_slugs(self.session, Event.slug, base)

        async def write(candidate: str) -> int:
            return await self.copy(source_id, slug=candidate, series=None, **values)

        return await under_free_slug(self.session, write, base, taken, SLUG_CONSTRAINT)

    async def follow(self, series_id: int) -> None:
        """Copy the series' fields to its overrides, but those each changed itself."""
        if not await self.session.scalar(
            select(select(Event.id).where(Event.series_id == series_id).exists())
        ):
            return
        for statement in _FOLLOW:
            await self.session.execute(statement, {"series": series_id})

    # ---- rules and splitting ----------------------------------------------------------

    async def lines(self, series_id: int) -> list[str]:
        lines = await self.session.scalar(select(Event.recurrence).where(Event.id == series_id))
        return list(lines or [])

    async def set_lines(self, series_id: int, lines: list[str]) -> None:
        await self.session.execute(
            update(Event).where(Event.id == series_id).values(recurrence=lines or None)
        )

    async def move_from(self, series_id: int, new_id: int, original_start: datetime) -> None:
        """Occurrences from `original_start` on, and their overrides, move to the series
        `new_id` (keeping their IDs)."""
        await self.session.execute(
            update(Occurrence)
            .where(Occurrence.series_id == series_id, Occurrence.original_start >= original_start)
            .values(
                series_id=new_id,
                content_id=case(
                    (Occurrence.content_id == series_id, new_id), else_=Occurrence.content_id
                ),
            )
        )
        await self.session.execute(
            update(Event)
            .where(
                Event.series_id == series_id,
                Event.id.in_(select(Occurrence.content_id).where(Occurrence.series_id == new_id)),
            )
            .values(series_id=new_id)
        )

    async def try_lock(self, key: int) -> bool:
        """Take the transaction-scoped advisory lock `key`, unless another holds it."""
        return bool(await self.session.scalar(select(func.pg_try_advisory_xact_lock(key))))

    async def due(self, before: datetime) -> Sequence[Any]:
        """Series whose stored dates stop short of `before` (their `dates_until`), with
        their rules and last stored start (`last`)."""
        stmt = select(
            Event.id,
            Event.recurrence,
            Event.start_local,
            Event.timezone,
            select(func.max(Occurrence.original_start))
            .where(Occurrence.series_id == Event.id)
            .scalar_subquery()
            .label("last"),
        ).where(
            Event.recurrence.is_not(None),
            Event.series_id.is_(None),
            or_(Event.dates_until.is_(None), Event.dates_until < before),
        )
        return (await self.session.execute(stmt)).all()


_SINGLE = text(
    "INSERT INTO occurrences (id, series_id, content_id, original_start, start_at, "
    "end_at, start_local, end_local, listed, published_at, status, author_id, "
    "hide_from_listings) "
    "SELECT id, id, id, start_at, start_at, end_at, start_local, end_local, "
    "status = 'publish' AND hide_from_listings = false, published_at, status, "
    "author_id, hide_from_listings "
    "FROM events WHERE id = :id ON CONFLICT (id) DO UPDATE SET "
    "content_id = EXCLUDED.content_id, original_start = EXCLUDED.original_start, "
    "start_at = EXCLUDED.start_at, end_at = EXCLUDED.end_at, "
    "start_local = EXCLUDED.start_local, end_local = EXCLUDED.end_local"
)
_FOLLOW_COLUMNS = text(
    "UPDATE events AS o SET "
    + ", ".join(f"{c} = s.{c}" for c in SERIES_OWNED)
    + ", "
    + ", ".join(
        f"{c} = CASE WHEN '{group}' = ANY(o.overrides) THEN o.{c} ELSE s.{c} END"
        for group, columns in FOLLOWED.items()
        for c in columns
    )
    + " FROM events AS s WHERE s.id = :series AND o.series_id = :series"
)
_FOLLOW_TRANSLATIONS = text(
    "INSERT INTO event_translations (event_id, language, title, description, excerpt) "
    "SELECT o.id, t.language, "
    + ", ".join(
        f"CASE WHEN '{c}' = ANY(o.overrides) THEN ot.{c} ELSE t.{c} END"
        for c in ("title", "description", "excerpt")
    )
    + " FROM events AS o JOIN event_translations AS t ON t.event_id = :series "
    "LEFT JOIN event_translations AS ot ON ot.event_id = o.id AND ot.language = t.language "
    "WHERE o.series_id = :series "
    "ON CONFLICT (event_id, language) DO UPDATE SET title = EXCLUDED.title, "
    "description = EXCLUDED.description, excerpt = EXCLUDED.excerpt"
)
_UNFOLLOW_TERMS = text(
    "DELETE FROM event_terms WHERE event_id IN (SELECT id FROM events WHERE series_id = :series)"
)
_FOLLOW_TERMS = text(
    "INSERT INTO event_terms (event_id, term_id) SELECT o.id, t.term_id FROM events AS o "
    "JOIN event_terms AS t ON t.event_id = :series WHERE o.series_id = :series "
    "ON CONFLICT DO NOTHING"
)
_UNFOLLOW_ORGANIZERS = text(
    "DELETE FROM event_organizers WHERE event_id IN "
    "(SELECT id FROM events WHERE series_id = :series AND NOT 'organizer' = ANY(overrides))"
)
_FOLLOW_ORGANIZERS = text(
    "INSERT INTO event_organizers (event_id, organizer_id, position) "
    "SELECT o.id, l.organizer_id, l.position FROM events AS o "
    "JOIN event_organizers AS l ON l.event_id = :series "
    "WHERE o.series_id = :series AND NOT 'organizer' = ANY(o.overrides) "
    "ON CONFLICT DO NOTHING"
)
# The statements of `follow`, in order.
_FOLLOW = (
    _FOLLOW_COLUMNS,
    _FOLLOW_TRANSLATIONS,
    _UNFOLLOW_TERMS,
    _FOLLOW_TERMS,
    _UNFOLLOW_ORGANIZERS,
    _FOLLOW_ORGANIZERS,
)
