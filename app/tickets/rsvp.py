"""RSVP (docs/design.md#tickets-and-rsvp): a visitor's answer to a ticket, its change and
cancellation through the signed link (no account), and an editor's cancellation.

Capacity: a going answer takes its places with one conditional UPDATE of the ticket's row
(`TicketRepository.take`); no row means sold out, so the waitlist or a 409, whatever the
number of requests, workers or instances. Locks are taken in one order, the ticket's row
then its attendees', so that a change, a cancellation and a promotion never wait on each
other in a circle. A cancellation gives the places back and moves the waitlist up in the
order people came, while the first one waiting fits; each message is queued in the same
transaction (app/tickets/mailing.py)."""

import dataclasses
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from app.core.errors import ApiError, InvalidParams, NotFound, invalid, note
from app.core.rules.dates import format_datetime
from app.core.rules.permissions import ATTENDEES, can_see_attendees, require
from app.events.service import EventService
from app.http.context import RequestContext
from app.http.params import refused_values
from app.tickets import links
from app.tickets.commands import Rsvp, RsvpChange
from app.tickets.mailing import AttendeeMail, queue_attendee_mail
from app.tickets.params import RsvpParams
from app.tickets.records import AttendeeRecord, AttendeeStatus, TicketRecord
from app.tickets.repository.attendees import AttendeeWrites
from app.tickets.repository.tickets import TicketRepository
from app.tickets.service import TicketService


@dataclass(frozen=True)
class Answered:
    """An attendee after an answer, its ticket after it, and the signed link to change it."""

    attendee: AttendeeRecord
    ticket: TicketRecord
    manage_url: str


