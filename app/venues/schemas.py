from typing import Annotated

from pydantic import Field, WithJsonSchema

from app.core.rules.geography import Precision
from app.http.schemas import ListLinks
from app.posts.schemas import Flag, Name, PostHead

# Absent rather than null when a venue has no coordinates.
Degrees = Annotated[float | None, WithJsonSchema({"type": "number", "format": "double"})]


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
    geo_lat: Degrees = Field(
        None,
        description="Latitude (WGS 84 degrees), only when the venue has coordinates; 0 when "
        "a password hides the venue",
    )
    geo_lng: Degrees = Field(
        None,
        description="Longitude (WGS 84 degrees), only when the venue has coordinates; 0 when "
        "a password hides the venue",
    )
    geo_precision: Precision | None = Field(
        None,
        description="How the coordinates were found: exact (typed by a person or imported), "
        "address (the geocoding service), city (the gazetteer); absent when hidden",
    )
    show_map: Flag
    show_map_link: Flag


class VenueList(ListLinks):
    venues: list[Venue]
