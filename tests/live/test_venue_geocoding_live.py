"""The venues' geocoding as it runs: `almanac serve` with GEOCODER_URL naming the fake
Nominatim (tests/fake_nominatim.py, in this test's event loop). A venue's save answers at
once with its city; the after-commit hook wakes the server's task, which places it from its
address, and a change of the address is found again; the changes feed reports it. Then
`almanac geocode --retry` with the service places a venue the server could not (it was
down)."""

import asyncio
import os
import sys
from typing import Any

import httpx

from tests.fake_nominatim import FakeNominatim
from tests.live.harness import add_user, almanac_server, fresh_database

API = "/calendar/events/v1"
RING = {"address": "Ring 1", "zip": "1010", "city": "Wien", "country": "Austria"}
PLACES = {
    "ring 1, 1010 wien, austria": (48.2052, 16.3705),
    "hauptplatz 1, 8010 graz, austria": (47.0707, 15.4382),
}


async def _placed(api: httpx.AsyncClient, venue_id: int, precision: str) -> dict[str, Any]:
    """The venue once its precision is `precision` (the server's task works in the
    background: a few seconds at most)."""
    for _ in range(100):
        body: dict[str, Any] = (await api.get(f"/venues/{venue_id}")).json()
        if body.get("geo_precision") == precision:
            return body
        await asyncio.sleep(0.1)
    raise AssertionError(f"venue {venue_id} not placed at {precision}: {body}")


async def test_the_server_places_a_saved_venue_from_its_address(database_url: str) -> None:
    async with (
        FakeNominatim(PLACES) as service,
        fresh_database(database_url, "almanac_venue_geocoding", migrated=True) as url,
    ):
        _, password = await add_user(url, "geo-editor", "editor")
        env = {"GEOCODER_URL": service.url, "GEOCODER_USER_AGENT": "almanac-live-test"}
        async with (
            almanac_server(url, **env) as base,
            httpx.AsyncClient(base_url=f"{base}{API}", auth=("geo-editor", password)) as api,
        ):
            since = (await api.get("/changes")).json()["next_since"]
            created = await api.post("/venues", json={"venue": "Hall", **RING})
            assert created.status_code == 201
            assert created.json()["geo_precision"] == "city"  # the answer did not wait
            venue_id = created.json()["id"]
            placed = await _placed(api, venue_id, "address")
            assert (placed["geo_lat"], placed["geo_lng"]) == PLACES["ring 1, 1010 wien, austria"]
            assert service.requests[0].user_agent == "almanac-live-test"
            changes = (await api.get("/changes", params={"since": since})).json()["changes"]
            assert ["venue", venue_id, placed] in [[c["kind"], c["id"], c["record"]] for c in changes]  # fmt: skip
            moved = await api.patch(
                f"/venues/{venue_id}",
                json={"address": "Hauptplatz 1", "zip": "8010", "city": "Graz"},
            )
            assert moved.json()["geo_precision"] == "city"
            graz = await _placed(api, venue_id, "address")
            assert (graz["geo_lat"], graz["geo_lng"]) == PLACES["hauptplatz 1, 8010 graz, austria"]
            # The service down: the venue keeps its city, and waits for the retry.
            service.status = 503
            down = await api.post("/venues", json={"venue": "Stage", **RING, "address": "Ring 2"})
            for _ in range(50):
                if any(search.query.startswith("ring 2") for search in service.requests):
                    break
                await asyncio.sleep(0.1)
            assert (await api.get(f"/venues/{down.json()['id']}")).json()["geo_precision"] == "city"
        service.status = 200
        service.places["ring 2, 1010 wien, austria"] = (48.2, 16.36)
        command = [sys.executable, "-m", "app.cli", "geocode", "--retry"]
        process = await asyncio.create_subprocess_exec(
            *command,
            env={**os.environ, "DATABASE_URL": url, **env},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(), 120)
        assert process.returncode == 0, err.decode()
        assert "placed from their address (geocoding service): 1" in out.decode()
        assert "left: 0 venue(s) without coordinates" in out.decode()
