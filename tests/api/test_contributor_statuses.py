"""A contributor's records are draft or pending (docs/design.md, Statuses): `private` and
`trash` would skip an editor's review, on create and on update, for every post kind, through
the API and the desk alike (one rule: app/core/rules/permissions.py scale_status)."""

import pytest
from httpx import AsyncClient

from tests.desk_support import DeskUserFactory, desk_login
from tests.factories import API, Auth, create_record, record_payload

KINDS = ["events", "venues", "organizers"]


@pytest.mark.parametrize("plural", KINDS)
@pytest.mark.parametrize("status", ["private", "trash", "Private"])
async def test_a_contributor_cannot_create_a_private_or_trashed_record(
    client: AsyncClient, auth: Auth, plural: str, status: str
) -> None:
    contributor = await auth("contributor")
    payload = record_payload(plural, "Skipping review", status=status)
    response = await client.post(f"{API}/{plural}", json=payload, headers=contributor.basic)
    assert response.status_code == 403, response.text
    body = response.json()
    assert body["code"] == "rest_cannot_publish"
    assert status.lower() in body["message"]
    listed = await client.get(
        f"{API}/{plural}", params={"status": "any"}, headers=contributor.basic
    )
    assert listed.json()["total"] == 0  # nothing was written


@pytest.mark.parametrize("plural", KINDS)
@pytest.mark.parametrize("status", ["private", "trash"])
async def test_a_contributor_cannot_make_their_draft_private_or_trashed(
    client: AsyncClient, auth: Auth, plural: str, status: str
) -> None:
    contributor = await auth("contributor")
    draft = await create_record(client, contributor, plural, "My draft", status="draft")
    path = f"{API}/{plural}/{draft['id']}"
    response = await client.post(path, json={"status": status}, headers=contributor.basic)
    assert response.status_code == 403, response.text
    assert response.json()["code"] == "rest_cannot_publish"
    after = await client.get(path, headers=contributor.basic)
    assert after.json()["status"] == "draft"


@pytest.mark.parametrize("plural", KINDS)
async def test_a_contributor_still_writes_drafts_and_pending_and_deletes_their_draft(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    contributor = await auth("contributor")
    draft = await create_record(client, contributor, plural, "Idea", status="draft")
    path = f"{API}/{plural}/{draft['id']}"
    pending = await client.post(path, json={"status": "pending"}, headers=contributor.basic)
    assert pending.json()["status"] == "pending"
    published = await client.post(path, json={"status": "publish"}, headers=contributor.basic)
    assert published.json()["status"] == "pending"  # the reference's scaling, unchanged
    gone = await client.delete(path, headers=contributor.basic)
    assert gone.status_code == 200
    assert gone.json()["status"] == "trash"


async def test_an_author_may_still_make_a_record_private(client: AsyncClient, auth: Auth) -> None:
    author = await auth("author")
    record = await create_record(client, author, "venues", "Back room", status="private")
    assert record["status"] == "private"


async def test_the_desk_refuses_a_contributors_forced_private_status(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    contributor = await desk_user("contributor")
    token = await desk_login(client, contributor)
    response = await client.post(
        "/desk/organizers/new",
        data={"csrf_token": token, "organizer": "Con", "status": "private"},
    )
    assert response.status_code == 403
    listed = await client.get(
        f"{API}/organizers", params={"status": "any"}, headers=contributor.basic
    )
    assert listed.json()["total"] == 0
