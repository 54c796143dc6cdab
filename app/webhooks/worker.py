"""The background task of every `almanac serve` worker (started by the app's lifespan,
like the recurrence horizon's): fan changes out to deliveries (app/webhooks/fanout.py),
send the due ones, record each attempt, retry with backoff, disable what cannot be
delivered, prune the log and keep the metrics.

Claims are rows locked with FOR UPDATE SKIP LOCKED, held while their requests run and
released by the commit that records the outcomes: several workers and instances share
the work without sending anything twice, and a worker that dies releases its claims at
once (its transaction goes with its connection), so they are sent again (the same
`webhook-id`: receivers de-duplicate). Per record and subscription only the oldest
pending delivery is ever claimed, so changes of a record arrive in order even when one
of them needs retries.

Deliveries yield to requests: a lane waits before it claims while its process has a
request in flight or ended one less than QUIET_SECONDS ago; while the process stays busy,
one batch per `WEBHOOKS_MAX_DEFERRAL` seconds goes anyway (deliveries lag behind while the
workers are saturated, never stop, and catch up when the requests let up). Nothing is
claimed while a lane waits, so ordering and at-least-once are as without the wait.
"""

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from app.core.database.engine import SessionMaker
from app.core.observability.activity import RequestActivity
from app.core.observability.metrics import Metrics
from app.core.settings import Settings
from app.core.tasks import cancel
from app.webhooks.fanout import fan_out
from app.webhooks.repository import Claimed, Recorded, WebhookRepository, looking
from app.webhooks.sender import Attempt, Outgoing, Sender, message_id

log = logging.getLogger(__name__)

Step = Callable[[SessionMaker], Awaitable[bool]]
Idle = Callable[[], Awaitable[None]]

BATCH = 100  # deliveries claimed (and sent concurrently) at a time
JITTER = 0.2  # each wait of the schedule is stretched or shrunk by up to 20%
HOUSEKEEPING_SECONDS = 5.0  # metrics refresh; the log is pruned every PRUNE_EVERY of them
PRUNE_EVERY = 12
LANES = 4  # delivery loops per process, each with a batch of its own in flight (at most)
MAX_BACKOFF_SECONDS = 30.0  # longest wait between two rounds after failures
# A process that ended its last request this long ago is quiet enough to deliver in: a
# client sending writes one after another leaves gaps far shorter than this.
QUIET_SECONDS = 0.05
GONE = "gone"
EXHAUSTED = "retries_exhausted"


def next_attempt(schedule: list[float], round_attempts: int, now: datetime) -> datetime | None:
    """When to try again after the `round_attempts`-th failed attempt; None: give up."""
    if round_attempts > len(schedule):
        return None
    wait = schedule[round_attempts - 1] * random.uniform(1 - JITTER, 1 + JITTER)
    return now + timedelta(seconds=wait)


