"""Untrusted HTML: authors and contributors keep WordPress's allowed markup only; editors and
administrators keep everything (`unfiltered_html`). Every field, every write path, every
language, every route that reads the record back (docs/design.md#records)."""

from typing import Any

import pytest
from httpx import AsyncClient

from tests.factories import API, Auth, AuthFor

HOSTILE_HTML = (
    '<p onclick="steal()">Hello <script>alert(1)</script>'
    '<a href="javascript:alert(2)">click</a> <img src="x.png" onerror="alert(3)">'
    '<iframe src="https://evil.test/"></iframe><b>bold</b></p>'
)
HOSTILE_TITLE = 'Jazz <script>alert(1)</script><img src=x onerror="alert(2)"><b>Night</b> & Day'
CLEAN_TITLE = "Jazz <b>Night</b> & Day"
HOSTILE_TEXT = 'Main <script>alert(1)</script>Street <b onmouseover="x()">5</b>'
EXECUTABLE = ("<script", "onerror", "onclick", "onmouseover", "javascript:", "<iframe", "alert(")
UNTRUSTED = ("contributor", "author")
TRUSTED = ("editor", "administrator")


def assert_harmless(text: str) -> None:
    lowered = text.lower()
    for marker in EXECUTABLE:
        assert marker not in lowered, f"{marker!r} survived in {text!r}"


def event_payload(**fields: Any) -> dict[str, Any]:
    return {"start_date": "+1 day", "end_date": "+2 days", **fields}


async def read_back(client: AsyncClient, who: AuthFor, plural: str, record: dict[str, Any]) -> list[str]:  # fmt: skip
    """The record as every route gives it back: by ID, by slug, in the list, in German."""
    headers = who.basic
    bodies = [
        (await client.get(f"{API}/{plural}/{record['id']}", headers=headers)).text,
        (await client.get(f"{API}/{plural}/by-slug/{record['slug']}", headers=headers)).text,
        (await client.get(f"{API}/{plural}", params={"per_page": 100}, headers=headers)).text,
        (await client.get(f"/de{API}/{plural}/{record['id']}", headers=headers)).text,
    ]
    assert all(str(record["id"]) in body for body in bodies)
    return bodies


@pytest.mark.parametrize("role", UNTRUSTED)
async def test_untrusted_event_markup_is_sanitised(
    client: AsyncClient, auth: Auth, role: str
) -> None:
    who = await auth(role)
    response = await client.post(
        f"{API}/events",
        json=event_payload(
            title=HOSTILE_TITLE,
            description=HOSTILE_HTML,
            excerpt=HOSTILE_HTML,
            cost="<script>alert(1)</script>10 $",
            status="draft",
        ),
        headers=who.basic,
    )
    assert response.status_code == 201, response.text
    event = response.json()
    assert event["title"] == CLEAN_TITLE
    assert event["slug"] == "jazz-night-day"  # from the sanitised title
    assert "<b>bold</b>" in event["description"]  # allowed markup stays
    assert '<a href="javascript' not in event["description"]
    for body in [response.text, *await read_back(client, who, "events", event)]:
        assert_harmless(body)


@pytest.mark.parametrize("role", UNTRUSTED)
async def test_untrusted_markup_is_sanitised_on_update_and_in_other_languages(
    client: AsyncClient, auth: Auth, role: str
) -> None:
    who = await auth(role)
    created = await client.post(
        f"{API}/events", json=event_payload(title="Plain", status="draft"), headers=who.basic
    )
    event_id = created.json()["id"]
    for prefix in ("", "/de", "/sk"):
        updated = await client.patch(
            f"{prefix}{API}/events/{event_id}",
            json={"title": HOSTILE_TITLE, "description": HOSTILE_HTML, "excerpt": HOSTILE_HTML},
            headers=who.basic,
        )
        assert updated.status_code == 200, updated.text
        assert updated.json()["title"] == CLEAN_TITLE
        assert_harmless(updated.text)
        read = await client.get(f"{prefix}{API}/events/{event_id}", headers=who.basic)
        assert_harmless(read.text)


