"""The outbox (`outbox/`, editors and administrators): the messages to attendees, waiting,
sent or failed, newest first, from the mail's outbox (app/mail/service.py `Outbox`), and
"Send again" for a failed one. Without SMTP_URL nothing is sent: the screen says that the
messages wait here until mail is set up (they go out once it is, none lost)."""

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.core.rules.paging import Page
from app.desk.context import DeskContext, DeskRefused
from app.desk.screens.api_calls import DeskReader, DeskWriter, flash, page_number
from app.i18n import N_
from app.mail.records import OUTBOX_STATUSES, OutboxStatus
from app.mail.service import Outbox

router = APIRouter()

PER_PAGE = 50
STATUS_LABELS = {
    "waiting": N_("Waiting"),
    "sent": N_("Sent"),
    "failed": N_("Failed"),
}
# What each message is (app/tickets/mailing.py's kinds, and the organiser's message to all).
KIND_LABELS = {
    "going": N_("Confirmation"),
    "not_going": N_("Not going"),
    "waitlisted": N_("On the waitlist"),
    "promoted": N_("Moved up from the waitlist"),
    "cancelled": N_("Cancellation"),
    "message": N_("Message to all"),
}


def _outbox(desk: DeskContext) -> Outbox:
    desk.require(desk.can.outbox)
    return Outbox(desk.db)


@router.get("/outbox")
async def outbox_page(request: Request, desk: DeskReader) -> Response:
    outbox = _outbox(desk)
    wanted = request.query_params.get("status", "")
    status: OutboxStatus | None = wanted if wanted in OUTBOX_STATUSES else None
    page = page_number(request.query_params.get("page"))
    entries, total = await outbox.page(status, Page(page, PER_PAGE))
    return desk.render(
        "desk/outbox.html",
        entries=entries,
        total=total,
        counts=await outbox.counts(),
        chosen=status,
        page=page,
        pages=max(1, -(-total // PER_PAGE)),
        statuses=STATUS_LABELS,
        kinds=KIND_LABELS,
        mail_set_up=bool(desk.settings.smtp_url),
    )


@router.post("/outbox/{message_id:id}/send-again")
async def send_again(message_id: int, desk: DeskWriter) -> Response:
    """A failed message waits again, its retries anew."""
    if not await _outbox(desk).send_again(message_id):
        raise DeskRefused(404, N_("There is no such failed message."), desk.language)
    return desk.redirect(
        "outbox/?status=waiting", flash(desk, N_("The message waits to be sent again."))
    )