class RsvpService:
    def __init__(self, ctx: RequestContext) -> None:
        self.ctx = ctx
        self.tickets = TicketRepository(ctx.session)
        self.attendees = AttendeeWrites(ctx.session)
        self.key = links.link_key(ctx.settings.app_password_pepper)

    # ---- a visitor's answer -------------------------------------------------------------

    async def rsvp(self, ticket_id: int, answer: Rsvp, client: str) -> Answered:
        """The answer of `client` (its address, throttled): going (or waitlisted when sold
        out and the ticket has a waitlist) or not going."""
        await self._throttle(client)
        ticket = await self._ticket(ticket_id)
        service = TicketService(self.ctx)
        # As reading the event answers: 404, 401/403 for a draft or private one, 403 for a
        # protected one without its password (a wrong one counts as a guess).
        await service.event(ticket.event_id, answer.password)
        if self.ctx.if_match is not None:  # only if the ticket is as the client read it
            await self.tickets.lock(ticket_id)
            ticket = await self._ticket(ticket_id)
            service.check_if_match(ticket)
        answer.refused.raise_any()
        _check_values(name=answer.name, email=answer.email, quantity=answer.quantity)
        _check_quantity(ticket, answer.quantity)
        _check_on_sale(ticket, datetime.now(UTC), self.ctx)
        if answer.going:
            return await self._going(ticket, answer)
        return await self._answered(await self._insert(ticket, answer, "not_going"), "not_going")

    async def _going(self, ticket: TicketRecord, answer: Rsvp) -> Answered:
        """A going answer, its places taken last: the attendee's row and its message (a QR
        code and an .ics, tens of milliseconds of CPU) are written first, in a savepoint,
        so that the ticket's row is locked only from the take to the commit, and the
        answers to one ticket do not wait for each other's mail (`make bench`'s RSVPs).
        Sold out: the savepoint is undone, and the answer waits on the list or is refused.
        A ticket already sold out when it was read is answered so at once, without making
        a message for nothing (a rush's late answers)."""
        if ticket.available is not None and ticket.available < answer.quantity:
            return await self._no_places(ticket, answer)
        nested = await self.ctx.session.begin_nested()
        attendee = await self._insert(ticket, answer, "going")
        answered = await self._answered(attendee, "going")
        if await self.tickets.take(ticket.id, answer.quantity):
            await self._check_per_person(ticket, answer.email, attendee.id, answer.quantity)
            await nested.commit()
            return dataclasses.replace(answered, ticket=await self._ticket(ticket.id))
        await nested.rollback()
        return await self._no_places(ticket, answer)

    async def _no_places(self, ticket: TicketRecord, answer: Rsvp) -> Answered:
        """No places left: a place on the waitlist, if the ticket has one, else the 409."""
        if not ticket.waitlist:
            raise _sold_out()
        waiting = await self._insert(ticket, answer, "waitlisted")
        return await self._answered(waiting, "waitlisted")

    async def _insert(
        self, ticket: TicketRecord, answer: Rsvp, status: AttendeeStatus
    ) -> AttendeeRecord:
        return await self.attendees.insert(
            {
                "ticket_id": ticket.id,
                "event_id": ticket.event_id,
                "name": answer.name,
                "email": answer.email,
                "quantity": answer.quantity,
                "status": status,
                "language": self.ctx.language,
                "secret": secrets.token_urlsafe(links.SECRET_BYTES),
            }
        )

    # ---- the attendee's signed link ---------------------------------------------------

    async def by_link(self, attendee_id: int, token: str) -> Answered:
        """The attendee the link names; 404 for a wrong token as for a missing attendee."""
        attendee = await self._by_token(attendee_id, token)
        return Answered(attendee, await self._ticket(attendee.ticket_id), self.manage_url(attendee))

    async def change_by_link(self, attendee_id: int, token: str, change: RsvpChange) -> Answered:
        """Change the places or going / not going, while the ticket is on sale."""
        found = await self._by_token(attendee_id, token)
        ticket, attendee = await self._locked(found)
        change.refused.raise_any()
        _check_values(quantity=change.quantity)
        if attendee.status == "cancelled":
            raise ApiError(409, "rsvp-cancelled", "rsvp_cancelled")
        quantity = attendee.quantity if change.quantity is None else change.quantity
        going = attendee.status != "not_going" if change.going is None else change.going
        _check_quantity(ticket, quantity)
        _check_on_sale(ticket, datetime.now(UTC), self.ctx)
        held = attendee.quantity if attendee.status == "going" else 0
        status: AttendeeStatus = "not_going"
        if going and attendee.status == "going":
            status = "going"
            if quantity > held:
                status = await self._take(
                    ticket, quantity - held, attendee.email, attendee.id, holding=quantity
                )
                if status != "going":  # no more places: the answer stays as it was
                    raise _sold_out()
        elif going:
            status = await self._take(ticket, quantity, attendee.email, attendee.id)
        give_back = held - quantity if status == "going" else held
        if (status, quantity) == (attendee.status, attendee.quantity):
            return await self.by_link(attendee_id, token)
        changed = await self.attendees.set_answer(attendee.id, status, quantity)
        if give_back > 0:
            await self.tickets.give_back(ticket.id, give_back)
            await self._promote(ticket.id)
        return await self._answered(changed, status)

    async def cancel_by_link(self, attendee_id: int, token: str) -> Answered:
        """Cancel the answer (its places go to the waitlist); cancelling twice is one."""
        attendee = await self._by_token(attendee_id, token)
        cancelled = await self._cancel(attendee, mail=True)
        return Answered(
            cancelled, await self._ticket(cancelled.ticket_id), self.manage_url(cancelled)
        )

    # ---- an editor's cancellation -----------------------------------------------------

    async def cancel(
        self, attendee_id: int, *, mail: bool = True, trusted: bool = False
    ) -> AttendeeRecord:
        """Cancel an attendee as someone who may see the event's attendees (the desk), or
        `trusted` (the `almanac attendees forget` command, `mail=False`: the forgotten
        address is not written to). Frees the places, promotes, mails."""
        attendee = await self.attendees.get(attendee_id)
        if attendee is None:
            raise NotFound("attendee", attendee_id)
        if not trusted:
            ticket = await self._ticket(attendee.ticket_id)
            event = await EventService(self.ctx).by_id(ticket.series_id)
            user = self.ctx.user
            require(user, can_see_attendees(user, event.author_id), ATTENDEES)
        return await self._cancel(attendee, mail=mail)

    def manage_url(self, attendee: AttendeeRecord) -> str:
        return links.manage_url(self.ctx.urls, self.ctx.settings, attendee)

    # ---- pieces -----------------------------------------------------------------------

    async def _throttle(self, client: str) -> None:
        """The client's RSVPs, counted in the sign-in throttle's store under a key of their
        own, RSVP_LIMIT per LOGIN_FAILURES_WINDOW: 429 beyond."""
        guesses = self.ctx.guesses
        if guesses is None:  # a context made outside a request
            return
        key = f"rsvp {client}"
        limiter, reader = guesses.limiter, guesses.reader
        wait, _ = await limiter.check(key, reader, self.ctx.settings.rsvp_limit)
        if wait:
            headers = {"Retry-After": str(wait)}
            raise ApiError(429, "rest_too_many_requests", "too_many_rsvps", headers=headers)
        await limiter.record(key, reader)

    async def _ticket(self, ticket_id: int) -> TicketRecord:
        ticket = await self.tickets.get(ticket_id)
        if ticket is None:
            raise NotFound("ticket", ticket_id)
        return ticket

    async def _by_token(self, attendee_id: int, token: str) -> AttendeeRecord:
        attendee = await self.attendees.get(attendee_id)
        if attendee is None or not links.verify(
            self.key, "manage", attendee.id, attendee.secret, token
        ):
            raise NotFound("attendee", attendee_id)
        return attendee

    async def _locked(self, attendee: AttendeeRecord) -> tuple[TicketRecord, AttendeeRecord]:
        """The attendee's ticket and the attendee, locked in that order, read again."""
        await self.tickets.lock(attendee.ticket_id)
        await self.attendees.lock(attendee.id)
        again = await self.attendees.get(attendee.id)
        if again is None:  # deleted meanwhile (its ticket, or forgotten)
            raise NotFound("attendee", attendee.id)
        return await self._ticket(again.ticket_id), again

    async def _take(
        self,
        ticket: TicketRecord,
        places: int,
        email: str,
        besides: int = 0,
        holding: int | None = None,
    ) -> AttendeeStatus:
        """Take `places` for `email` (going), else a place on the waitlist, else 409. The
        places one address holds (its other answers', beside attendee `besides`, and this
        one's `holding`, by default `places`) are counted once the ticket's row is locked
        (by the take), so two answers of one address cannot both pass."""
        if not await self.tickets.take(ticket.id, places):
            if ticket.waitlist:
                return "waitlisted"
            raise _sold_out()
        await self._check_per_person(ticket, email, besides, places if holding is None else holding)
        return "going"

    async def _check_per_person(
        self, ticket: TicketRecord, email: str, besides: int, holding: int
    ) -> None:
        """The places `email` holds on the ticket (its other answers', beside attendee
        `besides`, and `holding`) within its maximum; counted once the ticket's row is
        locked (by the take), so two answers of one address cannot both pass."""
        held = await self.attendees.going_places(ticket.id, email, besides=besides)
        if held + holding > ticket.max_per_person:
            left = max(ticket.max_per_person - held, 0)
            why = note("per_person", name="quantity", max=ticket.max_per_person, left=left)
            raise invalid("quantity", why)

    async def _cancel(self, attendee: AttendeeRecord, *, mail: bool) -> AttendeeRecord:
        ticket, attendee = await self._locked(attendee)
        if attendee.status == "cancelled":
            return attendee
        cancelled = await self.attendees.set_answer(attendee.id, "cancelled", attendee.quantity)
        if attendee.status == "going":
            await self.tickets.give_back(ticket.id, attendee.quantity)
            await self._promote(ticket.id)
        if mail:
            await queue_attendee_mail(
                self.ctx, "cancelled", cancelled, await self._ticket(ticket.id)
            )
        return cancelled

    async def _promote(self, ticket_id: int) -> None:
        """Move the waitlist up in order while the first one waiting fits (strictly: a
        party that does not fit stops it), before the event starts; each is emailed."""
        ticket = await self._ticket(ticket_id)
        if datetime.now(UTC) >= ticket.event_start:
            return
        for waiting in await self.attendees.waiting(ticket_id):
            if not await self.tickets.take(ticket_id, waiting.quantity):
                break
            promoted = await self.attendees.set_answer(waiting.id, "going", waiting.quantity)
            await self._mail("promoted", promoted)

    async def _answered(self, attendee: AttendeeRecord, status: AttendeeStatus) -> Answered:
        """The answer after a write: its message queued, its ticket as it is now."""
        ticket = await self._ticket(attendee.ticket_id)
        await queue_attendee_mail(self.ctx, status, attendee, ticket)
        return Answered(attendee, ticket, self.manage_url(attendee))

    async def _mail(self, kind: AttendeeMail, attendee: AttendeeRecord) -> None:
        await queue_attendee_mail(self.ctx, kind, attendee, await self._ticket(attendee.ticket_id))


