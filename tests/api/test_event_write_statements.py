"""The linked write's SQL: `POST /events` with a venue, two organizers, a category and two
tags is a fixed, small number of statements (docs/performance.md#the-linked-write), and
still writes every link, the change log and the slug rule."""

from typing import Any

from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from tests.factories import API, AuthFor, create_post

# The caller, the venue and organizers, the terms, the insert with its links, the read back,
# the data version's draw.
MAX_STATEMENTS = 6


async def _linked(client: AsyncClient, editor: AuthFor) -> dict[str, Any]:
    venue = await create_post(client, editor, "venues", venue="Hall")
    organizers = [
        await create_post(client, editor, "organizers", organizer=name) for name in ("A", "B")
    ]
    terms = {}
    for taxonomy, names in (("categories", ["Music"]), ("tags", ["loud", "late"])):
        created = []
        for name in names:
            response = await client.post(
                f"{API}/{taxonomy}", json={"name": name}, headers=editor.basic
            )
            assert response.status_code == 201, response.text
            created.append(response.json()["id"])
        terms[taxonomy] = created
    return {
        "start_date": "2030-05-01 19:00:00",
        "end_date": "2030-05-01 21:00:00",
        "description": "<p>Loud</p>",
        "cost": "$15",
        "status": "publish",
        "venue": venue["id"],
        "organizer": [organizer["id"] for organizer in organizers],
        **terms,
    }


def _counted(statements: list[str]) -> list[str]:
    # The test's SAVEPOINTs stand in for the request's transaction.
    return [s for s in statements if not s.startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


async def test_a_linked_create_is_a_few_statements_and_writes_every_link(
    client: AsyncClient, editor: AuthFor, statements: list[str], db: AsyncSession
) -> None:
    payload = await _linked(client, editor)
    for _ in (1, 2):  # the second is counted: the caller is looked up again either way
        statements.clear()
        response = await client.post(
            f"{API}/events", json={"title": "Night <b>Owls</b>", **payload}, headers=editor.basic
        )
        assert response.status_code == 201, response.text
    counted = _counted(statements)
    assert len(counted) <= MAX_STATEMENTS, "\n".join(counted)
    body = response.json()
    assert body["slug"] == "night-owls-2"  # the first free slug, after the first create's
    assert body["title"] == "Night <b>Owls</b>"
    assert body["venue"]["id"] == payload["venue"]
    assert [o["id"] for o in body["organizer"]] == payload["organizer"]
    assert [c["id"] for c in body["categories"]] == payload["categories"]
    assert sorted(t["id"] for t in body["tags"]) == sorted(payload["tags"])
    assert response.headers["etag"]
    logged = await db.scalar(
        text("SELECT count(*) FROM change_log WHERE kind = 'event' AND record_id = :id"),
        {"id": body["id"]},
    )
    assert logged
    # The write's ETag is its caller's GET's (an editor's body has the attendance figures).
    read = await client.get(f"{API}/events/{body['id']}", headers=editor.basic)
    assert read.headers["etag"] == response.headers["etag"]


async def test_a_linked_update_keeps_the_order_and_replaces_the_links(
    client: AsyncClient, editor: AuthFor
) -> None:
    payload = await _linked(client, editor)
    created = await client.post(
        f"{API}/events", json={"title": "Swap", **payload}, headers=editor.basic
    )
    assert created.status_code == 201, created.text
    event_id = created.json()["id"]
    swapped = list(reversed(payload["organizer"]))
    response = await client.post(
        f"{API}/events/{event_id}",
        json={"organizer": swapped, "tags": payload["tags"][:1], "venue": None},
        headers=editor.basic,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert [o["id"] for o in body["organizer"]] == swapped
    assert [t["id"] for t in body["tags"]] == payload["tags"][:1]
    assert [c["id"] for c in body["categories"]] == payload["categories"]
    assert body["venue"] == []


async def test_links_cleared_then_given_again(client: AsyncClient, editor: AuthFor) -> None:
    # Each shape of link replacement has its statement: clearing must not stand in for giving.
    payload = await _linked(client, editor)
    created = await client.post(
        f"{API}/events", json={"title": "Again", **payload}, headers=editor.basic
    )
    assert created.status_code == 201, created.text
    url = f"{API}/events/{created.json()['id']}"
    for organizers in ([], payload["organizer"], []):
        response = await client.post(url, json={"organizer": organizers}, headers=editor.basic)
        assert response.status_code == 200, response.text
        body = response.json()
        assert [o["id"] for o in body["organizer"]] == organizers
        assert [c["id"] for c in body["categories"]] == payload["categories"]


async def test_unknown_links_are_one_400_and_nothing_is_written(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    payload = await _linked(client, editor)
    before = await db.scalar(text("SELECT count(*) FROM events"))
    response = await client.post(
        f"{API}/events",
        json={
            "title": "Broken",
            **payload,
            "venue": 999_999,
            "organizer": [payload["organizer"][0], 999_998],
            "tags": [999_997],
        },
        headers=editor.basic,
    )
    assert response.status_code == 400
    details = response.json()["data"]["params"]
    assert {"venue", "organizer", "tags"} <= set(details)
    assert await db.scalar(text("SELECT count(*) FROM events")) == before
