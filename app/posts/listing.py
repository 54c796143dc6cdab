"""Lists of venues and organizers: newest publication first, with the caller's visibility."""

from typing import Any, TypeVar

from app.core.errors import InvalidParams, note
from app.core.rules.paging import Page
from app.core.rules.permissions import User, can_create_posts
from app.http.context import RequestContext
from app.http.params import check, refused_values
from app.posts.commands import PostQuery
from app.posts.kind import PostKind
from app.posts.params import ANY_STATUS, PostListParams
from app.posts.records import PostRecord
from app.posts.repository import PostRepository
from app.posts.serializer import View
from app.posts.service import check_visible_event

Body = dict[str, Any]
R = TypeVar("R", bound=PostRecord)


def status_echo(asked: list[str] | None, user: User) -> str:
    """The effective `status` of a list, as the reference writes it in its links: what was
    asked, else `any` for callers who may create records (contributors and up: the default
    shows them more than the published ones) and `publish` for the others."""
    if asked:
        return ",".join(asked)
    return ANY_STATUS if can_create_posts(user) else "publish"


async def list_posts(
    kind: PostKind[R], repo: PostRepository[R], ctx: RequestContext, query: PostQuery, page: Page
) -> tuple[list[Body], int]:
    """(bodies of the page, total)."""
    await check_list(ctx, query)
    records, total = await repo.find(query, ctx.user, page)
    return kind.render(records, list_view(ctx, query), False), total


def list_view(ctx: RequestContext, query: PostQuery) -> View:
    """How a list's records are shown to its caller (a password unredacts those it opens)."""
    return View(ctx.urls, ctx.settings.site_zone, ctx.user, query.password)


async def check_list(ctx: RequestContext, query: PostQuery) -> None:
    """A list's filters: what the caller may ask for, the search's bounds, the event."""
    # A search the desk passes no door read: the list model's limits (its length bounds the
    # fragments searched) hold for it too.
    notes = refused_values(PostListParams, {"search": query.search})
    if notes:
        raise InvalidParams(notes)
    if query.statuses is not None:
        # Who cannot create records may only ask for published ones (docs/design.md#event-list, Visibility).
        allowed = can_create_posts(ctx.user) or query.statuses == ["publish"]
        check("status", allowed, note("status_publish_only"))
    if query.event is not None:
        await check_visible_event(ctx, "event", query.event)
