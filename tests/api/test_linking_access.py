"""Linking a venue or organizer to an event needs the right to read it
(docs/design.md, Linked venues, organizers and terms): another author's unpublished one is
refused as a nonexistent ID is, so the answer tells nothing about it."""

import pytest
from httpx import AsyncClient

from tests.factories import API, Auth, create_record, record_payload


@pytest.mark.parametrize("plural", ["venues", "organizers"])
async def test_another_authors_unpublished_record_cannot_be_linked(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    owner, other = await auth("author"), await auth("author")
    name = plural[:-1]
    hidden = await create_record(client, owner, plural, "Secret place", status="draft")
    published = await create_record(client, owner, plural, "Open place")
    payload = record_payload("events", "Mine", **{name: hidden["id"]})
    refused = await client.post(f"{API}/events", json=payload, headers=other.basic)
    assert refused.status_code == 400, refused.text
    nowhere = record_payload("events", "Mine", **{name: 999_999})
    unknown = await client.post(f"{API}/events", json=nowhere, headers=other.basic)
    assert refused.json()["data"]["params"][name] == unknown.json()["data"]["params"][name].replace(
        "999999", str(hidden["id"])
    )
    event = await create_record(client, other, "events", "Mine", **{name: published["id"]})
    path = f"{API}/events/{event['id']}"
    on_update = await client.post(path, json={name: hidden["id"]}, headers=other.basic)
    assert on_update.status_code == 400
    # Their own draft, and anything for an editor, still link.
    own = await create_record(client, other, plural, "My draft place", status="draft")
    linked = await client.post(path, json={name: own["id"]}, headers=other.basic)
    assert linked.status_code == 200, linked.text
    editor = await auth("editor")
    by_editor = await client.post(path, json={name: hidden["id"]}, headers=editor.basic)
    assert by_editor.status_code == 200, by_editor.text
