"""No injection, no leaks of unpublished or protected content, CORS only where configured."""

import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.database.engine import get_sessionmaker
from app.core.settings import get_settings
from app.main import create_app
from tests.factories import API, Auth, AuthFor, asgi_client

INJECTIONS = [
    "' OR '1'='1",
    "1; DROP TABLE events; --",
    '" OR 1=1 --',
    "1) OR (1=1",
    "%' UNION SELECT token_hash FROM app_passwords --",
    "id DESC; DELETE FROM terms",
    "\\x27",
]


def when(days: int, hour: int = 12) -> str:
    moment = datetime.now(UTC).replace(hour=hour, minute=0, second=0) + timedelta(days=days)
    return moment.strftime("%Y-%m-%d %H:%M:%S")


async def make(client: AsyncClient, who: AuthFor, **fields: Any) -> dict[str, Any]:
    payload = {"start_date": when(3), "end_date": when(3, 14), **fields}
    response = await client.post(f"{API}/events", json=payload, headers=who.basic)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_injection_attempts_are_plain_data(client: AsyncClient, auth: Auth) -> None:
    editor = await auth("editor")
    await make(client, editor, title="Harmless", categories=["music"])
    for value in INJECTIONS:
        for path, name in (
            ("/events", "search"), ("/events", "categories"), ("/events", "tags"),
            ("/events", "status"), ("/events", "orderby"), ("/events", "include"),
            ("/events", "venue"), ("/events", "start_date"), ("/venues", "search"),
            ("/organizers", "search"), ("/categories", "search"), ("/categories", "slug"),
            ("/tags", "orderby"), ("/categories", "include"),
        ):  # fmt: skip
            response = await client.get(f"{API}{path}", params={name: value}, headers=editor.basic)
            assert response.status_code in (200, 400), (path, name, value, response.text)
        for path in (f"/events/by-slug/{value}", f"/venues/by-slug/{value}"):
            response = await client.get(f"{API}{path}")
            assert response.status_code == 404, (path, response.text)
        created = await client.post(f"{API}/tags", json={"name": value[:200]}, headers=editor.basic)
        assert created.status_code in (201, 400)
    events = (await client.get(f"{API}/events")).json()
    assert [e["title"] for e in events["events"]] == ["Harmless"]
    assert (await client.get(f"{API}/categories")).json()["total"] == 1


async def test_unpublished_and_protected_content_never_leaks(
    client: AsyncClient, auth: Auth
) -> None:
    editor = await auth("editor")
    author = await auth("author")
    subscriber = await auth("subscriber")
    secret_venue = (
        await client.post(
            f"{API}/venues", json={"venue": "Secret venue", "status": "draft"}, headers=editor.basic
        )
    ).json()
    secret_organizer = (
        await client.post(
            f"{API}/organizers",
            json={"organizer": "Secret org", "status": "private"},
            headers=editor.basic,
        )
    ).json()
    locked_venue = (
        await client.post(
            f"{API}/venues", json={"venue": "Locked", "address": "Hidden street 1", "password": "vpw"},
            headers=editor.basic,
        )
    ).json()  # fmt: skip
    public = await make(
        client, editor, title="Public party", categories=["Open"],
        venue=secret_venue["id"], organizer=[secret_organizer["id"]],
    )  # fmt: skip
    locked_host = await make(client, editor, title="Public two", venue=locked_venue["id"])
    hidden = {
        "draft": await make(
            client, editor, title="Secret draft", status="draft", categories=["Hush"]
        ),
        "private": await make(client, editor, title="Secret private", status="private"),
        "pending": await make(client, author, title="Secret pending", status="pending"),
        "future": await make(client, editor, title="Secret future", date_utc=when(40)),
        "trash": await make(client, editor, title="Secret trash"),
    }
    # The trash renames the slug: the trashed event goes by `secret-trash__trashed`.
    trashed = await client.delete(f"{API}/events/{hidden['trash']['id']}", headers=editor.basic)
    hidden["trash"] = trashed.json()
    protected = await make(
        client, editor, title="Protected talk", description="Secret text", password="epw"
    )
    secrets = ("Secret draft", "Secret private", "Secret pending", "Secret future", "Secret trash",
               "Secret venue", "Secret org", "Secret text", "Hidden street", "epw", "vpw")  # fmt: skip

    for headers in ({}, subscriber.basic):
        bodies: list[str] = []
        for path, params in (
            ("/events", {}), ("/events", {"search": "Secret"}), ("/events", {"include": ",".join(str(e["id"]) for e in hidden.values())}),
            ("/events", {"categories": "hush"}), ("/venues", {}), ("/venues", {"search": "Secret"}),
            ("/organizers", {}), ("/categories", {"hide_empty": "0"}), ("/tags", {"hide_empty": "0"}),
            (f"/events/{public['id']}", {}), (f"/events/{locked_host['id']}", {}),
            (f"/events/by-slug/{public['slug']}", {}),
        ):  # fmt: skip
            response = await client.get(f"{API}{path}", params=params, headers=headers)
            assert response.status_code in (200, 400), (path, response.text)
            bodies.append(response.text)
        for event in hidden.values():
            for path in (f"/events/{event['id']}", f"/events/by-slug/{event['slug']}"):
                response = await client.get(f"{API}{path}", headers=headers)
                assert response.status_code == 403
                bodies.append(response.text)
        for path in (
            f"/venues/{secret_venue['id']}",
            f"/organizers/by-slug/{secret_organizer['slug']}",
        ):
            response = await client.get(f"{API}{path}", headers=headers)
            assert response.status_code == 403
        protected_read = await client.get(f"{API}/events/{protected['id']}", headers=headers)
        assert protected_read.status_code == 403
        everything = "\n".join(bodies)
        for secret in secrets:
            assert secret not in everything, secret
        listing = (await client.get(f"{API}/events", headers=headers)).json()
        assert listing["total"] == 3  # public, locked host, protected (redacted)
        categories = (
            await client.get(f"{API}/categories", params={"hide_empty": "0"}, headers=headers)
        ).json()
        assert {c["name"]: c["count"] for c in categories["categories"]} == {"Hush": 0, "Open": 1}
    embedded = (await client.get(f"{API}/events/{public['id']}")).json()
    assert embedded["venue"] == []
    assert embedded["organizer"] == []
    as_editor = (await client.get(f"{API}/events/{public['id']}", headers=editor.basic)).json()
    assert as_editor["venue"]["venue"] == "Secret venue"
    locked = (await client.get(f"{API}/events/{locked_host['id']}")).json()["venue"]
    assert locked["address"] == ""
    assert locked["venue"] == []


