"""RSVP through the API (docs/design.md#tickets-and-rsvp): the answer, the capacity, the
waitlist and its promotion, the per-person maximum, and the signed link."""

from httpx import AsyncClient

from tests.factories import AuthFor
from tests.tickets import rsvp, ticket, ticketed_event


async def test_going_takes_places_and_answers_without_personal_data(
    client: AsyncClient, editor: AuthFor
) -> None:
    event_id, made = await ticketed_event(client, editor, capacity=3)
    response = await rsvp(client, made["id"], quantity=2)
    assert response.status_code == 201, response.text
    body = response.json()
    assert set(body) == {"id", "event", "ticket", "status", "quantity", "manage_url"}
    assert body["status"] == "going"
    assert body["quantity"] == 2
    assert body["event"] == event_id
    assert body["ticket"] == made["id"]
    assert f"/rsvp/{body['id']}/" in body["manage_url"]
    assert "ada" not in response.text.lower()
    after = await ticket(client, made["id"])
    assert (after["taken"], after["available"]) == (2, 1)


async def test_sold_out_is_a_409_without_a_waitlist(client: AsyncClient, editor: AuthFor) -> None:
    _, made = await ticketed_event(client, editor, capacity=2)
    assert (await rsvp(client, made["id"], quantity=2)).status_code == 201
    refused = await rsvp(client, made["id"], email="bob@example.org")
    assert refused.status_code == 409
    assert refused.json()["code"] == "ticket-sold-out"
    assert "sold out" in refused.json()["message"]
    assert (await ticket(client, made["id"]))["taken"] == 2


async def test_sold_out_with_a_waitlist_waits(client: AsyncClient, editor: AuthFor) -> None:
    _, made = await ticketed_event(client, editor, capacity=1, waitlist=True)
    assert (await rsvp(client, made["id"])).json()["status"] == "going"
    waiting = await rsvp(client, made["id"], email="bob@example.org")
    assert waiting.status_code == 201
    assert waiting.json()["status"] == "waitlisted"


async def test_not_going_takes_no_place(client: AsyncClient, editor: AuthFor) -> None:
    _, made = await ticketed_event(client, editor, capacity=1)
    answer = await rsvp(client, made["id"], going=False)
    assert answer.json()["status"] == "not_going"
    assert (await ticket(client, made["id"]))["taken"] == 0


async def test_more_than_the_per_person_maximum_names_quantity(
    client: AsyncClient, editor: AuthFor
) -> None:
    _, made = await ticketed_event(client, editor, max_per_person=3)
    one_answer = await rsvp(client, made["id"], quantity=4)
    assert one_answer.status_code == 400
    assert list(one_answer.json()["data"]["params"]) == ["quantity"]
    assert (await rsvp(client, made["id"], quantity=2)).status_code == 201
    # The same address in another case holds those places already.
    again = await rsvp(client, made["id"], email="ADA@Example.org", quantity=2)
    assert again.status_code == 400
    assert list(again.json()["data"]["params"]) == ["quantity"]
    assert (await ticket(client, made["id"]))["taken"] == 2


async def test_the_refusals_speak_the_request_language(
    client: AsyncClient, editor: AuthFor
) -> None:
    _, made = await ticketed_event(client, editor, capacity=1)
    assert (await rsvp(client, made["id"])).status_code == 201
    path = f"/sk/calendar/events/v1/tickets/{made['id']}/rsvp"
    refused = await client.post(path, json={"name": "Bob", "email": "bob@example.org"})
    assert refused.status_code == 409
    assert refused.json()["message"] == "Tento lístok je vypredaný."
