"""Ticket bodies, for the OpenAPI document."""

from typing import Literal

from pydantic import Field

from app.http.schemas import ListLinks, Schema


class Ticket(Schema):
    id: int
    event: int = Field(description="The event as clients name it (the date's ID when dated)")
    name: str
    description: str
    capacity: int | None = Field(description="null: unlimited")
    available: int | None = Field(description="Places left; null: unlimited")
    taken: int = Field(description="Places held by going attendees")
    max_per_person: int
    sale_starts: str | None = Field(description="Y-m-d H:i:s, site's zone; null: on sale")
    sale_starts_utc: str | None
    sale_ends: str = Field(description="The sale's close: its own, never after the start")
    sale_ends_utc: str
    on_sale: bool
    waitlist: bool
    price: float = Field(description="0: tickets are free")
    currency: str
    date: str | None = Field(description="Y-m-d of a ticket of one date of a series")
    rest_url: str


class TicketList(ListLinks):
    tickets: list[Ticket]
    total: int
    total_pages: int


class TicketDeleted(Schema):
    deleted: bool
    previous: Ticket


class RsvpAnswer(Schema):
    id: int = Field(description="The attendee's ID")
    event: int
    ticket: int
    status: Literal["going", "not_going", "waitlisted", "cancelled"]
    quantity: int
    manage_url: str = Field(description="The signed page to change or cancel the answer")
