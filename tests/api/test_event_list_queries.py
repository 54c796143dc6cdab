"""The list query: a constant number of statements whatever the page size, and an index
plan on a large table (the plan is printed: run pytest with -s to read it)."""

import asyncio
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy import event, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.core.app_services import app_services
from app.core.caching.cache import CountCache
from app.core.database.sql import refresh_statistics
from app.core.rules.constants import VERSION_SEQUENCE
from app.core.settings import get_settings
from app.core.web.urls import Urls
from app.events.listing import prepare
from app.events.query import EventQuery
from app.events.repository.events import EventRepository
from app.events.repository.list_query import EventListQuery
from app.http.context import RequestContext
from tests.factories import API, AuthFor


@pytest.fixture
def statements(engine: AsyncEngine) -> Iterator[list[str]]:
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    yield seen
    event.remove(engine.sync_engine, "before_cursor_execute", record)


async def test_statements_per_list_request_do_not_grow_with_the_page(
    client: AsyncClient, auth: Any, statements: list[str], app: FastAPI
) -> None:
    editor: AuthFor = await auth("editor")
    venue = (await client.post(f"{API}/venues", json={"venue": "V"}, headers=editor.basic)).json()
    organizer = (
        await client.post(f"{API}/organizers", json={"organizer": "O"}, headers=editor.basic)
    ).json()
    start = datetime.now(UTC) + timedelta(days=2)
    for number in range(12):
        response = await client.post(
            f"{API}/events",
            json={
                "title": f"E{number}",
                "start_date": (start + timedelta(hours=number)).strftime("%Y-%m-%d %H:%M:%S"),
                "end_date": (start + timedelta(hours=number + 1)).strftime("%Y-%m-%d %H:%M:%S"),
                "venue": venue["id"],
                "organizer": [organizer["id"]],
                "categories": [f"cat{number % 3}"],
                "tags": ["t"],
                "image": f"https://img.example/{number}.jpg",
            },
            headers=editor.basic,
        )
        assert response.status_code == 201
    counts = {}
    for per_page in (1, 12):
        app_services(app).event_totals.clear()  # count every time: the worst case
        statements.clear()
        response = await client.get(f"{API}/events", params={"per_page": per_page})
        assert len(response.json()["events"]) == per_page
        # The test's SAVEPOINTs stand in for the transaction; count the queries.
        counts[per_page] = sum(1 for s in statements if "SAVEPOINT" not in s)
    assert counts[1] == counts[12]
    assert counts[12] == 2  # the page with everything embedded, and the total


async def test_default_list_query_uses_an_index_on_100k_events(db: AsyncSession) -> None:
    # Loaded as the seeder loads (docs/design.md#bulk-loads): a first batch, statistics, then
    # the rest. Whatever an earlier test left this connection (a plan for checking the
    # occurrences' foreign keys made while `events` looked empty, which scans it once per
    # row: the suite's 33-minute stall) and whenever autovacuum last ran, the large batch is
    # checked through the index (tests/api/test_bulk_load_plans.py).
    for first, last in ((1, 1000), (1001, 100_000)):
        await db.execute(
            text(
                """
                INSERT INTO events (title, slug, status, start_at, end_at, start_local, end_local,
                    timezone, timezone_abbr, all_day, cost, cost_details, show_map, show_map_link,
                    hide_from_listings, sticky, featured, published_at, modified_at, description, excerpt)
                SELECT 'Bulk ' || n, 'bulk-' || n, CASE WHEN n % 10 = 0 THEN 'draft' ELSE 'publish' END,
                    s, s + interval '2 hours', s, s + interval '2 hours', 'UTC', 'UTC', false, '', '{}',
                    false, false, false, false, false, now(), now(), '', ''
                FROM (SELECT n, timestamp '2025-01-01' + (n * interval '20 minutes') AS s
                      FROM generate_series(CAST(:first AS int), CAST(:last AS int)) AS n) AS series
                """
            ),
            {"first": first, "last": last},
        )
        await refresh_statistics(db, "events", "occurrences")
    urls = Urls("http://test", "", "", "http://test")
    anonymous = RequestContext({}, "en", None, db, urls, get_settings())
    request = await prepare(anonymous, EventQuery())
    query = EventListQuery(EventRepository(db, "en", "en"), request.filters)
    compiled = query.page_statement(0, 9).compile(
        dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}
    )
    plan = "\n".join(row[0] for row in await db.execute(text(f"EXPLAIN {compiled}")))
    # The dates, walked in list order (by the partial index of listed dates, or by all
    # dates with `listed` as a filter: the planner's costs are close).
    assert "occurrences_listing_idx" in plan or "occurrences_start_idx" in plan
    # (The tickets of a page's events are probed; this test's table is empty.)
    assert not re.search(r"Seq Scan on (occurrences|events)", plan)
    # Events not yet ended by a moment (the public pages' upcoming list and month grid): the
    # walk starts at the moment minus the longest duration, not at the first event ever.
    upcoming = await prepare(
        anonymous, EventQuery(ends_after=datetime(2026, 6, 1, tzinfo=UTC), strict=True)
    )
    query = EventListQuery(EventRepository(db, "en", "en"), upcoming.filters)
    compiled = query.page_statement(0, 9).compile(
        dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}
    )
    plan = "\n".join(row[0] for row in await db.execute(text(f"EXPLAIN {compiled}")))
    assert re.search(r"Index Cond: \(.*start_local >= ", plan), plan
    assert "occurrences_duration_idx" in plan


