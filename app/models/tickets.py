"""Tickets and RSVP (app/tickets) and the mail outbox (app/mail): the migration
`a1f2e3d4c5b6` creates them; docs/design.md#tickets-and-rsvp explains the flow."""

from datetime import datetime
from decimal import Decimal

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    Numeric,
    String,
    Text,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base

NOW = text("now()")


class Ticket(Base):
    """What a visitor may RSVP to: per event, or per date of a series (`occurrence_id`).
    `taken`: the places of going attendees, kept within `capacity` (null: unlimited) by a
    check, so that no writer can sell more than the room holds."""

    __tablename__ = "tickets"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    event_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("events.id", ondelete="CASCADE"))
    occurrence_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("occurrences.id", ondelete="CASCADE")
    )
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, server_default="")
    capacity: Mapped[int | None] = mapped_column(Integer)
    taken: Mapped[int] = mapped_column(Integer, server_default="0")
    max_per_person: Mapped[int] = mapped_column(Integer, server_default="10")
    sale_starts: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    sale_ends: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    waitlist: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    price: Mapped[Decimal] = mapped_column(Numeric(12, 2), server_default="0")
    currency: Mapped[str] = mapped_column(String(3))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)
    modified_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)


class Attendee(Base):
    """One answer to a ticket: `quantity` places, going, not going, waitlisted or cancelled;
    `event_id` is the event as clients name it (the ticket's date, else its event). `secret`
    is random: the signed links to change the answer and to check in are made from it, so
    forgetting the person (deleting the row) voids them."""

    __tablename__ = "attendees"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    ticket_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("tickets.id", ondelete="CASCADE"))
    event_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str] = mapped_column(String(254))
    quantity: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12))
    language: Mapped[str] = mapped_column(String(5))
    secret: Mapped[str] = mapped_column(String(64))
    checked_in_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    checked_in_by: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("users.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)
    modified_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)


class OutboxMessage(Base):
    """A message to send: the whole MIME message, made when what caused it was written (in
    the same transaction), sent once by the worker (app/mail/worker.py)."""

    __tablename__ = "mail_outbox"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    recipient: Mapped[str] = mapped_column(String(254))
    language: Mapped[str] = mapped_column(String(5))
    subject: Mapped[str] = mapped_column(Text)
    message: Mapped[bytes] = mapped_column(LargeBinary)
    attendee_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("attendees.id", ondelete="CASCADE")
    )
    event_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    failed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
