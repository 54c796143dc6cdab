"""Calendar feeds: `/events.ics` (the list's filters), `/events/{id}.ics` and
`/events/by-slug/{slug}.ics`. Registered before the event routes, whose `/by-slug/{slug}`
would otherwise take `<slug>.ics` for a slug."""

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.core.edge.app_services import services_of
from app.events.wire import FEED_PATH, read_list
from app.feeds.docs import EVENT_DOC, LIST_DOC
from app.feeds.params import FeedParams
from app.feeds.responses import CalendarResponse, calendar_response
from app.feeds.service import event_feed, list_feed
from app.http.context import ContextDep
from app.http.routing import RecordId, RecordSlug

router = APIRouter(tags=["feeds"], default_response_class=CalendarResponse)


@router.get("/events.ics", summary="Calendar feed of an event list", **LIST_DOC)
async def events_feed(request: Request, ctx: ContextDep) -> Response:
    """The events the list would return for the same filters, as iCalendar."""
    asked = read_list(ctx, FeedParams)
    source = ctx.urls.rest(FEED_PATH, {k: v for k, v in ctx.raw.items() if k != "password"})
    totals = services_of(request).event_totals
    limit = asked.params.limit
    feed = await list_feed(
        ctx, asked.query, limit, totals, source, now=asked.now, problems=asked.problems
    )
    return calendar_response(request, ctx, feed, "events.ics")


@router.get("/events/{id:id}.ics", summary="Calendar feed of an event", **EVENT_DOC)
async def event_feed_by_id(request: Request, id: RecordId, ctx: ContextDep) -> Response:
    return calendar_response(request, ctx, await event_feed(ctx, id), f"event-{id}.ics")


@router.get(
    "/events/by-slug/{slug}.ics", summary="Calendar feed of an event by its slug", **EVENT_DOC
)
async def event_feed_by_slug(request: Request, slug: RecordSlug, ctx: ContextDep) -> Response:
    return calendar_response(request, ctx, await event_feed(ctx, slug), "event.ics")
