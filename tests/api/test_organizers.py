"""Organizers through HTTP: their own fields, search, links and redaction. The behaviour they
share with venues (roles, statuses, trash, slugs, translations, paging) is tested for both
kinds in test_venues.py."""

from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import event_organizers
from tests.factories import API, AuthFor, create_post, link_organizers, make_event

ORGANIZER_KEYS = [
    "id", "author", "status", "date", "date_utc", "modified", "modified_utc", "url",
    "organizer", "description", "excerpt", "slug", "image", "phone", "website", "email",
    "global_id", "global_id_lineage",
]  # fmt: skip


async def make(client: AsyncClient, who: AuthFor, **fields: Any) -> dict[str, Any]:
    return await create_post(client, who, "organizers", **{"organizer": "Org", **fields})


async def test_create_and_read_in_the_reference_shape(client: AsyncClient, editor: AuthFor) -> None:
    created = await make(
        client,
        editor,
        organizer="Organizer 30",
        description="<p>Organizer number 30</p>",
        phone="+1 555 0230",
        website="http://org30.example.com",
        email="org30@example.com",
    )
    assert list(created) == ORGANIZER_KEYS
    assert created["url"] == "http://testserver/organizer/organizer-30/"
    assert (created["phone"], created["email"]) == ("+1 555 0230", "org30@example.com")
    response = await client.get(f"{API}/organizers/{created['id']}")
    body = response.json()
    keys = [*ORGANIZER_KEYS]
    keys.insert(keys.index("global_id"), "json_ld")
    assert list(body) == keys
    assert body["json_ld"] == {
        "@type": "Person",
        "name": "Organizer 30",
        "description": "&lt;p&gt;Organizer number 30&lt;/p&gt;",
        "url": "http://org30.example.com",
        "telephone": "+1 555 0230",
        "email": "org30@example.com",
        "sameAs": "http://org30.example.com",
    }
    without_site = await make(client, editor, organizer="No site")
    read = (await client.get(f"{API}/organizers/by-slug/{without_site['slug']}")).json()
    assert read["json_ld"]["url"] == "http://testserver/organizer/no-site/"
    assert read["json_ld"]["sameAs"] == ""


@pytest.mark.parametrize(
    ("payload", "param"),
    [
        ({"organizer": ""}, "organizer"),
        ({"organizer": "A", "website": "org.example.com"}, "website"),
        ({"organizer": "A", "email": "e" * 321}, "email"),
        ({"organizer": "A", "email": ["a@b.c"]}, "email"),
        ({"organizer": "A", "phone": "1" * 101}, "phone"),
        ({"organizer": "A", "status": "publish, draft"}, "status"),
    ],
)
async def test_create_validation(
    client: AsyncClient, editor: AuthFor, payload: dict[str, Any], param: str
) -> None:
    response = await client.post(f"{API}/organizers", json=payload, headers=editor.basic)
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == [param]
    missing = await client.post(f"{API}/organizers", json={"email": "a@b.c"}, headers=editor.basic)
    assert missing.json()["code"] == "rest_missing_callback_param"
    assert missing.json()["data"]["params"] == ["organizer"]


async def test_email_is_not_validated(client: AsyncClient, editor: AuthFor) -> None:
    organizer = await make(client, editor, email="call me maybe")
    assert organizer["email"] == "call me maybe"


async def test_update_keeps_what_is_not_sent_and_clears_empty_strings(
    client: AsyncClient, editor: AuthFor
) -> None:
    organizer = await make(
        client, editor, phone="123", website="https://a.example.com", email="a@example.com"
    )
    url = f"{API}/organizers/{organizer['id']}"
    renamed = (await client.post(url, json={"organizer": "Renamed"}, headers=editor.basic)).json()
    assert renamed["organizer"] == "Renamed"
    assert (renamed["phone"], renamed["website"], renamed["email"]) == (
        "123", "https://a.example.com", "a@example.com",
    )  # fmt: skip
    cleared = await client.put(
        url, json={"phone": "", "website": "", "email": ""}, headers=editor.basic
    )
    body = cleared.json()
    assert list(body) == ORGANIZER_KEYS  # every key stays, empty
    assert (body["phone"], body["website"], body["email"]) == ("", "", "")
    assert body["organizer"] == "Renamed"


async def test_search_organizers_like_the_reference(client: AsyncClient, editor: AuthFor) -> None:
    await make(client, editor, organizer="Org A", phone="111111111", email="one@common.com", website="http://one.com")  # fmt: skip
    await make(client, editor, organizer="Org B", phone="1111 222223333", email="two@common.com", website="http://two.com")  # fmt: skip
    await make(client, editor, organizer="Org C", phone="333", email="three@three.com", website="http://three.com")  # fmt: skip

    async def count(term: str) -> int:
        response = await client.get(f"{API}/organizers", params={"search": term})
        total: int = response.json()["total"]
        return total

    assert await count("1111") == 2
    assert await count("111111111") == 1
    assert await count("222223333") == 1
    assert await count("three@three.com") == 1
    assert await count("common.com") == 2
    assert await count("http://one.com") == 1
    assert await count("@common.com") == 2
    assert await count("org") == 3


async def test_delete_unlinks_the_events(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    first = await make(client, editor, organizer="First")
    second = await make(client, editor, organizer="Second")
    event_id = await make_event(db)
    await link_organizers(db, event_id, first["id"], second["id"])
    response = await client.delete(f"{API}/organizers/{first['id']}", headers=editor.basic)
    assert response.json()["status"] == "trash"
    links = await db.execute(select(event_organizers.c.event_id, event_organizers.c.organizer_id))
    assert [tuple(row) for row in links] == [(event_id, second["id"])]
    assert (await client.get(f"{API}/organizers", params={"event": event_id})).json()["total"] == 1
    forced = await client.delete(
        f"{API}/organizers/{second['id']}", params={"force": "1"}, headers=editor.basic
    )
    assert forced.json()["status"] == "publish"
    assert (await db.execute(select(event_organizers))).all() == []


async def test_password_protected_organizers_are_redacted(
    client: AsyncClient, editor: AuthFor
) -> None:
    organizer = await make(
        client,
        editor,
        organizer="Hidden Org",
        description="Secret",
        phone="123",
        website="https://hidden.example.com",
        email="h@example.com",
        image="https://img.example.com/h.jpg",
        password="pw",
    )
    listed = (await client.get(f"{API}/organizers")).json()["organizers"][0]
    assert listed == {
        **organizer,
        "organizer": [],
        "description": "",
        "phone": "",
        "website": "",
        "email": "",
        "image": False,
    }
    single = (await client.get(f"{API}/organizers/{organizer['id']}")).json()
    assert single["organizer"] == []
    assert single["json_ld"]["name"] == "Hidden Org"
    assert single["json_ld"]["email"] == single["json_ld"]["telephone"] == ""
    assert single["json_ld"]["url"] == "http://testserver/organizer/hidden-org/"
    opened = await client.get(f"{API}/organizers/{organizer['id']}", params={"password": "pw"})
    assert opened.json()["email"] == "h@example.com"
    editors_view = (await client.get(f"{API}/organizers", headers=editor.basic)).json()
    assert editors_view["organizers"][0] == organizer
