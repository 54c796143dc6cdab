"""Venues and organizers referenced from an event payload: IDs, `{id}` objects or inline
records (reusing an identical existing one, docs/design.md#linked-venues-organizers-and-terms)."""

from typing import Any

from app.core.edge.errors import InvalidParams, MissingParams, invalid, note, unknown_ids
from app.core.rules.constants import MAX_ID
from app.core.rules.permissions import Principal
from app.events.params import MAX_LINKED
from app.http.coercion import decimal
from app.http.context import RequestContext
from app.organizers.kind import ORGANIZERS
from app.posts.kind import PostKind
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


class LinkedPosts:
    def __init__(self, ctx: RequestContext, user: Principal) -> None:
        self.ctx = ctx
        self.user = user

    async def venue(self, raw: Any) -> int | None:
        """The venue to link, or None to unlink (`null`, `0`, `""`, `[]`)."""
        if isinstance(raw, list) and len(raw) == 1:
            raw = raw[0]
        if _is_empty(raw):
            return None
        if isinstance(raw, list):
            raise invalid("venue", note("one_venue", count=len(raw)))
        return await self._reference(VENUES, raw)

    async def organizers(self, raw: Any) -> list[int]:
        """Organizers to link, in order; `[]`, `""` or `0` unlink them all."""
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
        ids = [await self._reference(ORGANIZERS, item) for item in items]
        return list(dict.fromkeys(ids))

    async def _reference(self, kind: PostKind[Any], item: Any) -> int:
        """The record an item names (an ID, an {id} object, an inline record), or the 400
        saying why it names none."""
        assert kind.posts is not None  # venues and organizers have their repository
        repo = kind.posts(self.ctx)
        inline = isinstance(item, dict) and _as_id(item.get("id")) is None and kind.name in item
        if inline:
            return await self._inline(kind, item)
        record_id = _as_id(item.get("id") if isinstance(item, dict) else item)
        if record_id is None:
            raise invalid(kind.name, note("bad_link", name=kind.name, field=kind.name))
        if not await repo.exists(record_id):
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
