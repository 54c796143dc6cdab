"""Venues: post-like records with an address, linked to events through `events.venue_id`."""

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, and_, bindparam, exists, func, literal_column, or_, update

from app.geo.distance import EARTH_RADIUS_KM, EDGE_KM, Near
from app.geo.places import Precision
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
    # In the venue object only when set (docs/design.md#places); the calendar feeds' GEO.
    geo_lat: float | None
    geo_lng: float | None
    geo_precision: Precision | None


OWN_FIELDS = (
    *ADDRESS_FIELDS, "website", "stateprovince", "show_map", "show_map_link", "geo_lat", "geo_lng",
    "geo_precision",
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


# ---- places: venues near a point (docs/design.md#events-near-a-place) --------------------------------
# In SQL, as bound parameters (`near_values`): the embedded server has no PostGIS nor
# earthdistance. Two longitude ranges always (the second empty unless the circle crosses
# the antimeridian), so that one statement serves every point.
LNG_RANGES = 2
EMPTY_RANGE = (1.0, 0.0)  # low > high: holds nothing


def located(venue: Any = Venue) -> Any:
    """The venue has a point a list may use: coordinates, and no password (a protected
    venue's place is redacted, and a distance from it would tell it)."""
    unprotected = or_(venue.password.is_(None), venue.password == "")
    return and_(venue.geo_lat.is_not(None), unprotected)


def distance_from_point(venue: Any = Venue) -> Any:
    """The venue's great-circle distance in km from the bound point (`near_lat`,
    `near_lng`): the haversine formula, as app/geo/distance.py computes it."""
    lat, lng = (bindparam(name, type_=Float) for name in ("near_lat", "near_lng"))

    def half_sine_squared(delta: Any) -> Any:
        return func.power(func.sin(func.radians(delta) / 2), 2)

    across = func.cos(func.radians(lat)) * func.cos(func.radians(venue.geo_lat))
    h = half_sine_squared(venue.geo_lat - lat) + across * half_sine_squared(venue.geo_lng - lng)
    radius = literal_column(repr(EARTH_RADIUS_KM), Float)
    return 2 * radius * func.asin(func.least(1.0, func.sqrt(h)))


def near_point(venue: Any = Venue) -> Any:
    """The venue is within the bound radius (`near_radius`) of the bound point: its bounding
    box first, which the partial index venues_geo on (geo_lat, geo_lng) finds, then the
    exact distance."""
    lat = venue.geo_lat.between(bindparam("near_lat_min"), bindparam("near_lat_max"))
    lngs = [
        venue.geo_lng.between(bindparam(f"near_lng_min_{i}"), bindparam(f"near_lng_max_{i}"))
        for i in range(LNG_RANGES)
    ]
    within = distance_from_point(venue) <= bindparam("near_radius", type_=Float)
    return and_(located(venue), lat, or_(*lngs), within)


def near_values(near: Near) -> dict[str, float]:
    """The bound values of `near_point` and `distance_from_point`."""
    box = near.box()
    ranges = [*box.lng_ranges, *[EMPTY_RANGE] * (LNG_RANGES - len(box.lng_ranges))]
    values = {
        "near_lat": near.centre.lat,
        "near_lng": near.centre.lng,
        "near_radius": near.radius_km + EDGE_KM,
        "near_lat_min": box.lat_min,
        "near_lat_max": box.lat_max,
    }
    for i, (low, high) in enumerate(ranges):
        values[f"near_lng_min_{i}"], values[f"near_lng_max_{i}"] = low, high
    return values
