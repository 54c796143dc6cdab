"""The ticket form <-> the ticket service's typed write (app/tickets/commands.py).

The form speaks in what a person fills in: a number or nothing (unlimited), a day and time
of the site's zone or nothing (the sale's default), a box for the waitlist. This module
reads it and writes it back, and nothing else: the rules (a capacity below the places
taken, a sale that closes before it opens, limits) stay the service's, and its refusals,
named by the API's parameters, are shown at the fields of the same names.

Pure: no database, no HTTP.
"""

from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from app.i18n import N_
from app.tickets.commands import CLEARABLE, TicketWrite
from app.tickets.records import TicketRecord

TicketValues = dict[str, str]

# The form's fields, named as the API's parameters (a refusal's note lands on its field).
FIELDS = (
    "name",
    "description",
    "capacity",
    "max_per_person",
    "sale_starts",
    "sale_ends",
    "waitlist",
    "date",
)
DEFAULT_MAX_PER_PERSON = 10
# <input type="datetime-local">'s value: a wall time of the site's zone, to the minute.
LOCAL_FORMAT = "%Y-%m-%dT%H:%M"
NOT_A_NUMBER = N_("Enter a whole number of at least 1.")
NOT_A_MOMENT = N_("Enter a date and a time.")
NOT_A_DAY = N_("Enter a date.")
REQUIRED = N_("Fill this in.")


@dataclass(frozen=True)
class TicketFields:
    """What the form says, typed: None is a field left empty (unlimited capacity, the
    sale's default window, a ticket for the whole series)."""

    name: str
    description: str
    capacity: int | None
    max_per_person: int
    sale_starts: datetime | None
    sale_ends: datetime | None
    waitlist: bool
    date: date | None


def blank_form() -> TicketValues:
    return {"max_per_person": str(DEFAULT_MAX_PER_PERSON)}


def _local(value: datetime | None, zone: tzinfo) -> str:
    return value.astimezone(zone).strftime(LOCAL_FORMAT) if value is not None else ""


def record_form(ticket: TicketRecord, zone: tzinfo) -> TicketValues:
    """A saved ticket's form: its own sale window (not the effective close: an empty close
    stays empty, so that it keeps following the event's start)."""
    return {
        "name": ticket.name,
        "description": ticket.description,
        "capacity": "" if ticket.capacity is None else str(ticket.capacity),
        "max_per_person": str(ticket.max_per_person),
        "sale_starts": _local(ticket.sale_starts, zone),
        "sale_ends": _local(ticket.sale_ends, zone),
        "waitlist": "true" if ticket.waitlist else "",
        "date": ticket.day.isoformat() if ticket.day is not None else "",
    }


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) < 10 and int(text) >= 1 else None


def read_form(values: TicketValues, zone: tzinfo) -> tuple[TicketFields | None, dict[str, str]]:
    """(the typed fields, or None) and the fields the form could not even read: field ->
    a text of the desk's catalog (in English; the screen translates it)."""
    errors: dict[str, str] = {}
    text = {name: values.get(name, "").strip() for name in FIELDS}
    if not text["name"]:
        errors["name"] = REQUIRED
    capacity = _number(text["capacity"])
    if text["capacity"] and capacity is None:
        errors["capacity"] = NOT_A_NUMBER
    most = _number(text["max_per_person"] or str(DEFAULT_MAX_PER_PERSON))
    if most is None:
        errors["max_per_person"] = NOT_A_NUMBER
    moments: dict[str, datetime | None] = {}
    for name in ("sale_starts", "sale_ends"):
        moments[name] = None
        if text[name]:
            try:
                moments[name] = datetime.strptime(text[name], LOCAL_FORMAT).replace(tzinfo=zone)
            except ValueError:
                errors[name] = NOT_A_MOMENT
    day = None
    if text["date"]:
        try:
            day = date.fromisoformat(text["date"])
        except ValueError:
            errors["date"] = NOT_A_DAY
    if errors or most is None:  # (`most` is None only with an error: for the type's sake)
        return None, errors
    return TicketFields(
        name=text["name"],
        description=text["description"],
        capacity=capacity,
        max_per_person=most,
        sale_starts=moments["sale_starts"],
        sale_ends=moments["sale_ends"],
        waitlist=text["waitlist"] not in ("", "0", "false"),
        date=day,
    ), {}


def ticket_write(fields: TicketFields, event_id: int | None) -> TicketWrite:
    """The service's write: a create names its event (and a date of a series), an update
    does not (a ticket does not move); a field left empty is sent as null (unlimited, the
    sale's default bound), so that emptying it in the form clears it."""
    sent = {
        "capacity": fields.capacity,
        "sale_starts": fields.sale_starts,
        "sale_ends": fields.sale_ends,
    }
    return TicketWrite(
        event=event_id,
        day=fields.date if event_id is not None else None,
        name=fields.name,
        description=fields.description,
        capacity=fields.capacity,
        max_per_person=fields.max_per_person,
        sale_starts=fields.sale_starts,
        sale_ends=fields.sale_ends,
        waitlist=fields.waitlist,
        cleared=frozenset(
            name for name, value in sent.items() if name in CLEARABLE and value is None
        ),
    )
