"""Lists of venues and organizers: newest publication first, with the caller's visibility."""

from typing import Any, TypeVar

from app.core.edge.errors import note
from app.core.rules.permissions import User, can_create_posts
from app.http.context import RequestContext
from app.http.pagination import Page
from app.http.params import check, parse
from app.posts.kind import PostKind
from app.posts.params import ANY_STATUS, PostListParams, asked_statuses
from app.posts.records import PostRecord
from app.posts.repository import PostFilters, PostRepository
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


def _as_written(raw: Any, value: Any) -> Any:
    """A boolean parameter in a link as the caller wrote it (`true` stays `true`), as the
    reference echoes it; the parsed value when it came in another shape (a JSON body)."""
    return raw.strip() if isinstance(raw, str) else value


async def list_posts(
    kind: PostKind[R], repo: PostRepository[R], ctx: RequestContext, page: Page
) -> tuple[list[Body], int, dict[str, Any]]:
    """(bodies of the page, total, the effective filters to echo in links)."""
    params = parse(PostListParams, ctx.raw)
    statuses = asked_statuses(params.status)
    if statuses is not None:
        # Who cannot create records may only ask for published ones (docs/design.md#event-list, Visibility).
        allowed = can_create_posts(ctx.user) or statuses == ["publish"]
        check("status", allowed, note("status_publish_only"))
    if params.event is not None:
        await check_visible_event(ctx, "event", params.event)
    filters = PostFilters(
        search=params.search,
        event=params.event,
        has_events=params.has_events,
        only_with_upcoming=params.only_with_upcoming,
        statuses=statuses,
    )
    records, total = await repo.find(filters, ctx.user, page)
    view = View(ctx.urls, ctx.settings.site_zone, ctx.user, params.password)
    echoed = params.model_dump(
        exclude_none=True,
        exclude_defaults=True,
        exclude={"i18n_language", "password", "page", "per_page", "status"},
    )
    if "has_events" in echoed:
        echoed["has_events"] = _as_written(ctx.raw.get("has_events"), params.has_events)
    echoed["status"] = status_echo(statuses, ctx.user)
    return kind.render(records, view, False), total, echoed
