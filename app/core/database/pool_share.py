"""Anonymous reads' share of the connection pool.

Reads by anonymous callers (no credentials, no desk session) are the ones anybody can send
in any number. Each holds a pooled connection while it runs; thirty slow ones at once took
every connection of a worker, and every other request, signed-in writes included, waited
for the pool until it gave up (503). So anonymous reads run only while they hold one of a
fixed number of slots, fewer than the pool has connections: the rest is kept for signed-in
callers and writes. An anonymous read that finds no slot free within the pool's own wait
(DB_CONNECT_TIMEOUT) is a 503 `rest_unavailable` with `Retry-After`, as a pool timeout is.
Responses served from the response cache never get here: they use no connection.
"""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from app.core.database.engine import SAFE_METHODS
from app.core.settings import Settings


class AnonymousReads:
    """The slots of one worker's anonymous reads (`size` of them)."""

    def __init__(self, size: int, wait: float) -> None:
        self.size = max(1, size)
        self.wait = wait
        self.slots = asyncio.Semaphore(self.size)

    @classmethod
    def of(cls, settings: Settings) -> "AnonymousReads":
        """Every connection the pool may open (size plus overflow) but the reserved ones: by
        default a quarter of them, at least one."""
        capacity = settings.db_pool_size + settings.db_max_overflow
        reserved = settings.db_reserved_connections
        if reserved is None:
            reserved = max(1, capacity // 4)
        return cls(capacity - reserved, settings.db_connect_timeout)

    @asynccontextmanager
    async def admitted(self, method: str, anonymous: bool) -> AsyncIterator[None]:
        """Run the body of an anonymous read in a slot (waiting for one up to `wait`);
        anything else at once."""
        if not anonymous or method not in SAFE_METHODS:
            yield
            return
        try:
            await asyncio.wait_for(self.slots.acquire(), self.wait)
        except TimeoutError:
            # TimeoutError is the edge's "database unavailable" (503, Retry-After).
            raise TimeoutError("no connection free for anonymous reads") from None
        try:
            yield
        finally:
            self.slots.release()