class WebhookWorker:
    def __init__(
        self, settings: Settings, metrics: Metrics, activity: RequestActivity | None = None
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        self.activity = activity  # this process's requests (None: deliveries never wait)
        self.deferring = 0  # lanes waiting for the requests to let up (for the tests)
        self._bounded_at = 0.0  # when the next batch may go though requests are in flight
        self.schedule = list(settings.webhooks_retry_schedule)
        self.retention = timedelta(days=settings.changes_retention_days)
        self._tasks: list[asyncio.Task[None]] = []
        self._in_flight: set[int] = set()  # subscriptions a lane is sending to now
        self._housekeeping_at = 0.0
        self._rounds = 0
        self._sender: Sender | None = None
        # Set when there is more to send than one lane's batch: the fan-out of this process
        # stored deliveries, or a claim came back full. The other lanes sleep until then.
        self._work = asyncio.Event()
        # The polling lane has been sending for longer than a poll interval (a slow
        # receiver): meanwhile the other lanes poll, so that the rest is not held up.
        self._watcher_held = False

    def start(self, maker: SessionMaker) -> None:
        """The fan-out loop and LANES delivery loops. Only the first delivery loop looks for
        due deliveries every poll interval; the others wait for work (`_work`), so an idle
        process asks the database twice per interval, not once per lane, and a busy one
        sends full batches rather than a lane per trickle of changes."""
        if self._tasks or not self.settings.webhooks_enabled:
            return
        self._sender = Sender(self.settings.webhooks_timeout, self.settings.webhooks_allow_private)
        loops: list[tuple[str, Step, Idle]] = [
            ("fan-out", self._fan_out_step, self._poll),
            ("delivery", self._watch, self._poll),
        ]
        loops += [("delivery", self.deliver, self._until_work)] * (LANES - 1)
        self._tasks = [
            asyncio.create_task(
                self._repeat(name, step, idle, maker), name=f"almanac-webhooks-{name}"
            )
            for name, step, idle in loops
        ]

    async def stop(self) -> None:
        tasks, self._tasks = self._tasks, []
        await cancel(*tasks)
        if self._sender is not None:
            await self._sender.close()
            self._sender = None

    async def _poll(self) -> None:
        """Wait the poll interval, or less when there is work. The signal is for those who
        wait when it comes (setting it resolves their waits): cleared before waiting, a
        signal already taken cannot turn this wait into a spin (a claim that finds only rows
        other lanes hold would otherwise poll again at once)."""
        self._work.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._work.wait(), self.settings.webhooks_poll_interval)

    async def _until_work(self) -> None:
        """Wait until there is work (or, while the polling lane is held, a poll interval)."""
        self._work.clear()
        timeout = self.settings.webhooks_poll_interval if self._watcher_held else None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._work.wait(), timeout)

    async def _repeat(self, name: str, step: Step, idle: Idle, maker: SessionMaker) -> None:
        """Run `step` again and again: at once while it had work, after `idle` when it had
        none, with growing waits while it fails."""
        failures = 0
        poll = self.settings.webhooks_poll_interval
        while True:
            busy = False
            try:
                busy = await step(maker)
                failures = 0
            except Exception:  # the next round tries again; the app serves on regardless
                # Once per streak (a database that is down would fill the log), then waits
                # that grow to MAX_BACKOFF_SECONDS.
                if failures == 0:
                    log.exception("webhooks: %s failed; retrying with backoff", name)
                failures += 1
            if failures:
                await asyncio.sleep(min(poll * 2 ** min(failures, 16), MAX_BACKOFF_SECONDS))
            elif not busy:
                await idle()

    async def _fan_out_step(self, maker: SessionMaker) -> bool:
        busy = await fan_out(maker, self.settings, added=self._work.set)
        loop = asyncio.get_running_loop()
        if loop.time() >= self._housekeeping_at:
            self._housekeeping_at = loop.time() + HOUSEKEEPING_SECONDS
            await self.housekeeping(maker, prune=self._rounds % PRUNE_EVERY == 0)
            self._rounds += 1
        return busy

    async def _watch(self, maker: SessionMaker) -> bool:
        """The polling lane's step: a look (one statement, no transaction, no lock), and
        a claim only when it found something due."""
        async with looking(maker) as session:
            if not await WebhookRepository(session).any_due():
                return False
        sending = asyncio.create_task(self.deliver(maker))
        try:
            done, _ = await asyncio.wait({sending}, timeout=self.settings.webhooks_poll_interval)
            if not done:  # a slow receiver: the other lanes take over the polling
                self._watcher_held = True
                self._work.set()
            return await sending
        finally:
            self._watcher_held = False
            if not sending.done():  # this loop is being stopped: the send with it
                sending.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sending

    async def deliver(self, maker: SessionMaker) -> bool:
        """Claim due deliveries, send them, record the outcomes; False if none was due."""
        assert self._sender is not None
        sender = self._sender
        await self._yield_to_requests()
        async with maker() as session, session.begin():
            repo = WebhookRepository(session)
            # Not the subscriptions another lane of this process is sending to: a slow
            # receiver holds up one lane's batch (up to the timeout), not all of them.
            claimed = await repo.claim(BATCH, sorted(self._in_flight))
            if not claimed:
                return False
            if len(claimed) == BATCH:  # there may be more: the waiting lanes can help
                self._work.set()
            mine = {c.subscription_id for c in claimed} - self._in_flight
            self._in_flight |= mine
            try:
                attempts = await sender.send_all(
                    [
                        Outgoing(c.url, message_id(c.message_id), c.body, _secrets(c))
                        for c in claimed
                    ]
                )
            finally:
                self._in_flight -= mine
            disabling: dict[int, tuple[str, str]] = {}
            outcomes = [
                self._outcome(c, a, disabling) for c, a in zip(claimed, attempts, strict=True)
            ]
            await repo.record(outcomes)
            for subscription_id, (reason, detail) in disabling.items():
                await repo.disable(subscription_id, reason, detail)
                log.warning("webhooks: subscription %d disabled: %s", subscription_id, detail)
        return True

    async def _yield_to_requests(self) -> None:
        """Wait, before claiming, while this process serves requests: until it has had
        none for QUIET_SECONDS. While it stays busy, one batch of the process (whichever
        lane's wait ends first) goes per `WEBHOOKS_MAX_DEFERRAL` seconds: deliveries lag
        behind a saturated worker by a bounded share of its time, never stop."""
        limit = self.settings.webhooks_max_deferral
        if self.activity is None or limit <= 0:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        self.deferring += 1
        try:
            while not await self.activity.quiet(QUIET_SECONDS, deadline):
                now = loop.time()
                if now >= self._bounded_at:  # no other lane went on the bound meanwhile
                    self._bounded_at = now + limit
                    self.metrics.webhook_deferral_bound()
                    return
                deadline = self._bounded_at
        finally:
            self.deferring -= 1

    def _outcome(
        self, claimed: Claimed, attempt: Attempt, disabling: dict[int, tuple[str, str]]
    ) -> Recorded:
        status, next_at = "delivered", None
        if attempt.ok:
            self.metrics.webhook_delivery("delivered")
        elif claimed.type == "ping":  # a test: one attempt, no effect on the subscription
            status = "failed"
            self.metrics.webhook_delivery("failed")
        elif attempt.status == 410:
            # Gone: stop at once, keep this delivery (and the rest) for a resumption.
            status, next_at = "pending", attempt.attempted_at
            detail = f"the receiver answered 410 Gone to delivery {claimed.id}"
            disabling.setdefault(claimed.subscription_id, (GONE, detail))
            self.metrics.webhook_delivery("gone")
        else:
            next_at = next_attempt(self.schedule, claimed.round_attempts + 1, attempt.attempted_at)
            if next_at is None:
                status = "failed"
                detail = (
                    f"delivery {claimed.id} failed {claimed.round_attempts + 1} times in a row "
                    f"(the whole retry schedule); last: {attempt.error}"
                )
                disabling.setdefault(claimed.subscription_id, (EXHAUSTED, detail))
                self.metrics.webhook_delivery("failed")
            else:
                status = "pending"
                self.metrics.webhook_delivery("retry")
        return Recorded(
            delivery_id=claimed.id,
            status=status,
            next_attempt_at=next_at,
            attempted_at=attempt.attempted_at,
            code=attempt.status,
            error=attempt.error,
            response=attempt.response,
            duration_ms=attempt.duration_ms,
        )

    async def housekeeping(self, maker: SessionMaker, prune: bool) -> None:
        """Prune the log (when `prune`) and refresh the metrics read from the database."""
        async with maker() as session, session.begin():
            repo = WebhookRepository(session)
            if prune:
                await repo.prune(datetime.now(UTC) - self.retention)
            backlog = await repo.backlog()
        self.metrics.webhook_backlog(
            {str(b.subscription_id): b.oldest_seconds for b in backlog},
            disabled=sum(1 for b in backlog if b.disabled),
        )


def _secrets(claimed: Claimed) -> list[str]:
    """The current secret, and the previous one within its overlap after a rotation."""
    if claimed.previous_secret:
        return [claimed.secret, claimed.previous_secret]
    return [claimed.secret]
