"""A person's data, by their email address (any case): everything kept about them, as JSON
(`almanac attendees export`), and erasing it (`almanac attendees forget`: the right to be
forgotten, docs/design.md#tickets-and-rsvp). No permission is checked: the commands are the
operator's, on the server."""

from dataclasses import dataclass
from typing import Any

from app.attendees.repository import AttendeeRepository
from app.attendees.serializer import export_body
from app.http.context import RequestContext
from app.mail.service import Outbox


@dataclass(frozen=True)
class Forgotten:
    """What forgetting an address did: answers cancelled first (their places given back,
    the waitlist moved up), then attendees and messages deleted."""

    cancelled: int
    attendees: int
    messages: int


async def export(ctx: RequestContext, email: str) -> dict[str, Any]:
    """Every attendee with the address (their tickets' names) and every message to it
    (subjects, kinds, dates and states; no bodies)."""
    rows = await AttendeeRepository(ctx.session).by_email(email)
    messages = await Outbox(ctx.session).export(email)
    return export_body(email, rows, messages, ctx.settings.site_zone)
