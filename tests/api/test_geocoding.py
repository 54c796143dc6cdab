"""The geocoding service and the places' service (app/core/geocoding/geocoder.py, app/geo/service.py)
against a real HTTP server that answers as Nominatim does (tests/fake_nominatim.py), with
the answers kept in the real PostgreSQL.
"""

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from sqlalchemy import insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.core.app_services import app_services
from app.core.geocoding.geocoder import Geocoder, GeocoderUnavailable, service_address
from app.core.rules.geography import Fix, Point
from app.core.settings import get_settings
from app.geo import service as places_service
from app.geo.repository import GeocodeCache
from app.geo.service import (
    FOUND_KEPT,
    KEPT,
    NOT_FOUND_KEPT,
    PLACE_MAX_LENGTH,
    geocode,
    locate_place,
    locate_venue,
    normalised_query,
)
from app.main import create_app
from app.models import GeocodeAnswer
from tests.fake_nominatim import FakeNominatim

USER_AGENT = "almanac-tests"
HAUPTPLATZ = "hauptplatz 1, 4020 linz"
HAUPTPLATZ_AT = (48.30591, 14.28639)
LINZ = (48.31, 14.29)  # the gazetteer's city centre, to two decimals


@pytest.fixture
async def service() -> AsyncIterator[FakeNominatim]:
    async with FakeNominatim({HAUPTPLATZ: HAUPTPLATZ_AT}) as fake:
        yield fake


@pytest.fixture
async def geocoder(service: FakeNominatim) -> AsyncIterator[Geocoder]:
    geocoder = Geocoder(service.url, USER_AGENT)
    yield geocoder
    await geocoder.aclose()


async def kept(db: AsyncSession, query: str) -> GeocodeAnswer | None:
    found: GeocodeAnswer | None = await db.scalar(
        select(GeocodeAnswer).where(GeocodeAnswer.query == query)
    )
    return found


def rounded(fix: Fix | None) -> tuple[float, float] | None:
    return None if fix is None else (round(fix.point.lat, 2), round(fix.point.lng, 2))


async def test_found_and_kept(db: AsyncSession, service: FakeNominatim, geocoder: Geocoder) -> None:
    fix = await locate_place(db, geocoder, "  Hauptplatz 1,   4020 LINZ ")
    assert fix == Fix(Point(*HAUPTPLATZ_AT), "address")
    assert service.queries == [HAUPTPLATZ]  # normalised before it is sent
    assert service.requests[0].user_agent == USER_AGENT
    answer = await kept(db, HAUPTPLATZ)
    assert answer is not None
    assert (answer.lat, answer.lng) == HAUPTPLATZ_AT
    # Asked again in another spelling: the kept answer, no request.
    assert await locate_place(db, geocoder, "HAUPTPLATZ 1, 4020 Linz") == fix
    assert len(service.requests) == 1


async def test_not_found_is_kept_then_asked_again_after_days(
    db: AsyncSession, service: FakeNominatim, geocoder: Geocoder
) -> None:
    assert await geocode(db, geocoder, "Nowhere Lane 9") is None
    assert await geocode(db, geocoder, "nowhere lane 9") is None
    assert service.queries == ["nowhere lane 9"]
    answer = await kept(db, "nowhere lane 9")
    assert answer is not None
    assert answer.lat is None
    # Once the "not found" is older than it is kept, the service is asked again.
    old = text("clock_timestamp() - :age").bindparams(age=NOT_FOUND_KEPT + timedelta(hours=1))
    await db.execute(
        update(GeocodeAnswer).where(GeocodeAnswer.query == "nowhere lane 9").values(fetched_at=old)
    )
    service.places["nowhere lane 9"] = (1.5, 2.5)
    assert await geocode(db, geocoder, "Nowhere Lane 9") == Point(1.5, 2.5)
    assert service.queries == ["nowhere lane 9", "nowhere lane 9"]


async def test_answers_no_longer_fresh_are_pruned_now_and_then(
    db: AsyncSession, service: FakeNominatim, geocoder: Geocoder, monkeypatch: pytest.MonkeyPatch
) -> None:
    day = timedelta(days=1)
    ages = {
        "stale found": (1.0, FOUND_KEPT + day),
        "found a month ago": (1.0, 30 * day),
        "stale not found": (None, NOT_FOUND_KEPT + day),
        "not found yesterday": (None, day),
    }
    for query, (lat, age) in ages.items():
        fetched = text("clock_timestamp() - :age").bindparams(age=age)
        await db.execute(
            insert(GeocodeAnswer).values(query=query, lat=lat, lng=lat, fetched_at=fetched)
        )
    assert await geocode(db, geocoder, "stale found") is None  # asked again: not found now
    assert service.queries == ["stale found"]
    # A process prunes after a question to the service, once an hour: due now.
    monkeypatch.setattr(places_service, "_next_prune", 0.0)
    assert await geocode(db, geocoder, "a new question") is None
    left = set(await db.scalars(select(GeocodeAnswer.query)))
    assert {"found a month ago", "not found yesterday", "stale found"} <= left
    assert "stale not found" not in left
    assert places_service._next_prune > time.monotonic()


