"""The headers of every desk response, set in one place: no caching anywhere (a signed-in
person's screens), a Content-Security-Policy whose only script allowance besides the desk's
own files is this response's nonce (no `unsafe-inline`), no framing, and referrers kept to
this site. The nonce is drawn here, before the route runs, and read by the templates
(app/desk/context.py)."""

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.security.csp import content_security_policy, new_nonce, origin_of
from app.desk.paths import desk_parts, is_static

NONCE_STATE_KEY = "desk_nonce"
STATIC_CACHE = b"public, max-age=3600"


def desk_policy(nonce: str, media_url: str | None = None, tiles: str = "") -> str:
    """The desk's policy (the shared base, app/core/security/csp.py): its own script files and
    this response's nonce; images may also come from MEDIA_URL's origin (a CDN) and from
    the map tiles' servers (MAP_TILES_URL, `{s}` Leaflet's subdomains a, b, c: the venue
    editor's map)."""
    media = origin_of(media_url)
    tile_origins = sorted(
        {origin for letter in "abc" if (origin := origin_of(tiles.replace("{s}", letter)))}
    )
    return content_security_policy(
        {
            "script-src": ("'self'", f"'nonce-{nonce}'"),
            "style-src": ("'self'",),
            "img-src": ("'self'", "data:", "blob:", *([media] if media else []), *tile_origins),
        }
    )


class DeskHeaders:
    """ASGI middleware (inside the edge pipeline): the desk's headers on the desk's paths."""

    def __init__(self, app: ASGIApp, media_url: str | None = None, tiles: str = "") -> None:
        self.app = app
        self.media_url = media_url
        self.tiles = tiles

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        relative = scope.get("path", "")[len(scope.get("root_path", "")) :]
        if desk_parts(relative) is None:
            await self.app(scope, receive, send)
            return
        nonce = new_nonce()
        scope.setdefault("state", {})[NONCE_STATE_KEY] = nonce
        static = is_static(relative)
        policy = desk_policy(nonce, self.media_url, self.tiles).encode()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                ours = {
                    b"cache-control": STATIC_CACHE if static else b"no-store",
                    b"content-security-policy": policy,
                    b"x-frame-options": b"DENY",
                    b"referrer-policy": b"same-origin",
                    b"x-content-type-options": b"nosniff",
                }
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in ours]
                message = {**message, "headers": [*headers, *ours.items()]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
