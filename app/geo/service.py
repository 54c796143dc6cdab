"""Where a place is: what the venues' writes and the searches near a place call.

The embedded gazetteer (app/geo/gazetteer.py) knows cities; the geocoding service
(app/core/geocoding/geocoder.py), where one is configured, knows addresses. Its answers are kept in
`geocode_cache` (app/geo/repository.py) per normalised query: a place is asked once, and a
"not found" again after NOT_FOUND_KEPT, a found place after FOUND_KEPT
(docs/design.md#places).
"""

import time
from datetime import timedelta

from app.core.database.engine import Session
from app.core.geocoding.geocoder import Geocoder, GeocoderUnavailable
from app.core.rules.geography import Fix, Point, Precision
from app.geo import gazetteer
from app.geo.repository import Freshness, GeocodeCache

# A place typed by a visitor (`near=`): the door refuses longer text with a 400.
PLACE_MAX_LENGTH = 200
# A query longer than this is not sent (an address is far shorter; the cache's key stays
# within what its index takes).
QUERY_MAX_LENGTH = 500
# A "not found" is asked again after a week: the place may have been mapped since. A found
# place for a year: a venue keeps its own point, and the table stays the size of a year's
# questions (at most one a second per process).
NOT_FOUND_KEPT = timedelta(days=7)
FOUND_KEPT = timedelta(days=365)
KEPT = Freshness(found=FOUND_KEPT, not_found=NOT_FOUND_KEPT)
# How often a process deletes the answers no longer fresh (after a question to the service).
PRUNE_INTERVAL = 3600.0
_next_prune = 0.0  # time.monotonic() from which this process prunes again


def normalised_query(text: str) -> str:
    """The cache's key and what is sent: trimmed, casefolded, spaces collapsed."""
    return " ".join(text.split()).casefold()


async def geocode(session: Session, geocoder: Geocoder, text: str) -> Point | None:
    """The service's point for `text`, from the cache when it was asked before; None: not
    found (or a query too long to send). Raises GeocoderUnavailable; nothing is kept then."""
    query = normalised_query(text)
    if not query or len(query) > QUERY_MAX_LENGTH:
        return None
    cache = GeocodeCache(session)
    kept = await cache.answer(query, KEPT)
    if kept is not None:
        return kept.point
    point = await geocoder.locate(query)
    await cache.keep(query, point)
    await _prune_now_and_then(cache)
    return point


async def _prune_now_and_then(cache: GeocodeCache) -> None:
    global _next_prune
    if time.monotonic() >= _next_prune:
        _next_prune = time.monotonic() + PRUNE_INTERVAL
        await cache.prune(KEPT)


async def locate_place(session: Session, geocoder: Geocoder | None, text: str) -> Fix | None:
    """A place typed by a visitor ("Bratislava", "Wien, Austria", "Hauptplatz 1, Linz").
    A city the gazetteer knows is answered at once, at city precision; anything else is the
    geocoding service's (address precision), when one is configured and answers; when it
    does not know the place or gives no answer, the gazetteer's city among the text's last
    comma-separated parts ("..., Linz"), else None."""
    if len(text) > PLACE_MAX_LENGTH or not text.strip():
        return None
    await gazetteer.ready()
    fix = gazetteer.place_fix(text)
    if fix is not None:
        return fix
    if geocoder is not None:
        try:
            point = await geocode(session, geocoder, text)
        except GeocoderUnavailable:  # the gazetteer's answer, as without a service
            point = None
        if point is not None:
            return Fix(point, "address")
    return _city_in_last_parts(text)


def _city_in_last_parts(text: str) -> Fix | None:
    parts = text.split(",")
    for start in range(1, len(parts)):
        fix = gazetteer.place_fix(",".join(parts[start:]))
        if fix is not None:
            return fix
    return None


async def locate_venue(
    session: Session,
    geocoder: Geocoder | None,
    *,
    address: str,
    city: str,
    zip: str,
    province: str,
    state: str,
    stateprovince: str,
    country: str,
) -> Fix | None:
    """A venue's point from its address. With a geocoding service: the full address
    (precision "address"; a venue with no street nor postcode is a city, precision
    "city"), and the gazetteer's city when the service does not know it; GeocoderUnavailable
    is raised to the caller, who keeps the venue to ask again (GEOCODER_RETRY_MINUTES).
    Without one: the gazetteer's city (in its country, and US state)."""
    regions = _distinct(province, state, stateprovince)
    await gazetteer.ready()
    in_city = gazetteer.address_fix(city, country, state, stateprovince)
    street_level = bool(address.strip() or zip.strip())
    if geocoder is not None and (street_level or in_city is None):
        locality = " ".join(part for part in (zip.strip(), city.strip()) if part)
        query = ", ".join(_distinct(address, locality, *regions, country))
        point = await geocode(session, geocoder, query) if query else None
        if point is not None:
            precision: Precision = "address" if street_level else "city"
            return Fix(point, precision)
    return in_city


def _distinct(*parts: str) -> list[str]:
    """The non-empty parts, each once (TEC's state, province and stateprovince often repeat
    one another)."""
    seen: set[str] = set()
    kept: list[str] = []
    for part in parts:
        trimmed = part.strip()
        if trimmed and trimmed.casefold() not in seen:
            seen.add(trimmed.casefold())
            kept.append(trimmed)
    return kept
