"""The headers of every public page, set in one place (`render_page` asks for them):

- a Content-Security-Policy (the shared base, app/core/security/csp.py) whose one script
  allowance is this response's nonce: the pages run no inline script; their JSON-LD data
  and the maps' scripts (Leaflet and static/map.js, files of this site) carry it, and a
  theme's script must too (`csp_nonce` in templates); the maps' tile server, when set, is
  named among the images' sources;
- `Cache-Control: private, no-cache` on a page read as a desk session's person (it may show
  drafts and other unpublished records, app/pages/content.py): no shared cache keeps it.

The nonce is drawn for each response by `fresh_nonces`, an edge step outside the response
cache. A page the cache stored carries the nonce it was rendered with, in its policy and its
body; on a hit the step puts this response's in their place, so that no two responses share
one."""

import re

from fastapi import Request
from starlette.types import Message

from app.core.app_services import services_of
from app.core.asgi.pipeline import Exchange, Handler
from app.core.caching.etags import PRIVATE_CACHE_CONTROL
from app.core.security.csp import content_security_policy, new_nonce, origin_of
from app.pages.paths import is_page_path
from app.users.auth import DESK_SESSION_STATE_KEY

NONCE_STATE_KEY = "page_nonce"
POLICY = b"content-security-policy"
_POLICY_NONCE = re.compile(rb"'nonce-([A-Za-z0-9_-]+)'")


def page_nonce(request: Request) -> str:
    """This response's nonce (drawn by `fresh_nonces`, or here for a page it did not see)."""
    state = request.scope.setdefault("state", {})
    return str(state.setdefault(NONCE_STATE_KEY, new_nonce()))


def page_policy(nonce: str, site: str, tiles: str = "") -> str:
    # The stylesheet and the forms' targets are the public site's URLs (app/pages/links.py),
    # the same origin as the page's unless a proxy says otherwise.
    site_origin = origin_of(site)
    own = ("'self'", *([site_origin] if site_origin else []))
    # The maps' tile servers (MAP_TILES_URL, `{s}` Leaflet's subdomains a, b, c), named when
    # set: images from there.
    tile_origins = sorted(
        {origin for letter in "abc" if (origin := origin_of(tiles.replace("{s}", letter)))}
    )
    return content_security_policy(
        {
            "script-src": (f"'nonce-{nonce}'",),
            "style-src": own,
            # Descriptions' style attributes (alignment, colours): only declarations that
            # can neither load nor run anything reach a page (app/core/rules/html.py).
            "style-src-attr": ("'unsafe-inline'",),
            # Images and media are URLs anywhere (an event's image, a description's); data:
            # is the layout's empty icon.
            "img-src": (
                "'self'",
                *tile_origins,
                "https:",
                "http:",
                "data:",
            ),  # fmt: skip
            "media-src": ("'self'", "https:", "http:"),
            "form-action": own,
        }
    )


def page_headers(request: Request, site: str) -> dict[str, str]:
    tiles = services_of(request).settings.map_tiles_url
    headers = {"Content-Security-Policy": page_policy(page_nonce(request), site, tiles)}
    # Set by the visitor's context when the request's desk cookie named a live session.
    if request.scope.get("state", {}).get(DESK_SESSION_STATE_KEY) is not None:
        headers["Cache-Control"] = PRIVATE_CACHE_CONTROL.decode()
    return headers


async def fresh_nonces(exchange: Exchange, inner: Handler) -> None:
    """The edge step: a new nonce for every page response, a stored page's replaced."""
    scope = exchange.scope
    if not is_page_path(scope["path"][len(scope.get("root_path", "")) :]):
        await inner(exchange)
        return
    fresh = new_nonce()
    exchange.state[NONCE_STATE_KEY] = fresh
    new = fresh.encode()
    send = exchange.send
    stale: bytes | None = None

    async def sending(message: Message) -> None:
        nonlocal stale
        if message["type"] == "http.response.start":
            headers = message.get("headers", [])
            policy = next((v for k, v in headers if k.lower() == POLICY), b"")
            found = _POLICY_NONCE.search(policy)
            # Nonces are all of one length: the body's Content-Length stays right.
            if found and found.group(1) != new and len(found.group(1)) == len(new):
                stale = found.group(1)
                headers = [(k, v.replace(stale, new) if k.lower() == POLICY else v) for k, v in headers]  # fmt: skip
                message = {**message, "headers": headers}
        elif message["type"] == "http.response.body" and stale is not None:
            # A hit is sent in one body message (app/core/caching/cache.py `_replay`).
            body = message.get("body", b"")
            message = {**message, "body": body.replace(b'nonce="%s"' % stale, b'nonce="%s"' % new)}  # fmt: skip
        await send(message)

    exchange.send = sending
    await inner(exchange)
