"""Calendar feeds: `/events.ics` (the list's filters), `/events/{id}.ics` and
`/events/by-slug/{slug}.ics`. Registered before the event routes, whose `/by-slug/{slug}`
would otherwise take `<slug>.ics` for a slug."""

import hashlib

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.core.etags import matches
from app.feeds.docs import EVENT_DOC, LIST_DOC
from app.feeds.service import event_feed, list_feed
from app.http.context import ContextDep, RequestContext
from app.http.routing import RecordId, RecordSlug

CALENDAR_MEDIA_TYPE = "text/calendar; charset=utf-8"
# Anonymous feeds: shared caches may keep them a few minutes (subscribers poll hourly at
# most, REFRESH-INTERVAL), then revalidate with the ETag. Signed-in feeds: the caller's own.
PUBLIC_CACHE = "public, max-age=300"
PRIVATE_CACHE = "private, no-cache"


class CalendarResponse(Response):
    """Documents the feeds' bodies in OpenAPI as text/calendar (not FastAPI's JSON)."""

    media_type = CALENDAR_MEDIA_TYPE


router = APIRouter(tags=["feeds"], default_response_class=CalendarResponse)


def calendar_response(
    request: Request, ctx: RequestContext, feed: bytes, filename: str
) -> Response:
    """The feed with a strong ETag (a digest of its bytes, which depend only on the data),
    or 304 when the client's `If-None-Match` names it."""
    etag = f'"{hashlib.sha256(feed).hexdigest()[:40]}"'
    headers = {
        "ETag": etag,
        "Cache-Control": PRIVATE_CACHE if ctx.user is not None else PUBLIC_CACHE,
    }
    if matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return CalendarResponse(feed, 200, headers)


@router.get("/events.ics", summary="Calendar feed of an event list", **LIST_DOC)
async def events_feed(request: Request, ctx: ContextDep) -> Response:
    """The events the list would return for the same filters, as iCalendar."""
    return calendar_response(request, ctx, await list_feed(ctx), "events.ics")


@router.get("/events/{id:int}.ics", summary="Calendar feed of an event", **EVENT_DOC)
async def event_feed_by_id(request: Request, id: RecordId, ctx: ContextDep) -> Response:
    return calendar_response(request, ctx, await event_feed(ctx, id), f"event-{id}.ics")


@router.get(
    "/events/by-slug/{slug}.ics", summary="Calendar feed of an event by its slug", **EVENT_DOC
)
async def event_feed_by_slug(request: Request, slug: RecordSlug, ctx: ContextDep) -> Response:
    return calendar_response(request, ctx, await event_feed(ctx, slug), "event.ics")
