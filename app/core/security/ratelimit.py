"""Failed-login throttling per client address, shared by every worker and instance.

A client that fails to authenticate `limit` times within `window` seconds gets 429 until
enough of those failures leave the window. The failures are rows of `login_failures` in
PostgreSQL (one per failure, timed by the database's clock), so N workers or instances allow
the limit once, not N times. A throttled client's attempts are refused before they are
checked, so they add no rows: a client never has more than `limit` rows in the window, and
each new failure deletes every row that has left it.

The statements run on a raw asyncpg pool, outside the request's transaction (which rolls
back on the 401 the failure causes, and may be on a read replica): the lifespan's pool of the
primary under a server, else a small pool of the throttle's own (the app run without its
lifespan, as the in-process tests do).
"""

from dataclasses import dataclass
from typing import Any

import asyncpg

from app.core.errors import ApiError
from app.core.rules.constants import VERSION_SEQUENCE

CLIENT_LENGTH = 64  # the column's size; an IPv6 address takes 45

# The failures still in the window, newest first, at most `limit` ($3): the oldest of these
# leaving the window is what brings the count below the limit.
_RECENT = (
    "SELECT count(*) AS failures,"
    " ceil(extract(epoch FROM min(failed_at) + make_interval(secs => $2) - clock_timestamp()))"
    " AS wait"
    " FROM (SELECT failed_at FROM login_failures"
    "  WHERE client = $1 AND failed_at > clock_timestamp() - make_interval(secs => $2)"
    "  ORDER BY failed_at DESC LIMIT $3) AS recent"
)
CHECK_SQL = f"SELECT failures, wait, NULL::bigint AS version FROM ({_RECENT}) AS t"
# Every signed-in request reads the data version (to validate its cached caller) and the
# throttle: one round trip for both.
CHECK_WITH_VERSION_SQL = (
    f"SELECT failures, wait, (SELECT last_value FROM {VERSION_SEQUENCE}) AS version"
    f" FROM ({_RECENT}) AS t"
)
RECORD_SQL = (
    "WITH expired AS (DELETE FROM login_failures"
    " WHERE failed_at <= clock_timestamp() - make_interval(secs => $2))"
    " INSERT INTO login_failures (client) VALUES ($1)"
)


def _client(address: str) -> str:
    return address[:CLIENT_LENGTH]


class FailedLogins:
    def __init__(
        self, limit: int, window: float, dsn: str | None = None, *, statement_cache_size: int = 100
    ) -> None:
        self.limit = limit
        self.window = float(window)
        self.dsn = dsn  # for a pool of its own, when no server pool is handed in
        self.statement_cache_size = statement_cache_size
        self._own: asyncpg.Pool | None = None

    async def _pool(self, reader: Any) -> Any:
        if reader is not None:
            return reader
        if self._own is None:
            if not self.dsn:
                raise RuntimeError("the failed-login throttle has no database")
            self._own = await asyncpg.create_pool(
                self.dsn, min_size=0, max_size=2, statement_cache_size=self.statement_cache_size
            )
        return self._own

    async def check(
        self, client: str, reader: Any = None, limit: int | None = None
    ) -> tuple[int, int | None]:
        """(seconds this client must wait, 0 if it may try now; the data version, read in the
        same statement when `reader` (the server's pool) is given, else None). `limit`: of
        another count kept in the same store under a key of its own (the RSVPs')."""
        limit = self.limit if limit is None else limit
        sql = CHECK_WITH_VERSION_SQL if reader is not None else CHECK_SQL
        pool = await self._pool(reader)
        row = await pool.fetchrow(sql, _client(client), self.window, limit)
        version = row["version"]
        if row["failures"] < limit:
            return 0, version
        return max(1, int(row["wait"] or 1)), version

    async def record(self, client: str, reader: Any = None) -> None:
        pool = await self._pool(reader)
        await pool.execute(RECORD_SQL, _client(client), self.window)

    async def clear(self, reader: Any = None) -> None:
        pool = await self._pool(reader)
        await pool.execute("DELETE FROM login_failures")

    async def close(self) -> None:
        if self._own is not None:
            await self._own.close()
            self._own = None


@dataclass(frozen=True, slots=True)
class Guesses:
    """One request's client's wrong record passwords (`?password=` of events, venues and
    organizers), counted with its failed logins: the same limit, window and rows. Without
    it, a protected event's password could be guessed as fast as requests go, and a list's
    `password=` tries one guess against every protected event at once."""

    limiter: FailedLogins
    client: str
    reader: Any = None

    async def check(self) -> None:
        """429 `rest_too_many_requests` while the client is throttled, before any guess."""
        wait, _ = await self.limiter.check(self.client, self.reader)
        if wait:
            headers = {"Retry-After": str(wait)}
            raise ApiError(429, "rest_too_many_requests", "too_many_guesses", headers=headers)

    async def failed(self) -> None:
        await self.limiter.record(self.client, self.reader)
