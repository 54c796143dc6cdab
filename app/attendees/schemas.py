"""Attendee bodies, for the OpenAPI document."""

from typing import Literal

from pydantic import Field

from app.http.schemas import ListLinks, Schema


class Attendee(Schema):
    id: int
    event: int = Field(description="The event as the list names it (a date of a series: its ID)")
    ticket: int
    name: str
    email: str
    quantity: int = Field(description="Places")
    status: Literal["going", "not_going", "waitlisted", "cancelled"]
    language: str = Field(description="The attendee's language (en, de, sk): their mail's")
    checked_in_at: str | None = Field(description="Site time, Y-m-d H:i:s; null: not yet")
    checked_in_at_utc: str | None
    created: str = Field(description="When they answered, site time, Y-m-d H:i:s")
    created_utc: str
    modified: str
    modified_utc: str


class AttendeeTotals(Schema):
    """Places (sums of quantities) of the list's event or ticket, whatever the status or
    search asked for."""

    going: int
    not_going: int
    waitlisted: int
    cancelled: int
    checked_in: int = Field(description="Places of the going attendees checked in")


class AttendeeList(ListLinks):
    attendees: list[Attendee]
    total: int
    total_pages: int
    totals: AttendeeTotals


class MessageQueued(Schema):
    event: int
    queued: int = Field(description="Messages queued: one per going or waitlisted attendee")
