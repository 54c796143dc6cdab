"""Concurrency with real commits and separate connections, and a database outage."""

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from app.core.app_services import app_services
from app.core.database.engine import asyncpg_url, get_sessionmaker, make_engine, make_sessionmaker
from app.core.database.migrate import upgrade
from app.core.rules.permissions import Role
from app.core.settings import get_settings
from app.main import create_app
from app.users.service import Accounts
from tests.factories import API, AuthFor, asgi_client
from tests.live.harness import private_postgres, stop_postgres

TABLES = "events, venues, organizers, terms, images, users"


@pytest.fixture
async def live(engine: AsyncEngine, app: FastAPI) -> AsyncIterator[tuple[AsyncClient, AuthFor]]:
    """A client whose requests commit for real, each on its own pooled connection."""
    live_engine = create_async_engine(
        engine.url.render_as_string(hide_password=False), pool_size=30, max_overflow=40
    )
    maker = async_sessionmaker(live_engine, expire_on_commit=False)
    async with maker() as session, session.begin():
        user, password = await Accounts(session, get_settings().app_password_pepper).add(
            "live-editor", Role.EDITOR
        )
    who = AuthFor(id=user.id, login=user.login, password=password)
    await app_services(app).failed_logins.clear()  # committed by earlier tests of this process
    app.dependency_overrides[get_sessionmaker] = lambda: maker
    try:
        async with asgi_client(app) as client:
            yield client, who
    finally:
        app.dependency_overrides.clear()
        async with live_engine.begin() as conn:
            await conn.execute(text(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE"))
        await live_engine.dispose()


def event_payload(title: str, **extra: Any) -> dict[str, Any]:
    start = datetime.now(UTC) + timedelta(days=5)
    return {
        "title": title,
        "start_date": start.strftime("%Y-%m-%d %H:%M:%S"),
        "end_date": (start + timedelta(hours=1)).strftime("%Y-%m-%d %H:%M:%S"),
        **extra,
    }


async def test_parallel_creates_get_distinct_slugs(live: tuple[AsyncClient, AuthFor]) -> None:
    client, editor = live
    responses = await asyncio.gather(
        *(
            client.post(f"{API}/events", json=event_payload("Same title"), headers=editor.basic)
            for _ in range(50)
        )
    )
    assert [r.status_code for r in responses] == [201] * 50, [
        r.text for r in responses if r.status_code != 201
    ][:1]
    slugs = {r.json()["slug"] for r in responses}
    assert len(slugs) == 50
    assert "same-title" in slugs
    assert "same-title-50" in slugs


async def test_concurrent_updates_leave_a_consistent_record(
    live: tuple[AsyncClient, AuthFor],
) -> None:
    client, editor = live
    organizers = [
        (
            await client.post(
                f"{API}/organizers", json={"organizer": f"O{n}"}, headers=editor.basic
            )
        ).json()["id"]
        for n in range(4)
    ]
    event = (
        await client.post(f"{API}/events", json=event_payload("Contested"), headers=editor.basic)
    ).json()
    url = f"{API}/events/{event['id']}"
    changes = [
        {"title": "First writer", "organizer": organizers[:2], "categories": ["a", "b"]},
        {"title": "Second writer", "organizer": organizers[2:], "categories": ["b", "c"]},
    ] * 5
    responses = await asyncio.gather(
        *(client.patch(url, json=c, headers=editor.basic) for c in changes)
    )
    assert [r.status_code for r in responses] == [200] * len(changes)
    final = (await client.get(url)).json()
    # The record is the result of one writer, not a mix of both.
    winner = 0 if final["title"] == "First writer" else 1
    assert [o["id"] for o in final["organizer"]] == changes[winner]["organizer"]
    assert [c["name"] for c in final["categories"]] == changes[winner]["categories"]


async def test_concurrent_deletes_answer_one_200_and_410s(
    live: tuple[AsyncClient, AuthFor],
) -> None:
    client, editor = live
    event = (
        await client.post(f"{API}/events", json=event_payload("Doomed"), headers=editor.basic)
    ).json()
    venue = (
        await client.post(f"{API}/venues", json={"venue": "Doomed hall"}, headers=editor.basic)
    ).json()
    for url in (f"{API}/events/{event['id']}", f"{API}/venues/{venue['id']}"):
        responses = await asyncio.gather(
            *(client.delete(url, headers=editor.basic) for _ in range(6))
        )
        assert Counter(r.status_code for r in responses) == {200: 1, 410: 5}
    forced = await asyncio.gather(
        *(
            client.delete(
                f"{API}/events/{event['id']}", params={"force": "true"}, headers=editor.basic
            )
            for _ in range(4)
        )
    )
    assert Counter(r.status_code for r in forced) == {200: 1, 404: 3}


async def test_parallel_term_creation_with_one_name(live: tuple[AsyncClient, AuthFor]) -> None:
    client, editor = live
    for kind in ("categories", "tags"):
        responses = await asyncio.gather(
            *(
                client.post(f"{API}/{kind}", json={"name": "Racing"}, headers=editor.basic)
                for _ in range(12)
            )
        )
        statuses = Counter(r.status_code for r in responses)
        assert statuses == {201: 1, 400: 11}
        winner = next(r.json()["id"] for r in responses if r.status_code == 201)
        for response in responses:
            if response.status_code == 400:
                assert response.json()["code"] == "term_exists"
                assert response.json()["data"]["term_id"] == winner


async def test_parallel_events_creating_the_same_new_terms(
    live: tuple[AsyncClient, AuthFor],
) -> None:
    client, editor = live
    responses = await asyncio.gather(
        *(
            client.post(
                f"{API}/events",
                json=event_payload(f"E{n}", tags=["shared", "new"]),
                headers=editor.basic,
            )
            for n in range(10)
        )
    )
    assert [r.status_code for r in responses] == [201] * 10
    tag_ids = {tuple(t["id"] for t in r.json()["tags"]) for r in responses}
    assert len(tag_ids) == 1  # every event got the same two tags


# ---- a database that goes away ---------------------------------------------------------


@pytest.fixture(scope="module")
def private_server() -> Iterator[Any]:
    with private_postgres("outage") as server:
        yield server


async def test_database_outage_is_503_and_the_service_recovers(private_server: Any) -> None:
    server_url = asyncpg_url(private_server.get_uri("postgres"))
    admin = create_async_engine(server_url, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text("DROP DATABASE IF EXISTS almanac_outage"))
        await conn.execute(text("CREATE DATABASE almanac_outage"))
    await admin.dispose()
    url = make_url(server_url).set(database="almanac_outage").render_as_string(hide_password=False)
    await asyncio.to_thread(upgrade, url)
    settings = get_settings().model_copy(update={"db_connect_timeout": 2.0, "database_url": url})
    engine = make_engine(url, settings)
    app = create_app(settings)
    app.dependency_overrides[get_sessionmaker] = lambda: make_sessionmaker(engine)
    try:
        async with asgi_client(app, timeout=30) as client:
            assert (await client.get(f"{API}/categories")).status_code == 200
            await asyncio.to_thread(stop_postgres, private_server)
            for method, path in (
                ("GET", f"{API}/categories"),
                ("GET", f"{API}/events/1"),
                ("POST", f"{API}/tags"),
            ):
                response = await client.request(
                    method, path, json={"name": "x"}, auth=("nobody", "pw")
                )
                assert response.status_code == 503, response.text
                assert response.headers["Retry-After"] == "5"
                assert response.json()["code"] == "rest_unavailable"
            await asyncio.to_thread(private_server.ensure_postgres_running)
            statuses = []
            for _ in range(5):  # pooled connections died with the server: each is replaced
                statuses.append((await client.get(f"{API}/categories")).status_code)
                if statuses[-1] == 200:
                    break
            assert statuses[-1] == 200
            assert set(statuses) <= {200, 503}
    finally:
        await app_services(app).failed_logins.close()
        await engine.dispose()


async def test_concurrent_renames_to_one_slug(live: tuple[AsyncClient, AuthFor]) -> None:
    client, editor = live
    events = [
        (
            await client.post(f"{API}/events", json=event_payload(f"R{n}"), headers=editor.basic)
        ).json()
        for n in range(8)
    ]
    responses = await asyncio.gather(
        *(
            client.patch(f"{API}/events/{e['id']}", json={"slug": "wanted"}, headers=editor.basic)
            for e in events
        )
    )
    assert [r.status_code for r in responses] == [200] * 8
    slugs = sorted(r.json()["slug"] for r in responses)
    assert len(set(slugs)) == 8
    assert "wanted" in slugs
