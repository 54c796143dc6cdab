"""The horizon moves on: `almanac maintain` and the app's daily task store series' later dates."""

import asyncio
import logging
import re
from datetime import UTC, datetime, timedelta

import pytest
from httpx import AsyncClient
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine

from app.events.horizon import HorizonKeeper, extend_horizon
from app.events.occurrences import Horizon
from app.models import Occurrence
from tests.factories import API, AuthFor
from tests.live.harness import almanac, fresh_database


async def stored(maker: async_sessionmaker[AsyncSession], series_id: int) -> list[datetime]:
    async with maker() as session:
        found = await session.scalars(
            select(Occurrence.original_start)
            .where(Occurrence.series_id == series_id)
            .order_by(Occurrence.original_start)
        )
        return list(found)


async def test_extending_stores_the_dates_that_came_into_the_horizon(
    client: AsyncClient, editor: AuthFor, maker: async_sessionmaker[AsyncSession]
) -> None:
    start = (datetime.now(UTC) + timedelta(days=3)).date()
    payload = {
        "title": "Choir",
        "start_date": f"{start} 19:00:00",
        "end_date": f"{start} 21:00:00",
        "timezone": "Europe/Berlin",
        "recurrence": ["RRULE:FREQ=WEEKLY"],
    }
    response = await client.post(f"{API}/events", json=payload, headers=editor.basic)
    assert response.status_code == 201, response.text
    series_id = response.json()["id"]
    ended = {**payload, "title": "Course", "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=5"]}
    response = await client.post(f"{API}/events", json=ended, headers=editor.basic)
    assert response.status_code == 201, response.text
    course_id = response.json()["id"]
    before = await stored(maker, series_id)
    assert 100 <= len(before) <= 106  # two years of weeks
    course = await stored(maker, course_id)

    horizon = Horizon(730, 1000)
    # Today: nothing to add.
    assert await extend_horizon(maker, horizon) == 0
    # Sixty days on: eight or nine more weeks, the same dates (and IDs) before them.
    later = datetime.now(UTC) + timedelta(days=60)
    assert await extend_horizon(maker, horizon, later) == 1
    after = await stored(maker, series_id)
    assert after[: len(before)] == before
    assert 8 <= len(after) - len(before) <= 9
    assert after[-1] <= later + timedelta(days=730)
    assert after[-1] + timedelta(days=7) > later + timedelta(days=730)
    assert await stored(maker, course_id) == course  # ended: left alone
    assert await extend_horizon(maker, horizon, later) == 0

    # The new dates are listed.
    last = after[-1].astimezone(UTC).date()
    response = await client.get(
        f"{API}/events",
        params={"start_date": str(last), "end_date": str(last), "post_parent": series_id},
    )
    assert response.status_code == 200, response.text
    assert response.json()["total"] == 1


async def test_the_apps_task_extends_at_start(
    client: AsyncClient,
    editor: AuthFor,
    maker: async_sessionmaker[AsyncSession],
    caplog: pytest.LogCaptureFixture,
) -> None:
    start = (datetime.now(UTC) + timedelta(days=3)).date()
    payload = {
        "title": "Rehearsal",
        "start_date": f"{start} 18:00:00",
        "end_date": f"{start} 20:00:00",
        "recurrence": ["RRULE:FREQ=WEEKLY"],
    }
    response = await client.post(f"{API}/events", json=payload, headers=editor.basic)
    assert response.status_code == 201, response.text
    series_id = response.json()["id"]
    before = await stored(maker, series_id)
    # A horizon five weeks further than the one the series was stored with: the task's
    # first run, at start, stores the weeks in between and says so in its log (watched
    # there: the test's session is the task's, and must not be used beside it).
    caplog.set_level(logging.INFO, logger="app.events.horizon")
    keeper = HorizonKeeper(Horizon(730 + 35, 1000), interval=3600)
    keeper.start(maker)
    try:
        for _ in range(1000):  # until the first run is done (a bound, not a timing)
            if any("recurrence horizon" in record.getMessage() for record in caplog.records):
                break
            await asyncio.sleep(0.01)
    finally:
        await keeper.stop()  # cancelled (at start or asleep): stops cleanly
    await keeper.stop()
    assert [record.getMessage() for record in caplog.records] == [
        "recurrence horizon: extended 1 series"
    ]
    after = await stored(maker, series_id)
    assert after[: len(before)] == before
    assert 4 <= len(after) - len(before) <= 5


async def test_almanac_maintain(database_url: str) -> None:
    async with fresh_database(database_url, "almanac_maintain", migrated=True) as url:
        # 2,000 events: about 200 series, a few of them endless (what maintain extends).
        seeding = ("--events", "2000", "--venues", "3", "--organizers", "3", "--random-seed", "1")
        await almanac(url, "seed", *seeding)
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                count = text("SELECT count(*) FROM occurrences")
                before = await conn.scalar(count)
                assert before is not None
            out = await almanac(url, "maintain")
            assert "extended 0 series" in out
            later = (datetime.now(UTC) + timedelta(days=400)).isoformat()
            out = await almanac(url, "maintain", "--now", later)
            match = re.search(r"extended (\d+) series", out)
            assert match is not None, out
            assert int(match.group(1)) > 0
            async with engine.connect() as conn:
                assert (await conn.scalar(count) or 0) > before
                assert await conn.scalar(select(func.count()).select_from(Occurrence)) == (
                    await conn.scalar(count)
                )
        finally:
            await engine.dispose()
