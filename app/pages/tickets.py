"""An event page's tickets as the page shows them: each one's state (on sale, on sale to the
waitlist, sold out, not yet on sale, sale closed) and, while a visitor may answer, its RSVP
form (app/pages/rsvp_form.py): a fresh one, or the one just posted with why it was refused."""

import time
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Literal

from app.i18n.dates import Dates
from app.pages.rsvp_form import Refusal, RsvpForm, make_stamp
from app.tickets.records import TicketRecord

TicketState = Literal["on_sale", "waitlist", "sold_out", "not_yet", "closed"]


def moment_words(value: datetime, language: str, zone: tzinfo) -> str:
    """A sale's bound or an event's start as the pages write a day and a time, in the
    site's zone ("Monday, November 30, 2026, 7:00 PM")."""
    local = value.astimezone(zone)
    dates = Dates(language)
    return f"{dates.day(local)}, {dates.time(local)}"


def state_of(ticket: TicketRecord, now: datetime) -> TicketState:
    if ticket.on_sale(now):
        if ticket.available == 0:
            return "waitlist" if ticket.waitlist else "sold_out"
        return "on_sale"
    if ticket.sale_starts is not None and now < ticket.sale_starts:
        return "not_yet"
    return "closed"


@dataclass(frozen=True)
class ShownTicket:
    record: TicketRecord
    state: TicketState
    opens: str | None  # when a sale not yet open opens, in words (the site's zone)
    closes: str  # when the sale ends, in words
    form: RsvpForm | None  # while a visitor may answer (on sale, or to the waitlist)
    alert: str | None = None  # why the form posted to this ticket was refused


def shown_tickets(
    tickets: list[TicketRecord],
    now: datetime,
    language: str,
    zone: tzinfo,
    secret: str,
    posted: Refusal | None = None,
) -> list[ShownTicket]:
    """Each ticket with its state and form; the posted form at its ticket with a new stamp
    (the visitor sends it again: the time trap counts from this page)."""
    moment = time.time()
    shown = []
    for ticket in tickets:
        state = state_of(ticket, now)
        mine = posted.form if posted is not None and posted.form.ticket_id == ticket.id else None
        form = None
        if state in ("on_sale", "waitlist"):
            form = mine or RsvpForm(ticket.id)
            form.stamp = make_stamp(secret, ticket.id, moment)
        opens = ticket.sale_starts if state == "not_yet" else None
        shown.append(
            ShownTicket(
                ticket,
                state,
                None if opens is None else moment_words(opens, language, zone),
                moment_words(ticket.sale_closes, language, zone),
                form,
                None if mine is None else mine.alert,
            )
        )
    return shown
