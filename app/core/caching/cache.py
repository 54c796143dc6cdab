"""Caching, and all of its invalidation, in one place.

Every change to what the API can show draws a new number from the version sequence: database
triggers draw one inside every write (see the migrations), and `after_write` draws one more
once a request's write has committed, so that nothing computed from a snapshot without that
write survives under the number readers see next (not after a write that wrote no content
table, see `after_write`). Both caches key their entries by that number, so a hit is exact,
not eventually consistent:

- `ResponseCache` (with its edge step, `ResponseCaching`): whole responses to anonymous reads, per URL. A hit
  costs one indexless read of the sequence over a small pool of raw connections and skips
  routing, the ORM and serialisation. Only anonymous GETs of the namespace (not /doc or the
  changes feed) are cached (no Authorization or Cookie header), only 200 responses (not one
  whose Cache-Control says `no-store` or `private`), not when a date parameter is relative to the current time ("+2 hours"), and not with a
  cache-busting `_=<n>` parameter; the site date is part of the key, since the default
  event window moves with it. Entries keep their ETag: a revalidation that hits is a 304
  without a body built or hashed.
- `CountCache`: list totals per normalised filter (an exact count over a large window is too
  slow to repeat on every request). The version is read in the same statement as the page.

With a read replica, a version is only ever one the server that did the read had reached.
A sequence read on a standby is not one (its `last_value` is what was last logged, up to 32
numbers ahead of the primary, and it moves only when the primary logs it again): the
version and a WAL position are read on the primary, and a response read on a replica is
filed under that version only when the replica had replayed that position before the read
began (app/core/database/replica.py). A response built on a replica behind the version the
cache step read is answered but not stored. Totals counted on a replica are filed under the
replay position they were counted at, when it did not move during the count
(`read_version` in app/core/database/engine.py).
"""

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Hashable
from datetime import datetime, tzinfo
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import Message, Scope, Send

from app.core.asgi.pipeline import Exchange, Handler
from app.core.asgi.scopes import header, signed_in
from app.core.caching.etags import matches, not_modified_start
from app.core.database.engine import (
    ROUTE_KEY,
    Session,
    content_unchanged,
    draw_data_version,
    lsn_number,
)
from app.core.database.positions import POINT_KEY
from app.core.database.replica import PRIMARY_POINT_SQL, Route
from app.core.rules.constants import DATE_PARAMS, NAMESPACE
from app.core.rules.permissions import Principal
from app.i18n import scope_accepted_language

log = logging.getLogger(__name__)

TOTAL_ENTRIES = 4096
# Writers that are not the API (bulk seeding, manual SQL) race with readers only inside
# their transaction; the TTL bounds how long such a rare stale total can live.
TTL_SECONDS = 300.0


async def after_write(session: Session) -> None:
    """Draw a new version once a write has committed (see the module docstring): the
    session's after-commit hook (app/core/database/engine.py, registered by create_app).

    Not after a write that wrote no content table (a desk sign-in or sign-out, ending a
    desk session: `not_content`), so that it does not empty both caches and the cached
    callers though nothing they hold changed. Safe: such a write draws no version inside
    its transaction either (only the content tables' triggers draw), so nothing could be
    filed under a version its commit changed; whether it wrote content is the database's
    answer (the triggers note it), not the code's claim; and its read-your-writes position
    is not needed: desk sessions and credentials are read on the primary only."""
    if content_unchanged(session):
        return
    await draw_data_version(session)


class CountCache:
    def __init__(
        self,
        max_entries: int = TOTAL_ENTRIES,
        ttl: float = TTL_SECONDS,
        observe: Callable[[bool], None] | None = None,
    ) -> None:
        self.max_entries = max_entries
        self.ttl = ttl
        self.observe = observe  # told of every lookup: hit or not (the metrics)
        self._entries: OrderedDict[Hashable, tuple[Hashable, float, int]] = OrderedDict()
        self._counting: dict[Hashable, asyncio.Lock] = {}

    @contextlib.asynccontextmanager
    async def counting(self, key: Hashable) -> AsyncIterator[None]:
        """One count of `key` at a time in this process. A slow count (a common search word
        over a million events) asked by many requests at once was run by each of them, and
        they shared the CPU until none finished; now the others wait, then find its total."""
        lock = self._counting.get(key)
        if lock is None:
            lock = self._counting[key] = asyncio.Lock()
        try:
            async with lock:
                yield
        finally:
            if not lock.locked() and self._counting.get(key) is lock:
                del self._counting[key]

    def get(self, key: Hashable, version: Hashable, counted: bool = True) -> int | None:
        """The total of `key` under `version`; `counted=False`: a second look by the same
        request (after waiting for another's count), not a lookup of its own in the metrics."""
        total = self._lookup(key, version)
        if self.observe is not None and counted:
            self.observe(total is not None)
        return total

    def _lookup(self, key: Hashable, version: Hashable) -> int | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        cached_version, expires, total = entry
        if cached_version != version or expires < time.monotonic():
            return None
        self._entries.move_to_end(key)
        return total

    def hint(self, key: Hashable) -> int | None:
        """The last total counted for `key` under any version: stale, but good enough to
        choose a query plan by."""
        entry = self._entries.get(key)
        return None if entry is None else entry[2]

    def clear(self) -> None:
        self._entries.clear()

    def put(self, key: Hashable, version: Hashable, total: int) -> None:
        self._entries[key] = (version, time.monotonic() + self.ttl, total)
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)


