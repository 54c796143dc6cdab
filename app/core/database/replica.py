"""Reads on a streaming replica: never staler than its lag, never a user's own write missed.

Positions are PostgreSQL WAL positions (LSNs). The primary's `pg_current_wal_lsn()` read
after a commit is at or past that commit; a standby whose `pg_last_wal_replay_lsn()` is at or
past it shows the commit to every snapshot taken from then on (replay only moves forward).

- `ReplicaMonitor`, one per worker, samples the primary (data version and position) and the
  replica (replay position) every `REPLICA_CHECK_INTERVAL` seconds. The lag is the age of the
  oldest primary sample the replica has not replayed (0 when it has replayed them all): what
  a reader of the replica may miss, measured on the app's clock, not the servers'.
- `ReadRouter` sends each read to a server: the primary when the replica is down, lags
  beyond `REPLICA_MAX_LAG`, or has not replayed the position the client brings
  (read-your-writes: a header or cookie that writes hand out, waited for up to
  `READ_YOUR_WRITES_WAIT` seconds); else the replica.
- Caches file what a replica read found only under a version that replica had reached: a
  response under the primary's version the response cache read for the request, when the
  replica had replayed the position read with it before the read began (`Route.version`);
  a total under the replay position it was counted at (`ReplayWatch`). Credentials are
  never read on the replica (app/users/auth.py).
"""

import asyncio
import contextlib
import logging
import math
import re
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from app.core.rules.constants import VERSION_SEQUENCE
from app.core.settings import Settings
from app.core.tasks import cancel


class ReplicaGauges(Protocol):
    """Where the monitor reports the replica's state (app/core/observability/metrics.py's `Metrics`,
    which imports the database module, which routes reads with this one: a protocol keeps
    the three without a circle)."""

    def replica_state(self, lag: float, usable: bool) -> None: ...


log = logging.getLogger(__name__)

# The primary's data version and position in one statement: the position is at or past the
# commit of every write whose version has been drawn (app/core/caching/cache.py `after_write`).
PRIMARY_POINT_SQL = (
    f"SELECT last_value AS version, pg_current_wal_lsn() AS position FROM {VERSION_SEQUENCE}"
)
REPLAY_SQL = "SELECT pg_last_wal_replay_lsn()"
WAIT_POLL = 0.02  # seconds between two looks at the replica's replay position
# Primary samples kept while the replica has not replayed them: at the default interval
# more than an hour, far beyond any sensible REPLICA_MAX_LAG.
MAX_POINTS = 8192
MAX_VERSIONS = 64  # data versions whose first sampled position is remembered
_LSN = re.compile(r"^([0-9A-Fa-f]{1,8})/([0-9A-Fa-f]{1,8})$")


def format_lsn(position: int) -> str:
    """PostgreSQL's text form of a WAL position: `16/B374D848`."""
    return f"{position >> 32:X}/{position & 0xFFFFFFFF:X}"


def parse_lsn(text: str) -> int | None:
    match = _LSN.match(text.strip())
    if match is None:
        return None
    return (int(match[1], 16) << 32) | int(match[2], 16)


NOT_A_STANDBY = "not a standby in recovery (DATABASE_READ_URL must name a streaming replica)"


class NotAStandby(RuntimeError):
    """The read server has no replay position: no way to know what its reads include."""


@dataclass(frozen=True, slots=True)
class Point:
    """A sample of the primary: its WAL position at one moment."""

    at: float
    position: int


class ReplayWatch:
    """What a replica session's reads can be filed under, for the totals cache: a replica
    read sees the state at one replay position when that position has not moved from
    before the read to after it (replay only moves forward). Its label is that position,
    `("replay", lsn)`: two reads under one label saw one state. A sequence read on the
    standby cannot serve (see app/core/caching/cache.py), and neither can a primary sample
    it had replayed: a write's commit is replayed before the version drawn after it."""

    def __init__(self, monitor: "ReplicaMonitor", seen: int | None) -> None:
        self.monitor = monitor
        self.seen = seen  # a replay position read before the session's next statement

    async def label(self, now: int | None = None) -> tuple[str, int] | None:
        """After a statement: its label, None when the replay moved (or is unknown). `now`:
        the replay position the statement read as it ran, if it did (no round trip)."""
        if now is None:
            now = await self.monitor.replay_now()
        else:
            self.monitor.took(now)
        before, self.seen = self.seen, now
        if now is None or now != before:
            return None
        return ("replay", now)


@dataclass(frozen=True, slots=True)
class Route:
    """Where a read goes. For a replica read: `version`, the primary's data version (read
    by the response cache for this request) when the replica had replayed it before the
    read began, else None; `watch`, the labels of its totals."""

    server: str
    version: int | None = None
    watch: ReplayWatch | None = None


PRIMARY = Route("primary")


