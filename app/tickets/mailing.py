"""The messages to attendees, made in the transaction of what caused them and queued in the
outbox (app/mail): an RSVP's confirmation (with the event's .ics, the ticket's QR code and
the signed link to change or cancel it), a place on the waitlist, a move up from it, a
cancellation, and an organiser's message to every attendee of an event. Each in the
attendee's language, plain text and HTML."""

from collections.abc import Sequence
from typing import Literal

from app.http.context import RequestContext
from app.tickets.records import AttendeeRecord, TicketRecord

# going / not_going / waitlisted: the answer to an RSVP (or to its change); promoted: moved
# up from the waitlist; cancelled: the attendee's own cancellation (or an editor's).
AttendeeMail = Literal["going", "not_going", "waitlisted", "promoted", "cancelled"]


async def queue_attendee_mail(
    ctx: RequestContext, kind: AttendeeMail, attendee: AttendeeRecord, ticket: TicketRecord
) -> None:
    """Queue the message of `kind` to `attendee` on `ctx.session` (the caller's transaction:
    committed with what caused it, or not at all). To be made by the mail's work."""


async def queue_event_message(
    ctx: RequestContext,
    event_id: int,
    attendees: Sequence[AttendeeRecord],
    subject: str,
    body: str,
) -> int:
    """Queue an organiser's message (`subject`, plain-text `body`) to each of `attendees` of
    `event_id`; the number of messages queued. To be made by the mail's work."""
    return 0
