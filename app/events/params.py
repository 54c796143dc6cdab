"""Parameters of the event routes: writes (docs/design.md#events) and the list (docs/design.md#event-list)."""

from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from app.core.rules.constants import MAX_ID
from app.events.query import TIMES_OF_DAY, WEEKDAYS, TimeOfDay
from app.geo.params import (
    Kilometres,
    Latitude,
    Longitude,
    Place,
    latitude_field,
    longitude_field,
    place_field,
    radius_field,
)
from app.http.coercion import (
    ID_CSV,
    ID_SCHEMA,
    WEBSITE_PATTERN,
    DateInput,
    IdOrSlugList,
    NonEmptyStr,
    PositiveInt,
    PositiveIntList,
    StrOrEmpty,
    WPBool,
    ZoneInput,
    decimal,
    list_schema,
    lowercase,
    string_list,
)
from app.http.openapi import field_schemas
from app.http.pagination import PageParams
from app.http.params import Params
from app.organizers.params import OrganizerWriteParams
from app.posts.params import DeleteParams, PostFields, StatusList
from app.venues.params import VenueWriteParams

# Parameters their handlers read in several shapes (typed `Any`), with the forms documented.
CostInput = Annotated[
    Any,
    WithJsonSchema(
        {
            "anyOf": [
                {"type": ["string", "number", "null"]},
                {"type": "array", "items": {"type": ["string", "number"]}},
            ]
        }
    ),
]
TermRefs = Annotated[
    Any,
    WithJsonSchema(
        {
            "anyOf": [
                ID_SCHEMA,
                {"type": ["string", "null"]},
                {"type": "array", "items": {"anyOf": [ID_SCHEMA, {"type": "string"}]}},
            ]
        }
    ),
]


REQUIRED_ON_CREATE = ("title", "start_date", "end_date")
MAX_LINKED = 100

# A linked venue or organizer: an ID (0 or "" unlinks), an {id} object, or an inline record
# (created unless an identical one exists), documented from the kind's own write model.
LINK_ID: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": MAX_ID}
LINK_ID_TEXT: dict[str, Any] = {"type": "string", "pattern": rf"^(|0|\s*{ID_CSV}\s*)$"}
ID_TEXT: dict[str, Any] = {"type": "string", "pattern": rf"^\s*{ID_CSV}\s*$"}
REFERENCE: dict[str, Any] = {"type": "object", "properties": {"id": ID_SCHEMA}, "required": ["id"]}


def _inline(name: str, model: type[Params]) -> dict[str, Any]:
    fields, _ = field_schemas(model)
    fields.pop("i18n_language", None)
    return {"type": "object", "properties": fields, "required": [name]}


def _venue_schema() -> dict[str, Any]:
    one = [LINK_ID, LINK_ID_TEXT, REFERENCE, _inline("venue", VenueWriteParams)]
    listed = {"type": "array", "maxItems": 1, "items": {"anyOf": one}}
    return {"anyOf": [*one, {"type": "null"}, listed]}


def _organizer_schema() -> dict[str, Any]:
    record = _inline("organizer", OrganizerWriteParams)
    many = {
        "type": "array",
        "maxItems": MAX_LINKED,
        "items": {"anyOf": [ID_SCHEMA, ID_TEXT, REFERENCE, record]},
    }
    csv = {"type": "string", "pattern": rf"^ *{ID_CSV}( *, *{ID_CSV})* *$"}
    return {"anyOf": [LINK_ID, LINK_ID_TEXT, REFERENCE, record, csv, {"type": "null"}, many]}


LinkedVenue = Annotated[Any, WithJsonSchema(_venue_schema())]
LinkedOrganizers = Annotated[Any, WithJsonSchema(_organizer_schema())]


def _lines(value: Any) -> Any:
    """A list of lines, or one text of lines (a newline between them)."""
    if isinstance(value, str):
        return [line for line in value.splitlines() if line.strip()]
    return value


# The limit on the number of lines belongs to the list: on the whole (list or None) it would
# measure a null too, and fail it (null is a single event again, as [] is).
RecurrenceLines = Annotated[
    Annotated[list[Annotated[str, Field(max_length=2000)]], Field(max_length=50)] | None,
    BeforeValidator(_lines),
]
Scope = Literal["this", "following", "all"]


