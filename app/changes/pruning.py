"""Pruning the change log (app/models/changes.py; the statement: app/changes/repository.py): rows older than the retention go, in
seq order, and the highest pruned seq is kept so that the changes feed can tell a token
that points into the pruned past (410 `rest_sync_token_expired`).

Writers prune, after their commit, at most once per interval per process (an after-commit
hook of the session, registered by create_app): the log is only written by writes, so it
cannot grow while nobody prunes it."""

import time
from datetime import UTC, datetime, timedelta

from app.changes.repository import ChangeRepository
from app.core.database.engine import Session
from app.http.idempotency import prune_keys

PRUNE_INTERVAL_SECONDS = 60.0


class ChangePruner:
    def __init__(self, retention_days: float, interval: float = PRUNE_INTERVAL_SECONDS) -> None:
        self.retention = timedelta(days=retention_days)
        self.interval = interval
        self._next = 0.0

    async def prune(self, session: Session) -> None:
        """Delete the expired rows now (one transaction of its own)."""
        await ChangeRepository(session).prune(datetime.now(UTC) - self.retention)
        # Idempotency keys (24 hours) are pruned here too: they are also only written by
        # writes, so pruning after writes keeps them bounded.
        await prune_keys(session)
        await session.commit()

    async def after_write(self, session: Session) -> None:
        """Prune if this process has not done so within the interval."""
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + self.interval
        await self.prune(session)