class PrincipalCache:
    """Signed-in callers per Authorization header (kept as a digest, not the secret), each
    valid under the data version it was read at: users and application passwords draw a
    new version when they change (database triggers, and `almanac users` after its commit),
    so a removed user or password is refused at once."""

    def __init__(self, max_entries: int = 10_000) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[bytes, tuple[int, Principal]] = OrderedDict()

    @staticmethod
    def _key(header: str) -> bytes:
        return hashlib.sha256(header.encode("utf-8", "surrogatepass")).digest()

    def get(self, header: str, version: int) -> Principal | None:
        entry = self._entries.get(self._key(header))
        if entry is None or entry[0] != version:
            return None
        return entry[1]

    def put(self, header: str, version: int, principal: Principal) -> None:
        key = self._key(header)
        self._entries[key] = (version, principal)
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()


async def current_point(reader: Any) -> tuple[int, int] | None:
    """The primary's data version and WAL position through the raw pool of the lifespan,
    None if they cannot be read (the request itself then reports an outage, or works
    without the cache)."""
    try:
        row = await reader.fetchrow(PRIMARY_POINT_SQL)
    except Exception as exc:
        log.debug("no data version: %s", exc)
        return None
    return row["version"], lsn_number(row["position"])


def read_at(scope: Scope, version: int) -> bool:
    """Whether what the request read can be filed under `version`: read on the primary
    after `version` was (the cache step read it first), or on a replica that had replayed
    it (app/core/database/replica.py)."""
    route: Route | None = (scope.get("state") or {}).get(ROUTE_KEY)
    return route is None or route.server == "primary" or route.version == version