@pytest.mark.parametrize("role", UNTRUSTED)
@pytest.mark.parametrize("plural", ["venues", "organizers"])
async def test_untrusted_venue_and_organizer_markup_is_sanitised(
    client: AsyncClient, auth: Auth, role: str, plural: str
) -> None:
    who = await auth(role)
    name = plural.removesuffix("s")
    details = (
        {"address": HOSTILE_TEXT, "city": HOSTILE_TEXT, "zip": "<b onclick=x()>1</b>"}
        if plural == "venues"
        else {"email": HOSTILE_TEXT}
    )
    fields = {name: HOSTILE_TITLE, "description": HOSTILE_HTML, "excerpt": HOSTILE_HTML}
    response = await client.post(
        f"{API}/{plural}", json={**fields, "phone": HOSTILE_TEXT, **details}, headers=who.basic
    )
    assert response.status_code == 201, response.text
    record = response.json()
    assert record[name] == CLEAN_TITLE
    assert record["phone"] == "Main Street 5"  # no markup at all in plain fields
    for body in [response.text, *await read_back(client, who, plural, record)]:
        assert_harmless(body)


@pytest.mark.parametrize("role", UNTRUSTED)
async def test_inline_venues_and_organizers_of_an_event_are_sanitised(
    client: AsyncClient, auth: Auth, role: str
) -> None:
    who = await auth(role)
    response = await client.post(
        f"{API}/events",
        json=event_payload(
            title="Inline",
            venue={"venue": HOSTILE_TITLE, "address": HOSTILE_TEXT, "description": HOSTILE_HTML},
            organizer=[{"organizer": HOSTILE_TITLE, "description": HOSTILE_HTML}],
        ),
        headers=who.basic,
    )
    assert response.status_code == 201, response.text
    event = response.json()
    assert event["venue"]["venue"] == CLEAN_TITLE
    assert event["organizer"][0]["organizer"] == CLEAN_TITLE
    assert_harmless(response.text)
    venue = await client.get(f"{API}/venues/{event['venue']['id']}", headers=who.basic)
    assert_harmless(venue.text)


async def test_an_authors_category_is_sanitised(client: AsyncClient, auth: Auth) -> None:
    author = await auth("author")  # authors manage categories; tags need an editor
    response = await client.post(
        f"{API}/categories",
        json={"name": HOSTILE_TITLE, "description": HOSTILE_HTML},
        headers=author.basic,
    )
    assert response.status_code == 201, response.text
    assert response.json()["name"] == CLEAN_TITLE
    assert_harmless(response.text)
    term_id = response.json()["id"]
    renamed = await client.post(
        f"/de{API}/categories/{term_id}", json={"description": HOSTILE_HTML}, headers=author.basic
    )
    assert_harmless(renamed.text)
    created_inline = await client.post(
        f"{API}/events",
        json=event_payload(title="With category", categories=["<b onclick=x()>Brand new</b>"]),
        headers=author.basic,
    )
    assert created_inline.status_code == 201, created_inline.text
    assert created_inline.json()["categories"][0]["name"] == "<b>Brand new</b>"
    listed = await client.get(f"{API}/categories", params={"hide_empty": "false"})
    assert_harmless(listed.text)


async def test_a_title_that_is_only_markup_is_refused(client: AsyncClient, auth: Auth) -> None:
    author = await auth("author")
    response = await client.post(
        f"{API}/events",
        json=event_payload(title="<script>alert(1)</script>"),
        headers=author.basic,
    )
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == ["title"]


@pytest.mark.parametrize("role", TRUSTED)
async def test_editors_and_administrators_keep_their_markup(
    client: AsyncClient, auth: Auth, role: str
) -> None:
    who = await auth(role)
    response = await client.post(
        f"{API}/events",
        json=event_payload(title=HOSTILE_TITLE, description=HOSTILE_HTML),
        headers=who.basic,
    )
    assert response.status_code == 201, response.text
    assert response.json()["title"] == HOSTILE_TITLE
    assert response.json()["description"] == HOSTILE_HTML
    venue = await client.post(
        f"{API}/venues", json={"venue": "Hall", "address": HOSTILE_TEXT}, headers=who.basic
    )
    assert venue.json()["address"] == HOSTILE_TEXT
