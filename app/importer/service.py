"""`almanac import`: one run over a source site, kind by kind, linked records first.

Each record is decided before any write: malformed (reported, skipped), unchanged since the
last run (the source's modification time and a digest of what was read equal the mapping's:
nothing is written), left out by `--since`, or to create or update. A record is written in
a transaction of its own together with its mapping row, after the records it links to, so
that a failure leaves nothing half-written and an interrupted run is continued by the next
one (what it finished is unchanged by then).
"""

import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from app.core.caching.cache import after_write
from app.core.database.engine import DatabaseError, Session, SessionMaker
from app.core.errors import ApiError, InvalidParams
from app.core.rules.permissions import Principal
from app.importer.client import CredentialsDropped, SourceClient, SourceError, site_key
from app.importer.images import CopyLimits, ImageCopier
from app.importer.inventory import Listing, collect
from app.importer.prune import Pruner
from app.importer.repository import ImportRepository, Mapped
from app.importer.source import (
    Redacted,
    SourceEvent,
    SourceOrganizer,
    SourcePost,
    SourceRecord,
    SourceTerm,
    SourceVenue,
    is_redacted,
)
from app.importer.summary import KINDS, PLURALS, Progress, Summary
from app.importer.writers import EventLinks, RecordWriter, event_schedule
from app.media.storage import MediaStorage

MODELS: dict[str, type[SourceRecord]] = {
    "category": SourceTerm,
    "tag": SourceTerm,
    "venue": SourceVenue,
    "organizer": SourceOrganizer,
    "event": SourceEvent,
}


class ImportFailed(Exception):
    """The run cannot start (no owner, no such site), or must stop (signed out)."""


class Unlinkable(Exception):
    """A record an event links to could not be imported."""


@dataclass(frozen=True, slots=True)
class ImportOptions:
    owner: str | None = None
    dry_run: bool = False
    since: datetime | None = None
    prune: bool = False
    language: str = "en"  # the default language: imported texts are base texts
    site_timezone: str = "UTC"
    # --copy-images: where copies go, and the limits uploads have.
    copy_images: bool = False
    media: MediaStorage | None = None
    copy_limits: CopyLimits = CopyLimits(max_bytes=10_485_760, max_pixels=40_000_000)


# Records written between two refreshes of the statistics (an ANALYZE takes well under a
# second; a thousand records take several).
STATISTICS_EVERY = 1000


