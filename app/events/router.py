"""Events: the list, and create, read, update, delete by ID and by slug (interface §4.3, §4.4).
Everything but the list is the shared post routes."""

from fastapi import Request
from starlette.responses import Response

from app.core.caching import CountCache
from app.events.kind import EVENTS
from app.events.listing import feed_link, list_events
from app.events.params import EventListParams
from app.events.schemas import EventList
from app.http.context import ContextDep
from app.http.openapi import api_doc
from app.http.pagination import PageDep, list_response
from app.posts.router import PostRoutes

routes = PostRoutes(EVENTS)
router = routes.router


@router.get(
    "",
    summary="List events",
    **api_doc(query=EventListParams, response=EventList, errors=(401, 404), paging_headers=True),
)
async def list_events_route(request: Request, page: PageDep, ctx: ContextDep) -> Response:
    """Events in a date window (default: 00:00 yesterday to two years ahead), start ascending."""
    totals: CountCache = request.app.state.event_totals
    items, total, echoed = await list_events(ctx, page, totals)
    return list_response(
        urls=ctx.urls,
        path="/events",
        key="events",
        kind="event",
        items=items,
        total=total,
        page=page,
        filters=echoed,
        alternates=[feed_link(ctx, echoed)],
    )


routes.register()
