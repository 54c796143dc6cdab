"""The outbox's worker: a background task of every `almanac serve` worker process (listed
in AppServices.background, started and stopped by the lifespan) when SMTP_URL is set.

A round claims due messages (FOR UPDATE SKIP LOCKED), hands them to the mail server, and
records each outcome in the transaction that holds the claim: a message is marked sent in
the same transaction that locked it, so two workers or instances never send one twice (the
other skips the locked rows), and a worker that dies before its commit releases its claim
with its connection: the message is sent again later, never lost. Between the server's
acceptance and that commit a crash sends the message twice; its Message-ID, made from its
row (app/mail/letters.py), lets the receiver drop the copy (docs/design.md#mail).

A refused or failed message is retried after the waits of MAIL_RETRY_SCHEDULE, then left
failed (`failed_at`, with the last error); a permanent refusal (5xx) fails at once. The
worker looks every MAIL_POLL_INTERVAL seconds, and at once when this process committed a
message (the after-commit hook `after_write`)."""

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from app.core.database.engine import Session, SessionMaker
from app.core.observability.metrics import Metrics
from app.core.settings import Settings
from app.core.tasks import cancel, repeat
from app.mail.records import Claimed
from app.mail.repository import OutboxRepository
from app.mail.service import MAIL_QUEUED
from app.mail.smtp import Outcome, SmtpSender, SmtpTarget

log = logging.getLogger(__name__)

BATCH = 20  # messages claimed, and sent over one connection, at a time
MAX_BACKOFF_SECONDS = 60.0  # the longest wait after a round failed (the database down)
STOP_GRACE = 5.0  # seconds a round in progress has to finish when the process stops


@dataclass
class Round:
    """What one round did."""

    sent: int = 0
    retried: int = 0
    failed: int = 0

    @property
    def claimed(self) -> int:
        return self.sent + self.retried + self.failed


def next_attempt(schedule: list[float], attempts: int, now: datetime) -> datetime | None:
    """When a message that has failed `attempts` times is tried again; None: never."""
    if attempts > len(schedule):
        return None
    return now + timedelta(seconds=schedule[attempts - 1])


class MailWorker:
    """The process's sender of the outbox, and the after-commit hook that wakes it."""

    def __init__(self, settings: Settings, metrics: Metrics | None = None) -> None:
        self.metrics = metrics
        self.schedule = list(settings.mail_retry_schedule)
        self.poll_interval = settings.mail_poll_interval
        self.sender = (
            SmtpSender(
                SmtpTarget.parse(settings.smtp_url), settings.mail_from, settings.mail_timeout
            )
            if settings.smtp_url
            else None
        )
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def after_write(self, session: Session) -> None:
        """The after-commit hook: the committed transaction queued a message."""
        if session.info.pop(MAIL_QUEUED, False):
            self._wake.set()

    def start(self, maker: SessionMaker) -> None:
        if self.sender is None or self._task is not None:
            return  # no SMTP_URL: the messages wait in the outbox
        self._task = asyncio.create_task(self._run(maker), name="almanac-mail")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel(task)

    async def send_due(self, maker: SessionMaker, limit: int = BATCH) -> Round:
        """One round: claim up to `limit` due messages, send them, record the outcomes."""
        assert self.sender is not None
        async with maker() as session, session.begin():
            repo = OutboxRepository(session)
            claimed = await repo.claim(limit, datetime.now(UTC))
            if not claimed:
                return Round()
            outcomes = await self.sender.send_all(claimed)
            done = await self._record(repo, claimed, outcomes)
        if self.metrics is not None:  # once committed
            for outcome, count in (
                ("sent", done.sent),
                ("retry", done.retried),
                ("failed", done.failed),
            ):
                self.metrics.mail_sent(outcome, count)
        return done

    async def _record(
        self, repo: OutboxRepository, claimed: list[Claimed], outcomes: list[Outcome]
    ) -> Round:
        done = Round()
        now = datetime.now(UTC)
        await repo.sent([c.id for c, o in zip(claimed, outcomes, strict=True) if o.sent])
        for message, outcome in zip(claimed, outcomes, strict=True):
            if outcome.sent:
                done.sent += 1
                continue
            error = outcome.error or "not sent"
            retry_at = (
                None
                if outcome.permanent
                else next_attempt(self.schedule, message.attempts + 1, now)
            )
            if retry_at is None:
                await repo.failed(message.id, error)
                done.failed += 1
                # By its ID alone: the server's answer may name the address (the desk shows
                # it, the log keeps no personal data).
                log.warning("mail: message %d failed (its error is on the desk)", message.id)
            else:
                await repo.retry(message.id, retry_at, error)
                done.retried += 1
        return done

    async def _run(self, maker: SessionMaker) -> None:
        async def step() -> bool:
            done = await self._finished(self.send_due(maker))
            # More may be due at once after a full batch the server took.
            return done.claimed == BATCH and done.sent > 0

        await repeat(
            step,
            self._wake,
            self.poll_interval,
            lambda failures: min(self.poll_interval * 2 ** min(failures, 16), MAX_BACKOFF_SECONDS),
            lambda: log.exception("mail: a round failed; retrying with backoff"),
        )

    async def _finished(self, sending: Coroutine[Any, Any, Round]) -> Round:
        """The round, which a stop (a deploy's SIGTERM) lets end for up to STOP_GRACE
        seconds: its commit records what the server took, which would otherwise go again
        at the next start."""
        task = asyncio.ensure_future(sending)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(task, STOP_GRACE)
            raise
