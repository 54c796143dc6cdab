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
from app.tickets.rsvp import RsvpService


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


async def forget(ctx: RequestContext, email: str) -> Forgotten:
    """Erase the address everywhere, in the caller's transaction: each of its answers not
    cancelled yet is cancelled as the desk cancels it (a going one's places given back,
    the waitlist moved up and those moved up emailed) but without the cancellation's
    message, then every message to the address and its attendees are deleted (their
    signed links die with their secrets). The change log keeps that attendee IDs were
    deleted: it never held a name or an address."""
    repo = AttendeeRepository(ctx.session)
    rsvp = RsvpService(ctx)
    cancelled = 0
    for row in await repo.by_email(email):
        if row.attendee.status != "cancelled":
            await rsvp.cancel(row.attendee.id, mail=False, trusted=True)
            cancelled += 1
    # The messages first: deleting the attendees would take theirs along uncounted.
    messages = await Outbox(ctx.session).forget(email)
    attendees = await repo.delete_by_email(email)
    return Forgotten(cancelled, attendees, messages)
