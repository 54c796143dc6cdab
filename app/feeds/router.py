"""Calendar feeds: `/events.ics` (the list's filters), `/events/{id}.ics` and
`/events/by-slug/{slug}.ics`. Registered before the event routes, whose `/by-slug/{slug}`
would otherwise take `<slug>.ics` for a slug."""

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.core.app_services import services_of
from app.events.wire import feed_source, read_list
from app.feeds.docs import EVENT_DOC, LIST_DOC
from app.feeds.params import FeedParams
from app.feeds.responses import CalendarResponse, calendar_response
from app.feeds.service import event_feed, list_feed
from app.http.context import ContextDep
from app.http.routing import RecordId, RecordSlug
from app.posts.door import read_request

router = APIRouter(tags=["feeds"], default_response_class=CalendarResponse)


@router.get("/events.ics", summary="Calendar feed of an event list", **LIST_DOC)
async def events_feed(request: Request, ctx: ContextDep) -> Response:
    """The events the list would return for the same filters, as iCalendar."""
    asked = await read_list(ctx, FeedParams, services_of(request).geocoder)
    totals = services_of(request).event_totals
    limit, source = asked.params.limit, feed_source(ctx)
    feed = await list_feed(
        ctx, asked.query, limit, totals, source, now=asked.now, problems=asked.problems
    )
    return calendar_response(request, ctx, feed, "events.ics")


@router.get("/events/{id:id}.ics", summary="Calendar feed of an event", **EVENT_DOC)
async def event_feed_by_id(request: Request, id: RecordId, ctx: ContextDep) -> Response:
    feed = await event_feed(ctx, id, read_request(ctx.raw))
    return calendar_response(request, ctx, feed, f"event-{id}.ics")


@router.get(
    "/events/by-slug/{slug}.ics", summary="Calendar feed of an event by its slug", **EVENT_DOC
)
async def event_feed_by_slug(request: Request, slug: RecordSlug, ctx: ContextDep) -> Response:
    feed = await event_feed(ctx, slug, read_request(ctx.raw))
    return calendar_response(request, ctx, feed, "event.ics")
