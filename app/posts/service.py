"""The record behaviour events, venues and organizers share, in one place: finding a record by
ID or slug, locking it for a write, deciding who may read, change or remove it, trashing and
deleting, and answering with its body."""

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from app.core.caching.etags import etag_of, if_match_holds
from app.core.errors import ApiError, NotFound, note, precondition_failed
from app.core.rules.constants import MAX_ID, TRASH
from app.core.rules.permissions import Action, may, poster, record_need, require
from app.core.rules.slugs import is_trashed_slug, untrashed_slug
from app.core.web.responses import dumps
from app.http.context import RequestContext
from app.http.params import check
from app.posts.bodies import Bodies
from app.posts.commands import PLAIN_READ, TO_TRASH, ReadRequest, Removal
from app.posts.kind import PostKind, R
from app.posts.repository import event_ownership, is_post

Body = dict[str, Any]
# The body's fields that tell when the record last changed.
MODIFIED = ("modified", "modified_utc")
# A record's key in a route: its ID (`/{id}`) or its slug (`/by-slug/{slug}`).
Key = int | str
T = TypeVar("T")  # a written record, of any service


@dataclass(frozen=True)
class Written(Generic[T]):
    """A write's record, as its answer shows it (the door renders the body), and the ETag a
    GET of the record returns right after (None when such a GET would not answer 200: a
    trashed event, a deleted record). The answer of every service's writes: posts, media,
    webhooks and their deliveries."""

    record: T
    etag: str | None


