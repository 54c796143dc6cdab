"""Every query of webhooks (app/models/webhooks.py): subscriptions, the fan-out from the
change log, claiming due deliveries and recording their attempts, the delivery log."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.changes.repository import Token

SUBSCRIPTION_COLUMNS = """
    id, url, types, description, active, disabled_reason, disabled_detail, disabled_at,
    api_base, created_at, updated_at, previous_until,
    (SELECT count(*) FROM webhook_deliveries AS d
     WHERE d.subscription_id = s.id AND d.status = 'pending') AS pending
"""
GET_SQL = text(f"SELECT {SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions AS s WHERE id = :id")
LIST_SQL = text(f"SELECT {SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions AS s ORDER BY id")
CREATE_SQL = text(
    """
    INSERT INTO webhook_subscriptions (url, types, description, secret, api_base)
    VALUES (:url, :types, :description, :secret, :api_base) RETURNING id
    """
)
LOCK_SQL = text("SELECT id FROM webhook_subscriptions WHERE id = :id FOR UPDATE")
DELETE_SQL = text("DELETE FROM webhook_subscriptions WHERE id = :id RETURNING id")
# Resuming clears the reason of a disabling: the administrator has seen to the receiver.
SET_ACTIVE_SQL = text(
    """
    UPDATE webhook_subscriptions SET active = :active, updated_at = now(),
        disabled_reason = CASE WHEN :active THEN NULL ELSE disabled_reason END,
        disabled_detail = CASE WHEN :active THEN NULL ELSE disabled_detail END,
        disabled_at = CASE WHEN :active THEN NULL ELSE disabled_at END
    WHERE id = :id
    """
)
ROTATE_SQL = text(
    """
    UPDATE webhook_subscriptions SET previous_secret = secret, secret = :secret,
        previous_until = now() + make_interval(secs => :overlap), updated_at = now()
    WHERE id = :id
    """
)
FEED_SQL = "SELECT cursor, snapshot FROM webhook_feed WHERE id = 1"
FEED_READ_SQL = text(FEED_SQL)
FEED_LOCK_SQL = text(f"{FEED_SQL} FOR UPDATE SKIP LOCKED")
FEED_SAVE_SQL = text("UPDATE webhook_feed SET cursor = :cursor, snapshot = :snapshot WHERE id = 1")
FANOUT_TARGETS = "SELECT id, types, api_base FROM webhook_subscriptions ORDER BY id"
FANOUT_TARGETS_SQL = text(FANOUT_TARGETS)
FANOUT_TARGETS_LOCK_SQL = text(f"{FANOUT_TARGETS} FOR KEY SHARE")
MESSAGE_IDS_SQL = text(
    "SELECT nextval('webhook_messages_id_seq') AS id FROM generate_series(1, :count)"
)
INSERT_MESSAGES_SQL = text(
    """
    INSERT INTO webhook_messages (id, type, body, changed_at)
    SELECT * FROM unnest(CAST(:ids AS bigint[]), CAST(:types AS text[]),
                         CAST(:bodies AS text[]), CAST(:changed AS timestamptz[]))
    """
)
# In the order of the messages (their changes' order), so that delivery IDs follow it.
INSERT_DELIVERIES_SQL = text(
    """
    INSERT INTO webhook_deliveries (subscription_id, message_id, type, kind, record_id)
    SELECT target.subscription_id, target.message_id, m.type, target.kind, target.record_id
    FROM unnest(CAST(:subscriptions AS bigint[]), CAST(:messages AS bigint[]),
                CAST(:kinds AS text[]), CAST(:records AS bigint[]))
         WITH ORDINALITY AS target (subscription_id, message_id, kind, record_id, n)
    JOIN webhook_messages AS m ON m.id = target.message_id
    ORDER BY target.n
    """
)
# Due deliveries of active subscriptions (a ping goes to any), each the oldest pending one
# of its record for its subscription: a later change of a record waits for an earlier one
# that is still retrying. SKIP LOCKED: rows another worker holds are its own; the lock is
# held until the attempts are recorded, so a crashed worker's claims are free again at
# once (its connection, and with it its transaction, is gone).
CLAIM_SQL = text(
    """
    SELECT d.id, d.subscription_id, d.message_id, d.type, d.attempts, d.round_attempts,
           m.body, s.url, s.secret,
           CASE WHEN s.previous_until > now() THEN s.previous_secret END AS previous_secret
    FROM webhook_deliveries AS d
    JOIN webhook_subscriptions AS s ON s.id = d.subscription_id
    JOIN webhook_messages AS m ON m.id = d.message_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= now()
      AND (s.active OR d.type = 'ping')
      AND d.subscription_id <> ALL(CAST(:busy AS bigint[]))
      AND NOT EXISTS (
          SELECT 1 FROM webhook_deliveries AS e
          WHERE e.subscription_id = d.subscription_id AND e.kind = d.kind
            AND e.record_id = d.record_id AND e.status = 'pending' AND e.id < d.id
      )
    ORDER BY d.next_attempt_at, d.id
    LIMIT :limit
    FOR UPDATE OF d SKIP LOCKED
    """
)
RECORD_SQL = text(
    """
    UPDATE webhook_deliveries AS d SET
        status = done.status, attempts = d.attempts + 1,
        round_attempts = d.round_attempts + 1,
        next_attempt_at = coalesce(done.next_attempt_at, d.next_attempt_at),
        last_attempt_at = done.attempted_at, last_status = done.code, last_error = done.error
    FROM unnest(CAST(:ids AS bigint[]), CAST(:statuses AS text[]),
                CAST(:next AS timestamptz[]), CAST(:attempted AS timestamptz[]),
                CAST(:codes AS integer[]), CAST(:errors AS text[]))
         AS done (id, status, next_attempt_at, attempted_at, code, error)
    WHERE d.id = done.id
    """
)
ATTEMPTS_SQL = text(
    """
    INSERT INTO webhook_attempts (delivery_id, attempted_at, status, error, response, duration_ms)
    SELECT * FROM unnest(CAST(:ids AS bigint[]), CAST(:attempted AS timestamptz[]),
                         CAST(:codes AS integer[]), CAST(:errors AS text[]),
                         CAST(:responses AS text[]), CAST(:durations AS integer[]))
    """
)
DISABLE_SQL = text(
    """
    UPDATE webhook_subscriptions SET active = false, disabled_reason = :reason,
        disabled_detail = :detail, disabled_at = now(), updated_at = now()
    WHERE id = :id AND active
    """
)
DELIVERY_COLUMNS = """
    d.id, d.message_id, d.type, d.kind, d.record_id, d.status, d.attempts, d.next_attempt_at,
    d.last_attempt_at, d.last_status, d.last_error, d.created_at,
    coalesce((SELECT json_agg(json_build_object(
                 'attempted_at', a.attempted_at, 'status', a.status, 'error', a.error,
                 'response', a.response, 'duration_ms', a.duration_ms) ORDER BY a.id)
              FROM webhook_attempts AS a WHERE a.delivery_id = d.id), '[]') AS log