class Importer:
    def __init__(
        self,
        maker: SessionMaker,
        client: SourceClient,
        options: ImportOptions,
        progress: Progress,
    ) -> None:
        self.maker = maker
        self.client = client
        self.options = options
        self.progress = progress
        self.summary = Summary(dry_run=options.dry_run, signed_in=client.signed_in)
        self.source = ""
        self.owner: Principal | None = None
        self.mapped: dict[str, dict[int, Mapped]] = {}
        self.ids: dict[str, dict[int, int]] = {kind: {} for kind in KINDS}
        self.written = False
        self.unanalysed = 0  # records written since the last statistics
        self.session: Session

    async def run(self) -> Summary:
        started = time.monotonic()
        try:
            await self._run()
        finally:
            self.summary.requests = self.client.requests
            self.summary.seconds = time.monotonic() - started
        return self.summary

    async def _run(self) -> None:
        try:
            await self.client.discover()
        except SourceError as exc:
            raise ImportFailed(str(exc)) from None
        except CredentialsDropped as exc:
            raise ImportFailed(f"stopped: {exc}") from None
        self.source = self.summary.source = site_key(self.client.base)
        # Two runs of one source at once would both create what is new: the second waits
        # for nothing and stops. The lock lives on this session's connection, kept by its
        # open transaction until the end of the run.
        async with self.maker() as guard:
            imports = ImportRepository(guard, self.source)
            if not await imports.try_lock():
                raise ImportFailed(f"another import of {self.source} is running")
            try:
                await self._import()
            except CredentialsDropped as exc:
                raise ImportFailed(f"stopped: {exc}") from None
            finally:
                await imports.unlock()
                await guard.commit()

    async def _import(self) -> None:
        run_id = await self._start()
        listing = await collect(self.client, KINDS, self.summary)
        # One session for every record's transaction (one connection, not one per record).
        async with self.maker() as self.session:
            for kind in KINDS:
                await self._import_kind(kind, listing.records[kind])
        if self.options.prune:
            await self._prune(listing)
        if self.options.copy_images:
            await self._copy_images()
        await self._finish(run_id)

    # ---- the run --------------------------------------------------------------------

    async def _start(self) -> int | None:
        async with self.maker() as session, session.begin():
            imports = ImportRepository(session, self.source)
            self.owner = await imports.owner(self.options.owner)
            if self.owner is None:
                raise ImportFailed(
                    f"no user {self.options.owner!r}"
                    if self.options.owner
                    else "no administrator to own the records (create one with "
                    "`almanac users add LOGIN --role administrator`, or name one with --owner)"
                )
            if self.options.dry_run:
                return None
            run_id, continued = await imports.start_run()
        if continued is not None:
            self.progress.note(f"continuing the interrupted run started {continued:%Y-%m-%d %H:%M}")
            self.summary.notes.append("continued an interrupted run")
        return run_id

    async def _finish(self, run_id: int | None) -> None:
        if run_id is None:
            return
        async with self.maker() as session:
            async with session.begin():
                counts = {kind: c.as_dict() for kind, c in self.summary.kinds.items()}
                state = "finished" if self.summary.complete else "incomplete"
                await ImportRepository(session, self.source).finish_run(run_id, state, counts)
            if self.written:
                await after_write(session)  # running servers' caches must not serve old data

    async def _load_mapped(self, kind: str) -> None:
        async with self.maker() as session:
            mapped = await ImportRepository(session, self.source).mapped(kind)
        self.mapped[kind] = mapped
        self.ids[kind] = {sid: m.local_id for sid, m in mapped.items() if m.present}

    # ---- records --------------------------------------------------------------------

    async def _import_kind(self, kind: str, records: dict[int, dict[str, Any]]) -> None:
        await self._load_mapped(kind)
        ordered = parents_first(records) if kind == "category" else list(records.values())
        self.progress.start(kind, len(ordered))
        for raw in ordered:
            await self._one(kind, raw)
            self.progress.advance(kind)
        if self.unanalysed:
            await self._refresh_statistics()
        self.progress.finish(kind)

    async def _one(self, kind: str, raw: dict[str, Any]) -> int | None:
        """Import one raw record; its local ID, None when skipped or left out."""
        source_id = raw["id"] if isinstance(raw.get("id"), int) else 0
        if is_redacted(kind, raw):  # never written with its content blanked out
            why = (
                "the source did not show it with its password"
                if raw.get("password")
                else "sign in (--user, --password) as an editor of the source to import it"
            )
            self.summary.skip(kind, source_id, f"password-protected: {why}")
            return None
        try:
            record = MODELS[kind].model_validate(raw)
        except ValidationError as exc:
            self.summary.skip(kind, source_id, malformed(exc))
            return None
        return await self._record(kind, record)

    async def _record(self, kind: str, record: SourceRecord) -> int | None:
        counts = self.summary.kinds[kind]
        source_id: int = record.id
        modified = record.modified if isinstance(record, SourcePost) else None
        digest = record.digest()
        known = self.mapped[kind].get(source_id)
        present = known if known is not None and known.present else None
        if present and present.digest == digest and present.source_modified == modified:
            counts.unchanged += 1
            return present.local_id
        since = self.options.since
        if since is not None and modified is not None and modified < since:
            counts.older += 1
            return present.local_id if present else None
        if self.options.dry_run:
            return self._rehearse(kind, record, present)
        try:
            links = await self._links(record) if isinstance(record, SourceEvent) else None
        except Unlinkable as exc:
            self.summary.skip(kind, source_id, str(exc))
            return None
        local_id = await self._write(kind, record, present.local_id if present else None, links)
        if local_id is None:
            return None
        if present:
            counts.updated += 1
        else:
            counts.created += 1
        self.ids[kind][source_id] = local_id
        self.mapped[kind][source_id] = Mapped(local_id, True, modified, digest)
        return local_id

    def _rehearse(self, kind: str, record: SourceRecord, present: Mapped | None) -> int | None:
        """A dry run's decision: what the write would do, and the checks it makes first."""
        if isinstance(record, SourceEvent):
            try:
                event_schedule(record, self.options.site_timezone)
            except ApiError as exc:
                self.summary.skip(kind, record.id, refused(exc))
                return None
        counts = self.summary.kinds[kind]
        if present:
            counts.updated += 1
        else:
            counts.created += 1
        return present.local_id if present else None

    async def _write(
        self, kind: str, record: SourceRecord, local_id: int | None, links: EventLinks | None
    ) -> int | None:
        """One record and its mapping row in one transaction; None (and reported) if the
        write fails: the transaction is rolled back, nothing of it stays."""
        assert self.owner is not None
        source_id: int = record.id
        modified = record.modified if isinstance(record, SourcePost) else None
        try:
            async with self.session.begin():
                writer = RecordWriter(
                    self.session,
                    self.source,
                    self.owner,
                    self.options.language,
                    self.options.site_timezone,
                )
                new_id = await self._write_in(writer, kind, record, local_id, links)
                await writer.imports.remember(kind, source_id, new_id, modified, record.digest())
        except ApiError as exc:
            self.summary.skip(kind, source_id, refused(exc))
            return None
        except (DatabaseError, ValueError) as exc:
            self.summary.skip(kind, source_id, f"not written: {type(exc).__name__}: {exc}"[:300])
            return None
        self.written = True
        self.unanalysed += 1
        if self.unanalysed >= STATISTICS_EVERY:
            await self._refresh_statistics()
        return new_id

    async def _refresh_statistics(self) -> None:
        """Fresh statistics every few thousand records and after each kind: without them,
        plans made while the tables were empty scan them once per record written (a large
        first import slows down quadratically; docs/design.md#bulk-loads)."""
        self.unanalysed = 0
        await ImportRepository(self.session, self.source).refresh_statistics()

    async def _write_in(
        self,
        writer: RecordWriter,
        kind: str,
        record: SourceRecord,
        local_id: int | None,
        links: EventLinks | None,
    ) -> int:
        if isinstance(record, SourceTerm):
            parent = self.ids[kind].get(record.parent) if record.parent else None
            return await writer.term(kind, record, local_id, parent)
        if isinstance(record, SourceVenue):
            return await writer.venue(record, local_id)
        if isinstance(record, SourceOrganizer):
            return await writer.organizer(record, local_id)
        assert isinstance(record, SourceEvent)
        assert links is not None
        return await writer.event(record, links, local_id)

    # ---- links ----------------------------------------------------------------------

    async def _links(self, event: SourceEvent) -> EventLinks:
        """Local IDs of what the event links to. A linked record this run has not imported
        (not listed to this caller, or left out by --since) is imported first from the
        copy embedded in the event, in a transaction of its own."""
        venue = await self._linked("venue", event.venue) if event.venue else None
        return EventLinks(
            venue=venue,
            organizers=[await self._linked("organizer", o) for o in event.organizer],
            categories=[await self._linked("category", t) for t in event.categories],
            tags=[await self._linked("tag", t) for t in event.tags],
        )

    async def _linked(self, kind: str, embedded: SourceRecord) -> int:
        source_id: int = embedded.id
        local_id = self.ids[kind].get(source_id)
        if local_id is None and isinstance(embedded, Redacted):
            why = "is password-protected and was not imported"
            raise Unlinkable(f"its {kind} {source_id} {why} (sign in as an editor of the source)")
        if local_id is None:
            if kind not in self.mapped:
                await self._load_mapped(kind)
            local_id = await self._record(kind, embedded)
        if local_id is None:
            raise Unlinkable(f"its {kind} {source_id} could not be imported")
        return local_id

    # ---- images ---------------------------------------------------------------------

    async def _copy_images(self) -> None:
        if self.options.dry_run or self.options.media is None:
            self.summary.notes.append("images not copied (dry run)")
            return
        self.progress.note("copying images into the media library")
        copier = ImageCopier(
            self.maker,
            self.client,
            self.options.media,
            self.options.copy_limits,
            source=self.source,
            owner_id=self.owner.id if self.owner else None,
            language=self.options.language,
        )
        self.summary.images = counts = await copier.run()
        if counts.copied or counts.reused:
            self.written = True

    # ---- prune ----------------------------------------------------------------------

    async def _prune(self, listing: Listing) -> None:
        # What the source confirmed this run sees, not what it sent: an account the source
        # does not take, or one that may not list every status, sees published records only.
        every_status = self.client.sees_every_status
        if self.client.signed_in and not every_status:
            self.summary.notes.append(
                "the source did not confirm that this account sees every status: "
                "only published records were pruned"
            )
        pruner = Pruner(
            self.maker,
            self.source,
            self.summary,
            every_status=every_status,
            language=self.options.language,
        )
        for kind in reversed(KINDS):
            if not listing.complete.get(kind):
                why = "the source was not fully read, or hidden events could not be looked for"
                self.summary.notes.append(f"{PLURALS[kind]} not pruned: {why}")
                continue
            gone = [sid for sid in self.mapped.get(kind, {}) if sid not in listing.records[kind]]
            if await pruner.prune(kind, gone, dry_run=self.options.dry_run):
                self.written = True


def parents_first(records: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """Categories ordered so that each parent comes before its children (a loop, which
    WordPress does not allow but a broken site may hold, is cut where it closes)."""
    ordered: list[dict[str, Any]] = []
    placed: set[Any] = set()
    visiting: set[Any] = set()

    def place(raw: dict[str, Any]) -> None:
        term_id = raw.get("id")
        if term_id in placed or term_id in visiting:
            return
        visiting.add(term_id)
        parent = records.get(raw.get("parent") or 0)
        if parent is not None:
            place(parent)
        placed.add(term_id)
        ordered.append(raw)

    for raw in records.values():
        place(raw)
    return ordered


def malformed(exc: ValidationError) -> str:
    errors = exc.errors()
    shown = "; ".join(
        f"{'.'.join(str(part) for part in error['loc']) or 'record'}: {error['msg']}"
        for error in errors[:3]
    )
    return f"malformed: {shown}"


def refused(exc: ApiError) -> str:
    if isinstance(exc, InvalidParams):
        return "invalid " + ", ".join(exc.notes)
    return f"refused: {exc.code}"
