"""Venues' full addresses through a geocoding service (the fake Nominatim of
tests/fake_nominatim.py, over real HTTP): the save places a venue from its city at once,
the app's task (app/venues/geocoding.py, its pass run here with the test's session maker)
from its address after the commit; an outage leaves the venue for the retry; typed
coordinates and a changed address are never overwritten; what is found is a logged change,
a stamp alone is not; `almanac geocode` (its passes in process, and the command itself)."""

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import delete, insert, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine

from app.core.geocoding.geocoder import Geocoder
from app.core.rules.geography import Fix, Point
from app.models import Venue
from app.venues.geocoding import VenueGeocoding, place_by_address, place_by_city
from app.venues.repository import claim_geocodable, record_found
from tests.factories import API, AuthFor, create_post
from tests.fake_nominatim import FakeNominatim

RING = {"address": "Ring 1", "zip": "1010", "city": "Wien", "country": "Austria"}
RING_QUERY = "ring 1, 1010 wien, austria"
RING_POINT = (48.2052, 16.3705)
# Far shorter than any test: every venue asked before is due again.
AT_ONCE = 1e-6


@pytest.fixture
async def service() -> AsyncIterator[FakeNominatim]:
    async with FakeNominatim({RING_QUERY: RING_POINT}) as fake:
        yield fake


@pytest.fixture
async def geocoder(service: FakeNominatim) -> AsyncIterator[Geocoder]:
    located = Geocoder(service.url, "almanac-tests", interval=0)
    yield located
    await located.aclose()


def place(body: dict[str, Any]) -> tuple[Any, Any, Any]:
    return body.get("geo_lat"), body.get("geo_lng"), body.get("geo_precision")


async def read(client: AsyncClient, venue_id: int) -> dict[str, Any]:
    response = await client.get(f"{API}/venues/{venue_id}")
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


async def logged(db: AsyncSession, venue_id: int) -> int:
    """Rows of the change log for the venue (the changes feed and webhooks read them)."""
    found = await db.scalar(
        text("SELECT count(*) FROM change_log WHERE kind = 'venue' AND record_id = :id"),
        {"id": venue_id},
    )
    return int(found or 0)


async def test_the_address_is_found_after_the_save(
    client: AsyncClient,
    editor: AuthFor,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    service: FakeNominatim,
    geocoder: Geocoder,
) -> None:
    venue = await create_post(client, editor, "venues", venue="Hall", **RING)
    assert venue["geo_precision"] == "city"  # at once, from the gazetteer
    assert service.queries == []  # not in the request's path
    before = await logged(db, venue["id"])
    located = await VenueGeocoding(geocoder, 60).sweep(maker)
    assert (located.found["address"], located.unplaced) == (1, 0)
    assert service.queries == [RING_QUERY]
    assert place(await read(client, venue["id"])) == (*RING_POINT, "address")
    assert await logged(db, venue["id"]) == before + 1  # a change like any other
    # Asked once: the next pass has nothing to ask.
    assert (await VenueGeocoding(geocoder, 60).sweep(maker)).asked == 0
    assert service.queries == [RING_QUERY]


async def test_an_outage_leaves_the_venue_for_the_retry(
    client: AsyncClient,
    editor: AuthFor,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    service: FakeNominatim,
    geocoder: Geocoder,
) -> None:
    venue = await create_post(client, editor, "venues", venue="Hall", **RING)
    service.status = 503
    before = await logged(db, venue["id"])
    located = await VenueGeocoding(geocoder, 60).sweep(maker)
    assert located.unavailable == 1
    assert place(await read(client, venue["id"]))[2] == "city"  # the save stands
    assert await logged(db, venue["id"]) == before  # the stamp is no change
    service.status = 200
    # Not again before GEOCODER_RETRY_MINUTES...
    assert (await VenueGeocoding(geocoder, 60).sweep(maker)).asked == 0
    # ...then the sweep asks again, and places it.
    located = await VenueGeocoding(geocoder, AT_ONCE).sweep(maker)
    assert located.found["address"] == 1
    assert place(await read(client, venue["id"])) == (*RING_POINT, "address")


async def test_an_unknown_address_keeps_the_city_and_waits(
    client: AsyncClient,
    editor: AuthFor,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    service: FakeNominatim,
    geocoder: Geocoder,
) -> None:
    venue = await create_post(client, editor, "venues", venue="Shed", **{**RING, "address": "Nowhere 9"})  # fmt: skip
    city = place(venue)
    before = await logged(db, venue["id"])
    located = await VenueGeocoding(geocoder, 60).sweep(maker)
    assert (located.found["address"], located.unplaced) == (0, 1)
    assert place(await read(client, venue["id"])) == city
    assert await logged(db, venue["id"]) == before


