"""RSVP from the pages, through the API's own services (app/tickets): the answer posted
from an event page's form, and an attendee's own page at the signed link of their
confirmation (`/[de|sk/]rsvp/<id>/<token>/`), where they change or cancel it.

The pages' reads commit nothing (app/pages/content.py); an answer, a change or a
cancellation is a write: it runs in a context of its own whose session commits (with the
outbox's message, in the same transaction) before the 303 to the next page goes out."""

import time
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from fastapi import Request

from app.core.app_services import services_of
from app.core.database.engine import Session, SessionMaker, session_scope
from app.core.errors import ApiError
from app.core.rules.permissions import Principal
from app.core.settings import Settings
from app.core.web.refusals import Refusals
from app.events.service import EventService
from app.http.context import RequestContext, open_request_context
from app.pages.content import Content, NotShown, PasswordNeeded
from app.pages.rsvp_form import Posted, Refusal, read_quantity, refusal_texts, refused, trapped
from app.pages.tickets import ShownTicket, moment_words, shown_tickets
from app.tickets.commands import RsvpChange
from app.tickets.records import AttendeeRecord, TicketRecord
from app.tickets.rsvp import Answered, RsvpService
from app.tickets.serializer import answer_body
from app.tickets.service import TicketService

# The notices of an attendee's page after a change (`?done=`), by what was done.
DONE = ("answered", "changed", "cancelled")
# An attendee's page: personal (a name, an address), never kept by a cache, and its secret
# link never sent on as a referrer.
ATTENDEE_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


async def _anonymous(request: Request, session: Session, settings: Settings) -> Principal | None:
    """An RSVP is anonymous, whoever sends it: the service's rules for visitors apply."""
    return None


def writing_context(
    request: Request, maker: SessionMaker, language: str
) -> AbstractAsyncContextManager[RequestContext]:
    """A visitor's context whose session commits: an answer and its message, or nothing."""
    return open_request_context(request, maker, language, caller=_anonymous, session=session_scope)


def client_address(request: Request) -> str:
    """The client the throttle counts (the trusted proxies' step has set it)."""
    return request.client.host if request.client else "unknown"


async def event_tickets(
    content: Content, event_id: int, password: str | None
) -> list[TicketRecord]:
    """The tickets an event page offers: the event's, and on a date of a series the
    series' tickets without a date too (TicketService.of_event)."""
    return await TicketService(content.ctx).of_event(event_id, password)


def tickets_shown(
    content: Content, tickets: list[TicketRecord], posted: Refusal | None
) -> list[ShownTicket]:
    settings = content.ctx.settings
    return shown_tickets(
        tickets,
        datetime.now(UTC),
        content.ctx.language,
        settings.site_zone,
        settings.app_password_pepper,
        posted,
    )


@dataclass
class Outcome:
    """What became of an RSVP posted from an event page: the attendee's page to go to, or
    the form to show again, or a ticket the page does not offer (the 404 page). None of
    them: the event is not shown to this visitor, or needs its password (the page says so)."""

    manage_url: str | None = None
    refusal: Refusal | None = None
    not_offered: bool = False


async def answer_from_page(
    request: Request,
    maker: SessionMaker,
    language: str,
    slug: str,
    on: date | None,
    password: str | None,
    posted: Posted,
) -> Outcome:
    """Run the RSVP posted to an event page: the honeypot and the time trap first (nothing is
    read for a bot), then the answer through RsvpService, for a ticket this page offers."""
    services = services_of(request)
    trap = trapped(posted, services.settings.app_password_pepper, time.time(), language)
    if trap is not None:
        return Outcome(refusal=trap)
    max_per_person = 1
    try:
        async with writing_context(request, maker, language) as ctx:
            content = Content(ctx, services.event_totals)
            event = await content.event(slug, on, password)
            offered = await event_tickets(content, int(event["id"]), password)
            ticket = next((t for t in offered if t.id == posted.ticket_id), None)
            if ticket is None:
                return Outcome(not_offered=True)
            max_per_person = ticket.max_per_person
            answer = posted.answer(password)
            answered = await RsvpService(ctx).rsvp(ticket.id, answer, client_address(request))
    except (NotShown, PasswordNeeded):
        return Outcome()
    except ApiError as exc:
        return Outcome(refusal=refused(posted, exc, language, max_per_person))
    # A fragment of its own: the browser would keep the form's (`#ticket-N`) otherwise.
    return Outcome(manage_url=f"{answered.manage_url}?done=answered#answer")


