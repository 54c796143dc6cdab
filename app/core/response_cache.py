"""Whole responses to anonymous reads, cached per URL and served while the data is unchanged.

Every change to what the API can show draws a new number from `events_version_seq` (database
triggers inside the write, and the app again after the commit). A cached response is served
only when the current number — one indexless read of a sequence over a small pool of raw
connections — is the one it was built under, so a hit is exact, not eventually consistent,
and skips routing, the ORM and serialisation.

Only anonymous GETs of the namespace (not /doc) are cached (no Authorization or Cookie header), only
200 responses, and not when a date parameter is relative to the current time ("+2 hours");
the site date is part of the key, since the default event window moves with it.
"""

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.settings import get_settings
from app.core.urls import NAMESPACE

log = logging.getLogger(__name__)

DATE_PARAMS = frozenset(
    {"start_date", "end_date", "starts_before", "starts_after", "ends_before", "ends_after"}
)
MAX_ENTRIES = 2048
MAX_BYTES = 64 * 1024 * 1024
MAX_RESPONSE_BYTES = 1024 * 1024
CACHE_HEADER = b"x-almanac-cache"

Entry = tuple[int, int, list[tuple[bytes, bytes]], bytes]  # version, status, headers, body


def _absolute(value: str) -> bool:
    """A date that does not move with the clock (a calendar date, a timestamp)."""
    text = value.strip()
    if text.lstrip("-").replace(".", "", 1).isdigit():
        return True
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


class ResponseCache:
    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._entries: OrderedDict[tuple[Any, ...], Entry] = OrderedDict()
        self._bytes = 0

    def get(self, key: tuple[Any, ...], version: int) -> Entry | None:
        entry = self._entries.get(key)
        if entry is None or entry[0] != version:
            return None
        self._entries.move_to_end(key)
        return entry

    def put(self, key: tuple[Any, ...], entry: Entry) -> None:
        old = self._entries.pop(key, None)
        if old is not None:
            self._bytes -= len(old[3])
        self._entries[key] = entry
        self._bytes += len(entry[3])
        while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
            _, dropped = self._entries.popitem(last=False)
            self._bytes -= len(dropped[3])

    def clear(self) -> None:
        self._entries.clear()
        self._bytes = 0


def cache_key(scope: Scope) -> tuple[Any, ...] | None:
    """The key of a cacheable request, or None."""
    if scope["type"] != "http" or scope["method"] != "GET":
        return None
    path: str = scope["path"]
    if f"/{NAMESPACE}" not in path or path.endswith("/doc"):
        return None
    host = b""
    for name, value in scope["headers"]:
        if name in (b"authorization", b"cookie"):
            return None
        if name == b"host":
            host = value
    query: bytes = scope.get("query_string", b"")
    if query:
        for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
            if name.rstrip("[]") in DATE_PARAMS and not _absolute(value):
                return None
    today = datetime.now(get_settings().site_zone).date()
    return (scope["scheme"], host, scope.get("root_path", ""), path, query, today)


class ResponseCacheMiddleware:
    # How long a request waits for an identical one already being answered before it gives
    # up and does the work itself.
    WAIT_SECONDS = 10.0

    def __init__(self, app: ASGIApp, cache: ResponseCache) -> None:
        self.app = app
        self.cache = cache
        # Single flight: identical misses arriving together (a popular, expensive list right
        # after a change) are answered by one computation instead of one each.
        self._filling: dict[tuple[Any, ...], asyncio.Event] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        reader = (scope.get("state") or {}).get("version_reader")
        key = cache_key(scope) if reader is not None else None
        if reader is None or key is None:
            await self.app(scope, receive, send)
            return
        try:
            version = await reader.fetchval("SELECT last_value FROM events_version_seq")
        except Exception as exc:  # the request itself will report the outage
            log.debug("no data version: %s", exc)
            await self.app(scope, receive, send)
            return
        flight = (key, version)
        filling = self._filling.get(flight)
        if filling is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(filling.wait(), self.WAIT_SECONDS)
        hit = self.cache.get(key, version)
        if hit is not None:
            await self._replay(send, hit)
            return
        if flight in self._filling:  # the first one took too long: do it here too
            await self.app(scope, receive, send)
            return
        done = self._filling[flight] = asyncio.Event()
        try:
            await self._fill(scope, receive, send, key, version)
        finally:
            del self._filling[flight]
            done.set()

    @staticmethod
    async def _replay(send: Send, entry: Entry) -> None:
        _, status, headers, body = entry
        await send({"type": "http.response.start", "status": status,
                    "headers": [*headers, (CACHE_HEADER, b"hit")]})  # fmt: skip
        await send({"type": "http.response.body", "body": body})

    async def _fill(
        self, scope: Scope, receive: Receive, send: Send, key: tuple[Any, ...], version: int
    ) -> None:
        start: Message | None = None
        chunks: list[bytes] = []
        size = 0

        async def capture(message: Message) -> None:
            nonlocal start, size
            if message["type"] == "http.response.start":
                start = message
                message = {
                    **message,
                    "headers": [*message.get("headers", []), (CACHE_HEADER, b"miss")],
                }
            elif message["type"] == "http.response.body" and start is not None:
                size += len(message.get("body", b""))
                chunks.append(message.get("body", b""))
                if (
                    not message.get("more_body")
                    and start["status"] == 200
                    and size <= MAX_RESPONSE_BYTES
                ):
                    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"date"]
                    self.cache.put(key, (version, 200, headers, b"".join(chunks)))
            await send(message)

        started = time.monotonic()
        await self.app(scope, receive, capture)
        log.debug("response cache miss filled in %.1f ms", (time.monotonic() - started) * 1000)
