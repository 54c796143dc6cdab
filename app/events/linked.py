"""Venues and organizers referenced from an event payload: IDs, `{id}` objects or inline
records (reusing an identical existing one, docs/design.md#linked-venues-organizers-and-terms)."""

from typing import Any

from app.core.edge.errors import ApiError, InvalidParams, MissingParams, invalid, note, unknown_ids
from app.core.rules.constants import MAX_ID
from app.core.rules.permissions import Principal
from app.events.params import MAX_LINKED
from app.http.coercion import decimal
from app.http.context import RequestContext
from app.organizers.kind import ORGANIZERS
from app.posts.kind import PostKind
from app.posts.repository import existing_ids
from app.venues.kind import VENUES


def _as_id(value: Any) -> int | None:
    """A positive integer ID from an int or a digit string, else None."""
    if isinstance(value, bool):
        return None
    number = decimal(value) if isinstance(value, str) else value
    return number if isinstance(number, int) and 0 < number <= MAX_ID else None


def _is_empty(value: Any) -> bool:
    if value in (None, "", 0, "0", [], {}):
        return True
    return isinstance(value, dict) and all(v in (None, "", []) for v in value.values())


def _venue_items(raw: Any) -> list[Any]:
    """The venue a write names, as a list of at most one item ([]: unlink)."""
    if isinstance(raw, list) and len(raw) == 1:
        raw = raw[0]
    if _is_empty(raw):
        return []
    if isinstance(raw, list):
        raise invalid("venue", note("one_venue", count=len(raw)))
    return [raw]


def _organizer_items(raw: Any) -> list[Any]:
    """The organizers a write names, in order ([]: unlink them all)."""
    if _is_empty(raw):
        return []
    if isinstance(raw, str) and "," in raw:
        items: list[Any] = [part for part in raw.split(",") if part.strip()]
    elif isinstance(raw, list):
        items = raw
    else:
        items = [raw]
    if len(items) > MAX_LINKED:
        raise invalid("organizer", note("too_many_items", name="organizer", max=MAX_LINKED))
    return items


def _named_id(kind: PostKind[Any], item: Any) -> int | None:
    """The ID an item names by itself (an ID or an {id} object), None for an inline record."""
    if isinstance(item, dict) and _as_id(item.get("id")) is None and kind.name in item:
        return None
    return _as_id(item.get("id") if isinstance(item, dict) else item)


class LinkedPosts:
    def __init__(self, ctx: RequestContext, user: Principal) -> None:
        self.ctx = ctx
        self.user = user
        # The IDs looked up together by look_up, by kind: those found.
        self._checked: dict[str, set[int]] = {}
        self._found: dict[str, set[int]] = {}

    async def look_up(self, sent: set[str], *, venue: Any, organizer: Any) -> None:
        """Check the IDs that the write's venue and organizers name in one statement, before
        `venue` and `organizers` read them (what is not well formed is left to them)."""
        wanted: dict[str, tuple[Any, list[int]]] = {}
        for kind, raw, items in (
            (VENUES, venue, _venue_items),
            (ORGANIZERS, organizer, _organizer_items),
        ):
            if kind.name not in sent:
                continue
            try:
                ids = [_named_id(kind, item) for item in items(raw)]
            except ApiError:
                continue
            assert kind.posts is not None
            wanted[kind.name] = (kind.posts(self.ctx).model, [i for i in ids if i is not None])
        wanted = {name: (model, ids) for name, (model, ids) in wanted.items() if ids}
        if not wanted:
            return
        self._found = await existing_ids(self.ctx.session, wanted, self.user)
        self._checked = {name: set(ids) for name, (_, ids) in wanted.items()}

    async def venue(self, raw: Any) -> int | None:
        """The venue to link, or None to unlink (`null`, `0`, `""`, `[]`)."""
        items = _venue_items(raw)
        return await self._reference(VENUES, items[0]) if items else None

    async def organizers(self, raw: Any) -> list[int]:
        """Organizers to link, in order; `[]`, `""` or `0` unlink them all."""
        ids = [await self._reference(ORGANIZERS, item) for item in _organizer_items(raw)]
        return list(dict.fromkeys(ids))

    async def _exists(self, kind: PostKind[Any], record_id: int) -> bool:
        if record_id in self._checked.get(kind.name, ()):
            return record_id in self._found.get(kind.name, ())
        assert kind.posts is not None  # venues and organizers have their repository
        wanted = {kind.name: (kind.posts(self.ctx).model, [record_id])}
        found = await existing_ids(self.ctx.session, wanted, self.user)
        return record_id in found[kind.name]

    async def _reference(self, kind: PostKind[Any], item: Any) -> int:
        """The record an item names (an ID, an {id} object, an inline record), or the 400
        saying why it names none."""
        inline = isinstance(item, dict) and _as_id(item.get("id")) is None and kind.name in item
        if inline:
            return await self._inline(kind, item)
        record_id = _as_id(item.get("id") if isinstance(item, dict) else item)
        if record_id is None:
            raise invalid(kind.name, note("bad_link", name=kind.name, field=kind.name))
        if not await self._exists(kind, record_id):
            raise invalid(kind.name, unknown_ids(kind.name, kind.name, [record_id]))
        return record_id

    async def _inline(self, kind: PostKind[Any], data: dict[str, Any]) -> int:
        """A new record, or an identical existing one: the kind's create reuses it."""
        name = kind.name
        fields = {key.lower(): value for key, value in data.items()}
        try:
            return await kind.writer(self.ctx, self.user).create(fields)
        except InvalidParams as exc:
            reasons = list(exc.notes.values())
            raise invalid(name, note("inline_invalid", name=name, reason=reasons[0])) from None
        except MissingParams:
            raise invalid(name, note("bad_link", name=name, field=name)) from None
