"""The check-in a ticket's QR code opens (`/desk/check-in/{id}/{code}/`, the address
core/web/urls.Urls.check_in writes): on a phone signed in to the desk, the attendee, their
ticket and places, and a "Check in" button (a POST to the same address). A second scan
says when they were checked in ("Already checked in at 19:42", the site's time). The
signed code is checked before anything is shown (a wrong one: no such page); who may not
see the event's attendees gets the desk's 403 page."""

from fastapi import APIRouter
from starlette.responses import Response

from app.attendees.service import AttendeeService
from app.core.errors import ApiError
from app.core.rules.dates import door_time
from app.desk.context import DeskContext, DeskRefused
from app.desk.screens.api_calls import DeskReader, DeskWriter, service_context
from app.desk.tickets.attendees import STATUS_LABELS, attendee_event
from app.i18n import N_
from app.tickets.links import link_key, verify
from app.tickets.records import AttendeeRecord
from app.tickets.service import TicketService

router = APIRouter()


async def _attendee(desk: DeskContext, attendee_id: int, code: str) -> AttendeeRecord:
    """The attendee the code was signed for; the desk's 404 for a wrong code."""
    attendee = await AttendeeService(service_context(desk)).read(attendee_id)
    key = link_key(desk.settings.app_password_pepper)
    if not verify(key, "check_in", attendee.id, attendee.secret, code):
        raise DeskRefused(404, N_("There is no such page."), desk.language)
    return attendee


async def _page(
    desk: DeskContext, attendee: AttendeeRecord, code: str, *, done: bool = False, status: int = 200
) -> Response:
    ctx = service_context(desk)
    record = await attendee_event(desk, attendee.event_id)
    ticket = await TicketService(ctx).read(attendee.ticket_id)
    return desk.render(
        "desk/check_in.html",
        status,
        attendee=attendee,
        record=record,
        ticket=ticket,
        code=code,
        done=done,
        when=door_time(attendee.checked_in_at, desk.settings.site_zone)
        if attendee.checked_in_at
        else None,
        statuses=STATUS_LABELS,
    )


@router.get("/check-in/{attendee_id:id}/{code}")
async def check_in_page(attendee_id: int, code: str, desk: DeskReader) -> Response:
    return await _page(desk, await _attendee(desk, attendee_id, code), code)


@router.post("/check-in/{attendee_id:id}/{code}")
async def check_in(attendee_id: int, code: str, desk: DeskWriter) -> Response:
    """Checked in, on the page itself (a reload would say "already checked in")."""
    await _attendee(desk, attendee_id, code)
    attendees = AttendeeService(service_context(desk))
    try:
        await attendees.check_in_by_code(attendee_id, code)
    except ApiError as error:
        if error.status != 409:  # already checked in, or not going: said on the page
            raise
        return await _page(desk, await attendees.read(attendee_id), code, status=error.status)
    return await _page(desk, await attendees.read(attendee_id), code, done=True)
