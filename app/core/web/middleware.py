"""Edge steps (app/core/asgi/pipeline.py): trusted proxy headers, the trailing slash, common
response headers, HEAD as GET, the body size limit."""

import functools
import ipaddress
import re
from collections.abc import Iterable

from starlette.types import Message, Receive, Scope, Send

from app.core.asgi.pipeline import Exchange, Handler, Step
from app.core.asgi.scopes import header
from app.core.errors import payload_too_large
from app.core.rules.constants import NAMESPACE
from app.core.web.responses import JSON_MEDIA_TYPE, dumps
from app.core.web.urls import discovery_link
from app.i18n import LANGUAGES, header_was_read, scope_language


class TrustedPeers:
    """The proxies of FORWARDED_ALLOW_IPS: whose X-Forwarded-* and X-Request-ID are believed."""

    def __init__(self, trusted: Iterable[str]) -> None:
        self.trust_all = "*" in trusted
        self.networks = [ipaddress.ip_network(t, strict=False) for t in trusted if t != "*"]
        # Every request asks about its peer, and parsing an address costs more than the rest
        # of this step: the answers for the last addresses seen are kept (a few proxies and
        # the clients of the moment).
        self.address = functools.lru_cache(maxsize=4096)(self._address)

    def peer(self, scope: Scope) -> bool:
        """Whether the connection's peer is one of them."""
        if self.trust_all:
            return True
        client = scope.get("client")
        return self.address(client[0]) if client else False

    def _address(self, text: str) -> bool:
        """Whether `text` is the address of one of them."""
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return False
        return self.trust_all or any(address in network for network in self.networks)


def _forwarded_client(peers: TrustedPeers, forwarded_for: str) -> str | None:
    """The rightmost address that is not one of our proxies: what a client prepends itself
    to an appended X-Forwarded-For cannot choose its address."""
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if peers.trust_all or not peers.address(hop):
            return hop
    return hops[0] if hops else None


def trusted_proxy(peers: TrustedPeers, root_path: str = "") -> Step:
    """Honour X-Forwarded-Proto/Host/Prefix/For from the proxies in FORWARDED_ALLOW_IPS, so
    that every URL the app builds is the public one."""

    async def step(exchange: Exchange, inner: Handler) -> None:
        # One copy for every step inside: the access step keeps the request as it came.
        scope = exchange.scope = dict(exchange.scope)
        prefixed = scope.get("root_path", "") or root_path
        if peers.peer(scope):
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
                prefixed = "/" + prefix.lstrip("/") + root_path
            client = _forwarded_client(peers, headers.get("x-forwarded-for", ""))
            if client:
                scope["client"] = (client, 0)
        scope["root_path"] = prefixed
        await inner(exchange)

    return step


async def trailing_slash(exchange: Exchange, inner: Handler) -> None:
    """Serve `/path/` as `/path`: the reference's `rest_url` links end in a slash."""
    path = exchange.scope.get("path", "")
    if len(path) > 1 and path.endswith("/"):
        exchange.scope["path"] = path.rstrip("/") or "/"
    await inner(exchange)


def _read_headers(scope: Scope) -> list[bytes]:
    """Request headers the response depended on: the caller always (credentials decide what
    is visible: an application password, or a desk session's cookie on a read), the language
    header when the language came from it."""
    return [
        b"Accept-Language, Authorization, Cookie"
        if header_was_read(scope)
        else b"Authorization, Cookie"
    ]


def response_headers(default_language: str) -> Step:
    """Headers every response carries: language, caching hints, hardening, and the
    WordPress discovery `Link`."""

    async def step(exchange: Exchange, inner: Handler) -> None:
        scope = exchange.scope

        def add_headers(message: Message) -> Message:
            language = scope_language(scope, default_language)
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
            return {**message, "headers": headers}

        exchange.on_start(add_headers)
        await inner(exchange)

    return step


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


async def head_as_get(exchange: Exchange, inner: Handler) -> None:
    """HEAD wherever GET works, with the headers the GET would answer (ETag and 304
    included) and no body. FastAPI routes declare GET alone."""
    if exchange.scope["method"] == "HEAD":
        exchange.scope["method"] = "GET"
        exchange.send = headers_only(exchange.send)
    await inner(exchange)


# A proxy still sending a body we refuse would see a broken pipe and answer 502 in our
# place; reading (and dropping) a bounded amount first lets the 413 reach the client.
DRAIN_LIMIT = 64 * 1024 * 1024


async def _drain(receive: Receive, declared: int) -> None:
    if declared > DRAIN_LIMIT:
        return
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body", False):
            return


# An upload to the media library (`POST .../media`, or the desk's upload form at
# `.../desk/media`) may be as large as MAX_UPLOAD_BYTES, plus room for a multipart form's
# other fields. So may the desk's event editor, which takes an image file with the event.
UPLOAD_PATHS = (f"/{NAMESPACE}/media", "/desk/media")
EDITOR_PATH = re.compile(r"/desk/events/(?:new|[0-9]+/edit)/?$")
FORM_ROOM = 256 * 1024
# A desk form's path (after the root path): its refusal is a desk page, never JSON.
DESK_FORM = re.compile(rf"^(?:/(?:{'|'.join(LANGUAGES)}))?/desk/")
# The scope's state key set when a desk form's body was over the limit and not read: the
# desk then answers with its own page (app/desk/context.py), the limit in bytes as value.
BODY_REFUSED_STATE_KEY = "body_refused"


def _refused_desk_form(exchange: Exchange, limit: int) -> None:
    """Let a desk form whose body is too large through to the desk with no body at all, so
    that the person sees a desk page saying so (the body itself is never read)."""
    scope = exchange.scope
    scope.setdefault("state", {})[BODY_REFUSED_STATE_KEY] = limit
    scope["headers"] = [
        (name, value)
        for name, value in scope["headers"]
        if name not in (b"content-length", b"content-type")
    ] + [(b"content-length", b"0")]

    async def empty() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    exchange.receive = empty


def body_limit(max_bytes: int, default_language: str, upload_bytes: int = 0) -> Step:
    """413 for request bodies above the limit, whether declared or streamed."""
    upload_limit = max(max_bytes, upload_bytes + FORM_ROOM)

    def limit_of(scope: Scope) -> int:
        path: str = scope["path"]
        if scope["method"] == "POST" and (
            path.rstrip("/").endswith(UPLOAD_PATHS) or EDITOR_PATH.search(path)
        ):
            return upload_limit
        return max_bytes

    def desk_form(scope: Scope) -> bool:
        path: str = scope["path"]
        root: str = scope.get("root_path", "")
        relative = path[len(root) :] if root and path.startswith(root) else path
        return scope["method"] == "POST" and DESK_FORM.match(relative) is not None

    async def step(exchange: Exchange, inner: Handler) -> None:
        scope = exchange.scope
        limit = limit_of(scope)
        declared = header(scope, b"content-length") or "0"
        if declared.isdigit() and int(declared) > limit:
            await _drain(exchange.receive, int(declared))
            if desk_form(scope):
                _refused_desk_form(exchange, limit)
                await inner(exchange)
                return
            body = payload_too_large().body(scope_language(scope, default_language))
            await exchange.send(
                {
                    "type": "http.response.start",
                    "status": 413,
                    "headers": [
                        (b"content-type", JSON_MEDIA_TYPE.encode()),
                        (b"connection", b"close"),
                    ],
                }
            )
            await exchange.send({"type": "http.response.body", "body": dumps(body)})
            return
        receive = exchange.receive
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

        exchange.receive = limited_receive
        await inner(exchange)

    return step
