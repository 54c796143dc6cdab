"""What the Events and Trash screens do to records, each through the API's own services
with the caller's Principal: publish, trash, restore, delete permanently. Roles,
ownership, series and the change log are the services'; this module only says which
service call an action is, and runs a bulk action record by record, each in a savepoint,
so that a record the service refuses is left exactly as it was while the others change."""

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from app.core.database.sql import in_savepoint
from app.core.errors import ApiError, InvalidParams
from app.core.rules.permissions import may
from app.events.commands import EventRemoval, EventWrite, Scope
from app.events.service import EventService
from app.http.context import RequestContext
from app.organizers.kind import ORGANIZERS
from app.posts.commands import PostFields, RecordWrite, Removal
from app.posts.kind import PostKind
from app.posts.service import PostService
from app.venues.kind import VENUES

# The record kinds the API can trash (categories and tags are deleted at once).
KindName = Literal["event", "venue", "organizer"]
KINDS: dict[str, PostKind[Any]] = {"venue": VENUES, "organizer": ORGANIZERS}
Action = Literal["publish", "trash", "restore", "delete"]
# A restored record comes back as a draft, as WordPress restores posts since 5.6: the
# status it had before is not kept, and a draft shows nothing public by surprise.
RESTORED_STATUS = "draft"
WHOLE_SERIES: Scope = "all"


def _status(action: Action) -> PostFields:
    return PostFields(status=RESTORED_STATUS if action == "restore" else "publish")


def _service(ctx: RequestContext, kind: KindName) -> PostService[Any]:
    return EventService(ctx) if kind == "event" else PostService(KINDS[kind], ctx)


async def act(ctx: RequestContext, kind: KindName, action: Action, record_id: int) -> None:
    """One record: `publish` and `restore` are updates of its status, `trash` a delete,
    `delete` a delete with `force`. Every write on an event is for the whole series (a row
    of the table is a series)."""
    force = action == "delete"
    if kind == "event":
        events = EventService(ctx)
        if action in ("trash", "delete"):
            await events.remove(record_id, EventRemoval(force, WHOLE_SERIES))
        else:
            await events.update(record_id, EventWrite(post=_status(action), scope=WHOLE_SERIES))
        return
    records = PostService(KINDS[kind], ctx)
    if action in ("trash", "delete"):
        await records.remove(record_id, Removal(force))
    else:
        await records.update(record_id, RecordWrite(post=_status(action)))


@dataclass(frozen=True)
class Failure:
    kind: KindName
    id: int
    name: str  # the record's title or name when the caller may read it, else "#id"
    message: str  # the service's reason, in the caller's language
    status: int  # the service's HTTP status for it


@dataclass
class Outcome:
    """What a bulk action did: the records changed, those refused, or why nothing was tried."""

    done: list[tuple[KindName, int]] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    problem: str | None = None

    @property
    def status(self) -> int:
        """The answer's status: 200 when something changed, else the first refusal's."""
        if self.problem is not None:
            return 400
        if self.done or not self.failures:
            return 200
        return self.failures[0].status


def reason(error: ApiError, language: str) -> str:
    """The service's message, with the parameter notes of a 400."""
    body = error.body(language)
    message = str(body["message"])
    if isinstance(error, InvalidParams):
        notes = body["data"].get("params", {})
        message = " ".join([message, *(str(text) for text in notes.values())])
    return message


async def name_of(ctx: RequestContext, kind: KindName, record_id: int) -> str:
    """What to call a record in a report: its title if the caller may read it (the one read
    rule); a record they may not read stays a number."""
    service = _service(ctx, kind)
    record = await service.store.get(record_id)
    if record is None or not may(ctx.user, "read", record.author_id, record.status):
        return f"#{record_id}"
    return str(getattr(record, "title", None) or getattr(record, "name", None) or f"#{record_id}")


async def run(
    ctx: RequestContext,
    language: str,
    action: Action,
    items: Sequence[tuple[KindName, int]],
) -> Outcome:
    """`action` on every item, each in its own savepoint: a refusal rolls back that record
    only, and is reported with the service's reason in `language`."""
    outcome = Outcome()
    for kind, record_id in items:
        try:
            await in_savepoint(ctx.session, functools.partial(act, ctx, kind, action, record_id))
        except ApiError as error:
            name = await name_of(ctx, kind, record_id)
            message = reason(error, language)
            outcome.failures.append(Failure(kind, record_id, name, message, error.status))
        else:
            outcome.done.append((kind, record_id))
    return outcome
