"""The attendee writes an RSVP makes (app/models/tickets.py): the answer's row, its change
and cancellation, the waitlist in the order people came, and the going places one address
holds on a ticket. The attendees' lists, searches and check-ins are app/attendees'."""

from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import lock_row
from app.models.tickets import Attendee
from app.tickets.records import AttendeeRecord, AttendeeStatus

COLUMNS = (
    Attendee.id,
    Attendee.ticket_id,
    Attendee.event_id,
    Attendee.name,
    Attendee.email,
    Attendee.quantity,
    Attendee.status,
    Attendee.language,
    Attendee.secret,
    Attendee.checked_in_at,
    Attendee.checked_in_by,
    Attendee.created_at,
    Attendee.modified_at,
)


def _select() -> Any:
    return select(*COLUMNS)


def attendee_record(row: Any) -> AttendeeRecord:
    """An attendee of a row of `COLUMNS` (the attendees' reads, app/attendees, use both)."""
    return AttendeeRecord(**row._mapping)


class AttendeeWrites:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get(self, attendee_id: int) -> AttendeeRecord | None:
        row = (await self.session.execute(_select().where(Attendee.id == attendee_id))).first()
        return None if row is None else attendee_record(row)

    async def lock(self, attendee_id: int) -> bool:
        return await lock_row(self.session, Attendee, attendee_id)

    async def insert(self, values: dict[str, Any]) -> AttendeeRecord:
        row = (
            await self.session.execute(insert(Attendee).values(**values).returning(*COLUMNS))
        ).one()
        return attendee_record(row)

    async def set_answer(
        self, attendee_id: int, status: AttendeeStatus, quantity: int
    ) -> AttendeeRecord:
        row = (
            await self.session.execute(
                update(Attendee)
                .where(Attendee.id == attendee_id)
                .values(status=status, quantity=quantity, modified_at=func.now())
                .returning(*COLUMNS)
            )
        ).one()
        return attendee_record(row)

    async def waiting(self, ticket_id: int) -> list[AttendeeRecord]:
        """The ticket's waitlist in the order people came (by ID), locked: two
        cancellations promote one after the other."""
        stmt = (
            _select()
            .where(Attendee.ticket_id == ticket_id, Attendee.status == "waitlisted")
            .order_by(Attendee.id)
            .with_for_update()
        )
        return [attendee_record(row) for row in (await self.session.execute(stmt)).all()]

    async def going_places(self, ticket_id: int, email: str, *, besides: int = 0) -> int:
        """The going places `email` (any case) holds on the ticket, but attendee `besides`'."""
        held = await self.session.scalar(
            select(func.coalesce(func.sum(Attendee.quantity), 0)).where(
                Attendee.ticket_id == ticket_id,
                Attendee.status == "going",
                func.lower(Attendee.email) == email.lower(),
                Attendee.id != besides,
            )
        )
        return int(held or 0)
