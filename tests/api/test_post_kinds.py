"""The record rules events, venues and organizers share: one implementation, one behaviour.

Each test runs for every post kind, through HTTP (docs/design.md#records).
"""

import pytest
from httpx import AsyncClient

from tests.factories import API, Auth
from tests.factories import create_record as create
from tests.factories import record_payload as payload


@pytest.fixture(params=["events", "venues", "organizers"])
def plural(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind


@pytest.mark.parametrize(
    ("sent", "stored"), [("Publish", "publish"), ("DRAFT", "draft"), (" Private ", "private")]
)
async def test_statuses_are_case_insensitive(
    client: AsyncClient, auth: Auth, plural: str, sent: str, stored: str
) -> None:
    editor = await auth("editor")
    record = await create(client, editor, plural, "Status case", status=sent)
    assert record["status"] == stored
    listed = await client.get(
        f"{API}/{plural}", params={"status": sent.strip().upper()}, headers=editor.basic
    )
    assert listed.status_code == 200
    assert record["id"] in [item["id"] for item in listed.json()[plural]]


async def test_an_unknown_status_is_a_400_naming_it(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    editor = await auth("editor")
    response = await client.post(
        f"{API}/{plural}", json=payload(plural, "Live", status="live"), headers=editor.basic
    )
    assert response.status_code == 400
    assert response.json()["code"] == "rest_invalid_param"
    assert list(response.json()["data"]["params"]) == ["status"]
    listed = await client.get(f"{API}/{plural}", params={"status": "live"}, headers=editor.basic)
    assert listed.status_code == 400
    assert list(listed.json()["data"]["params"]) == ["status"]


async def test_a_slug_taken_on_update_gets_the_next_free_suffix(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    editor = await auth("editor")
    first = await create(client, editor, plural, "Harbour Nights")
    second = await create(client, editor, plural, "Other")
    assert first["slug"] == "harbour-nights"
    renamed = await client.patch(
        f"{API}/{plural}/{second['id']}", json={"slug": "harbour-nights"}, headers=editor.basic
    )
    assert renamed.status_code == 200
    assert renamed.json()["slug"] == "harbour-nights-2"
    again = await client.post(
        f"{API}/{plural}/by-slug/harbour-nights-2",
        json={"slug": "Harbour Nights"},
        headers=editor.basic,
    )
    assert again.json()["slug"] == "harbour-nights-2"  # its own slug is not taken
    untouched = await client.get(f"{API}/{plural}/{first['id']}", headers=editor.basic)
    assert untouched.json()["slug"] == "harbour-nights"


async def test_by_slug_routes_ignore_letter_case(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    editor = await auth("editor")
    record = await create(client, editor, plural, "Quiet Garden")
    found = await client.get(f"{API}/{plural}/by-slug/QUIET-Garden")
    assert found.status_code == 200
    assert found.json()["id"] == record["id"]


async def test_an_unknown_slug_is_named_as_a_slug(client: AsyncClient, plural: str) -> None:
    singular = plural.removesuffix("s")
    response = await client.get(f"{API}/{plural}/by-slug/no-such-thing")
    assert response.status_code == 404
    assert response.json()["code"] == f"rest-{singular}-not-found"
    assert "slug no-such-thing" in response.json()["message"]


async def test_only_editors_give_records_to_other_authors(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    author = await auth("author")
    other = await auth("author")
    editor = await auth("editor")
    refused = await client.post(
        f"{API}/{plural}", json=payload(plural, "Mine", author=other.id), headers=author.basic
    )
    assert refused.status_code == 403
    assert refused.json()["code"] == "rest_forbidden"
    unknown = await client.post(
        f"{API}/{plural}", json=payload(plural, "Nobody's", author=987654), headers=editor.basic
    )
    assert unknown.status_code == 400
    assert list(unknown.json()["data"]["params"]) == ["author"]
    given = await create(client, editor, plural, "Given", author=other.id)
    assert given["author"] == str(other.id)


async def test_publishing_with_a_future_date_schedules(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    editor = await auth("editor")
    contributor = await auth("contributor")
    scheduled = await create(client, editor, plural, "Later", date="2099-01-01 09:00:00")
    assert scheduled["status"] == "future"
    due = await create(client, editor, plural, "Due", status="future", date="2001-01-01")
    assert due["status"] == "publish"
    waiting = await create(client, contributor, plural, "Waiting", status="future")
    assert waiting["status"] == "pending"  # contributors cannot publish
