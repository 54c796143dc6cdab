"""What the ticket and attendee services return: typed records, no SQL, no wire. The doors
render them (app/tickets/serializer.py for the API; the pages and the desk read them)."""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Literal

# An event's figures are read with the event (app/events/repository), which is below this
# package: the type lives there, and is this package's too.
from app.events.records import Attendance

__all__ = ["STATUSES", "Attendance", "AttendeeRecord", "AttendeeStatus", "TicketRecord"]

AttendeeStatus = Literal["going", "not_going", "waitlisted", "cancelled"]

STATUSES: tuple[AttendeeStatus, ...] = ("going", "not_going", "waitlisted", "cancelled")


@dataclass(frozen=True, slots=True)
class TicketRecord:
    id: int
    # The event as clients name it: the date's ID for a ticket of one date of a series,
    # else the event's (`tickets.occurrence_id`, else `tickets.event_id`).
    event_id: int
    series_id: int  # the events row the ticket belongs to (`tickets.event_id`)
    occurrence_id: int | None
    name: str
    description: str
    capacity: int | None  # None: unlimited
    taken: int  # places held by going attendees
    max_per_person: int
    sale_starts: datetime | None  # None: on sale from its creation
    sale_ends: datetime | None  # None: until the event (or its date) starts
    waitlist: bool
    price: Decimal
    currency: str
    event_start: datetime  # when the event (or the ticket's date) starts, aware
    created_at: datetime
    modified_at: datetime
    # The local day of the ticket's date, for a ticket of one date of a series (else None).
    day: date | None = None

    @property
    def available(self) -> int | None:
        """Places left; None when unlimited."""
        return None if self.capacity is None else max(self.capacity - self.taken, 0)

    @property
    def sale_closes(self) -> datetime:
        """When the sale ends: its own end, never after the event starts."""
        if self.sale_ends is None:
            return self.event_start
        return min(self.sale_ends, self.event_start)

    def on_sale(self, now: datetime) -> bool:
        opened = self.sale_starts is None or self.sale_starts <= now
        return opened and now < self.sale_closes


@dataclass(frozen=True, slots=True)
class AttendeeRecord:
    id: int
    ticket_id: int
    event_id: int  # as clients name it (the ticket's date, else its event)
    name: str
    email: str
    quantity: int
    status: AttendeeStatus
    language: str
    secret: str  # random; the signed links are made from it (app/tickets/links.py)
    checked_in_at: datetime | None
    checked_in_by: int | None
    created_at: datetime
    modified_at: datetime
