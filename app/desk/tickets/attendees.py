"""An event's attendees (`events/{id}/attendees`, `?ticket=` one ticket's): search, a
status filter, the totals in places, a CSV download, a check-in button and a cancel button
per attendee, and a message to every attendee. Only who may see the event's attendees
(core/rules/permissions.can_see_attendees: editors, administrators and the event's author)
gets the screens; the others the desk's 403 page. The attendee service
(app/attendees/service.py) reads and writes, and checks the same rule again."""

from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qsl, urlencode

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.attendees.commands import STATUS_FILTERS, AttendeeQuery, StatusFilter
from app.attendees.service import AttendeeService
from app.core.errors import ApiError, InvalidParams
from app.core.rules.paging import Page
from app.core.rules.permissions import can_see_attendees, may
from app.desk.context import DeskContext
from app.desk.refusal import Refusal
from app.desk.screens.api_calls import (
    DeskReader,
    DeskWriter,
    flash,
    form_values,
    page_number,
    refusal,
    service_context,
)
from app.events.records import EventRecord
from app.events.service import EventService
from app.i18n import DESK_TEXTS, N_
from app.tickets.records import TicketRecord
from app.tickets.rsvp import RsvpService
from app.tickets.service import TicketService

router = APIRouter()

PER_PAGE = 50
# The status filter's choices (app/attendees/commands.py): the attendees' statuses, and
# those checked in.
STATUS_LABELS = {
    "going": N_("Going"),
    "not_going": N_("Not going"),
    "waitlisted": N_("Waitlisted"),
    "cancelled": N_("Cancelled"),
    "checked_in": N_("Checked in"),
}
# What the list's address may carry (a form's way back to the list it was sent from).
LIST_PARAMS = ("ticket", "status", "search", "page")


@dataclass(frozen=True)
class Filters:
    """The list's filters as the query string gives them (anything unreadable: no filter)."""

    ticket: int | None
    status: StatusFilter | None
    search: str
    page: int

    @classmethod
    def read(cls, params: dict[str, str]) -> "Filters":
        ticket = params.get("ticket", "")
        status = params.get("status", "")
        return cls(
            ticket=int(ticket) if ticket.isdigit() and len(ticket) < 19 else None,
            status=status if status in STATUS_FILTERS else None,
            search=params.get("search", "").strip()[:200],
            page=page_number(params.get("page")),
        )

    def query(self, page: int | None = None) -> str:
        """The list's query string (without its `?`), at `page`."""
        values = {
            "ticket": str(self.ticket) if self.ticket is not None else "",
            "status": self.status or "",
            "search": self.search,
            "page": str(page or self.page) if (page or self.page) > 1 else "",
        }
        return urlencode({name: value for name, value in values.items() if value})


def capacity(tickets: list[TicketRecord]) -> int | None:
    """The places of `tickets` in all; None when one of them is unlimited (or none)."""
    limits = [ticket.capacity for ticket in tickets]
    return None if not limits or None in limits else sum(limit or 0 for limit in limits)


async def attendee_event(desk: DeskContext, event_id: int) -> EventRecord:
    """The event (or date), if the person may see its attendees; else the desk's 403."""
    record = await EventService(service_context(desk)).by_id(event_id)
    desk.require(can_see_attendees(desk.principal, record.author_id))
    return record


