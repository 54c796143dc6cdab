from typing import Any

from pydantic import Field

from app.http.schemas import DateDetails, ImageOrFalse, ListLinks, Schema
from app.organizers.schemas import Organizer
from app.posts.schemas import Flag
from app.terms.schemas import EmbeddedTerm
from app.venues.schemas import Venue


class CostDetails(Schema):
    currency_symbol: str
    currency_code: str
    currency_position: str
    values: list[str]


class Attendance(Schema):
    """An event's attendance, in places (the sums of the answers' quantities)."""

    going: int | None
    not_going: int | None
    waitlisted: int | None
    checked_in: int | None = Field(description="Places of going attendees checked in")
    capacity: int | None = Field(
        description="The sum of its tickets' capacities; null when one is unlimited"
    )


class Event(Schema):
    """An event (docs/design.md#shapes). Flags are null and lists empty when password-redacted."""

    id: int
    global_id: str
    global_id_lineage: list[str]
    author: str
    status: str
    date: str
    date_utc: str
    modified: str
    modified_utc: str
    url: str
    rest_url: str
    title: str
    description: str
    excerpt: str
    slug: str
    image: ImageOrFalse
    all_day: Flag
    start_date: str = Field(description="Local wall time in the event's time zone")
    start_date_details: DateDetails
    end_date: str
    end_date_details: DateDetails
    utc_start_date: str
    utc_start_date_details: DateDetails
    utc_end_date: str
    utc_end_date_details: DateDetails
    timezone: str
    timezone_abbr: str
    cost: str
    cost_details: CostDetails
    website: str
    show_map: Flag
    show_map_link: Flag
    hide_from_listings: Flag
    sticky: Flag
    featured: Flag
    categories: list[EmbeddedTerm]
    tags: list[EmbeddedTerm]
    venue: Venue | list[Any] = Field(description="The venue, or [] when there is none")
    organizer: list[Organizer]
    custom_fields: list[Any] | dict[str, Any]
    ticketed: Flag = Field(description="Whether the event has a ticket (on sale or not)")
    attendance: Attendance | None = Field(
        None,
        description="Its attendees' figures, in places (for editors, administrators and the "
        "event's author alone)",
    )
    json_ld: dict[str, Any] | None = Field(None, description="schema.org Event (single reads)")
    series_id: int | None = Field(
        None, description="A date of a series: the series' ID (absent on a single event)"
    )
    recurrence: list[str] | None = Field(
        None, description="A date of a series: the series' RFC 5545 lines"
    )


class EventList(ListLinks):
    events: list[Event]