async def test_totals_are_cached_until_the_data_changes(
    client: AsyncClient, auth: Any, statements: list[str]
) -> None:
    editor: AuthFor = await auth("editor")
    start = datetime.now(UTC) + timedelta(days=2)

    async def add(number: int) -> int:
        response = await client.post(
            f"{API}/events",
            json={
                "title": f"Counted {number}",
                "start_date": (start + timedelta(hours=number)).strftime("%Y-%m-%d %H:%M:%S"),
                "end_date": (start + timedelta(hours=number + 1)).strftime("%Y-%m-%d %H:%M:%S"),
            },
            headers=editor.basic,
        )
        event_id: int = response.json()["id"]
        return event_id

    async def total() -> tuple[int, int]:
        statements.clear()
        response = await client.get(f"{API}/events")
        queries = sum(1 for s in statements if "SAVEPOINT" not in s)
        return response.json()["total"], queries

    first = await add(1)
    assert await total() == (1, 2)  # page + count
    assert await total() == (1, 1)  # the count is cached: the page query only
    second = await add(2)
    assert (await total())[0] == 2
    await client.delete(f"{API}/events/{first}", headers=editor.basic)
    assert (await total())[0] == 1
    await client.patch(f"{API}/events/{first}", json={"status": "publish"}, headers=editor.basic)
    assert (await total())[0] == 2
    await client.post(
        f"{API}/events/{second}", json={"hide_from_listings": True}, headers=editor.basic
    )
    assert await total() == (1, 2)


async def test_requests_asking_for_the_same_count_together_count_once(
    db: AsyncSession, statements: list[str]
) -> None:
    """A slow count (a common search word over many events) asked by many requests at once
    is run by the first; the others wait for its total instead of each running it."""
    await db.execute(
        text(
            """
            INSERT INTO events (title, slug, status, start_at, end_at, start_local, end_local,
                timezone, timezone_abbr, all_day, cost, cost_details, show_map, show_map_link,
                hide_from_listings, sticky, featured, published_at, modified_at, description, excerpt)
            VALUES ('Night market', 'night-market', 'publish', now() + interval '1 day',
                now() + interval '26 hours', now() + interval '1 day', now() + interval '26 hours',
                'UTC', 'UTC', false, '', '{}', false, false, false, false, false, now(), now(),
                '', '')
            """
        )
    )
    urls = Urls("http://test", "", "", "http://test")
    anonymous = RequestContext({}, "en", None, db, urls, get_settings())
    request = await prepare(anonymous, EventQuery(search="night"))
    query = EventListQuery(EventRepository(db, "en", "en"), request.filters)
    version = (await db.execute(text(f"SELECT last_value FROM {VERSION_SEQUENCE}"))).scalar_one()
    totals = CountCache()
    key = (query.repo.language, request.filters.cache_key())
    async with totals.counting(key):  # a count of the same list is running
        waiting = asyncio.create_task(query.page(0, 10, totals))
        for _ in range(10):
            await asyncio.sleep(0)
        assert not waiting.done()
        statements.clear()
        totals.put(key, version, 12345)  # what the running count finds
    records, total = await waiting
    assert ([record.title for record in records], total) == (["Night market"], 12345)
    # The page alone: no count of its own, neither for the plan nor for the total.
    assert [s for s in statements if "count(" in s] == []
    assert len([s for s in statements if "SAVEPOINT" not in s]) == 1
