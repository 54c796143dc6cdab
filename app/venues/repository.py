"""Venues: post-like records with an address, linked to events through `events.venue_id`.

Their places (below the repository): which venues the geocoding service should be asked
about (claimed and stamped, so that two processes never ask for the same one and a venue the
service could not answer waits before it is asked again), the venues without coordinates
(`almanac geocode`), and the writes of what was found, which never replace coordinates a
person typed nor a place found for an address since changed."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Float, and_, bindparam, exists, func, literal_column, or_, select, update

from app.core.database.engine import Session
from app.core.rules.constants import TRASH
from app.core.rules.geography import Fix, Precision
from app.core.rules.paging import Page
from app.core.rules.permissions import User
from app.geo.distance import EARTH_RADIUS_KM, EDGE_KM, Near
from app.models import Event, Venue, VenueTranslation
from app.posts.commands import PostQuery
from app.posts.records import PostRecord
from app.posts.repository import Narrowing, PostRepository

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

    async def find_near(
        self, filters: PostQuery, near: Near, user: User, page: Page
    ) -> tuple[list[tuple[VenueRecord, float]], int]:
        """`find` among the venues within the circle, each with its distance (km)."""
        within = Narrowing((near_point(),), near_values(near), distance_from_point())
        return await self.find_with(filters, user, page, within)

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


# ---- places: the venues the geocoding service is asked about, and what it found ---------

PLACE_COLUMNS = ("address", "city", "zip", "province", "state", "stateprovince", "country")


@dataclass(frozen=True, slots=True)
class Address:
    """A venue's address as it was when it was read, to locate it by."""

    venue_id: int
    address: str
    city: str
    zip: str
    province: str
    state: str
    stateprovince: str
    country: str

    def parts(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in PLACE_COLUMNS}


def _columns() -> list[Any]:
    return [Venue.id, *(getattr(Venue, name) for name in PLACE_COLUMNS)]


def _address(row: Any) -> Address:
    return Address(*row)


# Venues the geocoding service may place better than they are: not placed, or placed from
# their city only, with a street or a postcode (or, not placed at all, a city the gazetteer
# did not know): what app/geo/service.py's locate_venue asks the service about.
GEOCODABLE = and_(
    Venue.status != TRASH,
    or_(Venue.geo_precision.is_(None), Venue.geo_precision == "city"),
    or_(
        Venue.address != "",
        Venue.zip != "",
        and_(Venue.geo_precision.is_(None), Venue.city != ""),
    ),
)


async def claim_geocodable(session: Session, limit: int, asked_before: datetime) -> list[Address]:
    """Up to `limit` venues to ask the geocoding service about (never asked, or last asked
    before `asked_before`), stamped as asked now. Locked with SKIP LOCKED: another process's
    claim in flight is left to it, and once committed its stamp keeps them out."""
    found = await session.execute(
        select(*_columns())
        .where(GEOCODABLE, or_(Venue.geocoded_at.is_(None), Venue.geocoded_at < asked_before))
        .order_by(Venue.geocoded_at.asc().nulls_first(), Venue.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    claimed = [_address(row) for row in found]
    if claimed:
        await session.execute(
            update(Venue)
            .where(Venue.id.in_([a.venue_id for a in claimed]))
            # Not a change of the venue: `modified` stays (the model would move it).
            .values(geocoded_at=func.now(), modified_at=Venue.modified_at)
        )
    return claimed


async def record_found(session: Session, address: Address, fix: Fix) -> bool:
    """Place the venue at `fix` unless a person typed its coordinates meanwhile or its
    address changed since it was read (then that write's own placing stands); whether it
    did. Not replacing a better precision: an address's place is not overwritten by a city's."""
    worse = ["city"] if fix.precision == "city" else ["city", "address"]
    same_address = [getattr(Venue, name) == value for name, value in address.parts().items()]
    lat, lng = fix.point.lat, fix.point.lng
    moves = or_(
        Venue.geo_lat.is_distinct_from(lat),
        Venue.geo_lng.is_distinct_from(lng),
        Venue.geo_precision.is_distinct_from(fix.precision),
    )
    written = await session.execute(
        update(Venue)
        .where(
            Venue.id == address.venue_id,
            or_(Venue.geo_precision.is_(None), Venue.geo_precision.in_(worse)),
            moves,  # the same place again is no change (no new data version)
            *same_address,
        )
        .values(geo_lat=lat, geo_lng=lng, geo_precision=fix.precision)
        .returning(Venue.id)
    )
    return written.first() is not None


UNPLACED_WITH_CITY = and_(Venue.geo_lat.is_(None), Venue.city != "")


async def without_coordinates(session: Session, after_id: int, limit: int) -> list[Address]:
    """The next `limit` venues (by ID, after `after_id`) that have no coordinates and a city."""
    found = await session.execute(
        select(*_columns())
        .where(Venue.id > after_id, UNPLACED_WITH_CITY)
        .order_by(Venue.id)
        .limit(limit)
    )
    return [_address(row) for row in found]


async def count_without_coordinates(session: Session) -> int:
    """Venues that have no coordinates and a city (the gazetteer's pass goes through them)."""
    return int(await session.scalar(select(func.count()).where(UNPLACED_WITH_CITY)) or 0)


async def count_unplaced(session: Session) -> int:
    """Venues (not trashed) without coordinates."""
    counted = await session.scalar(
        select(func.count()).where(Venue.geo_lat.is_(None), Venue.status != TRASH)
    )
    return int(counted or 0)


async def count_geocodable(session: Session, asked_before: datetime | None = None) -> int:
    """Venues the geocoding service could still place better (never asked, or last asked
    before `asked_before`; asked or not without it)."""
    conditions = [GEOCODABLE]
    if asked_before is not None:
        conditions.append(or_(Venue.geocoded_at.is_(None), Venue.geocoded_at < asked_before))
    return int(await session.scalar(select(func.count()).where(*conditions)) or 0)
