"""Venues: post-like records with an address, linked to events through `events.venue_id`."""

from dataclasses import dataclass
from typing import Any

from sqlalchemy import exists, update

from app.models import Event, Venue, VenueTranslation
from app.posts.records import PostRecord
from app.posts.repository import PostRepository

ADDRESS_FIELDS = ("address", "city", "country", "province", "state", "zip", "phone")
SEARCHED_FIELDS = ("address", "city", "province", "state", "stateprovince", "zip", "phone")


@dataclass(slots=True)
class VenueRecord(PostRecord):
    address: str
    city: str
    country: str
    province: str
    state: str
    zip: str
    phone: str
    website: str
    stateprovince: str
    show_map: bool
    show_map_link: bool
    # Not in the venue object (the reference has none): the calendar feeds' GEO.
    geo_lat: float | None
    geo_lng: float | None


OWN_FIELDS = (
    *ADDRESS_FIELDS, "website", "stateprovince", "show_map", "show_map_link", "geo_lat", "geo_lng",
)  # fmt: skip


class VenueRepository(PostRepository[VenueRecord]):
    model = Venue
    translation = VenueTranslation
    owner = "venue_id"
    record_type = VenueRecord
    matched_fields = frozenset(
        {"name", "description", "excerpt", "address", "city", "province", "state"}
        | {"stateprovince", "zip", "phone"}
    )

    def own_columns(self) -> list[Any]:
        return [getattr(Venue, name) for name in OWN_FIELDS]

    def search_columns(self) -> list[Any]:
        return [getattr(Venue, name) for name in SEARCHED_FIELDS]

    def linked_events(self, *conditions: Any) -> Any:
        return exists().where(Event.venue_id == Venue.id, *conditions)

    async def unlink(self, record_id: int) -> None:
        await self.session.execute(
            update(Event).where(Event.venue_id == record_id).values(venue_id=None)
        )
