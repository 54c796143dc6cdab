"""Entity tags: what a GET's ETag is, how conditional headers compare with it, and the
edge step that adds ETag and Cache-Control to every successful GET of the namespace.

An ETag is a digest of the exact response body (the JSON bytes), so it is *strong*: equal tags
mean byte-identical representations. It therefore depends on everything the body depends on:
the record, the language, the caller (what they may see) and the public URLs. The write paths
compute the same digest of the body a GET would return to the same caller (see
`app/posts/service.py`), which is what `If-Match` is compared with.

Comparisons ignore a `W/` prefix, in `If-None-Match` (weak comparison, as RFC 9110 asks) and
in `If-Match` too: a compressing proxy in front of the app (nginx's gzip, deploy/nginx.conf)
turns our strong tags into weak ones, and the JSON they name is still the one we hashed.

Contract with routes that set their own `ETag` (the iCalendar feeds): a response that
already carries one is left alone entirely (the route answers `If-None-Match` itself).
"""

import hashlib

from starlette.types import Message, Scope

from app.core.asgi.pipeline import Exchange, Handler
from app.core.asgi.scopes import header, signed_in
from app.core.rules.constants import NAMESPACE

# Anonymous answers may be stored by shared caches, but every use must be revalidated (the
# data can change at any moment; a revalidation is a cheap 304); signed-in ones only by the
# caller's own client.
PUBLIC_CACHE_CONTROL = b"public, no-cache"
PRIVATE_CACHE_CONTROL = b"private, no-cache"
# Headers that describe a body, dropped from a 304 (which has none).
BODY_HEADERS = frozenset({b"content-length", b"content-type", b"content-disposition"})


def etag_of(body: bytes) -> str:
    """The strong ETag of a response body."""
    return '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'


def _tags(header: str) -> list[str]:
    return [tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()]


def matches(header: str | None, etag: str | None) -> bool:
    """Does a conditional header (`If-Match` / `If-None-Match`) name `etag` (or `*` any
    current representation)? None (no current representation) matches nothing."""
    if header is None or etag is None:
        return False
    tags = _tags(header)
    return "*" in tags or etag.removeprefix("W/") in tags


def if_match_holds(condition: str | None, etag: str | None) -> bool:
    """`If-Match` of a write to an existing record: absent, `*`, or naming the ETag a GET
    of the record returns to the caller now (None when that GET would refuse it)."""
    return condition is None or "*" in _tags(condition) or matches(condition, etag)


def etag_headers(etag: str | None) -> dict[str, str]:
    """The ETag header of a write's answer (none when a GET would not answer 200)."""
    return {"ETag": etag} if etag is not None else {}


def tagged_request(scope: Scope) -> bool:
    """A GET of the namespace: its successful answers get an ETag."""
    return (
        scope["type"] == "http"
        and scope["method"] in ("GET", "HEAD")
        and f"/{NAMESPACE}" in scope["path"]
    )


def not_modified_start(start: Message) -> Message:
    """The 304 answering a request whose `If-None-Match` names the response's ETag: the
    same headers (ETag, Cache-Control, Vary, ...) without the body's."""
    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() not in BODY_HEADERS]
    return {"type": "http.response.start", "status": 304, "headers": headers}


async def tag_responses(exchange: Exchange, inner: Handler) -> None:
    """ETag and Cache-Control on every 200 to a GET of the namespace, and 304 for a matching
    `If-None-Match`. The bodies are JSON built whole in memory anyway, so holding them back
    until the digest is known costs nothing but the digest."""
    scope = exchange.scope
    if not tagged_request(scope):
        await inner(exchange)
        return
    condition = header(scope, b"if-none-match")
    cache_control = PRIVATE_CACHE_CONTROL if signed_in(scope) else PUBLIC_CACHE_CONTROL
    send = exchange.send
    start: Message | None = None
    chunks: list[bytes] = []

    async def tagging(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            names = {k.lower() for k, _ in message.get("headers", [])}
            if message["status"] == 200 and b"etag" not in names:
                start = message  # held until the body is complete
                return
        elif message["type"] == "http.response.body" and start is not None:
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = b"".join(chunks)
            etag = etag_of(body)
            names = {k.lower() for k, _ in start.get("headers", [])}
            extra = [(b"etag", etag.encode())]
            if b"cache-control" not in names:
                extra.append((b"cache-control", cache_control))
            tagged = {**start, "headers": [*start.get("headers", []), *extra]}
            if matches(condition, etag):
                await send(not_modified_start(tagged))
                await send({"type": "http.response.body", "body": b""})
                return
            await send(tagged)
            message = {"type": "http.response.body", "body": body}
        await send(message)

    exchange.send = tagging
    await inner(exchange)
