"""A post kind (event, venue, organizer): what the shared record behaviour needs to know of it."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from app.core.rules.permissions import Principal
from app.http.context import RequestContext
from app.http.params import Params
from app.posts.params import PostWriteParams
from app.posts.records import PostRecord, Protectable
from app.posts.repository import PostRepository
from app.posts.serializer import View
from app.posts.writer import PostWriter

R = TypeVar("R", bound=Protectable)
R_co = TypeVar("R_co", bound=Protectable, covariant=True)
R_contra = TypeVar("R_contra", bound=Protectable, contravariant=True)
P = TypeVar("P", bound=PostRecord)


class Store(Protocol[R_co]):
    """The repository calls the shared behaviour makes."""

    async def get(self, record_id: int) -> R_co | None: ...
    async def get_by_slug(self, slug: str) -> R_co | None: ...
    async def get_many(self, record_ids: Sequence[int], /) -> Sequence[R_co]: ...
    async def lock(self, record_id: int) -> bool: ...
    async def trash(self, record_id: int) -> None: ...
    async def update(
        self, record_id: int, columns: dict[str, Any], texts: dict[str, str], slug: str | None, /
    ) -> None: ...
    async def delete(self, record_id: int) -> None: ...
    async def keep_modified(self, record_id: int, modified_at: datetime) -> None: ...


class Writer(Protocol[R_contra]):
    """Creates and updates records of a kind from a write's typed command (a RecordWrite of
    app/posts/commands.py, an EventWrite of app/events/commands.py)."""

    async def create(self, command: Any, /) -> int: ...
    async def update(self, record: R_contra, command: Any, /) -> None: ...


@dataclass(frozen=True)
class PostKind(Generic[R]):
    name: str  # event: error codes (`rest-event-not-found`), the name field of venue writes
    plural: str  # events: the route segment and the list key
    label: str  # "an event": route summaries
    store: Callable[[RequestContext], Store[R]]
    writer: Callable[[RequestContext, Principal], Writer[R]]
    # Bodies of records for one request; `json_ld` on single reads.
    render: Callable[[Sequence[R], View, bool], list[dict[str, Any]]]
    write_params: type[Params]
    required: tuple[str, ...]  # parameters a create must send
    schema: type[BaseModel]  # documents a body in OpenAPI
    list_schema: type[BaseModel]
    # Reference rules only events follow: a trashed event is "no longer available" to
    # every reader, a protected one is refused (not redacted) without its password, and
    # an ID of another post kind is "not a valid event" (400).
    gone_when_trashed: bool = False
    refuses_protected: bool = False
    names_other_kinds: bool = False
    # Venues and organizers: their repository, for their own list and event payload links.
    posts: Callable[[RequestContext], PostRepository[Any]] | None = None


def post_kind(
    *,
    name: str,
    repository: type[PostRepository[P]],
    params: type[PostWriteParams],
    render: Callable[[Sequence[P], View, bool], list[dict[str, Any]]],
    schema: type[BaseModel],
    list_schema: type[BaseModel],
    writer_type: type[PostWriter[P]] = PostWriter,
) -> PostKind[P]:
    """A venue-like kind: the shared repository and writer (or the kind's own
    `writer_type`), with its own fields."""

    def store(ctx: RequestContext) -> PostRepository[P]:
        return repository(ctx.session, ctx.language, ctx.settings.default_language)

    def writer(ctx: RequestContext, user: Principal) -> PostWriter[P]:
        return writer_type(name, params, store(ctx), user)

    return PostKind(
        name=name,
        plural=f"{name}s",
        label=f"a {name}",
        store=store,
        writer=writer,
        render=render,
        write_params=params,
        required=(name,),
        schema=schema,
        list_schema=list_schema,
        posts=store,
    )