async def _page(
    desk: DeskContext,
    record: EventRecord,
    filters: Filters,
    *,
    message: dict[str, str] | None = None,
    problem: Refusal | None = None,
    status: int = 200,
) -> Response:
    ctx = service_context(desk)
    # The event's own tickets: a date of a series lists the series' pool too, whose
    # attendees are the series' (app/attendees/service.py), not the date's.
    tickets = [t for t in await TicketService(ctx).of_event(record.id) if t.event_id == record.id]
    query = AttendeeQuery(
        event=record.id, ticket=filters.ticket, status=filters.status, search=filters.search or None
    )
    found = await AttendeeService(ctx).page(query, Page(filters.page, PER_PAGE))
    counted = [t for t in tickets if filters.ticket is None or t.id == filters.ticket]
    shown: dict[str, Any] = {
        "record": record,
        "filters": filters,
        "tickets": tickets,
        "ticket_names": {ticket.id: ticket.name for ticket in tickets},
        "attendees": found.records,
        "total": found.total,
        "totals": found.totals,
        "capacity": capacity(counted),
        "pages": max(1, -(-found.total // PER_PAGE)),
        "statuses": STATUS_LABELS,
        "editable": may(desk.principal, "edit", record.author_id, record.status),
        "message": message or {},
        "problem": problem,
    }
    return desk.render("desk/attendees.html", status, **shown)


@router.get("/events/{event_id:id}/attendees")
async def attendees_page(event_id: int, request: Request, desk: DeskReader) -> Response:
    record = await attendee_event(desk, event_id)
    return await _page(desk, record, Filters.read(dict(request.query_params)))


@router.get("/events/{event_id:id}/attendees.csv")
async def attendees_csv(event_id: int, desk: DeskReader) -> Response:
    """The API's CSV of the event's attendees (the attendee service writes it)."""
    await attendee_event(desk, event_id)
    text = await AttendeeService(service_context(desk)).csv(event_id)
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="attendees-{event_id}.csv"'},
    )


def _back(desk: DeskContext, values: dict[str, str]) -> str:
    """The list a row's form was sent from (its event and filters, read again)."""
    event = values.get("list", "")
    filters = Filters.read(dict(parse_qsl(values.get("back", ""))))
    query = filters.query()
    return (
        f"events/{int(event)}/attendees" + (f"?{query}" if query else "") if event.isdigit() else ""
    )


async def _row_action(desk: DeskContext, attendee_id: int, action: str) -> Response:
    """Check in or cancel one attendee, then back to the list with what happened (a
    refusal, such as a second check-in, said there too)."""
    values = await form_values(desk)
    attendees = AttendeeService(service_context(desk))
    try:
        if action == "check-in":
            done = await attendees.check_in(attendee_id)
            said = flash(desk, N_("Checked in: %(name)s.")) % {"name": done.name}
        else:
            done = await RsvpService(service_context(desk)).cancel(attendee_id)
            said = flash(desk, N_("Cancelled: %(name)s.")) % {"name": done.name}
    except ApiError as error:
        if error.status not in (400, 409):
            raise  # not found, not allowed: the desk's error page
        done = await attendees.read(attendee_id)
        said = f"{done.name}: {desk.message(error)}"
    return desk.redirect(_back(desk, values) or f"events/{done.event_id}/attendees", said)


@router.post("/attendees/{attendee_id:id}/check-in")
async def check_in(attendee_id: int, desk: DeskWriter) -> Response:
    return await _row_action(desk, attendee_id, "check-in")


@router.post("/attendees/{attendee_id:id}/cancel")
async def cancel(attendee_id: int, desk: DeskWriter) -> Response:
    """An editor's cancellation: the places go back, the first waiting move up (the RSVP
    service mails them and the attendee)."""
    return await _row_action(desk, attendee_id, "cancel")


@router.post("/events/{event_id:id}/attendees/message")
async def message_all(event_id: int, desk: DeskWriter) -> Response:
    """A message to every attendee going or waiting, queued in the outbox."""
    record = await attendee_event(desk, event_id)
    values = await form_values(desk)
    message = {name: values.get(name, "").strip() for name in ("subject", "body")}
    errors = {
        name: DESK_TEXTS.gettext(desk.language, N_("Fill this in."))
        for name, text in message.items()
        if not text
    }
    filters = Filters.read({})
    said = DESK_TEXTS.gettext(desk.language, N_("The message was not sent."))
    if errors:
        problem = Refusal(400, "", said, errors)
        return await _page(desk, record, filters, message=message, problem=problem, status=400)
    attendees = AttendeeService(service_context(desk))
    try:
        count = await attendees.message(event_id, message["subject"], message["body"])
    except InvalidParams as error:  # too long: the API's message at its field
        problem = replace(refusal(error, desk.language), message=said)
        return await _page(desk, record, filters, message=message, problem=problem, status=400)
    said = DESK_TEXTS.ngettext(
        desk.language,
        "Message queued for %(num)d attendee.",
        "Message queued for %(num)d attendees.",
        count,
    )
    return desk.redirect(f"events/{event_id}/attendees", said)
