"""Pure ASGI middleware: trusted proxy headers, common response headers, body size limit."""

import ipaddress
from collections.abc import Iterable
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.edge.errors import payload_too_large
from app.core.edge.language import HEADER_READ_STATE_KEY, scope_accepted_language
from app.core.edge.responses import JSON_MEDIA_TYPE, dumps
from app.core.edge.scopes import header
from app.core.edge.urls import NAMESPACE, discovery_link
from app.core.infra.settings import LANGUAGES


class TrustedPeers:
    """The proxies of FORWARDED_ALLOW_IPS: whose X-Forwarded-* and X-Request-ID are believed."""

    def __init__(self, trusted: Iterable[str]) -> None:
        self.trust_all = "*" in trusted
        self.networks = [ipaddress.ip_network(t, strict=False) for t in trusted if t != "*"]

    def peer(self, scope: Scope) -> bool:
        """Whether the connection's peer is one of them."""
        if self.trust_all:
            return True
        client = scope.get("client")
        return self.address(client[0]) if client else False

    def address(self, text: str) -> bool:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return False
        return self.trust_all or any(address in network for network in self.networks)


class TrustedProxyMiddleware:
    """Honour X-Forwarded-Proto/Host/Prefix/For from the proxies in FORWARDED_ALLOW_IPS, so
    that every URL the app builds is the public one."""

    def __init__(self, app: ASGIApp, trusted: Iterable[str], root_path: str = "") -> None:
        self.app = app
        self.peers = TrustedPeers(trusted)
        self.trust_all = self.peers.trust_all
        self.root_path = root_path

    def _trusted(self, scope: Scope) -> bool:
        return self.peers.peer(scope)

    def _is_trusted_address(self, text: str) -> bool:
        return self.peers.address(text)

    def _forwarded_client(self, header: str) -> str | None:
        """The rightmost address that is not one of our proxies: what a client prepends
        itself to an appended X-Forwarded-For cannot choose its address."""
        hops = [hop.strip() for hop in header.split(",") if hop.strip()]
        for hop in reversed(hops):
            if not self._is_trusted_address(hop) or self.trust_all:
                return hop
        return hops[0] if hops else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        scope = dict(scope)
        root_path = scope.get("root_path", "") or self.root_path
        if self._trusted(scope):
            headers = {
                k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]
            }
            proto = headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
            if proto in ("http", "https"):
                scope["scheme"] = proto
            host = headers.get("x-forwarded-host", "").split(",")[0].strip()
            if host:
                scope["headers"] = [(k, v) for k, v in scope["headers"] if k.lower() != b"host"] + [
                    (b"host", host.encode("latin-1"))
                ]
            prefix = headers.get("x-forwarded-prefix", "").split(",")[0].strip().rstrip("/")
            if prefix:
                root_path = "/" + prefix.lstrip("/") + self.root_path
            client = self._forwarded_client(headers.get("x-forwarded-for", ""))
            if client:
                scope["client"] = (client, 0)
        scope["root_path"] = root_path
        await self.app(scope, receive, send)


class TrailingSlashMiddleware:
    """Serve `/path/` as `/path`: the reference's `rest_url` links end in a slash."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and len(path) > 1 and path.endswith("/"):
            scope = {**scope, "path": path.rstrip("/") or "/"}
        await self.app(scope, receive, send)


def _scope_language(scope: Scope, default: str) -> str:
    state = scope.get("state") or {}
    if state.get("language"):
        return str(state["language"])
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
    if query.get("i18n_language") in LANGUAGES:
        return str(query["i18n_language"])
    path: str = scope.get("path", "")[len(scope.get("root_path", "")) :]
    first = path.lstrip("/").split("/", 1)[0]
    if first in LANGUAGES:
        return first
    # Neither given, and the app did not run (a response from the cache, whose key holds
    # the header's choice) or did not get that far: the header decides, and Vary says so.
    scope.setdefault("state", {})[HEADER_READ_STATE_KEY] = True
    return scope_accepted_language(scope) or default


def _read_headers(scope: Scope) -> list[bytes]:
    """Request headers the response depended on: the caller always (credentials decide what
    is visible), the language header when the language came from it."""
    state = scope.get("state") or {}
    return [
        b"Accept-Language, Authorization" if state.get(HEADER_READ_STATE_KEY) else b"Authorization"
    ]


class ResponseHeadersMiddleware:
    """Headers every response carries: language, caching hints and hardening."""

    def __init__(self, app: ASGIApp, default_language: str) -> None:
        self.app = app
        self.default_language = default_language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                language = _scope_language(scope, self.default_language)
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"vary"]
                vary = [v for k, v in message.get("headers", []) if k.lower() == b"vary"]
                names = {k.lower() for k, _ in headers}
                extra = [
                    (b"content-language", language.encode()),
                    (b"vary", b", ".join([*_read_headers(scope), *vary])),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                ]
                headers.extend((k, v) for k, v in extra if k not in names)
                # Next to any paging `Link`s: one field per link, as WordPress sends them.
                headers.append((b"link", discovery_link(scope).encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def headers_only(send: Send) -> Send:
    """`send` that passes a response's start (its headers, Content-Length included) and
    drops its body."""

    async def send_headers(message: Message) -> None:
        if message["type"] == "http.response.body":
            if message.get("more_body", False):
                return
            message = {"type": "http.response.body", "body": b"", "more_body": False}
        await send(message)

    return send_headers


class HeadAsGetMiddleware:
    """HEAD wherever GET works, with the headers the GET would answer (ETag and 304
    included) and no body. FastAPI routes declare GET alone."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        await self.app({**scope, "method": "GET"}, receive, headers_only(send))


class BodySizeLimitMiddleware:
    """413 for request bodies above the limit, whether declared or streamed. An upload to
    the media library (`POST .../media`) may be as large as MAX_UPLOAD_BYTES, plus room for
    a multipart form's other fields."""

    # A proxy still sending a body we refuse would see a broken pipe and answer 502 in our
    # place; reading (and dropping) a bounded amount first lets the 413 reach the client.
    DRAIN_LIMIT = 64 * 1024 * 1024

    UPLOAD_PATH = f"/{NAMESPACE}/media"
    FORM_ROOM = 256 * 1024

    def __init__(
        self, app: ASGIApp, max_bytes: int, default_language: str, upload_bytes: int = 0
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.upload_bytes = max(max_bytes, upload_bytes + self.FORM_ROOM)
        self.default_language = default_language

    def _limit(self, scope: Scope) -> int:
        path: str = scope["path"]
        if scope["method"] == "POST" and path.rstrip("/").endswith(self.UPLOAD_PATH):
            return self.upload_bytes
        return self.max_bytes

    async def _drain(self, receive: Receive, declared: int) -> None:
        if declared > self.DRAIN_LIMIT:
            return
        while True:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                return

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope)
        declared = header(scope, b"content-length") or "0"
        if declared.isdigit() and int(declared) > limit:
            await self._drain(receive, int(declared))
            body = payload_too_large().body(_scope_language(scope, self.default_language))
            await send(
                {
                    "type": "http.response.start",
                    "status": 413,
                    "headers": [
                        (b"content-type", JSON_MEDIA_TYPE.encode()),
                        (b"connection", b"close"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": dumps(body)})
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Raised inside the app's body read: answered by the error handlers.
                    raise payload_too_large()
            return message

        await self.app(scope, limited_receive, send)