class ReplicaMonitor:
    def __init__(
        self,
        primary: Any,
        replica: Any,
        settings: Settings,
        metrics: ReplicaGauges,
        on_down: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.primary = primary  # raw pools (app/core/database/engine.py `version_pool`)
        self.replica = replica
        self.max_lag = settings.replica_max_lag
        self.interval = settings.replica_check_interval
        self.metrics = metrics
        self.on_down = on_down  # e.g. drop the replica engine's connections to the old server
        self.reachable = False
        self.replayed: int | None = None
        self.lag = math.inf
        self.error: str | None = None
        self._points: deque[Point] = deque(maxlen=MAX_POINTS)
        # Data version -> the primary's position in the first sample that showed it: at or
        # past the commit of every write whose version was drawn before it, and, unlike the
        # position now, not moved by WAL that changes nothing the API shows (row locks of
        # background tasks, vacuum, checkpoints).
        self._first_seen: OrderedDict[int, int] = OrderedDict()
        self._task: asyncio.Task[None] | None = None

    @property
    def usable(self) -> bool:
        return self.reachable and self.lag <= self.max_lag

    def status(self) -> dict[str, Any]:
        """For /readyz: where reads go, and why."""
        if not self.reachable:
            state = "down"
        elif self.lag > self.max_lag:
            state = "lagging"
        else:
            state = "streaming"
        return {
            "status": state,
            "lag_seconds": round(self.lag, 3) if math.isfinite(self.lag) else None,
            "max_lag_seconds": self.max_lag,
            "reads": "replica" if self.usable else "primary",
            **({"error": self.error} if self.error else {}),
        }

    async def check(self) -> None:
        """One sample of both servers (the primary's first: what the replica has replayed is
        then compared with a position the primary had already reached)."""
        try:
            row = await self.primary.fetchrow(PRIMARY_POINT_SQL)
        except Exception as exc:  # the primary's outage is the requests' to report
            log.debug("no primary position: %s", exc)
        else:
            version, position = row["version"], row["position"]
            self._points.append(Point(time.monotonic(), position))
            if version not in self._first_seen:
                self._first_seen[version] = position
                while len(self._first_seen) > MAX_VERSIONS:
                    self._first_seen.popitem(last=False)
        was_reachable = self.reachable
        try:
            replayed = await self.replica.fetchval(REPLAY_SQL)
            if replayed is None:
                raise NotAStandby(NOT_A_STANDBY)
        except Exception as exc:
            self.reachable = False
            self.error = str(exc) if isinstance(exc, NotAStandby) else type(exc).__name__
            self.lag = math.inf
            if was_reachable:
                log.warning("read replica unusable, reads go to the primary: %s", exc)
                if self.on_down is not None:
                    await self.on_down()
        else:
            self.reachable = True
            self.error = None
            self.took(replayed)
            if not was_reachable:
                log.info("read replica reachable again")
        self.metrics.replica_state(self.lag, self.usable)

    def took(self, position: int) -> None:
        """Take a replay position in: the samples it covers leave, the lag follows."""
        if self.replayed is None or position > self.replayed:
            self.replayed = position
        points = self._points
        while points and points[0].position <= self.replayed:
            points.popleft()
        self.lag = time.monotonic() - points[0].at if points else 0.0

    def position_of(self, version: int, now: int) -> int:
        """The position a replica must have replayed to show everything `version` stands
        for: the first sampled with it, else `now` (read with it, later, so also enough)."""
        return self._first_seen.get(version, now)

    async def replay_now(self) -> int | None:
        """The replica's replay position now, None if it cannot be read."""
        try:
            replayed: int | None = await self.replica.fetchval(REPLAY_SQL)
        except Exception:
            return None
        if replayed is not None:
            self.took(replayed)
        return replayed

    async def reaches(self, position: int, seconds: float = 0.0) -> bool:
        """Whether the replica has replayed `position`, asking it again (within `seconds`)
        when the last sample says no."""
        if self.replayed is not None and self.replayed >= position:
            return True
        deadline = time.monotonic() + seconds
        while True:
            replayed = await self.replay_now()
            if replayed is not None and replayed >= position:
                return True
            if time.monotonic() + WAIT_POLL > deadline:
                return False
            await asyncio.sleep(WAIT_POLL)

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.check()
            await asyncio.sleep(self.interval)

    async def start(self) -> None:
        await self.check()  # the first requests know where to go
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel(task)


# A request's (client position, primary point) from its ASGI scope (app/core/database/positions.py).
ReadPosition = Callable[[Any], tuple[int | None, tuple[int, int] | None]]


class ReadRouter:
    def __init__(self, monitor: ReplicaMonitor, settings: Settings, position: ReadPosition) -> None:
        self.monitor = monitor
        self.read_your_writes = settings.read_your_writes
        self.wait = settings.read_your_writes_wait
        self.position = position

    async def route_request(self, scope: Any) -> Route:
        """The server for a request's read (its scope read by `position`)."""
        return await self.route(*self.position(scope))

    async def route(self, wanted: int | None, point: tuple[int, int] | None) -> Route:
        """The server for a read (see the module docstring). `wanted`: the position the
        client brings (app/core/database/positions.py); `point`: the primary's version and
        position read for this request before it reached the app (the response cache,
        app/core/caching/cache.py): when the replica has replayed that position, what it
        reads now can be filed under that version."""
        monitor = self.monitor
        if not monitor.usable:
            return PRIMARY
        if wanted is not None and self.read_your_writes:
            seen = await monitor.reaches(wanted, self.wait)
            if not seen:
                return PRIMARY
        watch = ReplayWatch(monitor, monitor.replayed)
        if point is not None and await monitor.reaches(monitor.position_of(*point)):
            return Route("replica", point[0], watch)
        return Route("replica", None, watch)
