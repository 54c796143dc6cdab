"""Venues and organizers an event write links: IDs, or inline records (reusing an identical
existing one, docs/design.md#linked-venues-organizers-and-terms). The door reads the
references (app/events/door.py); here they are checked and the inline records created."""

from collections.abc import Sequence
from typing import Any

from app.core.errors import InvalidParams, MissingParams, invalid, note, unknown_ids
from app.core.rules.permissions import Principal
from app.core.web.refusals import Refused
from app.events.commands import LinkRef
from app.http.context import RequestContext
from app.organizers.kind import ORGANIZERS
from app.posts.commands import RecordWrite
from app.posts.kind import PostKind
from app.posts.repository import existing_ids
from app.venues.kind import VENUES

Refs = Sequence[LinkRef] | Refused | None


def _items(kind: PostKind[Any], refs: Sequence[LinkRef] | Refused) -> Sequence[LinkRef]:
    if isinstance(refs, Refused):
        raise invalid(kind.name, refs.note)
    return refs


class LinkedPosts:
    def __init__(self, ctx: RequestContext, user: Principal) -> None:
        self.ctx = ctx
        self.user = user
        # The IDs looked up together by look_up, by kind: those found.
        self._checked: dict[str, set[int]] = {}
        self._found: dict[str, set[int]] = {}

    async def look_up(self, *, venue: Refs, organizers: Refs) -> None:
        """Check the IDs that the write's venue and organizers name in one statement, before
        `venue` and `organizers` read them (what is refused is left to them)."""
        wanted: dict[str, tuple[Any, list[int]]] = {}
        for kind, refs in ((VENUES, venue), (ORGANIZERS, organizers)):
            if refs is None or isinstance(refs, Refused):
                continue
            ids = [ref for ref in refs if isinstance(ref, int)]
            assert kind.posts is not None
            if ids:
                wanted[kind.name] = (kind.posts(self.ctx).model, ids)
        if not wanted:
            return
        self._found = await existing_ids(self.ctx.session, wanted, self.user)
        self._checked = {name: set(ids) for name, (_, ids) in wanted.items()}

    async def venue(self, refs: Sequence[LinkRef] | Refused) -> int | None:
        """The venue to link, or None to unlink."""
        items = _items(VENUES, refs)
        return await self._reference(VENUES, items[0]) if items else None

    async def organizers(self, refs: Sequence[LinkRef] | Refused) -> list[int]:
        """Organizers to link, in order; [] unlinks them all."""
        ids = [await self._reference(ORGANIZERS, item) for item in _items(ORGANIZERS, refs)]
        return list(dict.fromkeys(ids))

    async def _exists(self, kind: PostKind[Any], record_id: int) -> bool:
        if record_id in self._checked.get(kind.name, ()):
            return record_id in self._found.get(kind.name, ())
        assert kind.posts is not None  # venues and organizers have their repository
        wanted = {kind.name: (kind.posts(self.ctx).model, [record_id])}
        found = await existing_ids(self.ctx.session, wanted, self.user)
        return record_id in found[kind.name]

    async def _reference(self, kind: PostKind[Any], item: LinkRef) -> int:
        """The record an item names, or the 400 saying why it names none."""
        if isinstance(item, Refused):
            raise invalid(kind.name, item.note)
        if isinstance(item, RecordWrite):
            return await self._inline(kind, item)
        if not await self._exists(kind, item):
            raise invalid(kind.name, unknown_ids(kind.name, kind.name, [item]))
        return item

    async def _inline(self, kind: PostKind[Any], record: RecordWrite) -> int:
        """A new record, or an identical existing one: the kind's create reuses it."""
        name = kind.name
        try:
            return await kind.writer(self.ctx, self.user).create(record)
        except InvalidParams as exc:
            reasons = list(exc.notes.values())
            raise invalid(name, note("inline_invalid", name=name, reason=reasons[0])) from None
        except MissingParams:
            raise invalid(name, note("bad_link", name=name, field=name)) from None
