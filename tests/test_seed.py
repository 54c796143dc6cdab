"""`almanac seed` as an operator runs it, on a fresh database, read back through HTTP."""

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from app.core.database import get_sessionmaker
from tests.factories import API, asgi_client
from tests.live import fresh_database

SEED = (
    *("seed", "--events", "200", "--venues", "10", "--organizers", "10"),
    *("--categories", "5", "--tags", "5", "--random-seed", "7"),
)


@pytest.fixture
async def seed_engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a new, empty database (no migrations: the seed command applies them)."""
    async with fresh_database(database_url, "almanac_seed_test") as url:
        engine = create_async_engine(url)
        try:
            yield engine
        finally:
            await engine.dispose()


@pytest.fixture
async def seeded_client(app: FastAPI, seed_engine: AsyncEngine) -> AsyncIterator[AsyncClient]:
    maker = async_sessionmaker(seed_engine, expire_on_commit=False)
    app.dependency_overrides[get_sessionmaker] = lambda: maker
    async with asgi_client(app) as client:
        yield client
    app.dependency_overrides.clear()


async def run_seed(engine: AsyncEngine) -> subprocess.CompletedProcess[str]:
    url = engine.url.render_as_string(hide_password=False)
    return await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "app.cli", *SEED],
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=300,
    )


async def events_page(client: AsyncClient, prefix: str = "") -> dict[str, Any]:
    response = await client.get(f"{prefix}{API}/events", params={"per_page": 100})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_seed_fills_the_calendar_and_appends(
    seed_engine: AsyncEngine, seeded_client: AsyncClient
) -> None:
    first = await run_seed(seed_engine)
    assert first.returncode == 0, first.stderr
    summary = first.stdout.strip().splitlines()[-1]
    assert "200 events" in summary
    assert "10 venues" in summary
    assert "10 organizers" in summary
    assert "10 terms" in summary  # 5 categories + 5 tags

    page = await events_page(seeded_client)
    events = page["events"]
    assert page["total"] > 50  # about 2/3 of the dates fall into the default window
    assert all(event["status"] == "publish" for event in events)
    # Relations are embedded (password-protected events show them redacted).
    assert all(1 <= len(event["categories"]) <= 2 for event in events if event["description"])
    assert any(isinstance(event["venue"], dict) and event["venue"]["venue"] for event in events)
    assert any(event["venue"] == [] for event in events)
    assert any(len(event["organizer"]) >= 2 for event in events)
    assert all(len(event["organizer"]) <= 3 for event in events)
    assert any(event["tags"] for event in events)
    assert any(event["cost_details"]["currency_symbol"] == "$" for event in events)
    assert all(event["cost_details"]["currency_code"] == "" for event in events)  # not guessed
    # Local wall time, UTC instant and abbreviation agree, in every zone used.
    zones = set()
    for event in events:
        zone = ZoneInfo(event["timezone"])
        instant = datetime.fromisoformat(event["utc_start_date"]).replace(tzinfo=UTC)
        local = instant.astimezone(zone)
        assert local.replace(tzinfo=None) == datetime.fromisoformat(event["start_date"])
        assert event["timezone_abbr"] == local.tzname()
        zones.add(event["timezone"])
    assert "UTC" in zones
    assert zones & {"Europe/Berlin", "America/New_York"}

    categories = (await seeded_client.get(f"{API}/categories")).json()["categories"]
    assert len(categories) == 5
    assert any(category["parent"] for category in categories)  # some are children

    # Translations: German texts where they exist, English otherwise.
    german = await events_page(seeded_client, "/de")
    english_titles = {event["id"]: event["title"] for event in events}
    german_titles = {event["id"]: event["title"] for event in german["events"]}
    assert german_titles.keys() == english_titles.keys()
    differing = [i for i in english_titles if english_titles[i] != german_titles[i]]
    assert differing
    assert len(differing) < len(english_titles)  # a share, not all
    german_categories = (await seeded_client.get(f"/de{API}/categories")).json()["categories"]
    german_names = {category["name"] for category in german_categories}
    assert "Concerts" in {category["name"] for category in categories}
    assert "Konzerte" in german_names
    assert "Concerts" not in german_names

    async with seed_engine.connect() as conn:
        statuses = dict(
            (await conn.execute(text("SELECT status, count(*) FROM events GROUP BY 1"))).all()
        )
    assert statuses["publish"] > 150
    assert {"draft", "pending", "private"} <= statuses.keys()

    # A second run appends: new IDs, slugs and term names, nothing clashes.
    second = await run_seed(seed_engine)
    assert second.returncode == 0, second.stderr
    assert "200 events" in second.stdout
    async with seed_engine.connect() as conn:
        assert await conn.scalar(text("SELECT count(*) FROM events")) == 400
        assert await conn.scalar(text("SELECT count(DISTINCT slug) FROM events")) == 400
    again = await events_page(seeded_client)
    assert again["total"] > page["total"]
    assert (await seeded_client.get(f"{API}/categories")).json()["total"] == 10
