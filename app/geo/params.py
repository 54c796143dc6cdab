"""The parameters of a search near a point, as the event list and the venue list read them
(docs/design.md#events-near-a-place): their value types, their model and the point they
make."""

from typing import Annotated, Any

from annotated_types import Ge, Le
from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from app.core.database.engine import Session
from app.core.errors import Problems, note
from app.core.geocoding.geocoder import Geocoder
from app.core.rules.geography import Point
from app.geo.distance import Near
from app.geo.service import PLACE_MAX_LENGTH, locate_place
from app.http.coercion import NonEmptyStr
from app.http.params import Params


def _float(value: Any) -> Any:
    try:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise ValueError(value)
        return float(value)
    except ValueError:
        raise PydanticCustomError("not_a_number", "not a number") from None


Coordinate = Annotated[float, BeforeValidator(_float)]
# Coordinates within their degrees (a 400 names a value outside, or NaN).
Latitude = Annotated[
    Coordinate, Ge(-90), Le(90), WithJsonSchema({"type": "number", "minimum": -90, "maximum": 90})
]
Longitude = Annotated[
    Coordinate,
    Ge(-180),
    Le(180),
    WithJsonSchema({"type": "number", "minimum": -180, "maximum": 180}),
]
# Its bounds are settings (GEOFENCE_MAX_RADIUS): the list's service checks them.
Kilometres = Annotated[Coordinate, WithJsonSchema({"type": "number", "exclusiveMinimum": 0})]

Place = Annotated[NonEmptyStr, Field(max_length=PLACE_MAX_LENGTH)]

# Each coordinate of a point asks for the other.
PAIRED = {"geoloc_lat": "geoloc_lng", "geoloc_lng": "geoloc_lat"}
RADIUS = "geoloc_radius"
RADIUS_TEXT = "Radius around the point or place in km, over 0 and at most GEOFENCE_MAX_RADIUS (default: GEOFENCE_RADIUS)"  # fmt: skip


def radius_field() -> Any:
    return Field(None, description=RADIUS_TEXT)


def latitude_field(what: str) -> Any:
    return Field(None, description=f"Latitude of a point (with geoloc_lng): {what} near it")


def longitude_field(what: str) -> Any:
    return Field(None, description=f"Longitude of a point (with geoloc_lat): {what} near it")


def place_field(what: str) -> Any:
    return Field(
        None,
        description=f"A place's name (a city, an address), located as venues are: {what} near "
        "it (not with geoloc_lat/geoloc_lng)",
    )


class PointParams(Params):
    """A point and a radius: the venues near it."""

    geoloc_lat: Latitude | None = latitude_field("venues")
    geoloc_lng: Longitude | None = longitude_field("venues")
    geoloc_radius: Kilometres | None = radius_field()
    near: Place | None = place_field("venues")


def read_near(params: Any, radius: float, problems: Problems) -> Near | None:
    """The circle of `geoloc_lat`, `geoloc_lng` and `geoloc_radius` (else `radius`, the
    default) of a parameter model that has them: both coordinates or neither (the one
    missing is named)."""
    given = {name: value for name in PAIRED if (value := getattr(params, name)) is not None}
    for name in PAIRED:
        if name not in given and PAIRED[name] in given:  # (an unreadable one stays named)
            problems.add(name, note("coordinate_pair", name=name, other=PAIRED[name]))
    if len(given) < len(PAIRED):
        return None
    asked = params.geoloc_radius
    centre = Point(given["geoloc_lat"], given["geoloc_lng"])
    return Near(centre, radius if asked is None else asked)


def check_radius(near: Near | None, max_radius: float, problems: Problems) -> None:
    """A radius over 0 and at most `max_radius` km (NaN is neither)."""
    if near is not None and not 0 < near.radius_km <= max_radius:
        problems.add(RADIUS, note("radius_range", name=RADIUS, max=f"{max_radius:g}"))


async def place_near(
    params: Any, radius: float, problems: Problems, session: Session, geocoder: Geocoder | None
) -> Near | None:
    """The circle around the place named by `near` (the gazetteer's city, or the geocoding
    service's address: app/geo/service.py), with the radius asked (else `radius`); None when
    `near` is not given or is refused: with a point too, or a place nobody could find."""
    place: str | None = params.near
    if place is None:
        return None
    if any(getattr(params, name) is not None for name in PAIRED):
        problems.add("near", note("near_with_point"))
        return None
    fix = await locate_place(session, geocoder, place)
    if fix is None:
        problems.add("near", note("place_not_found", name="near", place=place))
        return None
    asked = params.geoloc_radius
    return Near(fix.point, radius if asked is None else asked)
