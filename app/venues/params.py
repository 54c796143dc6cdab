"""What a venue write accepts (docs/design.md#records, docs/design.md#places)."""

import math
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from app.geo.params import PointParams
from app.posts.params import (
    Address,
    Flag,
    Name,
    Phone,
    PostListParams,
    PostWriteParams,
    Region,
    Website,
    Zip,
)

LATITUDE_BOUND = 90
LONGITUDE_BOUND = 180


def _coordinate(bound: int) -> Any:
    """A reader of degrees within ±`bound`: a number or a numeric string; empty or null
    clears (None)."""

    def read(value: Any) -> float | None:
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        number = _number(value)
        if not math.isfinite(number):
            raise PydanticCustomError("not_finite", "not a finite number")
        if not -bound <= number <= bound:
            raise PydanticCustomError("between", "out of range", {"min": -bound, "max": bound})
        return number

    return read


def _number(value: Any) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:  # an integer beyond any float
            return math.inf
    # Python's float() also reads "1_000"; numbers are written without separators.
    if isinstance(value, str) and "_" not in value:
        try:
            return float(value.strip())
        except ValueError:
            pass
    raise PydanticCustomError("not_a_number", "not a number")


def _coordinate_schema(bound: int) -> dict[str, Any]:
    return {
        "anyOf": [
            {"type": "number", "format": "double", "minimum": -bound, "maximum": bound},
            {"type": "string", "description": "a number, or empty to clear"},
            {"type": "null"},
        ]
    }


Latitude = Annotated[
    float | None,
    BeforeValidator(_coordinate(LATITUDE_BOUND)),
    WithJsonSchema(_coordinate_schema(LATITUDE_BOUND)),
]
Longitude = Annotated[
    float | None,
    BeforeValidator(_coordinate(LONGITUDE_BOUND)),
    WithJsonSchema(_coordinate_schema(LONGITUDE_BOUND)),
]


class VenueWriteParams(PostWriteParams):
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
    geo_lat: Latitude = Field(
        None,
        description="Latitude in degrees, -90 to 90 (with geo_lng: both or neither); typed "
        "coordinates are `exact` and no address change replaces them; empty or null (both) "
        "clears them, and the venue is located again from its address",
    )
    geo_lng: Longitude = Field(
        None, description="Longitude in degrees, -180 to 180 (with geo_lat: both or neither)"
    )


class VenueListParams(PostListParams, PointParams):
    """The venue list: the lists' filters, and a point (docs/design.md#events-near-a-place)."""
