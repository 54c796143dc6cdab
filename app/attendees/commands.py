"""The typed inputs of the attendee service: which attendees a list shows. Values are
parsed; `None` is a filter not sent. The API's door (app/attendees/door.py) builds them from
a request's parameters, the desk builds them itself."""

from dataclasses import dataclass
from typing import Literal

from app.core.web.refusals import NOTHING_REFUSED, Refusals

# An attendee's status, or "checked_in": the going ones checked in at the door.
StatusFilter = Literal["going", "not_going", "waitlisted", "cancelled", "checked_in"]
STATUS_FILTERS: tuple[StatusFilter, ...] = (
    "going",
    "not_going",
    "waitlisted",
    "cancelled",
    "checked_in",
)


@dataclass(frozen=True)
class AttendeeQuery:
    """The attendees of an event (as clients name it: a date of a series is its own), of a
    ticket, in a status, whose name or address contains `search`; none: every attendee the
    caller may see."""

    event: int | None = None
    ticket: int | None = None
    status: StatusFilter | None = None
    search: str | None = None
    refused: Refusals = NOTHING_REFUSED
