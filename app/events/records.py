"""What an event is as the repositories return it: a post (the columns every post kind has)
with a schedule (when it happens), its texts in the request language and its relations."""

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from app.organizers.repository import OrganizerRecord
from app.posts.records import ImageRecord, PostCore
from app.terms.repository import TermRecord
from app.venues.repository import VenueRecord


@dataclass
class Schedule:
    """When an event happens: instants, local wall times and its zone."""

    start_at: datetime
    end_at: datetime
    start_local: datetime
    end_local: datetime
    timezone: str
    timezone_abbr: str
    all_day: bool

    @classmethod
    def of(cls, event: "Schedule") -> "Schedule":
        """The schedule alone, e.g. of an `EventRecord`."""
        return cls(**{item.name: getattr(event, item.name) for item in fields(cls)})

    def columns(self) -> dict[str, Any]:
        return {item.name: getattr(self, item.name) for item in fields(Schedule)}


@dataclass(frozen=True, slots=True)
class Attendance:
    """An event's figures, in places (the sum of the attendees' quantities), for the callers
    who may see its attendees. `capacity`: the sum of its tickets' capacities, None when
    one of them is unlimited. (Read with the event: app/events/repository/tickets.py.)"""

    going: int
    not_going: int
    waitlisted: int
    checked_in: int
    capacity: int | None


@dataclass(slots=True)
class EventRecord(PostCore, Schedule):
    """An event (or one date of a series): the post columns of `PostCore`, the dates of
    `Schedule`, then its own."""

    title: str
    description: str
    excerpt: str
    cost: str
    cost_details: dict[str, Any]
    website: str | None
    show_map: bool
    show_map_link: bool
    hide_from_listings: bool
    sticky: bool
    featured: bool
    image_id: int | None
    venue_id: int | None
    parent_id: int | None
    revision: int = 0
    # The occurrence's series (its own ID for a single event) and the event row showing it
    # (the series, or an override of this one date); `recurrence`: the series' rules.
    series_id: int = 0
    content_id: int = 0
    recurrence: list[str] | None = None
    original_start: datetime | None = None
    venue: VenueRecord | None = None
    organizers: list[OrganizerRecord] = field(default_factory=list)
    image: ImageRecord | None = None
    categories: list[TermRecord] = field(default_factory=list)
    tags: list[TermRecord] = field(default_factory=list)
    # In a list near a point: its venue's distance from the point, in km.
    distance: float | None = None
    # Whether it has a ticket (its own, or its series' for every date), on sale or not;
    # its attendance only where the caller's reads asked for it (app/events/kind.py).
    ticketed: bool = False
    attendance: Attendance | None = None


@dataclass(slots=True)
class EventSummary:
    """What a calendar grid shows of an event (or one date of a series): no texts but the
    title, no relations. Read by the same list query as `EventRecord`, with fewer columns."""

    id: int
    slug: str
    title: str
    start_local: datetime
    end_local: datetime
    recurrence: list[str] | None = None
    # The series' status: a signed-in reader's page marks what a visitor would not see.
    status: str = "publish"
    # The week view's band holds all-day events (app/pages/week.py).
    all_day: bool = False
