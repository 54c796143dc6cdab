"""The feeds in the OpenAPI document: iCalendar bodies, ETag, 304 and the errors they share
with the JSON routes."""

from typing import Any

from app.feeds.params import FeedParams
from app.http.openapi import api_doc
from app.http.params import Params
from app.posts.params import ReadParams

TEXT_HEADERS: dict[str, Any] = {
    "ETag": {
        "schema": {"type": "string"},
        "required": True,
        "description": "Strong entity tag of the feed (send it back as If-None-Match)",
    },
    "Cache-Control": {
        "schema": {"type": "string"},
        "description": "public, max-age=300 for anonymous callers; private, no-cache else",
    },
}
IF_NONE_MATCH: dict[str, Any] = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "ETag of the copy the client holds: 304 Not Modified while it is current",
    "schema": {"type": "string", "maxLength": 1000},
}


def feed_doc(query: type[Params], errors: tuple[int, ...]) -> dict[str, Any]:
    """Route options documenting a feed: its parameters (`query`), a text/calendar 200, a
    304 and the errors."""
    options = api_doc(query=query, errors=errors)
    for response in options["responses"].values():
        # Errors are the JSON envelope, not the route's text/calendar.
        model = response.pop("model", None)
        if model is not None:
            schema = {"$ref": f"#/components/schemas/{model.__name__}"}
            response["content"] = {"application/json": {"schema": schema}}
    options["openapi_extra"]["parameters"].append(dict(IF_NONE_MATCH))
    options["responses"][200] = {
        "description": "The feed (iCalendar, RFC 5545)",
        "headers": TEXT_HEADERS,
    }
    options["responses"][304] = {
        "description": "Not modified: the If-None-Match names the current feed",
        "headers": {"ETag": TEXT_HEADERS["ETag"]},
    }
    return options


LIST_DOC = feed_doc(FeedParams, (401, 404))
EVENT_DOC = feed_doc(ReadParams, (401, 403, 404))
