"""An event's tickets: `events/{id}/tickets` (the list and a form to add one),
`tickets/{id}/edit` (change one) and `tickets/{id}/delete`, linked from the event editor.
Every read and write goes through the ticket service (app/tickets/service.py) as the desk's
person: who may edit the event may manage its tickets, and the rules (a capacity below the
places taken, the sale window) are the service's, its refusals shown at their fields."""

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter
from starlette.responses import Response

from app.core.errors import ApiError, MissingParams
from app.core.rules.permissions import can_see_attendees
from app.desk.context import DeskContext
from app.desk.events.editing import Editing
from app.desk.refusal import Refusal
from app.desk.screens.api_calls import (
    DeskReader,
    DeskWriter,
    flash,
    form_values,
    refusal,
    service_context,
    write_step,
)
from app.desk.tickets.form import (
    REQUIRED,
    TicketValues,
    blank_form,
    read_form,
    record_form,
    ticket_write,
)
from app.events.records import EventRecord
from app.i18n import DESK_TEXTS, N_
from app.tickets.records import TicketRecord
from app.tickets.service import TicketService

router = APIRouter()


def _tickets(desk: DeskContext) -> TicketService:
    return TicketService(service_context(desk))


async def _page(
    desk: DeskContext,
    record: EventRecord,
    values: TicketValues,
    *,
    ticket: TicketRecord | None = None,
    problem: Refusal | None = None,
    status: int = 200,
) -> Response:
    """The event's tickets and the form to add one, or (`ticket`) one ticket's editor."""
    shown: dict[str, Any] = {
        "record": record,
        "values": values,
        "problem": problem,
        "series": bool(record.recurrence) and record.id == record.series_id,
        "zone": desk.settings.site_timezone,
        "attendees": can_see_attendees(desk.principal, record.author_id),
        "now": datetime.now(UTC),
    }
    if ticket is None:
        template = "desk/tickets.html"
        shown["tickets"] = await _tickets(desk).of_event(record.id)
    else:
        template = "desk/ticket_editor.html"
        shown["ticket"] = ticket
    return desk.render(template, status, **shown)


def _problem(desk: DeskContext, errors: dict[str, str]) -> Refusal:
    """The fields the form could not read, each with its message (nothing was sent)."""
    message = DESK_TEXTS.gettext(desk.language, N_("Some fields need another look."))
    texts = {name: DESK_TEXTS.gettext(desk.language, text) for name, text in errors.items()}
    return Refusal(400, "", message, texts)


def _refusal(desk: DeskContext, error: ApiError) -> Refusal:
    """The service's refusal at its fields (the API's messages; a missing one: "Fill this
    in.")."""
    if isinstance(error, MissingParams):
        return _problem(desk, dict.fromkeys(error.names, REQUIRED))
    return refusal(error, desk.language)


@router.get("/events/{event_id:id}/tickets")
async def tickets_page(event_id: int, desk: DeskReader) -> Response:
    record = await Editing(desk).editable(event_id)  # a refusal: the desk's error page
    return await _page(desk, record, blank_form())


@router.post("/events/{event_id:id}/tickets")
async def add_ticket(event_id: int, desk: DeskWriter) -> Response:
    record = await Editing(desk).editable(event_id)
    values = await form_values(desk)
    fields, errors = read_form(values, desk.settings.site_zone)
    if fields is None:
        return await _page(desk, record, values, problem=_problem(desk, errors), status=400)
    try:
        async with write_step(desk):
            ticket = await _tickets(desk).create(ticket_write(fields, event_id))
    except ApiError as error:
        problem = _refusal(desk, error)
        return await _page(desk, record, values, problem=problem, status=error.status)
    said = flash(desk, N_("Ticket added: %(name)s.")) % {"name": ticket.name}
    # A ticket of one date of a series is listed with that date's tickets.
    return desk.redirect(f"events/{ticket.event_id}/tickets", said)


async def _editing(desk: DeskContext, ticket_id: int) -> tuple[TicketRecord, EventRecord]:
    """The ticket and its event (or date), if the person may edit that event."""
    ticket = await _tickets(desk).read(ticket_id)
    return ticket, await Editing(desk).editable(ticket.event_id)


@router.get("/tickets/{ticket_id:id}/edit")
async def ticket_page(ticket_id: int, desk: DeskReader) -> Response:
    ticket, record = await _editing(desk, ticket_id)
    values = record_form(ticket, desk.settings.site_zone)
    return await _page(desk, record, values, ticket=ticket)


@router.post("/tickets/{ticket_id:id}/edit")
async def save_ticket(ticket_id: int, desk: DeskWriter) -> Response:
    ticket, record = await _editing(desk, ticket_id)
    values = await form_values(desk)
    fields, errors = read_form(values, desk.settings.site_zone)
    if fields is None:
        problem = _problem(desk, errors)
        return await _page(desk, record, values, ticket=ticket, problem=problem, status=400)
    try:
        async with write_step(desk):
            await _tickets(desk).update(ticket_id, ticket_write(fields, None))
    except ApiError as error:
        problem = _refusal(desk, error)
        return await _page(
            desk, record, values, ticket=ticket, problem=problem, status=error.status
        )
    return desk.redirect(f"tickets/{ticket_id}/edit", flash(desk, N_("Saved.")))


@router.post("/tickets/{ticket_id:id}/delete")
async def delete_ticket(ticket_id: int, desk: DeskWriter) -> Response:
    """Deleted with its attendees, once the form's box says so (a form without scripts has
    no confirmation dialog)."""
    ticket, record = await _editing(desk, ticket_id)
    values = await form_values(desk)
    if values.get("confirm") != "true":
        message = DESK_TEXTS.gettext(desk.language, N_("Tick the box to delete the ticket."))
        problem = Refusal(400, "", message, {"confirm": message})
        shown = record_form(ticket, desk.settings.site_zone)
        return await _page(desk, record, shown, ticket=ticket, problem=problem, status=400)
    await _tickets(desk).delete(ticket_id)  # a refusal: the desk's error page
    said = flash(desk, N_("Ticket deleted: %(name)s.")) % {"name": ticket.name}
    return desk.redirect(f"events/{record.id}/tickets", said)