# ---- an attendee's own page -----------------------------------------------------------


@dataclass
class FailedChange:
    """A change the service refused, shown again on the attendee's page with why."""

    error: ApiError
    quantity: str
    going: bool


@dataclass
class AttendeePage:
    """What an attendee's page shows: their answer, its ticket, the event (its body, None
    when a visitor may no longer read it), what they may still do, and the change form's
    values and errors."""

    attendee: AttendeeRecord
    ticket: TicketRecord
    event: Mapping[str, Any] | None
    starts: str  # when the event (or the ticket's date) starts, in words
    checked_in: str | None  # when the attendee was checked in, in words
    can_change: bool  # the ticket is on sale: places and going may change
    can_cancel: bool  # not cancelled, not checked in, the event not begun
    done: str | None = None
    quantity: str = ""
    going: bool = True
    errors: dict[str, str] = field(default_factory=dict)
    alert: str | None = None


async def attendee_page(
    content: Content,
    attendee_id: int,
    token: str,
    done: str | None,
    failed: FailedChange | None = None,
) -> AttendeePage:
    """The attendee's page at their signed link (a wrong token: NotShown, the 404 page)."""
    try:
        answered = await RsvpService(content.ctx).by_link(attendee_id, token)
    except ApiError as exc:
        raise NotShown from exc
    ticket, attendee = answered.ticket, answered.attendee
    events = EventService(content.ctx)
    try:
        body = events.visible_body(await events.by_id(ticket.event_id))
    except ApiError:
        body = None
    language, zone = content.ctx.language, content.ctx.settings.site_zone
    now = datetime.now(UTC)
    can_cancel = (
        attendee.status != "cancelled"
        and attendee.checked_in_at is None
        and now < ticket.event_start
    )
    page = AttendeePage(
        attendee,
        ticket,
        body,
        moment_words(ticket.event_start, language, zone),
        None
        if attendee.checked_in_at is None
        else moment_words(attendee.checked_in_at, language, zone),
        can_cancel and ticket.on_sale(now),
        can_cancel,
        done if done in DONE else None,
        str(attendee.quantity),
        attendee.status != "not_going",
    )
    if failed is not None:
        page.quantity, page.going = failed.quantity, failed.going
        page.errors, page.alert = refusal_texts(failed.error, language, ticket.max_per_person)
    return page


def read_change(form: Mapping[str, object]) -> tuple[str, RsvpChange, str]:
    """(the action: `cancel` or `change`, the change, the places as posted)."""
    action = "cancel" if str(form.get("action", "")) == "cancel" else "change"
    text = str(form.get("quantity", ""))[:20]
    quantity, refusals = read_quantity(text) if text.strip() else (None, Refusals({}))
    going = str(form.get("going", "yes"))[:10] != "no"
    return action, RsvpChange(quantity=quantity, going=going, refused=refusals), text


async def change_by_link(
    request: Request,
    maker: SessionMaker,
    language: str,
    attendee_id: int,
    token: str,
    action: str,
    change: RsvpChange,
) -> Answered:
    """The attendee's change or cancellation, committed (ApiError: refused, nothing written)."""
    async with writing_context(request, maker, language) as ctx:
        service = RsvpService(ctx)
        if action == "cancel":
            return await service.cancel_by_link(attendee_id, token)
        return await service.change_by_link(attendee_id, token, change)


def cancelled_body(answered: Answered) -> dict[str, Any]:
    """The DELETE's answer: the API's answer to an RSVP (no name, no address) without the
    link it was sent to."""
    body = answer_body(answered.attendee, answered.manage_url)
    del body["manage_url"]
    return body
