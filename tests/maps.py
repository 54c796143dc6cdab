"""What the map pages' tests share (tests/api/test_pages_map.py, and
tests/live/test_pages_map_assets.py for what needs Leaflet installed by `make map-assets`):
venues placed at known points in Bratislava, their events, the app with MAP_TILES_URL set."""

import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient

from app.core.app_services import app_services
from app.core.database.engine import get_sessionmaker
from app.main import create_app
from tests.factories import API, AuthFor, asgi_client, create_record

TODAY = datetime.now(UTC).date()
TILES = "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png"
MILL = (48.1439, 17.1097)  # Bratislava's old town
CASTLE = (48.1423, 17.1000)


def day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


async def event(client: AsyncClient, editor: AuthFor, title: str, **fields: Any) -> dict[str, Any]:
    offset = fields.pop("offset", 1)
    fields.setdefault("start_date", f"{day(offset)} 18:00:00")
    fields.setdefault("end_date", f"{day(offset)} 20:00:00")
    return await create_record(client, editor, "events", title, **fields)


async def place(
    client: AsyncClient, editor: AuthFor, venue: dict[str, Any], point: tuple[float, float]
) -> None:
    """A venue's coordinates, typed by an editor (exact: no geocoder moves them)."""
    response = await client.post(
        f"{API}/venues/{venue['id']}",
        json={"geo_lat": point[0], "geo_lng": point[1]},
        headers=editor.basic,
    )
    assert response.status_code == 200, response.text
    assert response.json()["geo_precision"] == "exact"


def map_data(html: str) -> list[dict[str, Any]]:
    found = re.search(r'<script type="application/json" id="map-data">(.*?)</script>', html, re.S)
    assert found is not None, "no map data"
    data: list[dict[str, Any]] = json.loads(found.group(1))
    return data


def json_ld(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/ld\+json"[^>]*>(.*?)</script>', html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.fixture
async def with_tiles(app: FastAPI, maker: Any) -> AsyncIterator[AsyncClient]:
    """The app with MAP_TILES_URL set (a local address: no tile is fetched here)."""
    update = {"map_tiles_url": TILES, "map_tiles_attribution": "© Test tiles"}
    tiled = create_app(app_services(app).settings.model_copy(update=update))
    tiled.dependency_overrides[get_sessionmaker] = lambda: maker
    try:
        async with asgi_client(tiled) as client:
            yield client
    finally:
        await app_services(tiled).failed_logins.close()


@pytest.fixture
async def placed(client: AsyncClient, editor: AuthFor) -> dict[str, Any]:
    """Two venues with coordinates and one without, and their upcoming events."""
    mill = await create_record(client, editor, "venues", "Old Mill", city="Bratislava")
    castle = await create_record(client, editor, "venues", "Castle Hall", city="Bratislava")
    # A city the gazetteer does not know: the venue has no coordinates.
    barn = await create_record(client, editor, "venues", "Unmapped Barn", city="Somewhere")
    await place(client, editor, mill, MILL)
    await place(client, editor, castle, CASTLE)
    records = {
        "mill": mill,
        "castle": castle,
        "barn": barn,
        "jazz": await event(
            client, editor, "Jazz at the Mill", venue=mill["id"], categories=["Music"]
        ),
        "talk": await event(client, editor, "Mill Talk", venue=mill["id"], offset=3),
        "play": await event(client, editor, "Castle Play", venue=castle["id"], offset=2),
        "dance": await event(client, editor, "Barn Dance", venue=barn["id"], offset=4),
    }
    return records
