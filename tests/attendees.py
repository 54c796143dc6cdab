"""Tickets and attendees as rows, as the tickets' API and an RSVP leave them: for the tests
of what reads them (the attendees' lists, check-in, CSV, forgetting)."""

import secrets
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.rules.permissions import Principal
from app.core.settings import get_settings
from app.core.web.urls import Urls
from app.http.context import RequestContext
from app.models import Attendee, Ticket


def command_context(db: AsyncSession, user: Principal | None = None) -> RequestContext:
    """The context of a service called outside a request (a command's, the desk's QR
    check-in's) on the test's session, as `user` (None: nobody)."""
    site = "http://testserver"
    return RequestContext({}, "en", user, db, Urls(site, "", "", site), get_settings())


async def add_ticket(
    db: AsyncSession,
    event_id: int,
    *,
    name: str = "Entry",
    capacity: int | None = None,
    taken: int = 0,
    waitlist: bool = False,
    occurrence_id: int | None = None,
) -> int:
    ticket = Ticket(
        event_id=event_id,
        occurrence_id=occurrence_id,
        name=name,
        capacity=capacity,
        taken=taken,
        waitlist=waitlist,
        currency="EUR",
    )
    db.add(ticket)
    await db.flush()
    await db.commit()
    return ticket.id


async def add_attendee(
    db: AsyncSession,
    ticket_id: int,
    name: str,
    email: str,
    *,
    quantity: int = 1,
    status: str = "going",
    language: str = "en",
    checked_in_at: datetime | None = None,
) -> int:
    ticket = await db.get(Ticket, ticket_id)
    assert ticket is not None
    attendee = Attendee(
        ticket_id=ticket_id,
        event_id=ticket.occurrence_id or ticket.event_id,
        name=name,
        email=email,
        quantity=quantity,
        status=status,
        language=language,
        secret=secrets.token_urlsafe(24),
        checked_in_at=checked_in_at,
    )
    db.add(attendee)
    if status == "going":  # its places are taken, as an RSVP takes them
        ticket.taken += quantity
    await db.flush()
    await db.commit()
    return attendee.id
