"""Where a venue write puts the venue (docs/design.md#places): coordinates typed by a person
are `exact` and stay until a person changes or clears them; otherwise a venue that is new,
moved (a part of its address changed) or cleared is placed at once from its city by the
gazetteer (`city`), and its full address is left to the geocoding service after the commit
(`geocoded_at` NULL: app/venues/geocoding.py picks it up)."""

import math
from collections.abc import Mapping
from typing import Any

from app.core.errors import Problems, note
from app.core.rules.geography import Fix
from app.geo import gazetteer
from app.geo.gazetteer import address_fix, place_fix
from app.venues.repository import PLACE_COLUMNS, VenueRecord

COORDINATES = ("geo_lat", "geo_lng")
# What the geocoding service reads of a venue: a change of any of them moves the venue.
PLACE_FIELDS = PLACE_COLUMNS
# A session's info key: a write of this transaction left a venue to the geocoding service.
GEOCODING_WANTED = "venues_to_geocode"


def sent_coordinates(own: dict[str, Any], problems: Problems) -> tuple[float, float] | None | bool:
    """What a write says of the coordinates, taken out of `own`: a (lat, lng) pair; None
    when both are cleared; False when it says nothing of them (or refused them: a missing
    half is named in `problems`)."""
    sent = {name: _degrees(own.pop(name)) for name in COORDINATES if name in own}
    if not sent or any(name in problems for name in COORDINATES):
        return False
    if len(sent) == 1:
        (given,) = sent
        (missing,) = set(COORDINATES) - {given}
        problems.add(missing, note("coordinate_pair", name=missing, other=given))
        return False
    lat, lng = sent["geo_lat"], sent["geo_lng"]
    if lat is None and lng is None:
        return None
    if lat is None or lng is None:  # one cleared, the other set
        missing, given = ("geo_lat", "geo_lng") if lat is None else ("geo_lng", "geo_lat")
        problems.add(missing, note("coordinate_pair", name=missing, other=given))
        return False
    return float(lat), float(lng)


def _degrees(value: Any) -> float | None:
    """A coordinate as the parameter model let it through: degrees (the API's door), a
    numeric text (the desk's form), or empty or None (cleared)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        return float(value)
    except ValueError:  # refused by the model already (named in the problems)
        return None


def place_columns(
    own: dict[str, Any], current: VenueRecord | None, problems: Problems
) -> dict[str, Any]:
    """`own` (a write's venue columns) with the coordinates, their precision and
    `geocoded_at` it calls for; the typed coordinates' refusals go to `problems`."""
    own = dict(own)
    sent = sent_coordinates(own, problems)
    if isinstance(sent, tuple) and not _unchanged(sent, current):
        lat, lng = sent
        return {
            **own,
            "geo_lat": lat,
            "geo_lng": lng,
            "geo_precision": "exact",
            "geocoded_at": None,
        }
    if isinstance(sent, tuple):  # written back as read: not typed
        sent = False
    cleared = sent is None
    if (
        current is not None
        and not cleared
        and (current.geo_precision == "exact" or not moved(own, current))
    ):
        return own  # a person's coordinates win; an unmoved venue keeps its place
    place = {name: str(own.get(name, getattr(current, name, ""))) for name in PLACE_FIELDS}
    fix = address_fix(place["city"], place["country"], place["state"], place["stateprovince"])
    return {**own, **fix_columns(fix), "geocoded_at": None}


def _unchanged(sent: tuple[float, float], current: VenueRecord | None) -> bool:
    """Are the coordinates sent those the venue has (a body read and written back)?"""
    return current is not None and sent == (current.geo_lat, current.geo_lng)


def moved(own: Mapping[str, Any], current: VenueRecord) -> bool:
    """Does the write change a part of the address the venue is located by?"""
    return any(name in own and own[name] != getattr(current, name) for name in PLACE_FIELDS)


def fix_columns(fix: Fix | None) -> dict[str, Any]:
    if fix is None:
        return {"geo_lat": None, "geo_lng": None, "geo_precision": None}
    return {"geo_lat": fix.point.lat, "geo_lng": fix.point.lng, "geo_precision": fix.precision}


def wants_geocoding(columns: Mapping[str, Any]) -> bool:
    """Do the written columns leave the venue to the geocoding service?"""
    return "geocoded_at" in columns and columns.get("geo_precision") != "exact"


def imported_place(
    own: dict[str, Any], lat: float | None, lng: float | None, current: VenueRecord | None
) -> dict[str, Any]:
    """`own` (an imported venue's columns) with its place: the source's coordinates, typed
    there, are `exact` (a pair out of range or not finite is no place); without them the
    venue is placed as a write of its address would place it (`current`: the venue as it
    is, None when the import creates it)."""
    if lat is not None and lng is not None and _on_earth(lat, lng):
        return {
            **own,
            "geo_lat": lat,
            "geo_lng": lng,
            "geo_precision": "exact",
            "geocoded_at": None,
        }
    return place_columns(own, current, Problems())


def _on_earth(lat: float, lng: float) -> bool:
    return math.isfinite(lat) and math.isfinite(lng) and abs(lat) <= 90 and abs(lng) <= 180


async def suggested_fix(venue: VenueRecord) -> Fix | None:
    """Where the gazetteer would put a venue that has no coordinates (one placed before
    venues were, or in a city it knows under another country's name): its city within its
    country, else the city as typed ("Wien", "Springfield, IL")."""
    if venue.geo_lat is not None or not venue.city.strip():
        return None
    await gazetteer.ready()
    city = address_fix(venue.city, venue.country, venue.state, venue.stateprovince)
    return city or place_fix(venue.city)
