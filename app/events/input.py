"""Event payloads: validation and the column values they stand for (dates, zones, cost)."""

from dataclasses import dataclass
from datetime import UTC, datetime, time, tzinfo
from typing import Annotated, Any
from urllib.parse import urlsplit

from pydantic import BeforeValidator, Field, WithJsonSchema

from app.core.dates import ZoneError, parse_when, parse_zone, zone_abbreviation
from app.core.errors import InvalidParams
from app.core.permissions import STATUSES
from app.core.settings import Settings
from app.events.cost import parse_cost
from app.http.params import (
    STATUS_SCHEMA,
    WEBSITE_PATTERN,
    NonEmptyStr,
    Params,
    PositiveInt,
    StrOrEmpty,
    WPBool,
    check,
)

END_OF_DAY = time(23, 59, 59)


def _status(value: Any) -> Any:
    if isinstance(value, str) and value.strip().lower() in STATUSES:
        return value.strip().lower()
    raise ValueError("unknown status")


Status = Annotated[str, BeforeValidator(_status), WithJsonSchema(STATUS_SCHEMA)]


class EventWriteParams(Params):
    """Fields of an event create or update (interface §2.1); all optional on update."""

    title: Annotated[NonEmptyStr, Field(max_length=500)] | None = Field(
        None, description="Event title"
    )
    description: StrOrEmpty | None = Field(None, description="Event description (HTML allowed)")
    excerpt: StrOrEmpty | None = Field(None, description="Event excerpt")
    slug: Annotated[NonEmptyStr, Field(max_length=200)] | None = Field(
        None, description="Event slug"
    )
    status: Status | None = Field(None, description="Post status")
    author: PositiveInt | None = Field(None, description="Author user ID")
    date: Any = Field(
        None, description="Publication date (site time zone unless an offset is given)"
    )
    date_utc: Any = Field(None, description="Publication date in UTC")
    start_date: Any = Field(None, description="Start date and time")
    end_date: Any = Field(None, description="End date and time")
    timezone: StrOrEmpty | None = Field(None, description="IANA time zone or UTC±H[:MM]")
    all_day: WPBool | None = Field(None, description="All-day event")
    image: Any = Field(None, description="Featured image ID or URL")
    cost: Any = Field(None, description="Cost: a string or an array of strings")
    website: StrOrEmpty | None = Field(
        None, description="Event website URL", json_schema_extra={"pattern": WEBSITE_PATTERN}
    )
    show_map: WPBool | None = Field(None, description="Show a map")
    show_map_link: WPBool | None = Field(None, description="Show a map link")
    hide_from_listings: WPBool | None = Field(None, description="Hide from event lists")
    sticky: WPBool | None = Field(None, description="Sticky in calendar views")
    featured: WPBool | None = Field(None, description="Featured event")
    categories: Any = Field(None, description="Category IDs, slugs or names")
    tags: Any = Field(None, description="Tag IDs, slugs or names")
    venue: Any = Field(None, description="Venue ID, {id} object or an inline venue")
    organizer: Any = Field(None, description="Organizer IDs, {id} objects or inline organizers")
    password: Annotated[str, Field(max_length=255)] | None = Field(
        None, description="Password protecting the event (write-only; empty clears)"
    )


@dataclass(slots=True)
class Schedule:
    """When an event happens: instants, local wall times and its zone."""

    start_at: datetime
    end_at: datetime
    start_local: datetime
    end_local: datetime
    timezone: str
    timezone_abbr: str
    all_day: bool

    def columns(self) -> dict[str, Any]:
        return {
            "start_at": self.start_at,
            "end_at": self.end_at,
            "start_local": self.start_local,
            "end_local": self.end_local,
            "timezone": self.timezone,
            "timezone_abbr": self.timezone_abbr,
            "all_day": self.all_day,
        }


def _zone(name: str) -> tzinfo:
    try:
        return parse_zone(name)
    except ZoneError:
        raise InvalidParams({"timezone": ("invalid_parameter", {})}) from None


def _when(name: str, value: Any, zone: tzinfo) -> datetime:
    try:
        return parse_when(value, zone)
    except ValueError:
        raise InvalidParams({name: ("invalid_parameter", {})}) from None


def schedule(
    params: EventWriteParams, settings: Settings, current: Schedule | None = None
) -> Schedule | None:
    """The new schedule from the payload (None when nothing about it was sent).

    Dates are read in the event's time zone (the payload's, else the current one, else the
    site's); a date with an offset is converted to it. All-day events span whole days.
    """
    sent = (params.start_date, params.end_date, params.timezone, params.all_day)
    if current is not None and all(value is None for value in sent):
        return None
    zone_name = (params.timezone or "").strip() or (
        current.timezone if current else settings.site_timezone
    )
    zone = _zone(zone_name)
    start = (
        _when("start_date", params.start_date, zone).astimezone(zone).replace(tzinfo=None)
        if params.start_date is not None
        else current.start_local  # type: ignore[union-attr]
    )
    end = (
        _when("end_date", params.end_date, zone).astimezone(zone).replace(tzinfo=None)
        if params.end_date is not None
        else current.end_local  # type: ignore[union-attr]
    )
    all_day = params.all_day if params.all_day is not None else bool(current and current.all_day)
    if all_day:
        start = datetime.combine(start.date(), time.min)
        end = datetime.combine(end.date(), END_OF_DAY)
    start, end = start.replace(microsecond=0), end.replace(microsecond=0)
    check("end_date", end >= start)
    start_at = start.replace(tzinfo=zone).astimezone(UTC)
    end_at = end.replace(tzinfo=zone).astimezone(UTC)
    return Schedule(
        start_at=start_at,
        end_at=end_at,
        start_local=start,
        end_local=end,
        timezone=zone_name,
        timezone_abbr=zone_abbreviation(zone_name, zone, start_at),
        all_day=all_day,
    )


def publication_date(params: EventWriteParams, settings: Settings, zone: tzinfo) -> datetime | None:
    """`date_utc` (read as UTC) wins over `date` (read in the event's zone)."""
    if params.date_utc is not None:
        return _when("date_utc", params.date_utc, UTC)
    if params.date is not None:
        return _when("date", params.date, zone)
    return None


def valid_website(value: str) -> bool:
    if value == "":
        return True
    parts = urlsplit(value.strip())
    return parts.scheme in ("http", "https") and bool(parts.netloc) and " " not in value.strip()


def cost_columns(raw: Any) -> dict[str, Any]:
    if raw is not None and not isinstance(raw, str | int | float | list):
        raise InvalidParams({"cost": ("invalid_parameter", {})})
    if isinstance(raw, list) and not all(isinstance(v, str | int | float) for v in raw):
        raise InvalidParams({"cost": ("invalid_parameter", {})})
    cost = parse_cost(raw)
    return {"cost": cost.display, "cost_details": cost.details()}
