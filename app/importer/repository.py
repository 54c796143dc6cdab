"""All of the importer's own SQL: the mapping of source records to local ones, the runs, and
the few column writes the resource repositories leave to their callers (the source's dates,
its exact slug, image dimensions)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, func, literal, select, union, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import refresh_statistics, rename_to_unique_slug
from app.core.rules.permissions import Principal, Role
from app.models import Event, Image, ImportMapping, ImportRun, Organizer, Term, User, Venue
from app.models.base import utcnow

# The tables an import grows, analysed as it goes (docs/design.md#bulk-loads).
GROWN_TABLES = (
    "terms", "term_translations", "venues", "venue_translations", "organizers",
    "organizer_translations", "events", "event_translations", "event_terms",
    "event_organizers", "occurrences", "images", "import_mappings", "change_log",
)  # fmt: skip

# The local table of each kind the importer maps.
TABLES: dict[str, Any] = {
    "category": Term,
    "tag": Term,
    "venue": Venue,
    "organizer": Organizer,
    "event": Event,
}


@dataclass(frozen=True, slots=True)
class Mapped:
    """A source record already imported: its local ID, whether that record still exists,
    and what it was imported from."""

    local_id: int
    present: bool
    source_modified: datetime | None
    digest: str


class ImportRepository:
    def __init__(self, session: AsyncSession, source: str) -> None:
        self.session = session
        self.source = source

    # ---- the mapping ----------------------------------------------------------------

    async def mapped(self, kind: str) -> dict[int, Mapped]:
        """Every mapped record of a kind, by source ID: one query, so that telling unchanged
        records apart costs nothing per record."""
        m, table = ImportMapping, TABLES[kind]
        rows = await self.session.execute(
            select(m.source_id, m.local_id, m.source_modified, m.digest, table.id.is_not(None))
            .outerjoin(table, table.id == m.local_id)
            .where(m.source == self.source, m.kind == kind)
        )
        return {
            source_id: Mapped(local_id, bool(present), modified, digest)
            for source_id, local_id, modified, digest, present in rows
        }

    async def remember(
        self, kind: str, source_id: int, local_id: int, modified: datetime | None, digest: str
    ) -> None:
        values = {
            "source": self.source,
            "kind": kind,
            "source_id": source_id,
            "local_id": local_id,
            "source_modified": modified,
            "digest": digest,
            "imported_at": utcnow(),
        }
        stmt = pg_insert(ImportMapping).values(**values)
        await self.session.execute(
            stmt.on_conflict_do_update(
                index_elements=["source", "kind", "source_id"],
                set_={k: stmt.excluded[k] for k in values if k not in ("source", "kind")},
            )
        )

    async def refresh_statistics(self) -> None:
        """Statistics of what the run has written so far (its own transaction)."""
        async with self.session.begin():
            await refresh_statistics(self.session, *GROWN_TABLES)

    async def mapped_id(self, kind: str, source_id: int) -> int | None:
        m = ImportMapping
        local_id: int | None = await self.session.scalar(
            select(m.local_id).where(
                m.source == self.source, m.kind == kind, m.source_id == source_id
            )
        )
        return local_id

    async def mark_gone(self, kind: str, source_id: int, *, forget: bool) -> None:
        """After a prune: forget the record, or (a trashed post) clear its digest, so that a
        record coming back to the source is written again."""
        m = ImportMapping
        where = (m.source == self.source, m.kind == kind, m.source_id == source_id)
        if forget:
            await self.session.execute(delete(m).where(*where))
        else:
            await self.session.execute(update(m).where(*where).values(digest=""))

    async def local_status(self, kind: str, local_id: int) -> str | None:
        """A post's status (None: gone)."""
        table = TABLES[kind]
        status: str | None = await self.session.scalar(
            select(table.status).where(table.id == local_id)
        )
        return status

    # ---- columns the resource repositories do not write as the source has them -----

    async def keep_source_fields(
        self,
        kind: str,
        local_id: int,
        *,
        slug: str,
        published: datetime | None,
        modified: datetime | None,
    ) -> str:
        """The source's dates and slug, after the repository's write set its own; the slug
        the record got (the next free `-N` only when another local record has the source's).
        One statement when the slug is already the source's, as it is for most records."""
        table = TABLES[kind]
        dates = {"published_at": published, "modified_at": modified}
        values = {name: value for name, value in dates.items() if value is not None}
        statement = update(table).where(table.id == local_id).returning(table.slug)
        # Without new dates, an UPDATE setting the slug to itself still answers with it.
        current: str = (
            await self.session.execute(statement.values(**(values or {"slug": table.slug})))
        ).scalar_one()
        if not slug or slug == current:
            return current
        given = await rename_to_unique_slug(
            self.session, table, local_id, slug, f"{table.__tablename__}_slug_key"
        )
        if values:  # the rename's UPDATE moved `modified_at` (its onupdate) again
            await self.session.execute(update(table).where(table.id == local_id).values(**values))
        return given

    async def image_size(self, image_id: int, width: int | None, height: int | None) -> None:
        if width or height:
            await self.session.execute(
                update(Image).where(Image.id == image_id).values(width=width, height=height)
            )

    async def external_images(self) -> list[tuple[int, str]]:
        """(image ID, URL) of every image known only by its URL that a record imported from
        this source shows: what `--copy-images` downloads."""
        m = ImportMapping
        shown = [
            select(Image.id, Image.url)
            .join(table, table.image_id == Image.id)
            .join(m, and_(m.local_id == table.id, m.kind == kind, m.source == self.source))
            .where(Image.file.is_(None), Image.url.is_not(None))
            for kind, table in TABLES.items()
            if kind in ("venue", "organizer", "event")
        ]
        rows = await self.session.execute(union(*shown).order_by("id"))
        return [(row.id, row.url) for row in rows]

    # ---- one run per source at a time ------------------------------------------------

    def _lock_key(self) -> Any:
        return func.hashtextextended(literal(f"almanac-import:{self.source}"), 0)

    async def try_lock(self) -> bool:
        """Take the source's lock for this session's connection (held until `unlock`); False
        when another run of the same source holds it."""
        taken = await self.session.scalar(select(func.pg_try_advisory_lock(self._lock_key())))
        return bool(taken)

    async def unlock(self) -> None:
        await self.session.execute(select(func.pg_advisory_unlock(self._lock_key())))

    # ---- owners and runs ------------------------------------------------------------

    async def owner(self, login: str | None) -> Principal | None:
        """The user named `login`, or the first administrator."""
        stmt = select(User.id, User.login, User.role)
        if login is not None:
            stmt = stmt.where(func.lower(User.login) == login.lower())
        else:
            stmt = stmt.where(User.role == Role.ADMINISTRATOR.value).order_by(User.id).limit(1)
        row = (await self.session.execute(stmt)).first()
        return Principal(id=row.id, login=row.login, role=Role(row.role)) if row else None

    async def start_run(self) -> tuple[int, datetime | None]:
        """A new run; and when the run it continues (one that never finished) started."""
        r = ImportRun
        unfinished = await self.session.scalar(
            select(func.min(r.started_at)).where(r.source == self.source, r.state == "running")
        )
        await self.session.execute(
            update(r)
            .where(r.source == self.source, r.state == "running")
            .values(state="interrupted", finished_at=utcnow())
        )
        run = ImportRun(source=self.source, state="running")
        self.session.add(run)
        await self.session.flush()
        return run.id, unfinished

    async def finish_run(self, run_id: int, state: str, counts: dict[str, Any]) -> None:
        await self.session.execute(
            update(ImportRun)
            .where(ImportRun.id == run_id)
            .values(state=state, counts=counts, finished_at=utcnow())
        )