async def test_a_city_the_gazetteer_knows_makes_no_request(
    db: AsyncSession, service: FakeNominatim, geocoder: Geocoder
) -> None:
    fix = await locate_place(db, geocoder, "Wien, Österreich")
    assert rounded(fix) == (48.21, 16.37)
    assert fix is not None
    assert fix.precision == "city"
    assert service.requests == []


async def test_rate_limit_one_request_a_second(service: FakeNominatim) -> None:
    geocoder = Geocoder(service.url, USER_AGENT)
    try:
        found = await asyncio.gather(*(geocoder.locate(f"street {n}") for n in range(3)))
    finally:
        await geocoder.aclose()
    assert found == [None, None, None]
    assert sorted(service.queries) == ["street 0", "street 1", "street 2"]
    arrivals = [search.at for search in service.requests]
    gaps = [later - earlier for earlier, later in zip(arrivals, arrivals[1:], strict=False)]
    assert all(gap >= 0.95 for gap in gaps), gaps


@pytest.mark.parametrize("status", [503, 500, 429, 403])
async def test_an_error_status_is_an_outage_and_nothing_is_kept(
    db: AsyncSession, service: FakeNominatim, geocoder: Geocoder, status: int
) -> None:
    service.status = status
    with pytest.raises(GeocoderUnavailable):
        await geocode(db, geocoder, HAUPTPLATZ)
    assert await kept(db, HAUPTPLATZ) is None
    assert service.queries == [HAUPTPLATZ]


async def test_a_stopped_service_is_an_outage(
    db: AsyncSession, service: FakeNominatim, geocoder: Geocoder
) -> None:
    await service.stop()
    with pytest.raises(GeocoderUnavailable):
        await geocode(db, geocoder, HAUPTPLATZ)
    assert await kept(db, HAUPTPLATZ) is None
    # A visitor's place still gets the gazetteer's answer: the city of its last part.
    fix = await locate_place(db, geocoder, "Hauptplatz 1, Linz")
    assert rounded(fix) == LINZ
    assert fix is not None
    assert fix.precision == "city"
    assert await locate_place(db, geocoder, "Hauptplatz 1, Nowhere") is None


async def test_a_slow_service_times_out_within_its_bound(
    db: AsyncSession, service: FakeNominatim
) -> None:
    service.delay = 30.0
    geocoder = Geocoder(service.url, USER_AGENT, timeout=0.5)
    started = time.monotonic()
    try:
        with pytest.raises(GeocoderUnavailable):
            await geocode(db, geocoder, HAUPTPLATZ)
    finally:
        await geocoder.aclose()
    # Bounded by the timeout, not by the service's 30 seconds.
    assert time.monotonic() - started < 10
    assert service.queries == [HAUPTPLATZ]
    assert await kept(db, HAUPTPLATZ) is None


async def test_a_caller_waits_for_its_turn_a_bounded_time(service: FakeNominatim) -> None:
    service.delay = 30.0
    geocoder = Geocoder(service.url, USER_AGENT, timeout=3.0, turn_timeout=0.5)
    try:
        first = asyncio.create_task(geocoder.locate("street 1"))
        await asyncio.sleep(0.2)
        with pytest.raises(GeocoderUnavailable, match="busy"):
            await geocoder.locate("street 2")
        with pytest.raises(GeocoderUnavailable):
            await first
    finally:
        await geocoder.aclose()
    assert service.queries == ["street 1"]


async def test_an_answer_that_is_not_nominatims_is_an_outage(
    db: AsyncSession, service: FakeNominatim, geocoder: Geocoder
) -> None:
    service.places["bad place"] = ("north", "2.0")
    with pytest.raises(GeocoderUnavailable):
        await geocode(db, geocoder, "bad place")
    assert await kept(db, "bad place") is None


async def test_a_service_under_a_path() -> None:
    async with FakeNominatim({"main street 1": (1.0, 2.0)}, path="/nominatim") as service:
        for url in (service.url, f"{service.url}/", f"{service.url}/search"):
            geocoder = Geocoder(url, USER_AGENT, interval=0)
            try:
                assert await geocoder.locate("main street 1") == Point(1.0, 2.0)
            finally:
                await geocoder.aclose()
    assert len(service.requests) == 3


