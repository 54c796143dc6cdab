"""Pruning the change log (app/models/changes.py): rows older than the retention go, in
seq order, and the highest pruned seq is kept so that the changes feed can tell a token
that points into the pruned past (410 `rest_sync_token_expired`).

Writers prune, after their commit, at most once per interval per process: the log is
only written by writes, so it cannot grow while nobody prunes it."""

import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

# A prefix of the log by seq: a row can only go with every row before it, so that
# "everything after the horizon is kept" holds even when clocks and seqs disagree.
PRUNE_SQL = text(
    """
    WITH edge AS (SELECT max(seq) AS seq FROM change_log WHERE changed_at < :cutoff),
    gone AS (DELETE FROM change_log WHERE seq <= (SELECT seq FROM edge))
    UPDATE change_log_horizon SET pruned_through = edge.seq FROM edge
    WHERE id = 1 AND edge.seq > pruned_through
    """
)
PRUNE_INTERVAL_SECONDS = 60.0


class ChangePruner:
    def __init__(self, retention_days: float, interval: float = PRUNE_INTERVAL_SECONDS) -> None:
        self.retention = timedelta(days=retention_days)
        self.interval = interval
        self._next = 0.0

    async def prune(self, session: AsyncSession) -> None:
        """Delete the expired rows now (one transaction of its own)."""
        cutoff = datetime.now(UTC) - self.retention
        await session.execute(PRUNE_SQL, {"cutoff": cutoff})
        await session.commit()

    async def after_write(self, session: AsyncSession) -> None:
        """Prune if this process has not done so within the interval."""
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + self.interval
        await self.prune(session)
