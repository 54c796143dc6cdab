"""Readiness of a real `almanac serve` follows its database: ready, not ready (503, with the
reason) while the database is stopped, ready again once it is back; liveness never asks it."""

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from app.core.database.engine import asyncpg_url
from tests.factories import API
from tests.live.harness import POLL, private_postgres, stop_postgres
from tests.live.test_instances import Instance, serving, until_logged

ATTEMPTS = 200  # reads of /readyz while waiting for the restarted database (POLL apart)


@pytest.fixture(scope="module")
def postgres() -> Iterator[Any]:
    with private_postgres("readiness") as server:
        yield server


@pytest.fixture
async def instance(postgres: Any) -> AsyncIterator[Instance]:
    # The server is this test's alone (and removed afterwards): its default database will do.
    async with serving(asyncpg_url(postgres.get_uri("postgres")), 1) as served:
        yield served


async def test_readiness_follows_the_database(postgres: Any, instance: Instance) -> None:
    async with httpx.AsyncClient(base_url=instance.base, timeout=30) as http:
        ready = await http.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json()["status"] == "ready"

        await asyncio.to_thread(stop_postgres, postgres)
        down = await http.get("/readyz")
        assert down.status_code == 503
        assert down.headers["Retry-After"] == "5"
        assert down.headers["Cache-Control"] == "no-store"
        body = down.json()
        assert body["code"] == "rest_unavailable"
        assert body["data"]["reason"] in ("database_unreachable", "database_timeout")
        # Alive all the same: restarting the process would not bring the database back.
        assert (await http.get("/healthz")).status_code == 200
        # The reason is logged, under the request's id.
        lines = await until_logged([instance], down.headers["X-Request-ID"])
        warning = next(line for line in lines if line["level"] == "WARNING")
        assert warning["message"].startswith("not ready: The database")

        await asyncio.to_thread(postgres.ensure_postgres_running)
        statuses = []
        for _ in range(ATTEMPTS):  # the pool replaces the connections that died
            statuses.append((await http.get("/readyz")).status_code)
            if statuses[-1] == 200:
                break
            await asyncio.sleep(POLL)
        assert statuses[-1] == 200
        assert set(statuses) <= {200, 503}
        categories = await http.get(f"{API}/categories")
        assert categories.status_code == 200, categories.text
