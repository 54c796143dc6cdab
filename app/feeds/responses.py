"""Feed responses: text/calendar with a strong ETag, 304 for a current copy, and the
caching each caller's feed allows."""

from starlette.requests import Request
from starlette.responses import Response

from app.core.caching.etags import etag_of, matches
from app.http.context import RequestContext

CALENDAR_MEDIA_TYPE = "text/calendar; charset=utf-8"
# Anonymous feeds: shared caches may keep them a few minutes (subscribers poll hourly at
# most, REFRESH-INTERVAL), then revalidate with the ETag. Signed-in feeds: the caller's own.
PUBLIC_CACHE = "public, max-age=300"
PRIVATE_CACHE = "private, no-cache"


class CalendarResponse(Response):
    """Documents the feeds' bodies in OpenAPI as text/calendar (not FastAPI's JSON)."""

    media_type = CALENDAR_MEDIA_TYPE


def calendar_response(
    request: Request, ctx: RequestContext, feed: bytes, filename: str
) -> Response:
    """The feed with a strong ETag (a digest of its bytes, which depend only on the data),
    or 304 when the client's `If-None-Match` names it."""
    etag = etag_of(feed)
    headers = {
        "ETag": etag,
        "Cache-Control": PRIVATE_CACHE if ctx.user is not None else PUBLIC_CACHE,
    }
    if matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return CalendarResponse(feed, 200, headers)
