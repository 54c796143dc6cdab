"""Lists of venues and organizers: newest publication first, with the caller's visibility."""

from typing import Any, TypeVar

from app.core.edge.errors import note
from app.core.rules.permissions import User, can_create_posts, can_see_all_statuses
from app.http.context import RequestContext
from app.http.pagination import Page
from app.http.params import check, parse
from app.posts.kind import PostKind
from app.posts.params import PostListParams
from app.posts.records import PostRecord
from app.posts.repository import PostFilters, PostRepository
from app.posts.serializer import View
from app.posts.service import check_visible_event

Body = dict[str, Any]
R = TypeVar("R", bound=PostRecord)


def status_echo(asked: list[str] | None, user: User) -> str:
    """The effective `status` of a list, as the reference writes it in its links: what was
    asked, else `any` for callers who see every status and `publish` for the others."""
    if asked:
        return ",".join(asked)
    return "any" if can_see_all_statuses(user) else "publish"


async def list_posts(
    kind: PostKind[R], repo: PostRepository[R], ctx: RequestContext, page: Page
) -> tuple[list[Body], int, dict[str, Any]]:
    """(bodies of the page, total, the effective filters to echo in links)."""
    params = parse(PostListParams, ctx.raw)
    if params.status is not None:
        # Who cannot create records may only ask for published ones (reference §5.5).
        allowed = can_create_posts(ctx.user) or params.status == ["publish"]
        check("status", allowed, note("status_publish_only"))
    if params.event is not None:
        await check_visible_event(ctx, "event", params.event)
    filters = PostFilters(
        search=params.search,
        event=params.event,
        has_events=params.has_events,
        only_with_upcoming=params.only_with_upcoming,
        statuses=params.status,
    )
    records, total = await repo.find(filters, ctx.user, page)
    view = View(ctx.urls, ctx.settings.site_zone, ctx.user, params.password)
    echoed = params.model_dump(
        exclude_none=True,
        exclude_defaults=True,
        exclude={"i18n_language", "password", "page", "per_page", "status"},
    )
    echoed["status"] = status_echo(params.status, ctx.user)
    return kind.render(records, view, False), total, echoed
