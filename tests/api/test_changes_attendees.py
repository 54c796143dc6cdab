"""Attendees in the changes feed and in webhooks: kind `attendee`, the action of its latest
change (created, updated, checked_in, cancelled, delete), IDs, status and places only (no
name, no address anywhere), told to the callers who may read the attendee's event."""

import json
from typing import Any

from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.app_services import app_services
from app.webhooks.fanout import fan_out
from tests.api.test_changes import changes, token
from tests.api.test_webhooks import subscribe
from tests.factories import API, AuthFor, create_record
from tests.tickets import make_ticket, rsvp, ticketed_event

RECORD_KEYS = ["id", "event", "ticket", "status", "quantity", "checked_in_at"]
PERSONAL = ("Ada Lovelace", "ada@example.org")


async def answer(client: AsyncClient, ticket_id: int, **fields: Any) -> dict[str, Any]:
    response = await rsvp(client, ticket_id, name=PERSONAL[0], email=PERSONAL[1], **fields)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def cancel(db: AsyncSession, attendee_id: int) -> None:
    """An attendee cancelled as a writer does it (status, `modified_at`); the places it held
    do not matter here."""
    await db.execute(
        text("UPDATE attendees SET status = 'cancelled', modified_at = now() WHERE id = :id"),
        {"id": attendee_id},
    )
    await db.commit()


def attendee_entries(found: dict[tuple[str, int], Any]) -> dict[int, Any]:
    return {key[1]: change for key, change in found.items() if key[0] == "attendee"}


async def test_an_attendees_changes_in_the_feed(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    event_id, made = await ticketed_event(client, editor, capacity=1, waitlist=True)
    since = await token(client)
    first = await answer(client, made["id"])
    second = await answer(client, made["id"])
    assert (first["status"], second["status"]) == ("going", "waitlisted")
    found = attendee_entries(await changes(client, since))
    assert set(found) == {first["id"], second["id"]}
    entry = found[first["id"]]
    assert list(entry) == ["kind", "id", "action", "modified_utc", "record"]
    assert entry["action"] == "created"
    assert list(entry["record"]) == RECORD_KEYS
    assert entry["record"] == {
        "id": first["id"], "event": event_id, "ticket": made["id"], "status": "going",
        "quantity": 1, "checked_in_at": None,
    }  # fmt: skip
    assert found[second["id"]]["record"]["status"] == "waitlisted"

    # Checked in at the door: the latest change, with its time in the site's zone.
    checked = await client.post(f"{API}/attendees/{first['id']}/check-in", headers=editor.basic)
    assert checked.status_code == 200, checked.text
    entry = attendee_entries(await changes(client, since))[first["id"]]
    assert entry["action"] == "checked_in"
    assert entry["record"]["checked_in_at"] == checked.json()["checked_in_at"]

    # Another change of the status or the places: updated; a cancellation: cancelled.
    await db.execute(
        text("UPDATE attendees SET quantity = 2, modified_at = now() + interval '1 second' "
             "WHERE id = :id"), {"id": second["id"]},
    )  # fmt: skip
    await db.commit()
    await cancel(db, first["id"])
    found = attendee_entries(await changes(client, since))
    assert found[second["id"]]["action"] == "updated"
    assert found[second["id"]]["record"]["quantity"] == 2
    assert found[first["id"]]["action"] == "cancelled"
    assert found[first["id"]]["record"]["status"] == "cancelled"

    # The ticket deleted: its attendees are gone, each a delete without a record.
    deleted = await client.delete(f"{API}/tickets/{made['id']}", headers=editor.basic)
    assert deleted.status_code == 200, deleted.text
    answered = await client.get(f"{API}/changes", params={"since": since})
    found = attendee_entries({(c["kind"], c["id"]): c for c in answered.json()["changes"]})
    assert {e["action"] for e in found.values()} == {"delete"}
    assert all(e["record"] is None for e in found.values())
    # No name or address anywhere in the feed, for anybody.
    for headers in ({}, editor.basic):
        text_of = (
            await client.get(f"{API}/changes", params={"since": since}, headers=headers)
        ).text
        assert not any(value in text_of for value in PERSONAL)


async def test_attendees_of_an_event_the_caller_may_not_read_are_left_out(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    public_id, public = await ticketed_event(client, editor)
    hidden = await create_record(client, editor, "events", "Rehearsal")
    hidden_ticket = await make_ticket(client, editor, event=hidden["id"])
    since = await token(client)
    seen = await answer(client, public["id"])
    unseen = await answer(client, hidden_ticket["id"])
    # Made private after the answers: its attendees are the editors' news alone.
    private = await client.patch(
        f"{API}/events/{hidden['id']}", json={"status": "private"}, headers=editor.basic
    )
    assert private.status_code == 200
    assert set(attendee_entries(await changes(client, since))) == {seen["id"]}
    as_editor = attendee_entries(await changes(client, since, editor.basic))
    assert set(as_editor) == {seen["id"], unseen["id"]}
    assert as_editor[unseen["id"]]["record"]["event"] == hidden["id"]
    assert public_id


async def test_webhooks_deliver_the_attendee_types(
    client: AsyncClient,
    admin: AuthFor,
    editor: AuthFor,
    app: FastAPI,
    db: AsyncSession,
    maker: async_sessionmaker[AsyncSession],
) -> None:
    every = await subscribe(client, admin, types="attendee.*")
    created_only = await subscribe(client, admin, types="attendee.created,event.upsert")
    checked_only = await subscribe(client, admin, types="attendee.checked_in")
    assert every["types"] == ["attendee.*"]
    settings = app_services(app).settings
    while await fan_out(maker, settings):  # up to now: the subscriptions' own changes
        pass
    event_id, made = await ticketed_event(client, editor)
    first = await answer(client, made["id"])
    while await fan_out(maker, settings):
        pass
    check_in = await client.post(f"{API}/attendees/{first['id']}/check-in", headers=editor.basic)
    assert check_in.status_code == 200
    while await fan_out(maker, settings):
        pass

    async def types(subscription: dict[str, Any]) -> list[tuple[str, int]]:
        url = f"{API}/webhooks/{subscription['id']}/deliveries"
        listed = (await client.get(url, headers=admin.basic)).json()["deliveries"]
        return sorted((d["type"], d["record_id"]) for d in listed if d["kind"] == "attendee")

    assert await types(every) == [
        ("attendee.checked_in", first["id"]), ("attendee.created", first["id"])
    ]  # fmt: skip
    assert await types(created_only) == [("attendee.created", first["id"])]
    assert await types(checked_only) == [("attendee.checked_in", first["id"])]
    bodies = (
        await db.execute(text("SELECT body FROM webhook_messages WHERE type LIKE 'attendee.%'"))
    ).scalars()
    for body in bodies:
        assert not any(value in body for value in PERSONAL)
        data = json.loads(body)["data"]
        assert data["kind"] == "attendee"
        assert list(data["record"]) == RECORD_KEYS
        assert data["record"]["event"] == event_id


async def test_unknown_attendee_types_are_refused(client: AsyncClient, admin: AuthFor) -> None:
    answer = await client.post(
        f"{API}/webhooks",
        json={"url": "http://93.184.215.14/hook", "types": "attendee.upsert"},
        headers=admin.basic,
    )
    assert answer.status_code == 400
    assert "types" in answer.json()["data"]["params"]
