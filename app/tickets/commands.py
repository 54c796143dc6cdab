"""The typed inputs of the ticket and RSVP services: a page of tickets, a ticket's create or
update, an RSVP and its change. Values are parsed: datetimes aware, IDs, booleans; `None`
is a field not sent. The API's door (app/tickets/door.py) builds them from a request's
parameters, the pages and the desk from their forms."""

from dataclasses import dataclass, field
from datetime import date, datetime

from app.core.web.refusals import NOTHING_REFUSED, Refusals

# The fields a write may clear (send null): an unlimited capacity, an open sale window.
CLEARABLE = ("capacity", "sale_starts", "sale_ends")


@dataclass(frozen=True)
class TicketQuery:
    """Which tickets a list shows: of one event (as clients name it: a date of a series
    also lists the series' tickets without a date), on sale now or not."""

    event: int | None = None
    on_sale: bool | None = None
    password: str | None = None  # of a protected `event`
    refused: Refusals = NOTHING_REFUSED


@dataclass(frozen=True)
class TicketWrite:
    """A create (`event` and `name` required) or an update of a ticket. `cleared` names the
    fields of CLEARABLE sent as null (unlimited, no bound of the window)."""

    event: int | None = None
    day: date | None = None  # one date of a series, by its local day (`date` on the wire)
    name: str | None = None
    description: str | None = None
    capacity: int | None = None
    max_per_person: int | None = None
    sale_starts: datetime | None = None
    sale_ends: datetime | None = None
    waitlist: bool | None = None
    cleared: frozenset[str] = frozenset()
    refused: Refusals = NOTHING_REFUSED

    def values(self) -> dict[str, object]:
        """The columns this write sets (`event` and `date` are resolved by the service)."""
        sent = {
            "name": self.name,
            "description": self.description,
            "capacity": self.capacity,
            "max_per_person": self.max_per_person,
            "sale_starts": self.sale_starts,
            "sale_ends": self.sale_ends,
            "waitlist": self.waitlist,
        }
        values: dict[str, object] = {k: v for k, v in sent.items() if v is not None}
        values.update(dict.fromkeys(self.cleared))
        return values


@dataclass(frozen=True)
class Rsvp:
    """A visitor's answer to a ticket: `quantity` places, going or not; the password of a
    protected event. The attendee's language is the request's."""

    name: str
    email: str
    quantity: int = 1
    going: bool = True
    password: str | None = None
    refused: Refusals = field(default=NOTHING_REFUSED)


@dataclass(frozen=True)
class RsvpChange:
    """An attendee's change through their signed link: places, going or not (`None`: as
    before). Cancelling is its own call (RsvpService.cancel_by_link)."""

    quantity: int | None = None
    going: bool | None = None
    refused: Refusals = NOTHING_REFUSED
