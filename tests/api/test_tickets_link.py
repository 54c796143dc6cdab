"""The attendee's signed link through HTTP (docs/design.md#the-signed-link-changes-
cancellation-the-waitlist): a change, a cancellation and the waitlist moved up in strict
order, each promoted attendee emailed; tampered links; the per-person count on a change.
The page itself (what it shows, its forms' messages) is tests/api/test_pages_rsvp_attendee."""

from typing import Any
from urllib.parse import urlsplit

from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from tests.factories import API, AuthFor
from tests.tickets import rsvp, ticket, ticketed_event


async def answer(client: AsyncClient, ticket_id: int, who: str, **fields: Any) -> dict[str, Any]:
    response = await rsvp(client, ticket_id, email=f"{who}@example.org", name=who, **fields)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    body["path"] = urlsplit(body["manage_url"]).path
    return body


async def status_of(client: AsyncClient, editor: AuthFor, attendee: dict[str, Any]) -> str:
    read = await client.get(f"{API}/attendees/{attendee['id']}", headers=editor.basic)
    assert read.status_code == 200, read.text
    return str(read.json()["status"])


async def mails(db: AsyncSession, attendee: dict[str, Any]) -> list[str]:
    kinds = await db.scalars(
        text("SELECT kind FROM mail_outbox WHERE attendee_id = :id ORDER BY id"),
        {"id": attendee["id"]},
    )
    return list(kinds)


async def test_the_waitlist_moves_up_in_strict_order(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    _, made = await ticketed_event(client, editor, capacity=3, waitlist=True)
    ada = await answer(client, made["id"], "ada", quantity=2)
    bob = await answer(client, made["id"], "bob")
    party = await answer(client, made["id"], "party", quantity=2)
    solo = await answer(client, made["id"], "solo")
    assert [party["status"], solo["status"]] == ["waitlisted", "waitlisted"]
    # One place back: the first one waiting needs two, so nobody moves (not even solo,
    # who would fit: nobody is passed over).
    assert (await client.delete(bob["path"])).json()["status"] == "cancelled"
    assert await status_of(client, editor, party) == "waitlisted"
    assert await status_of(client, editor, solo) == "waitlisted"
    assert (await ticket(client, made["id"]))["taken"] == 2
    # Two more: the party, then solo.
    assert (await client.delete(ada["path"])).status_code == 200
    assert await status_of(client, editor, party) == "going"
    assert await status_of(client, editor, solo) == "going"
    assert (await ticket(client, made["id"]))["taken"] == 3
    assert await mails(db, party) == ["waitlisted", "promoted"]
    assert await mails(db, bob) == ["going", "cancelled"]


async def test_fewer_places_or_not_going_move_the_waitlist_up(
    client: AsyncClient, editor: AuthFor
) -> None:
    _, made = await ticketed_event(client, editor, capacity=3, waitlist=True)
    ada = await answer(client, made["id"], "ada", quantity=3)
    bob = await answer(client, made["id"], "bob")
    fewer = await client.post(ada["path"], data={"action": "change", "quantity": "2"})
    assert fewer.status_code == 303
    assert await status_of(client, editor, bob) == "going"
    carol = await answer(client, made["id"], "carol", quantity=2)
    assert carol["status"] == "waitlisted"
    away = await client.post(ada["path"], data={"action": "change", "going": "no"})
    assert away.status_code == 303
    assert await status_of(client, editor, ada) == "not_going"
    assert await status_of(client, editor, carol) == "going"
    assert (await ticket(client, made["id"]))["taken"] == 3


async def test_a_tampered_link_opens_nothing(client: AsyncClient, editor: AuthFor) -> None:
    _, made = await ticketed_event(client, editor)
    ada = await answer(client, made["id"], "ada")
    bob = await answer(client, made["id"], "bob")
    token = ada["path"].rstrip("/").rsplit("/", 1)[1]
    flipped = token[:-1] + ("A" if token[-1] != "A" else "B")
    others = bob["path"].rstrip("/").rsplit("/", 1)[1]
    for path in (
        f"/rsvp/{ada['id']}/{flipped}/",
        f"/rsvp/{ada['id']}/{others}/",  # another attendee's token
        f"/rsvp/{bob['id']}/{token}/",
        f"/rsvp/{ada['id'] + 1000}/{token}/",
    ):
        assert (await client.delete(path)).status_code == 404, path
        assert (await client.get(path)).status_code == 404, path
    assert await status_of(client, editor, ada) == "going"
    assert (await ticket(client, made["id"]))["taken"] == 2


async def test_a_change_counts_the_places_the_address_holds(
    client: AsyncClient, editor: AuthFor
) -> None:
    _, made = await ticketed_event(client, editor, max_per_person=3)
    await answer(client, made["id"], "ada", quantity=2)
    second = await rsvp(client, made["id"], email="ADA@example.org", quantity=1)
    assert second.status_code == 201
    path = urlsplit(second.json()["manage_url"]).path
    refused = await client.post(path, data={"action": "change", "quantity": "2"})
    assert refused.status_code == 400
    assert (await ticket(client, made["id"]))["taken"] == 3


async def test_a_cancelled_answer_is_not_changed(client: AsyncClient, editor: AuthFor) -> None:
    _, made = await ticketed_event(client, editor)
    ada = await answer(client, made["id"], "ada")
    assert (await client.delete(ada["path"])).status_code == 200
    again = await client.post(ada["path"], data={"action": "change", "quantity": "1"})
    assert again.status_code == 409
    assert await status_of(client, editor, ada) == "cancelled"
    assert (await ticket(client, made["id"]))["taken"] == 0
