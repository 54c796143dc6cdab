"""Keeping series' dates up to the horizon as time passes (docs/design.md#recurring-events).

A series stores its dates up to RECURRENCE_HORIZON_DAYS ahead of the moment it was last
materialised; every day the horizon moves on by a day, and `extend_horizon` materialises
the series whose rules have dates between their last stored one and the new horizon. The
app runs it once at start and then daily (`HorizonKeeper`, started by the lifespan), and
`almanac maintain` runs it on demand (from cron, say, where the app runs without its
lifespan). A transaction-scoped advisory lock lets one process at a time do it: several
workers or a command running beside them skip instead of racing for the same dates.
"""

import asyncio
import logging
from datetime import datetime

from app.core.caching.cache import after_write
from app.core.database.engine import SessionMaker
from app.core.tasks import cancel
from app.events.occurrences import Horizon, SeriesStore
from app.events.repository.series import OccurrenceRepository

log = logging.getLogger(__name__)

EXTEND_INTERVAL_SECONDS = 86_400.0
LOCK_KEY = 0x616C6D_686F72  # "alm" "hor": the advisory lock of the horizon's extension


async def extend_horizon(
    maker: SessionMaker, horizon: Horizon, now: datetime | None = None
) -> int | None:
    """Extend the series that stop short of the horizon, in one transaction: how many were
    extended, or None when another process is doing it."""
    async with maker() as session:
        async with session.begin():
            locked = await OccurrenceRepository(session).try_lock(LOCK_KEY)
            if not locked:
                return None
            done = await SeriesStore(session, horizon).extend(now)
        if done:
            # New dates: cached lists and totals must not outlive them (app.core.caching.cache).
            await after_write(session)
    return done


class HorizonKeeper:
    """The app's background task: extends the horizon at start and then every interval."""

    def __init__(self, horizon: Horizon, interval: float = EXTEND_INTERVAL_SECONDS) -> None:
        self.horizon = horizon
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self, maker: SessionMaker) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(maker), name="almanac-horizon")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel(task)

    async def _run(self, maker: SessionMaker) -> None:
        while True:
            try:
                done = await extend_horizon(maker, self.horizon)
                if done:
                    log.info("recurrence horizon: extended %d series", done)
            except Exception:  # the next run tries again; the app serves on regardless
                log.exception("recurrence horizon: extending failed")
            await asyncio.sleep(self.interval)