class ScopeParams(Params):
    """Which dates of a series a write or delete on one of its dates changes."""

    scope: Annotated[Scope, BeforeValidator(lowercase)] | None = None


class EventDeleteParams(DeleteParams):
    scope: Annotated[Scope, BeforeValidator(lowercase)] | None = Field(
        None,
        description="On a date of a series: cancel this date (the default), end the series "
        "before it, or trash the whole series (the default on the series' own ID)",
    )


class EventWriteParams(PostFields):
    """Fields of an event create or update (docs/design.md#events); all optional on update."""

    title: Annotated[NonEmptyStr, Field(max_length=500)] | None = Field(
        None, description="Event title"
    )
    description: StrOrEmpty | None = Field(None, description="Event description (HTML allowed)")
    excerpt: StrOrEmpty | None = Field(None, description="Event excerpt")
    start_date: DateInput = Field(None, description="Start date and time")
    end_date: DateInput = Field(None, description="End date and time")
    timezone: ZoneInput | None = Field(None, description="IANA time zone or UTC±H[:MM]")
    all_day: WPBool | None = Field(None, description="All-day event")
    cost: CostInput = Field(None, description="Cost: a string or an array of strings")
    website: StrOrEmpty | None = Field(
        None, description="Event website URL", json_schema_extra={"pattern": WEBSITE_PATTERN}
    )
    show_map: WPBool | None = Field(None, description="Show a map")
    show_map_link: WPBool | None = Field(None, description="Show a map link")
    hide_from_listings: WPBool | None = Field(None, description="Hide from event lists")
    sticky: WPBool | None = Field(None, description="Sticky in calendar views")
    featured: WPBool | None = Field(None, description="Featured event")
    categories: TermRefs = Field(None, description="Category IDs, slugs or names")
    tags: TermRefs = Field(None, description="Tag IDs, slugs or names")
    venue: LinkedVenue = Field(None, description="Venue ID, {id} object or an inline venue")
    organizer: LinkedOrganizers = Field(
        None, description="Organizer IDs, {id} objects or inline organizers"
    )
    scope: Annotated[Scope, BeforeValidator(lowercase)] | None = Field(
        None,
        description="An update of a date of a series changes this date only (the default), "
        "this and the following ones, or all of them (the default on the series' own ID)",
    )
    recurrence: RecurrenceLines = Field(
        None,
        description="RFC 5545 lines (RRULE, RDATE, EXDATE) making the event a series; "
        "[] or null: a single event again",
    )


OrderBy = Literal["start_date", "end_date", "title", "date", "modified", "id", "distance"]

# The cost filter's amounts: a number of the site's currency, from 0 (free) to this.
MAX_AMOUNT = 10**12


def _amount(value: Any) -> Any:
    """A price bound: a number (or its text, a decimal point) from 0 to MAX_AMOUNT."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise PydanticCustomError("not_a_number", "not a number")
    try:
        amount = Decimal(value.strip() if isinstance(value, str) else str(value))
    except InvalidOperation:
        raise PydanticCustomError("not_a_number", "not a number") from None
    if not amount.is_finite():
        raise PydanticCustomError("not_a_number", "not a number")
    if amount < 0:
        raise PydanticCustomError("at_least", "too small", {"min": 0})
    if amount > MAX_AMOUNT:
        raise PydanticCustomError("at_most", "too large", {"max": MAX_AMOUNT})
    return amount


def _weekdays(value: Any) -> Any:
    """Days of the week, ISO numbers (Monday 1): a list or a comma list, each once, in order."""
    items = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    days: set[int] = set()
    for item in string_list([str(i) if isinstance(i, int) else i for i in _as_list(items)]):
        day = decimal(item)
        if day not in WEEKDAYS:
            raise PydanticCustomError("not_weekdays", "not days of the week")
        days.add(day)
    return sorted(days)


def _as_list(value: Any) -> Any:
    return value if isinstance(value, list) else [value]


def _times_of_day(value: Any) -> Any:
    """Parts of the day by name (any letter case), each once, in the day's order."""
    words = {str(word).strip().lower() for word in string_list(value)}
    unknown = words - set(TIMES_OF_DAY)
    if unknown:
        raise PydanticCustomError("not_one_of", "not a time of day", {"choices": CHOICES})
    return [part for part in TIMES_OF_DAY if part in words]