@pytest.mark.parametrize("url", ["ftp://example.org", "file:///etc/passwd", "http://", "host"])
def test_only_web_addresses(url: str) -> None:
    with pytest.raises(ValueError, match="http"):
        service_address(url)


async def test_venue_full_address_then_city(
    db: AsyncSession, service: FakeNominatim, geocoder: Geocoder
) -> None:
    venue = {
        "address": "Hauptplatz 1",
        "city": "Linz",
        "zip": "4020",
        "province": "",
        "state": "",
        "stateprovince": "",
        "country": "",
    }
    fix = await locate_venue(db, geocoder, **venue)
    assert fix == Fix(Point(*HAUPTPLATZ_AT), "address")
    assert service.queries == [HAUPTPLATZ]
    # Without a service: the gazetteer's city.
    assert rounded(await locate_venue(db, None, **venue)) == LINZ
    # An address the service does not know: the gazetteer's city.
    moved = {**venue, "address": "Hauptplatz 99", "province": "Upper Austria"}
    moved |= {"stateprovince": "upper austria", "country": "Austria"}
    fix = await locate_venue(db, geocoder, **moved)
    assert rounded(fix) == LINZ
    assert fix is not None
    assert fix.precision == "city"
    assert service.queries[-1] == "hauptplatz 99, 4020 linz, upper austria, austria"


async def test_venue_of_a_known_city_alone_makes_no_request(
    db: AsyncSession, service: FakeNominatim, geocoder: Geocoder
) -> None:
    blank = {"address": "", "zip": "", "province": "", "state": "", "stateprovince": ""}
    fix = await locate_venue(db, geocoder, city="Springfield", country="US", **blank)
    assert rounded(fix) == (37.22, -93.30)  # the most populous in the country
    in_state = {**blank, "state": "IL"}
    fix = await locate_venue(db, geocoder, city="Springfield", country="US", **in_state)
    assert rounded(fix) == (39.80, -89.64)
    assert service.requests == []
    # A city the gazetteer does not know is the service's, at city precision.
    service.places["tiny village, slovakia"] = (48.5, 19.5)
    fix = await locate_venue(db, geocoder, city="Tiny Village", country="Slovakia", **blank)
    assert fix == Fix(Point(48.5, 19.5), "city")


async def test_venue_outage_is_raised_for_a_retry(
    db: AsyncSession, service: FakeNominatim, geocoder: Geocoder
) -> None:
    service.status = 503
    with pytest.raises(GeocoderUnavailable):
        await locate_venue(
            db, geocoder, address="Hauptplatz 1", city="Linz", zip="4020",
            province="", state="", stateprovince="", country="AT",
        )  # fmt: skip


async def test_place_bounds(db: AsyncSession, service: FakeNominatim, geocoder: Geocoder) -> None:
    assert await locate_place(db, geocoder, "x" * (PLACE_MAX_LENGTH + 1)) is None
    assert await locate_place(db, geocoder, "   ") is None
    assert service.requests == []


def test_queries_are_normalised() -> None:
    assert normalised_query("  Main\tSTREET   1\n") == "main street 1"
    assert normalised_query("Straße") == "strasse"


async def test_kept_outside_a_transaction_and_refused_by_a_read_only_server(
    engine: AsyncEngine,
) -> None:
    """A read's session (autocommit, as a GET's) keeps the answer by itself; a read-only
    server (a replica) refuses it, and the answer is simply not kept."""
    reads = engine.execution_options(isolation_level="AUTOCOMMIT")
    query = "autocommit test street 1"
    try:
        async with AsyncSession(reads) as session:
            assert await GeocodeCache(session).keep(query, Point(1.0, 2.0))
        async with AsyncSession(reads) as session:
            cached = await GeocodeCache(session).answer(query, KEPT)
            assert cached is not None
            assert cached.point == Point(1.0, 2.0)
            await session.execute(text("SET default_transaction_read_only = on"))
            assert not await GeocodeCache(session).keep("read only street 1", None)
            assert await GeocodeCache(session).answer("read only street 1", KEPT) is None
            await session.execute(text("SET default_transaction_read_only = off"))
    finally:
        async with AsyncSession(reads) as session:
            await session.execute(text("DELETE FROM geocode_cache WHERE query = :q"), {"q": query})


async def test_the_app_has_a_geocoder_when_configured() -> None:
    settings = get_settings().model_copy(update={"geocoder_url": "http://127.0.0.1:9/"})
    geocoder = app_services(create_app(settings)).geocoder
    assert isinstance(geocoder, Geocoder)
    assert (geocoder.scheme, geocoder.domain) == ("http", "127.0.0.1:9")
    assert geocoder.user_agent == settings.geocoder_user_agent
    unset = get_settings().model_copy(update={"geocoder_url": None})
    assert app_services(create_app(unset)).geocoder is None