async def test_passwords_and_hashes_never_in_responses(
    client: AsyncClient, auth: Auth, db: AsyncSession
) -> None:
    editor = await auth("editor")
    event = await make(client, editor, title="Guarded", password="topsecret-pw")
    from sqlalchemy import text

    hashes = [row[0] for row in await db.execute(text("SELECT token_hash FROM app_passwords"))]
    responses = [
        await client.get(f"{API}/events/{event['id']}", headers=editor.basic),
        await client.get(f"{API}/events", headers=editor.basic),
        await client.patch(
            f"{API}/events/{event['id']}", json={"title": "x"}, headers=editor.basic
        ),
        await client.get(f"{API}/doc"),
        await client.get(API),
        await client.get(f"{API}/tags", headers={"Authorization": "Basic !!"}),
    ]
    for response in responses:
        for secret in ("topsecret-pw", editor.password, *hashes):
            assert secret not in response.text
        assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.fixture
async def cors_app(maker: async_sessionmaker[AsyncSession]) -> AsyncIterator[FastAPI]:
    os.environ["CORS_ORIGINS"] = "https://allowed.example, https://also.example"
    get_settings.cache_clear()
    try:
        app = create_app()
        app.dependency_overrides[get_sessionmaker] = lambda: maker
        yield app
    finally:
        del os.environ["CORS_ORIGINS"]
        get_settings.cache_clear()


async def test_cors_only_for_configured_origins(
    cors_app: FastAPI, app: FastAPI, client: AsyncClient
) -> None:
    async with asgi_client(cors_app) as cors:
        allowed = await cors.get(f"{API}/tags", headers={"Origin": "https://allowed.example"})
        assert allowed.headers["Access-Control-Allow-Origin"] == "https://allowed.example"
        assert "X-WP-Total" in allowed.headers["Access-Control-Expose-Headers"]
        other = await cors.get(f"{API}/tags", headers={"Origin": "https://evil.example"})
        assert "Access-Control-Allow-Origin" not in other.headers
        preflight = await cors.options(
            f"{API}/events",
            headers={"Origin": "https://also.example", "Access-Control-Request-Method": "POST",
                     "Access-Control-Request-Headers": "Authorization, Content-Type"},
        )  # fmt: skip
        assert preflight.status_code == 200
        assert preflight.headers["Access-Control-Allow-Origin"] == "https://also.example"
        denied = await cors.options(
            f"{API}/events",
            headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
        )
        assert "Access-Control-Allow-Origin" not in denied.headers
    default = await client.get(f"{API}/tags", headers={"Origin": "https://allowed.example"})
    assert "Access-Control-Allow-Origin" not in default.headers  # none configured: no CORS