async def test_typed_coordinates_are_never_overwritten(
    client: AsyncClient,
    editor: AuthFor,
    maker: async_sessionmaker[AsyncSession],
    service: FakeNominatim,
    geocoder: Geocoder,
) -> None:
    typed = await create_post(
        client, editor, "venues", venue="Typed", geo_lat=1.5, geo_lng=2.5, **RING
    )
    assert (await VenueGeocoding(geocoder, AT_ONCE).sweep(maker)).asked == 0  # not asked
    assert service.queries == []
    # Typed while the service was being asked: the answer is dropped.
    venue = await create_post(client, editor, "venues", venue="Raced", **RING)
    async with maker() as session, session.begin():
        [claimed] = await claim_geocodable(session, 10, datetime.now(UTC))
    patched = await client.patch(
        f"{API}/venues/{venue['id']}", json={"geo_lat": 3, "geo_lng": 4}, headers=editor.basic
    )
    assert patched.status_code == 200
    async with maker() as session, session.begin():
        assert not await record_found(session, claimed, Fix(Point(*RING_POINT), "address"))
    assert place(await read(client, venue["id"])) == (3, 4, "exact")
    assert place(await read(client, typed["id"])) == (1.5, 2.5, "exact")


async def test_an_address_changed_meanwhile_is_not_overwritten(
    client: AsyncClient, editor: AuthFor, maker: async_sessionmaker[AsyncSession]
) -> None:
    venue = await create_post(client, editor, "venues", venue="Moved", **RING)
    async with maker() as session, session.begin():
        [claimed] = await claim_geocodable(session, 10, datetime.now(UTC))
    moved = await client.patch(
        f"{API}/venues/{venue['id']}", json={"city": "Graz"}, headers=editor.basic
    )
    async with maker() as session, session.begin():
        assert not await record_found(session, claimed, Fix(Point(*RING_POINT), "address"))
    assert place(await read(client, venue["id"])) == place(moved.json())


class Counted:
    def __init__(self) -> None:
        self.totals: dict[str, int] = {}
        self.done: dict[str, int] = {}

    def start(self, stage: str, total: int) -> None:
        self.totals[stage], self.done[stage] = total, 0

    def advance(self, stage: str) -> None:
        self.done[stage] += 1


async def test_the_commands_passes_place_by_city_then_address(
    client: AsyncClient,
    editor: AuthFor,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    service: FakeNominatim,
    geocoder: Geocoder,
) -> None:
    ring = await create_post(client, editor, "venues", venue="Ring", **RING)
    old = await create_post(client, editor, "venues", venue="Old", city="Bratislava")
    # Venues from before venues had coordinates.
    await db.execute(text("UPDATE venues SET geo_lat = NULL, geo_lng = NULL, geo_precision = NULL"))  # fmt: skip
    await db.commit()
    progress = Counted()
    assert await place_by_city(maker, progress) == 2
    assert progress.totals["city"] == progress.done["city"] == 2
    assert place(await read(client, old["id"]))[2] == "city"
    located = await place_by_address(maker, geocoder, progress, datetime.now(UTC))
    assert located.found["address"] == 1
    assert place(await read(client, ring["id"])) == (*RING_POINT, "address")
    # Again: nothing left to do, nothing asked twice.
    assert await place_by_city(maker, progress) == 0
    again = await place_by_address(maker, geocoder, progress, datetime.now(UTC))
    assert again.asked == 0
    assert service.queries == [RING_QUERY]


def test_the_geocode_command(database_url: str) -> None:
    """`almanac geocode` against a database of its own commits (cleaned up after)."""
    marker = "geocode-command-test"

    async def run(statement: Any) -> Any:
        engine = create_async_engine(database_url)
        try:
            async with async_sessionmaker(engine)() as session, session.begin():
                return (await session.execute(statement)).all()
        finally:
            await engine.dispose()

    venues = [
        {"name": "A", "slug": f"{marker}-a", "city": "Wien", "country": "Austria"},
        {"name": "B", "slug": f"{marker}-b", "city": "Qwxzy Flats"},
    ]
    asyncio.run(run(insert(Venue).values(venues).returning(Venue.id)))
    try:
        env = {**os.environ, "DATABASE_URL": database_url, "GEOCODER_URL": ""}
        command = [sys.executable, "-m", "app.cli", "geocode"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "placed from their city (gazetteer): 1" in done.stdout
        assert "GEOCODER_URL is not set" in done.stdout
        assert "left: 1 venue(s) without coordinates" in done.stdout
        ours = Venue.slug.startswith(marker)
        rows = asyncio.run(run(select(Venue.slug, Venue.geo_precision).where(ours).order_by(Venue.slug)))  # fmt: skip
        assert [tuple(row) for row in rows] == [(f"{marker}-a", "city"), (f"{marker}-b", None)]
        again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert "placed from their city (gazetteer): 0" in again.stdout
    finally:
        asyncio.run(run(delete(Venue).where(Venue.slug.startswith(marker)).returning(Venue.id)))