class PostService(Generic[R]):
    def __init__(self, kind: PostKind[R], ctx: RequestContext) -> None:
        self.kind = kind
        self.ctx = ctx
        self.store = kind.store(ctx)
        self.bodies = Bodies(kind, ctx)
        self.view = self.bodies.view

    # ---- finding --------------------------------------------------------------------

    async def find(self, key: Key) -> R:
        return await (self.by_id(key) if isinstance(key, int) else self.by_slug(key))

    async def by_id(self, record_id: int) -> R:
        record = await self.store.get(record_id) if record_id <= MAX_ID else None
        if record is not None:
            return record
        if (
            self.kind.names_other_kinds
            and record_id <= MAX_ID
            and await is_post(self.ctx.session, record_id)
        ):
            raise ApiError(400, f"rest-invalid-{self.kind.name}-id")
        raise NotFound(self.kind.name, record_id)

    async def by_slug(self, slug: str) -> R:
        # PostgreSQL text cannot hold NUL: such a slug names nothing.
        record = await self.store.get_by_slug(slug) if "\x00" not in slug else None
        if record is None:
            name = self.kind.name
            key = f"{name}_slug_not_found"
            raise ApiError(404, f"rest-{name}-not-found", key, values={"slug": slug})
        return record

    async def _for_writing(self, key: Key, action: Action) -> R:
        """The record, locked for this transaction and read again (see core.sql.lock_row),
        once the caller may `action` it and the request's `If-Match` holds: checked under
        the lock, so of two writers sending the same ETag only the first passes."""
        user = poster(self.ctx.user)
        record = await self.find(key)
        if not await self.store.lock(record.id):
            raise NotFound(self.kind.name, record.id)
        record = await self.by_id(record.id)
        allowed = may(user, action, record.author_id, record.status)
        require(user, allowed, record_need(user, record.author_id))
        condition = self.ctx.if_match
        if condition is not None and not if_match_holds(condition, self.read_etag(record)):
            raise precondition_failed()
        return record

    # ---- answering ------------------------------------------------------------------

    def visible_body(self, record: R) -> Body | None:
        """The body a GET (without a password) returns to this caller, None if it refuses."""
        try:
            self._check_readable(record, None)
        except ApiError:
            return None
        return self.bodies.one(record, json_ld=True)

    async def visible_bodies(self, record_ids: Sequence[int]) -> dict[int, Body]:
        """`visible_body` of each of `record_ids` that exists and that the caller may read:
        one query, and the readable records rendered together (the changes feed's page)."""
        readable = await self.readable_many(record_ids)
        bodies = self.bodies.many(readable, json_ld=True)
        return {record.id: body for record, body in zip(readable, bodies, strict=True)}

    async def readable_many(self, record_ids: Sequence[int]) -> list[R]:
        """Those of `record_ids` that exist and whose GET the caller may read (no password):
        one query."""
        readable = []
        for record in await self.store.get_many(record_ids):
            try:
                self._check_readable(record, None)
            except ApiError:
                continue
            readable.append(record)
        return readable

    def read_etag(self, record: R) -> str | None:
        """The ETag of a GET of `record` by this caller (app.core.caching.etags: the body's digest)."""
        body = self.visible_body(record)
        return None if body is None else etag_of(dumps(body))

    def answer(self, record: R) -> Written[R]:
        return Written(record, self.read_etag(record))

    def _check_readable(self, record: R, password: str | None) -> None:
        user, name = self.ctx.user, self.kind.name
        if self.kind.gone_when_trashed and record.status == TRASH:
            raise ApiError(403, f"{name}-no-longer-available")  # to everybody
        if not may(user, "read", record.author_id, record.status):
            raise ApiError(403, f"{name}-not-accessible")
        view = dataclasses.replace(self.view, password=password) if password else self.view
        hidden = view.hides(record)
        if self.kind.refuses_protected and hidden:
            raise ApiError(403, f"{name}-password-protected")

    async def _trash_slug(self, record: R) -> R:
        """The record after a write, with the slug its status calls for: a trashed record's
        is `<slug>__trashed`, which frees the slug (a delete or an update to `trash` does
        it, as WordPress does); a restored record gets its slug back, or the next free `-N`
        when another record took it meanwhile."""
        if record.status == TRASH and not is_trashed_slug(record.slug):
            await self.store.trash(record.id)
        elif record.status != TRASH and is_trashed_slug(record.slug):
            await self.store.update(record.id, {}, {}, untrashed_slug(record.slug))
        else:
            return record
        return await self.by_id(record.id)

    # ---- what the routes do ---------------------------------------------------------

    async def readable(self, key: Key, request: ReadRequest = PLAIN_READ) -> tuple[R, str | None]:
        """The record if the caller may read it (else the error the reference gives), and
        the password the caller sent."""
        record = await self.find(key)
        request.refused.raise_any()
        password = request.password
        await self.check_guess(record, password)
        self._check_readable(record, password)
        return record, password

    async def check_guess(self, record: R, password: str | None) -> None:
        """A password sent for a record it protects from this caller is a guess: refused
        while the client is throttled, counted when wrong (docs/design.md, Passwords)."""
        guesses = self.ctx.guesses
        if guesses is None or password is None or not self.view.hides(record):
            return
        await guesses.check()
        if dataclasses.replace(self.view, password=password).hides(record):
            await guesses.failed()

    async def create(self, command: Any) -> Written[R]:
        """A new record of `command` (the kind's: app/posts/commands.py RecordWrite, or
        app/events/commands.py EventWrite); the caller is checked first."""
        user = poster(self.ctx.user)
        record_id = await self.kind.writer(self.ctx, user).create(command)
        return self.answer(await self._trash_slug(await self.by_id(record_id)))

    async def update(self, key: Key, command: Any) -> Written[R]:
        """Change what the request sends. The caller is checked before the parameters are
        read (an anonymous write is a 401 whatever it sends), then its right on the record."""
        user = poster(self.ctx.user)
        record = await self._for_writing(key, "edit")
        before = self.bodies.one(record)
        await self.kind.writer(self.ctx, user).update(record, command)
        written = await self._trash_slug(await self.by_id(record.id))
        return self.answer(await self.settled(record, before, written))

    async def settled(self, record: R, before: Body, written: R) -> R:
        """`written` (the record after an update of `record`, whose body was `before`), with
        the `modified` it had when the update changed nothing the record shows: a write
        that changes nothing does not say it changed something (issue 41)."""
        if written.modified_at == record.modified_at or record.password != written.password:
            return written
        if _without_modified(self.bodies.one(written)) != _without_modified(before):
            return written
        await self.store.keep_modified(record.id, record.modified_at)
        return await self.by_id(record.id)

    async def remove(self, key: Key, removal: Removal = TO_TRASH) -> Written[R]:
        """Trash the record (again: 410); `force` deletes it (answering its last state)."""
        record = await self._for_writing(key, "delete")
        removal.refused.raise_any()
        if removal.force:
            await self.store.delete(record.id)
            return Written(record, None)
        if record.status == TRASH:
            raise ApiError(410, f"{self.kind.name}-is-in-trash")
        await self.store.trash(record.id)
        return self.answer(await self.by_id(record.id))


def _without_modified(body: Body) -> Body:
    return {name: value for name, value in body.items() if name not in MODIFIED}


async def check_visible_event(ctx: RequestContext, name: str, event_id: int) -> None:
    """400 naming parameter `name` unless the event exists and the caller may read it: an
    event the caller may not read is as unknown as a missing one."""
    owner = await event_ownership(ctx.session, event_id)
    visible = owner is not None and may(ctx.user, "read", owner.author_id, owner.status)
    check(name, visible, note("unknown_event", name=name, id=event_id))