def _sold_out() -> ApiError:
    return ApiError(409, "ticket-sold-out", "ticket_sold_out")


def _check_values(**values: object) -> None:
    """The answer's limits (a name, an address, at least one place), declared once by the
    parameter model, for an answer no door read (the pages' form): as the API refuses them."""
    notes = refused_values(RsvpParams, values)
    if notes:
        raise InvalidParams(notes)


def _check_quantity(ticket: TicketRecord, quantity: int) -> None:
    if quantity > ticket.max_per_person:
        raise invalid("quantity", note("at_most", name="quantity", max=ticket.max_per_person))


def _check_on_sale(ticket: TicketRecord, now: datetime, ctx: RequestContext) -> None:
    """400 `ticket-not-on-sale` with the reason: the event has begun, the sale has not
    opened yet (and when it opens), or it has closed."""
    if ticket.on_sale(now):
        return
    zone = ctx.settings.site_zone
    if now >= ticket.event_start:
        key, values = "ticket_event_begun", {}
    elif ticket.sale_starts is not None and now < ticket.sale_starts:
        key, values = "ticket_sale_not_open", {"when": format_datetime(ticket.sale_starts, zone)}
    else:
        key, values = "ticket_sale_closed", {"when": format_datetime(ticket.sale_closes, zone)}
    raise ApiError(400, "ticket-not-on-sale", key, values=values)
