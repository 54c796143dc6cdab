"""`almanac seed` as an operator runs it, on a fresh database, read back through HTTP."""

import asyncio
import os
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from app.core.database.engine import get_sessionmaker
from app.core.database.migrate import upgrade
from app.events.occurrences import Horizon, SeriesStore
from app.events.recurrence import parse_recurrence
from app.seed.generation import series_rule
from app.seed.seeder import SeedCounts, seed
from tests.factories import API, asgi_client
from tests.live.harness import fresh_database

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
    # Said before the work starts (the defaults insert 10,000 events).
    assert first.stdout.startswith(
        "seeding 200 events, 10 venues, 10 organizers, 5 categories and 5 tags"
    )
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


SERIES_NOW = datetime(2026, 11, 23, 12, 0, 7, tzinfo=UTC)


async def test_seeded_series_are_what_materialise_makes(seed_engine: AsyncEngine) -> None:
    """About a tenth of the seeded events are series with their occurrences copied in bulk:
    materialising any of them again changes nothing (IDs, dates, listing)."""
    url = seed_engine.url.render_as_string(hide_password=False)
    await asyncio.to_thread(upgrade, url)
    counts = SeedCounts(events=600, venues=5, organizers=5, categories=3, tags=3)
    report = await seed(url, counts, random_seed=11, now=SERIES_NOW)
    occurrence_sql = text(
        "SELECT id, series_id, content_id, original_start, start_at, end_at, start_local, "
        "end_local, listed, published_at FROM occurrences ORDER BY id"
    )
    async with seed_engine.connect() as conn:
        series = dict(
            (
                await conn.execute(
                    text("SELECT id, recurrence FROM events WHERE recurrence IS NOT NULL")
                )
            ).all()
        )
        before = (await conn.execute(occurrence_sql)).all()
        singles = await conn.scalar(text("SELECT count(*) FROM events WHERE recurrence IS NULL"))
    assert 30 <= len(series) <= 100  # about 10% of 600
    lines = [line for value in series.values() for line in value]
    assert any("FREQ=WEEKLY" in line and "COUNT=" in line for line in lines)
    assert any("FREQ=DAILY" in line and "UNTIL=" in line for line in lines)
    assert report.rows["occurrences"] == len(before)
    by_series = {row.series_id for row in before}
    assert len(before) > singles + 2 * len(series)
    # Each series' first occurrence has the series' ID, the other IDs are new.
    firsts = {row.series_id: row for row in before if row.id == row.series_id}
    assert set(series) - firsts.keys() <= set(series) - by_series  # all that have dates
    assert all(row.original_start == row.start_at for row in before)

    until_sql = text("SELECT id, dates_until FROM events WHERE recurrence IS NOT NULL ORDER BY id")
    async with seed_engine.connect() as conn:
        seeded_until = (await conn.execute(until_sql)).all()
    assert all(row.dates_until is not None for row in seeded_until)
    maker = async_sessionmaker(seed_engine, expire_on_commit=False)
    async with maker() as session, session.begin():
        store = SeriesStore(session, Horizon(730, 1000))
        for series_id in series:
            await store.materialise(series_id, SERIES_NOW)
        # And an extension at the same moment finds nothing to do.
        assert await store.extend(SERIES_NOW) == 0
    async with seed_engine.connect() as conn:
        after = (await conn.execute(occurrence_sql)).all()
        materialised_until = (await conn.execute(until_sql)).all()
    assert after == before
    # How far each series' dates are stored, as materialise sets it (extend reads it).
    assert materialised_until == seeded_until


@pytest.mark.parametrize("zone_name", ["UTC", "Europe/Berlin", "America/New_York"])
def test_seed_rules_expand_as_the_app_does(zone_name: str) -> None:
    """The seeder's date arithmetic gives dateutil's dates (across DST changes too)."""
    rng = random.Random(zone_name)
    zone = ZoneInfo(zone_name)
    horizon = datetime(2028, 3, 30, 12, 0)
    for _ in range(300):
        start = datetime(2026, 1, 1, rng.randint(8, 21), 30) + timedelta(days=rng.randint(0, 800))
        rule = series_rule(rng, start, zone)
        expected = parse_recurrence([rule.line()], start, zone_name).expand(horizon, 40)
        assert rule.starts(start, zone, horizon, 40) == expected, rule.line()
