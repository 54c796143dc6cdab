"""Parameters of the ticket routes (they also write the OpenAPI document)."""

import re
from datetime import date
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from app.http.coercion import DateInput, NonEmptyStr, PositiveInt, WPBool, lenient_int
from app.http.pagination import PageParams
from app.http.params import Params

MAX_NAME = 200
MAX_DESCRIPTION = 10_000
MAX_PLACES = 1_000_000  # a capacity or a party beyond any room
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _day(value: Any) -> Any:
    """A local day, YYYY-MM-DD."""
    if isinstance(value, str) and DAY.match(value.strip()):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise PydanticCustomError("bad_day", "not a day")


def _email(value: Any) -> Any:
    if isinstance(value, str) and EMAIL.match(value.strip()):
        return value.strip()
    raise PydanticCustomError("bad_email", "not an email address")


# The bounds written into the document by hand too: behind a BeforeValidator, the Field's
# constraints would reach /doc as Pydantic's own keys (`ge`, `le`), which OpenAPI lacks.
Places = Annotated[
    int,
    BeforeValidator(lenient_int),
    Field(ge=0, le=MAX_PLACES),
    WithJsonSchema({"type": "integer", "minimum": 0, "maximum": MAX_PLACES}),
]
Party = Annotated[
    int,
    BeforeValidator(lenient_int),
    Field(ge=1, le=MAX_PLACES),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_PLACES}),
]
Day = Annotated[date, BeforeValidator(_day), WithJsonSchema({"type": "string", "format": "date"})]
Email = Annotated[
    str,
    BeforeValidator(_email),
    Field(max_length=254),
    WithJsonSchema({"type": "string", "format": "email", "maxLength": 254}),
]
Name = Annotated[NonEmptyStr, Field(max_length=MAX_NAME)]
Description = Annotated[str, Field(max_length=MAX_DESCRIPTION)]


class TicketListParams(PageParams):
    event: PositiveInt | None = Field(None, description="Only the tickets of this event (ID)")
    on_sale: WPBool | None = Field(None, description="true: on sale now; false: not on sale")
    password: str | None = Field(None, description="The password of a protected `event`")


class TicketUpdateParams(Params):
    name: Name | None = Field(None, description="The ticket's name")
    description: Description | None = Field(None, description="What it gives (plain text)")
    capacity: Places | None = Field(None, description="Places; absent or null: unlimited")
    max_per_person: Party | None = Field(
        None, description="The most places one person (email address) may hold"
    )
    sale_starts: DateInput | None = Field(
        None, description="When the sale opens (site's zone); null: from its creation"
    )
    sale_ends: DateInput | None = Field(
        None,
        description="When the sale closes (site's zone); null: when the event (or date) "
        "starts, never later",
    )
    waitlist: WPBool | None = Field(None, description="A waitlist once sold out")


class TicketCreateParams(TicketUpdateParams):
    event: PositiveInt = Field(
        description="The event (an ID as the list shows it: a later date of a series means "
        "that date)"
    )
    date: Day | None = Field(
        None, description="One date of a series: the date starting on this local day"
    )
    name: Name = Field(description="The ticket's name")
    max_per_person: Party = Field(
        10, description="The most places one person (email address) may hold"
    )
    waitlist: WPBool = Field(False, description="A waitlist once sold out")


class RsvpParams(Params):
    name: Name = Field(description="Who answers")
    email: Email = Field(description="Where the confirmation goes")
    quantity: Party = Field(1, description="Places (at most the ticket's max_per_person)")
    going: WPBool = Field(True, description="false: not going")
    password: str | None = Field(None, description="The password of a protected event")


class TicketReadParams(Params):
    password: str | None = Field(None, description="The password of a protected event")
