"""Venues: `/venues`, `/venues/{id}`, `/venues/by-slug/{slug}` (interface §4.5)."""

from typing import ClassVar

from pydantic import Field

from app.posts.router import (
    Address,
    Flag,
    Name,
    Phone,
    PostKind,
    PostWriteParams,
    Region,
    Website,
    Zip,
    post_router,
)
from app.posts.schemas import Venue, VenueList
from app.venues.repository import VenueRepository
from app.venues.serializer import venue_body


class VenueWriteParams(PostWriteParams):
    NAME: ClassVar[str] = "venue"

    venue: Name = Field("", description="Venue name (required on create)")
    address: Address = Field("", description="Street address")
    city: Region = Field("", description="City")
    country: Region = Field("", description="Country")
    province: Region = Field("", description="Province")
    state: Region = Field("", description="State")
    zip: Zip = Field("", description="Postal code")
    phone: Phone = Field("", description="Phone number")
    stateprovince: Region = Field("", description="State or province")
    website: Website = Field("", description="Website URL (empty clears)")
    show_map: Flag = Field(False, description="Whether linked events show a map")
    show_map_link: Flag = Field(False, description="Whether linked events show a map link")


VENUES = PostKind(
    name="venue",
    plural="venues",
    repository=VenueRepository,
    write_params=VenueWriteParams,
    body=venue_body,
    schema=Venue,
    list_schema=VenueList,
)

router = post_router(VENUES)
