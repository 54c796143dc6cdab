"""`--prune`: local records whose source record is gone are trashed (categories and tags,
which have no trash in WordPress either, are deleted), each in a transaction of its own.

Only what this run could have seen is pruned: a run sees every status only when the source
confirmed it (signed in, WordPress's `users/me` answered and its `context=edit` listings
too); any other run, anonymous or not, sees published records only, so it leaves every
other local record alone. (A signed-in run the source answers anonymously stops before.) A pruned post keeps its mapping with an empty
digest: should the source record come back, the next run updates (and so restores) it.
"""

from app.core.database.engine import Session, SessionMaker
from app.core.rules.constants import PUBLISH, TRASH
from app.events.repository.events import EventRepository
from app.importer.repository import ImportRepository
from app.importer.summary import Summary
from app.importer.writers import TAXONOMIES
from app.organizers.repository import OrganizerRepository
from app.terms.repository import TermRepository
from app.venues.repository import VenueRepository


class Pruner:
    def __init__(
        self,
        maker: SessionMaker,
        source: str,
        summary: Summary,
        *,
        every_status: bool,
        language: str,
    ) -> None:
        self.maker = maker
        self.source = source
        self.summary = summary
        self.every_status = every_status
        self.language = language

    async def prune(self, kind: str, gone: list[int], *, dry_run: bool) -> bool:
        """Prune these source IDs' local records; whether anything was written."""
        written = False
        for source_id in gone:
            async with self.maker() as session, session.begin():
                imports = ImportRepository(session, self.source)
                local_id = await imports.mapped_id(kind, source_id)
                if local_id is None:
                    continue
                if kind in TAXONOMIES:
                    done = await self._delete_term(session, kind, local_id, dry_run)
                else:
                    done = await self._trash_post(session, kind, local_id, dry_run)
                if done and not dry_run:
                    await imports.mark_gone(kind, source_id, forget=kind in TAXONOMIES)
                    written = True
                self.summary.kinds[kind].pruned += done
        return written

    async def _delete_term(self, session: Session, kind: str, local_id: int, dry_run: bool) -> bool:
        repo = TermRepository(session, TAXONOMIES[kind], self.language, self.language)
        term = await repo.get(local_id)
        if term is None:
            return False
        if not dry_run:
            await repo.delete(term)
        return True

    async def _trash_post(self, session: Session, kind: str, local_id: int, dry_run: bool) -> bool:
        status = await ImportRepository(session, self.source).local_status(kind, local_id)
        if status is None or status == TRASH:
            return False
        if not self.every_status and status != PUBLISH:
            return False  # this run could not have seen it
        if not dry_run:
            if kind == "event":
                await EventRepository(session, self.language, self.language).trash(local_id)
            elif kind == "venue":
                await VenueRepository(session, self.language, self.language).trash(local_id)
            else:
                await OrganizerRepository(session, self.language, self.language).trash(local_id)
        return True
