"""Bodies of the ticket routes: a ticket, and an RSVP's answer (which carries no name nor
address: personal data stays in the attendee bodies of those who may see them)."""

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from app.core.rules.dates import format_datetime
from app.http.context import RequestContext
from app.tickets.records import AttendeeRecord, TicketRecord


def ticket_body(
    ticket: TicketRecord, ctx: RequestContext, now: datetime | None = None
) -> dict[str, Any]:
    """A ticket: dates in the site's zone (`Y-m-d H:i:s`) and in UTC; `sale_ends` is the
    effective close (the event's start when the ticket names none)."""
    zone = ctx.settings.site_zone
    starts = ticket.sale_starts
    return {
        "id": ticket.id,
        "event": ticket.event_id,
        "name": ticket.name,
        "description": ticket.description,
        "capacity": ticket.capacity,
        "available": ticket.available,
        "taken": ticket.taken,
        "max_per_person": ticket.max_per_person,
        "sale_starts": None if starts is None else format_datetime(starts, zone),
        "sale_starts_utc": None if starts is None else format_datetime(starts, UTC),
        "sale_ends": format_datetime(ticket.sale_closes, zone),
        "sale_ends_utc": format_datetime(ticket.sale_closes, UTC),
        "on_sale": ticket.on_sale(now or datetime.now(UTC)),
        "waitlist": ticket.waitlist,
        "price": _number(ticket.price),
        "currency": ticket.currency,
        "date": None if ticket.day is None else ticket.day.isoformat(),
        "rest_url": ctx.urls.rest(f"/tickets/{ticket.id}"),
    }


def answer_body(attendee: AttendeeRecord, manage_url: str) -> dict[str, Any]:
    """An RSVP's answer: no name, no address."""
    return {
        "id": attendee.id,
        "event": attendee.event_id,
        "ticket": attendee.ticket_id,
        "status": attendee.status,
        "quantity": attendee.quantity,
        "manage_url": manage_url,
    }


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)