RESPONSE_ENTRIES = 2048
MAX_BYTES = 64 * 1024 * 1024
MAX_RESPONSE_BYTES = 1024 * 1024
CACHE_HEADER = b"x-almanac-cache"
# /doc, and the changes feed: its answer depends on which transactions are still in flight,
# which the data version does not tell (a commit by another writer than the API draws no
# new one), and its revalidations are answered by the ETag step.
UNCACHED_PATHS = ("/doc", "/changes")
CACHE_BUSTER = "_"  # what jQuery's `cache: false` and many JavaScript clients add: `_=<time>`

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
    def __init__(self, max_entries: int = RESPONSE_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
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


def cache_key(
    scope: Scope, zone: tzinfo, pages: Callable[[str], bool] | None = None
) -> tuple[Any, ...] | None:
    """The key of a cacheable request, or None. `pages` tells the public pages' paths
    (after the root path), which are stored as the namespace's answers are."""
    if scope["type"] != "http" or scope["method"] != "GET":
        return None
    path: str = scope["path"]
    page = pages is not None and pages(path[len(scope.get("root_path", "")) :])
    if not page and (
        f"/{NAMESPACE}" not in path or path.endswith(UNCACHED_PATHS) or "/doc/assets/" in path
    ):
        return None  # the docs page and its files (their own Cache-Control) are not stored
    if signed_in(scope):
        return None
    host = header(scope, b"host") or ""
    query: bytes = scope.get("query_string", b"")
    if query:
        for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
            if name.rstrip("[]") in DATE_PARAMS and not _absolute(value):
                return None
            if name == CACHE_BUSTER:
                # Unique on every request by design: storing it would only push out entries
                # that can hit, and reading the data version for it is wasted.
                return None
    today = datetime.now(zone).date()
    # The language Accept-Language picks is part of the key (whether or not the parameter or
    # path segment overrides it): a German answer is never served to an English reader.
    language = scope_accepted_language(scope)
    return (scope["scheme"], host, scope.get("root_path", ""), path, query, today, language)


# A response that says no shared cache may keep it: an event page whose RSVP form carries
# the moment it was made (app/pages/rsvp_form.py), a page read with a desk session's cookie.
UNSTORED = (b"no-store", b"private")


def storable(start: Message) -> bool:
    """May the response of this start message be stored (its Cache-Control allows it)?"""
    control = b",".join(v for k, v in start.get("headers", []) if k.lower() == b"cache-control")
    return not any(word in control.lower() for word in UNSTORED)


class ResponseCaching:
    """The response cache's edge step (app/core/asgi/pipeline.py)."""

    # How long a request waits for an identical one already being answered before it gives
    # up and does the work itself.
    WAIT_SECONDS = 10.0

    def __init__(
        self,
        cache: ResponseCache,
        site_zone: tzinfo,
        pages: Callable[[str], bool] | None = None,
    ) -> None:
        self.cache = cache
        self.site_zone = site_zone
        self.pages = pages
        # Single flight: identical misses arriving together (a popular, expensive list right
        # after a change) are answered by one computation instead of one each.
        self._filling: dict[tuple[Any, ...], asyncio.Event] = {}

    async def __call__(self, exchange: Exchange, inner: Handler) -> None:
        scope, send = exchange.scope, exchange.send
        reader = (scope.get("state") or {}).get("version_reader")
        key = cache_key(scope, self.site_zone, self.pages) if reader is not None else None
        if reader is None or key is None:
            await inner(exchange)
            return
        point = await current_point(reader)
        if point is None:
            await inner(exchange)
            return
        version = point[0]
        scope["state"][POINT_KEY] = point  # for the read router
        flight = (key, version)
        filling = self._filling.get(flight)
        if filling is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(filling.wait(), self.WAIT_SECONDS)
        condition = header(scope, b"if-none-match")
        hit = self.cache.get(key, version)
        if hit is not None:
            await self._replay(send, hit, condition)
            return
        if flight in self._filling:  # the first one took too long: do it here too
            await inner(exchange)
            return
        done = self._filling[flight] = asyncio.Event()
        try:
            await self._fill(exchange, inner, key, version, condition)
        finally:
            del self._filling[flight]
            done.set()

    @staticmethod
    async def _replay(
        send: Send, entry: Entry, condition: str | None, mark: bytes = b"hit"
    ) -> None:
        """A stored response, or a 304 when the request's If-None-Match names its ETag (the
        ETag is stored among the headers: no body is built or hashed for a revalidation)."""
        _, status, headers, body = entry
        start = {"type": "http.response.start", "status": status,
                 "headers": [*headers, (CACHE_HEADER, mark)]}  # fmt: skip
        stored = next((v.decode("latin-1") for k, v in headers if k == b"etag"), None)
        if matches(condition, stored):
            await send(not_modified_start(start))
            await send({"type": "http.response.body", "body": b""})
            return
        await send(start)
        await send({"type": "http.response.body", "body": body})

    async def _fill(
        self,
        exchange: Exchange,
        inner: Handler,
        key: tuple[Any, ...],
        version: int,
        condition: str | None,
    ) -> None:
        scope, send = exchange.scope, exchange.send
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
                if condition is not None and message["status"] == 200:
                    return  # held: a 304 if the body's ETag matches (below)
            elif message["type"] == "http.response.body" and start is not None:
                size += len(message.get("body", b""))
                chunks.append(message.get("body", b""))
                if (
                    not message.get("more_body")
                    and start["status"] == 200
                    and size <= MAX_RESPONSE_BYTES
                    and read_at(scope, version)
                    and storable(start)
                ):
                    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"date"]
                    self.cache.put(key, (version, 200, headers, b"".join(chunks)))
                if condition is not None and start["status"] == 200:
                    if message.get("more_body"):
                        return
                    entry = (version, 200, list(start.get("headers", [])), b"".join(chunks))
                    await self._replay(send, entry, condition, b"miss")
                    return
            await send(message)

        # The inner app answers without the condition, so that the whole 200 can be stored;
        # the client then gets the 304 or the body from here.
        exchange.scope = {
            **scope,
            "headers": [(k, v) for k, v in scope["headers"] if k != b"if-none-match"],
        }
        exchange.send = capture
        started = time.monotonic()
        await inner(exchange)
        log.debug("response cache miss filled in %.1f ms", (time.monotonic() - started) * 1000)
