"""Every query of the mail outbox (app/models/tickets.py OutboxMessage): writing a message
in its cause's transaction, the worker's claims and outcomes, the desk's reads, and a
recipient's rows (forget, export)."""

from datetime import datetime

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.mail.records import Claimed, OutboxCounts, OutboxEntry, OutboxStatus, Queued

ENTRY_COLUMNS = """
    id, kind, recipient, language, subject, attendee_id, event_id, created_at, attempts,
    next_attempt_at, sent_at, failed_at, last_error
"""
# Each status as a condition on the row (the due index is on the waiting ones).
STATUS_WHERE: dict[OutboxStatus, str] = {
    "waiting": "sent_at IS NULL AND failed_at IS NULL",
    "sent": "sent_at IS NOT NULL",
    "failed": "sent_at IS NULL AND failed_at IS NOT NULL",
}
NEXT_ID_SQL = text("SELECT nextval(pg_get_serial_sequence('mail_outbox', 'id'))")
INSERT_SQL = text(
    """
    INSERT INTO mail_outbox (id, kind, recipient, language, subject, message, attendee_id,
        event_id)
    VALUES (:id, :kind, :recipient, :language, :subject, :message, :attendee_id, :event_id)
    """
)
# `:now` from the worker's clock, not the transaction's start: a bound the index walks to.
DUE = f"{STATUS_WHERE['waiting']} AND next_attempt_at <= :now"
# Rows another worker holds are skipped, not waited for: each message is in one claim.
CLAIM_SQL = text(
    f"""
    SELECT id, recipient, message, attempts FROM mail_outbox WHERE {DUE}
    ORDER BY next_attempt_at, id LIMIT :limit FOR UPDATE SKIP LOCKED
    """
)
SENT_SQL = text(
    """
    UPDATE mail_outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL
    WHERE id = ANY(:ids)
    """
)
RETRY_SQL = text(
    """
    UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = :next,
        last_error = :error
    WHERE id = :id
    """
)
FAILED_SQL = text(
    """
    UPDATE mail_outbox SET attempts = attempts + 1, failed_at = now(), last_error = :error
    WHERE id = :id
    """
)
SEND_AGAIN_SQL = text(
    """
    UPDATE mail_outbox SET failed_at = NULL, attempts = 0, next_attempt_at = now()
    WHERE id = :id AND sent_at IS NULL AND failed_at IS NOT NULL RETURNING id
    """
)
COUNTS_SQL = text(
    f"""
    SELECT count(*) FILTER (WHERE {STATUS_WHERE["waiting"]}) AS waiting,
           count(*) FILTER (WHERE {STATUS_WHERE["sent"]}) AS sent,
           count(*) FILTER (WHERE {STATUS_WHERE["failed"]}) AS failed
    FROM mail_outbox
    """
)
OF_RECIPIENT_SQL = text(
    f"SELECT {ENTRY_COLUMNS} FROM mail_outbox WHERE lower(recipient) = lower(:email) ORDER BY id"
)
FORGET_SQL = text("DELETE FROM mail_outbox WHERE lower(recipient) = lower(:email)")


def _where(status: OutboxStatus | None) -> str:
    return f"WHERE {STATUS_WHERE[status]}" if status is not None else ""


class OutboxRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ---- writing (in the transaction of what caused the message) ----------------------

    async def next_id(self) -> int:
        """The ID the next message will have (its Message-ID is made from it)."""
        return int(await self.session.scalar(NEXT_ID_SQL) or 0)

    async def insert(self, queued: Queued) -> None:
        await self.session.execute(
            INSERT_SQL,
            {
                "id": queued.id,
                "kind": queued.kind,
                "recipient": queued.recipient,
                "language": queued.language,
                "subject": queued.subject,
                "message": queued.message,
                "attendee_id": queued.attendee_id,
                "event_id": queued.event_id,
            },
        )

    # ---- the worker ----------------------------------------------------------------------

    async def claim(self, limit: int, now: datetime) -> list[Claimed]:
        """Up to `limit` messages due at `now`, oldest due first, locked until the
        transaction ends."""
        rows = (await self.session.execute(CLAIM_SQL, {"limit": limit, "now": now})).all()
        return [Claimed(**row._mapping) for row in rows]

    async def sent(self, ids: list[int]) -> None:
        if ids:
            await self.session.execute(SENT_SQL, {"ids": ids})

    async def retry(self, message_id: int, at: datetime, error: str) -> None:
        await self.session.execute(RETRY_SQL, {"id": message_id, "next": at, "error": error})

    async def failed(self, message_id: int, error: str) -> None:
        await self.session.execute(FAILED_SQL, {"id": message_id, "error": error})

    # ---- the desk's reads and actions -----------------------------------------------------

    async def counts(self) -> OutboxCounts:
        row = (await self.session.execute(COUNTS_SQL)).one()
        return OutboxCounts(**row._mapping)

    async def entries(
        self, status: OutboxStatus | None, offset: int, limit: int
    ) -> list[OutboxEntry]:
        """Newest first."""
        statement = text(
            f"SELECT {ENTRY_COLUMNS} FROM mail_outbox {_where(status)} "
            "ORDER BY id DESC OFFSET :offset LIMIT :limit"
        )
        rows = await self.session.execute(statement, {"offset": offset, "limit": limit})
        return [OutboxEntry(**row._mapping) for row in rows]

    async def count(self, status: OutboxStatus | None) -> int:
        statement = text(f"SELECT count(*) FROM mail_outbox {_where(status)}")
        return int(await self.session.scalar(statement) or 0)

    async def send_again(self, message_id: int) -> bool:
        """A failed message back among the waiting ones, its retries anew."""
        return (await self.session.scalar(SEND_AGAIN_SQL, {"id": message_id})) is not None

    # ---- a recipient's rows (the right to be forgotten) ---------------------------------

    async def of_recipient(self, email: str) -> list[OutboxEntry]:
        rows = await self.session.execute(OF_RECIPIENT_SQL, {"email": email})
        return [OutboxEntry(**row._mapping) for row in rows]

    async def forget(self, email: str) -> int:
        result = await self.session.execute(FORGET_SQL, {"email": email})
        return int(getattr(result, "rowcount", 0) or 0)
