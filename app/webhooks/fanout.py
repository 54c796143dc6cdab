"""From the change log to deliveries: the fan-out.

One position in the log for all subscriptions (`webhook_feed`, a changes-feed token, so
late commits are not skipped: app/changes/repository.py). A worker that gets the row's
lock (SKIP LOCKED: the others go on to sending) reads the next changes, describes each as
an anonymous caller's changes feed does (the record a public GET returns, or a `delete`
when it is gone or no longer public), and stores one message per change and one delivery
per subscription whose `types` want it, in the order of the changes, in the transaction
that moves the position: a crash leaves both as they were."""

import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from urllib.parse import urlsplit

from app.changes.repository import ChangeRepository, Logged
from app.changes.service import ChangeFeed
from app.core.database.engine import Session, SessionMaker
from app.core.settings import Settings
from app.core.web.responses import dumps
from app.core.web.urls import Urls
from app.http.context import RequestContext
from app.webhooks.repository import (
    FanoutTarget,
    NewMessage,
    Target,
    WebhookRepository,
    looking,
)

log = logging.getLogger(__name__)

BATCH = 500  # log rows read per transaction


def wants(types: Sequence[str], kind: str, action: str) -> bool:
    return "*" in types or f"{kind}.{action}" in types or f"{kind}.*" in types


def utc_stamp(moment: datetime) -> str:
    """ISO 8601 in UTC with a Z, as the Standard Webhooks examples write `timestamp`."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def anonymous(session: Session, settings: Settings, api_base: str) -> RequestContext:
    """The context of an anonymous request to the API at `api_base` (the links inside the
    records are those a subscriber's own request would have seen)."""
    parts = urlsplit(api_base)
    origin = f"{parts.scheme}://{parts.netloc}"
    site = (settings.public_site_url or api_base).rstrip("/")
    urls = Urls(origin=origin, root_path=parts.path.rstrip("/"), language_prefix="", site=site)
    return RequestContext({}, settings.default_language, None, session, urls, settings)


async def _nothing_new(session: Session) -> bool:
    """True when the change log has nothing past the fan-out's position, looked at without a
    lock: a row lock writes to the log (WAL), so an idle server that locked on every poll
    would keep writing, and a streaming replica would never catch up with it. Without a
    transaction, too (each read its own snapshot: a look that misses a change sees it at the
    next poll, and one that sees a change too early only leads to the locked step)."""
    repo = WebhookRepository(session)
    position = await repo.read_feed()
    if position is None:
        return False
    changes = ChangeRepository(session)
    if not await repo.fanout_targets():
        return (await changes.start()).cursor == position.cursor
    scan = await changes.scan(position, 1)
    return scan is not None and not scan.changes and scan.next.cursor == position.cursor


async def fan_out(
    maker: SessionMaker, settings: Settings, added: Callable[[], None] | None = None
) -> bool:
    """One step; True when there may be more to read at once. `added` is called once
    deliveries were stored (committed)."""
    async with looking(maker) as session:
        if await _nothing_new(session):
            return False
    async with maker() as session, session.begin():
        repo = WebhookRepository(session)
        position = await repo.lock_feed()
        if position is None:
            return False
        changes = ChangeRepository(session)
        # Locked (FOR KEY SHARE) until the deliveries are stored: a subscription deleted
        # meanwhile would make their insert fail, and the fan-out wait out a backoff; a
        # deletion waits for this transaction instead (measured by `make bench`, which
        # deletes subscriptions while the fan-out runs).
        subscriptions = await repo.fanout_targets(lock=True)
        if not subscriptions:
            # Nobody to tell: move on, so that a new subscription starts from now.
            now = await changes.start()
            if now.cursor != position.cursor:
                await repo.save_feed(now)
            return False
        scan = await changes.scan(position, BATCH)
        if scan is None:  # pruned past the position: nothing older can be told any more
            log.warning("webhooks: the change log was pruned past the fan-out; starting anew")
            await repo.save_feed(await changes.start())
            return False
        stored = False
        if scan.changes:
            messages, targets = await _deliveries(session, settings, scan.changes, subscriptions)
            await repo.add_deliveries(messages, targets)
            stored = bool(targets)
        if scan.changes or scan.next.cursor != position.cursor:
            await repo.save_feed(scan.next)
    if stored and added is not None:
        added()
    return scan.has_more


async def _deliveries(
    session: Session,
    settings: Settings,
    logged: list[Logged],
    subscriptions: Sequence[FanoutTarget],
) -> tuple[list[NewMessage], list[Target]]:
    """The messages of `logged` (one per change and API base) and the deliveries of each."""
    by_base: dict[str, list[FanoutTarget]] = {}
    for subscription in subscriptions:
        by_base.setdefault(subscription.api_base, []).append(subscription)
    stamp = utc_stamp(datetime.now(UTC))
    messages: list[NewMessage] = []
    targets: list[Target] = []
    for api_base, group in by_base.items():
        described = await ChangeFeed(anonymous(session, settings, api_base)).describe(logged)
        changed_at = {(c.kind, c.record_id): c.changed_at for c in logged}
        for change in described:
            kind, action = change["kind"], change["action"]
            wanting = [s.id for s in group if wants(s.types, kind, action)]
            if not wanting:
                continue
            kind_type = f"{kind}.{action}"
            body = {"type": kind_type, "timestamp": stamp, "data": change}
            moment = changed_at[kind, change["id"]]
            messages.append(NewMessage(kind_type, dumps(body).decode(), moment))
            index = len(messages) - 1
            targets.extend(Target(s, index, kind, change["id"]) for s in wanting)
    # Delivery IDs follow the changes' order within each subscription either way; sorting by
    # message keeps one API base's deliveries of a change together.
    return messages, targets