"""
DELIVERIES_SQL = text(
    f"""
    SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries AS d
    WHERE d.subscription_id = :subscription AND (CAST(:status AS text) IS NULL OR d.status = :status)
    ORDER BY d.id DESC LIMIT :limit OFFSET :offset
    """
)
COUNT_DELIVERIES_SQL = text(
    """
    SELECT count(*) FROM webhook_deliveries
    WHERE subscription_id = :subscription AND (CAST(:status AS text) IS NULL OR status = :status)
    """
)
DELIVERY_SQL = text(
    f"""
    SELECT {DELIVERY_COLUMNS} FROM webhook_deliveries AS d
    WHERE d.subscription_id = :subscription AND d.id = :id
    """
)
RETRY_SQL = text(
    """
    UPDATE webhook_deliveries SET status = 'pending', round_attempts = 0, next_attempt_at = now()
    WHERE subscription_id = :subscription AND id = :id RETURNING id
    """
)
PING_SQL = text(
    """
    WITH message AS (
        INSERT INTO webhook_messages (type, body, changed_at)
        VALUES ('ping', :body, now()) RETURNING id
    )
    INSERT INTO webhook_deliveries (subscription_id, message_id, type)
    SELECT :subscription, id, 'ping' FROM message RETURNING id
    """
)
# The delivery log is kept as long as the change log; a pending delivery is a backlog, not
# a log entry, and stays.
PRUNE_SQL = text(
    """
    WITH gone AS (
        DELETE FROM webhook_deliveries WHERE created_at < :cutoff AND status <> 'pending'
    )
    DELETE FROM webhook_messages AS m WHERE m.created_at < :cutoff
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries AS d
                      WHERE d.message_id = m.id AND d.status = 'pending')
    """
)
BACKLOG_SQL = text(
    """
    SELECT s.id, s.disabled_reason IS NOT NULL AS disabled,
           extract(epoch FROM now() - min(m.changed_at)) AS oldest
    FROM webhook_subscriptions AS s
    LEFT JOIN webhook_deliveries AS d ON d.subscription_id = s.id AND d.status = 'pending'
         AND d.type <> 'ping'
    LEFT JOIN webhook_messages AS m ON m.id = d.message_id
    GROUP BY s.id
    """
)
# What a claim would find, without locking anything (the idle look of a delivery loop).
ANY_DUE_SQL = text(
    """
    SELECT EXISTS (
        SELECT 1 FROM webhook_deliveries AS d
        JOIN webhook_subscriptions AS s ON s.id = d.subscription_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (s.active OR d.type = 'ping')
    )
    """
)
ANY_SUBSCRIPTION_SQL = text("SELECT EXISTS (SELECT 1 FROM webhook_subscriptions)")


@dataclass(frozen=True, slots=True)
class WebhookRecord:
    """A subscription as it is stored (its secrets aside), with its count of pending
    deliveries."""

    id: int
    url: str
    types: list[str]
    description: str
    active: bool
    disabled_reason: str | None
    disabled_detail: str | None
    disabled_at: datetime | None
    api_base: str
    created_at: datetime
    updated_at: datetime
    previous_until: datetime | None  # the end of a rotated-out secret's overlap
    pending: int


@dataclass(frozen=True, slots=True)
class Attempt:
    """One attempt of a delivery, as the log keeps it."""

    attempted_at: datetime
    status: int | None  # the receiver's HTTP status, None when it gave none
    error: str | None
    response: str | None
    duration_ms: int


@dataclass(frozen=True, slots=True)
class DeliveryRecord:
    """A delivery of a message to a subscription, and its attempts so far (oldest first)."""

    id: int
    message_id: int
    type: str
    kind: str | None  # of the record a change is of (None for a ping)
    record_id: int | None
    status: str  # pending, delivered, failed
    attempts: int
    next_attempt_at: datetime
    last_attempt_at: datetime | None
    last_status: int | None
    last_error: str | None
    created_at: datetime
    log: list[Attempt]


def _subscription(row: Any) -> WebhookRecord:
    return WebhookRecord(**{**row._mapping, "types": list(row.types)})


def _delivery(row: Any) -> DeliveryRecord:
    log = [
        Attempt(
            attempted_at=datetime.fromisoformat(entry["attempted_at"]),
            status=entry["status"],
            error=entry["error"],
            response=entry["response"],
            duration_ms=entry["duration_ms"],
        )
        for entry in row.log
    ]
    return DeliveryRecord(**{**row._mapping, "log": log})


@dataclass(frozen=True, slots=True)
class Claimed:
    id: int
    subscription_id: int
    message_id: int
    type: str
    attempts: int
    round_attempts: int
    body: str
    url: str
    secret: str
    previous_secret: str | None


@dataclass(frozen=True, slots=True)
class Recorded:
    """The outcome of one attempt, to store."""

    delivery_id: int
    status: str  # pending (retry later), delivered, failed
    next_attempt_at: datetime | None
    attempted_at: datetime
    code: int | None
    error: str | None
    response: str | None
    duration_ms: int


@dataclass(frozen=True, slots=True)
class Target:
    """A delivery to make: a message to a subscription, for a record."""

    subscription_id: int
    message: int  # index into the messages of the same call
    kind: str
    record_id: int


@dataclass(frozen=True, slots=True)
class FanoutTarget:
    """A subscription as the fan-out sees it."""

    id: int
    types: list[str]
    api_base: str


@dataclass(frozen=True, slots=True)
class NewMessage:
    type: str
    body: str
    changed_at: datetime


@dataclass(frozen=True, slots=True)
class Backlog:
    subscription_id: int
    disabled: bool
    oldest_seconds: float  # 0 without a pending delivery


@asynccontextmanager
async def looking(maker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """A session without a transaction (autocommit), for the background task's looks for
    work: no BEGIN and COMMIT round trips around a read that mostly finds nothing. (A maker
    bound to a connection rather than an engine reads in that connection's transaction.)"""
    async with maker() as session:
        if isinstance(session.bind, AsyncEngine):
            await session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        yield session


class WebhookRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ---- subscriptions ---------------------------------------------------------------

    async def create(
        self, url: str, types: list[str], description: str, secret: str, api_base: str
    ) -> int:
        values = {
            "url": url,
            "types": types,
            "description": description,
            "secret": secret,
            "api_base": api_base,
        }
        return int((await self.session.execute(CREATE_SQL, values)).scalar_one())

    async def get(self, subscription_id: int) -> WebhookRecord | None:
        row = (await self.session.execute(GET_SQL, {"id": subscription_id})).one_or_none()
        return None if row is None else _subscription(row)

    async def all(self) -> list[WebhookRecord]:
        return [_subscription(row) for row in await self.session.execute(LIST_SQL)]

    async def lock(self, subscription_id: int) -> bool:
        """Lock the subscription for this transaction; False if there is none."""
        found = await self.session.execute(LOCK_SQL, {"id": subscription_id})
        return found.one_or_none() is not None

    async def update(self, subscription_id: int, values: dict[str, Any]) -> None:
        """Set `values` (url, types, description: names of our own model, never a client's)."""
        assignments = ", ".join(f"{column} = :{column}" for column in values)
        statement = text(
            f"UPDATE webhook_subscriptions SET {assignments}, updated_at = now() WHERE id = :id"
        )
        await self.session.execute(statement, {**values, "id": subscription_id})

    async def set_active(self, subscription_id: int, active: bool) -> None:
        await self.session.execute(SET_ACTIVE_SQL, {"id": subscription_id, "active": active})

    async def rotate(self, subscription_id: int, secret: str, overlap_seconds: float) -> None:
        values = {"id": subscription_id, "secret": secret, "overlap": overlap_seconds}
        await self.session.execute(ROTATE_SQL, values)

    async def delete(self, subscription_id: int) -> bool:
        return (await self.session.execute(DELETE_SQL, {"id": subscription_id})).first() is not None

    async def any_subscription(self) -> bool:
        return bool(await self.session.scalar(ANY_SUBSCRIPTION_SQL))

    async def disable(self, subscription_id: int, reason: str, detail: str) -> None:
        values = {"id": subscription_id, "reason": reason, "detail": detail}
        await self.session.execute(DISABLE_SQL, values)

    # ---- fan-out: change log -> messages and deliveries -------------------------------

    async def read_feed(self) -> Token | None:
        """The fan-out's position, not locked (a look that writes nothing)."""
        row = (await self.session.execute(FEED_READ_SQL)).one_or_none()
        return None if row is None else Token(row.cursor, row.snapshot)

    async def lock_feed(self) -> Token | None:
        """The fan-out's position, locked; None while another worker is fanning out."""
        row = (await self.session.execute(FEED_LOCK_SQL)).one_or_none()
        return None if row is None else Token(row.cursor, row.snapshot)

    async def save_feed(self, token: Token) -> None:
        values = {"cursor": token.cursor, "snapshot": token.snapshot}
        await self.session.execute(FEED_SAVE_SQL, values)

    async def fanout_targets(self, lock: bool = False) -> list[FanoutTarget]:
        """Every subscription (paused ones queue up too); `lock`: none can be deleted
        before this transaction ends (a look without it writes nothing)."""
        statement = FANOUT_TARGETS_LOCK_SQL if lock else FANOUT_TARGETS_SQL
        rows = (await self.session.execute(statement)).all()
        return [FanoutTarget(row.id, list(row.types), row.api_base) for row in rows]

    async def add_deliveries(self, messages: list[NewMessage], targets: list[Target]) -> None:
        """Store `messages` and a delivery per target, in the targets' order."""
        if not targets:
            return
        found = await self.session.execute(MESSAGE_IDS_SQL, {"count": len(messages)})
        ids = [row.id for row in found]
        await self.session.execute(
            INSERT_MESSAGES_SQL,
            {
                "ids": ids,
                "types": [m.type for m in messages],
                "bodies": [m.body for m in messages],
                "changed": [m.changed_at for m in messages],
            },
        )
        await self.session.execute(
            INSERT_DELIVERIES_SQL,
            {
                "subscriptions": [t.subscription_id for t in targets],
                "messages": [ids[t.message] for t in targets],
                "kinds": [t.kind for t in targets],
                "records": [t.record_id for t in targets],
            },
        )

    async def add_ping(self, subscription_id: int, body: str) -> int:
        values = {"subscription": subscription_id, "body": body}
        return int((await self.session.execute(PING_SQL, values)).scalar_one())

    # ---- sending ---------------------------------------------------------------------

    async def any_due(self) -> bool:
        return bool(await self.session.scalar(ANY_DUE_SQL))

    async def claim(self, limit: int, busy: list[int]) -> list[Claimed]:
        """Up to `limit` due deliveries, none to the `busy` subscriptions."""
        values = {"limit": limit, "busy": busy}
        rows = (await self.session.execute(CLAIM_SQL, values)).all()
        return [Claimed(**row._mapping) for row in rows]

    async def record(self, outcomes: list[Recorded]) -> None:
        """Store the attempts and the deliveries' new states (two statements in all)."""
        if not outcomes:
            return
        ids = [o.delivery_id for o in outcomes]
        attempted = [o.attempted_at for o in outcomes]
        codes = [o.code for o in outcomes]
        errors = [o.error for o in outcomes]
        await self.session.execute(
            RECORD_SQL,
            {
                "ids": ids,
                "statuses": [o.status for o in outcomes],
                "next": [o.next_attempt_at for o in outcomes],
                "attempted": attempted,
                "codes": codes,
                "errors": errors,
            },
        )
        await self.session.execute(
            ATTEMPTS_SQL,
            {
                "ids": ids,
                "attempted": attempted,
                "codes": codes,
                "errors": errors,
                "responses": [o.response for o in outcomes],
                "durations": [o.duration_ms for o in outcomes],
            },
        )

    # ---- the delivery log ------------------------------------------------------------

    async def deliveries(
        self, subscription_id: int, status: str | None, limit: int, offset: int
    ) -> tuple[list[DeliveryRecord], int]:
        values = {"subscription": subscription_id, "status": status}
        total = int(await self.session.scalar(COUNT_DELIVERIES_SQL, values) or 0)
        page = {**values, "limit": limit, "offset": offset}
        rows = await self.session.execute(DELIVERIES_SQL, page)
        return [_delivery(row) for row in rows], total

    async def delivery(self, subscription_id: int, delivery_id: int) -> DeliveryRecord | None:
        values = {"subscription": subscription_id, "id": delivery_id}
        row = (await self.session.execute(DELIVERY_SQL, values)).one_or_none()
        return None if row is None else _delivery(row)

    async def retry(self, subscription_id: int, delivery_id: int) -> bool:
        values = {"subscription": subscription_id, "id": delivery_id}
        return (await self.session.execute(RETRY_SQL, values)).first() is not None

    async def prune(self, cutoff: datetime) -> None:
        await self.session.execute(PRUNE_SQL, {"cutoff": cutoff})

    async def backlog(self) -> list[Backlog]:
        rows = (await self.session.execute(BACKLOG_SQL)).all()
        return [Backlog(r.id, r.disabled, float(r.oldest or 0.0)) for r in rows]