CHOICES = ", ".join(TIMES_OF_DAY)
Amount = Annotated[
    Decimal,
    BeforeValidator(_amount),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "number", "minimum": 0, "maximum": MAX_AMOUNT},
                {"type": "string", "pattern": r"^\s*[0-9]{1,13}(\.[0-9]+)?\s*$"},
            ]
        }
    ),
]
WeekdayList = Annotated[
    list[int],
    BeforeValidator(_weekdays),
    WithJsonSchema(list_schema({"type": "integer", "minimum": 1, "maximum": 7}, "[1-7]")),
]
TimeOfDayList = Annotated[
    list[TimeOfDay],
    BeforeValidator(_times_of_day),
    WithJsonSchema(
        list_schema({"type": "string", "enum": list(TIMES_OF_DAY)}, f"({'|'.join(TIMES_OF_DAY)})")
    ),
]


class EventFilterParams(Params):
    """What selects the events of a list: shared by the JSON list and the calendar feed."""

    start_date: DateInput = Field(
        None, description="Events that start on or after this date (default: 00:00 yesterday)"
    )
    end_date: DateInput = Field(
        None,
        description="Events that end on or before this date (default: 23:59:59 two years ahead)",
    )
    starts_before: DateInput = Field(None, description="Events that start before this date")
    starts_after: DateInput = Field(None, description="Events that start after this date")
    ends_before: DateInput = Field(None, description="Events that end before this date")
    ends_after: DateInput = Field(None, description="Events that end after this date")
    strict_dates: NonEmptyStr | None = Field(
        None, description="true: use the given times exactly instead of whole days"
    )
    search: NonEmptyStr | None = Field(
        None, description="Every word occurs in the title, description or excerpt"
    )
    categories: IdOrSlugList | None = Field(
        None, description="Category IDs or slugs (any of them; children included)"
    )
    tags: IdOrSlugList | None = Field(None, description="Tag IDs or slugs (any of them)")
    venue: PositiveIntList | None = Field(None, description="Venue IDs (any of them)")
    organizer: PositiveIntList | None = Field(None, description="Organizer IDs (any of them)")
    featured: WPBool | None = Field(
        None, description="Only featured (true) or only other (false) events"
    )
    status: StatusList | None = Field(None, description="Post statuses")
    geoloc: WPBool | None = Field(
        None,
        description="true: only events whose venue has coordinates; false: only the others",
    )
    geoloc_lat: Latitude | None = latitude_field("events whose venue is")
    geoloc_lng: Longitude | None = longitude_field("events whose venue is")
    geoloc_radius: Kilometres | None = radius_field()
    near: Place | None = place_field("events whose venue is")
    include: PositiveIntList | None = Field(
        None, description="Only these event IDs; date filters are ignored"
    )
    post_parent: PositiveInt | None = Field(
        None, description="Children of this event, or the dates of this series"
    )
    hide_subsequent_recurrences: WPBool | None = Field(
        None, description="true: only the first date of each series in the window"
    )
    ticketed: WPBool | None = Field(
        None,
        description="true: only events with a ticket (on sale or not); false: only the others",
    )
    cost_min: Amount | None = Field(
        None,
        description="Events with an amount (a number of their cost; free is 0) of at least "
        "this, in the site's currency",
    )
    cost_max: Amount | None = Field(
        None,
        description="Events with an amount of at most this, in the site's currency; 0: free "
        "events (a cost of 0 or Free; an event without a cost has no amount)",
    )
    weekday: WeekdayList | None = Field(
        None, description="Days of the week of the local start (any of them): 1 Monday to 7 Sunday"
    )
    time_of_day: TimeOfDayList | None = Field(
        None,
        description="Parts of the day of the local start (any of them): morning 05-12, "
        "afternoon 12-17, evening 17-21, night 21-05; all_day: all-day events (in none of "
        "the others)",
    )
    orderby: Annotated[OrderBy, BeforeValidator(lowercase)] | None = Field(
        None, description="Sort key (extension); distance: nearest first, with a point or place"
    )
    order: Annotated[Literal["asc", "desc"], BeforeValidator(lowercase)] | None = Field(
        None, description="Sort direction (extension)"
    )
    password: str | None = Field(
        None, description="Password of protected events, to see them unredacted"
    )


class EventListParams(EventFilterParams, PageParams):
    """The JSON list: the filters, paged (`page` and `per_page` come first, as documented)."""
