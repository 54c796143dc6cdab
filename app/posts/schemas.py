from typing import Any

from pydantic import Field

from app.http.schemas import DateDetails, ImageOrFalse, ListLinks, Schema
from app.terms.schemas import EmbeddedTerm

# Redacted (password-protected) objects replace a name by [] and flags by null.
Name = str | list[Any]
Flag = bool | None


class PostHead(Schema):
    id: int
    author: str = Field(description="Author user ID as a string")
    status: str
    date: str = Field(description="Publication date, site time, Y-m-d H:i:s")
    date_utc: str
    modified: str
    modified_utc: str
    url: str = Field(description="Public page")
    description: str
    excerpt: str
    slug: str
    image: ImageOrFalse
    global_id: str
    global_id_lineage: list[str]
    json_ld: dict[str, Any] | None = Field(None, description="schema.org data (single reads)")


class Venue(PostHead):
    venue: Name
    address: str
    city: str
    country: str
    province: str
    state: str
    zip: str
    phone: str
    website: str
    stateprovince: str
    show_map: Flag
    show_map_link: Flag


class Organizer(PostHead):
    organizer: Name
    phone: str
    website: str
    email: str


class CostDetails(Schema):
    currency_symbol: str
    currency_code: str
    currency_position: str
    values: list[str]


class Event(Schema):
    """An event (reference §3.1). Flags are null and lists empty when password-redacted."""

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
    json_ld: dict[str, Any] | None = Field(None, description="schema.org Event (single reads)")


class EventList(ListLinks):
    events: list[Event]


class VenueList(ListLinks):
    venues: list[Venue]


class OrganizerList(ListLinks):
    organizers: list[Organizer]
