"""Parameters of the attendee routes (they also write the OpenAPI document)."""

from typing import Annotated, Literal

from pydantic import Field

from app.http.coercion import NonEmptyStr, PositiveInt
from app.http.pagination import PageParams
from app.http.params import Params

MAX_SEARCH = 200
MAX_SUBJECT = 200
MAX_BODY = 20_000


class AttendeeListParams(PageParams):
    event: PositiveInt | None = Field(
        None, description="Only the attendees of this event ID (a date of a series: its own ID)"
    )
    ticket: PositiveInt | None = Field(None, description="Only the attendees of this ticket ID")
    status: Literal["going", "not_going", "waitlisted", "cancelled", "checked_in"] | None = Field(
        None, description="Only attendees in this status (checked_in: going and checked in)"
    )
    search: Annotated[NonEmptyStr, Field(max_length=MAX_SEARCH)] | None = Field(
        None, description="Only attendees whose name or email address contains this"
    )


class AttendeeCsvParams(Params):
    event: PositiveInt | None = Field(
        None,
        description="The event ID whose attendees to export (default: every attendee the "
        "caller may see: an author, those of their own events)",
    )


class MessageParams(Params):
    event: PositiveInt = Field(description="The event ID whose attendees to write to")
    subject: Annotated[NonEmptyStr, Field(max_length=MAX_SUBJECT)] = Field(
        description="The message's subject"
    )
    body: Annotated[NonEmptyStr, Field(max_length=MAX_BODY)] = Field(
        description="The message, plain text"
    )


class CheckInParams(Params):
    """A check-in takes no parameters: the attendee is in the path (a body is ignored)."""
