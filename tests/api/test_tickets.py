"""Tickets through the API: who makes them (who may edit the event), who reads them (who
may read the event), their bodies, and the list (docs/design.md#tickets-and-rsvp)."""

from httpx import AsyncClient

from tests.factories import API, Auth, AuthFor, create_record
from tests.tickets import make_ticket, ticket, ticketed_event


async def test_an_editor_adds_a_ticket_and_anyone_reads_it(
    client: AsyncClient, editor: AuthFor
) -> None:
    event_id, made = await ticketed_event(
        client, editor, capacity=50, description="Doors at 7", waitlist=True
    )
    assert made["event"] == event_id
    assert made["capacity"] == 50
    assert made["available"] == 50
    assert made["taken"] == 0
    assert made["max_per_person"] == 10
    assert made["on_sale"] is True
    assert made["waitlist"] is True
    assert made["price"] == 0
    assert made["currency"] == "EUR"
    assert made["sale_starts"] is None
    assert made["date"] is None
    # The sale closes when the event starts (the event was made for tomorrow).
    event = (await client.get(f"{API}/events/{event_id}")).json()
    assert made["sale_ends"] == event["start_date"]
    read = await ticket(client, made["id"])
    assert read == made
    # `on_sale` turns with the clock: no shared cache (the server's included) keeps it.
    answer = await client.get(f"{API}/tickets/{made['id']}")
    assert answer.headers["cache-control"] == "private, no-cache"
    assert "etag" in answer.headers
    listed = await client.get(f"{API}/tickets", params={"event": event_id})
    assert listed.status_code == 200
    assert [item["id"] for item in listed.json()["tickets"]] == [made["id"]]
    assert listed.headers["X-WP-Total"] == "1"
    assert listed.headers["cache-control"] == "private, no-cache"


async def test_unlimited_capacity_has_no_places_left_figure(
    client: AsyncClient, editor: AuthFor
) -> None:
    _, made = await ticketed_event(client, editor)
    assert made["capacity"] is None
    assert made["available"] is None


async def test_only_who_may_edit_the_event_adds_tickets(
    client: AsyncClient, editor: AuthFor, auth: Auth
) -> None:
    event = await create_record(client, editor, "events", "Talk")
    anonymous = await client.post(f"{API}/tickets", json={"event": event["id"], "name": "A"})
    assert anonymous.status_code == 401
    author = await auth("author")
    others = await client.post(
        f"{API}/tickets", json={"event": event["id"], "name": "A"}, headers=author.basic
    )
    assert others.status_code == 403
    own = await create_record(client, author, "events", "My talk")
    made = await make_ticket(client, author, event=own["id"])
    assert made["event"] == own["id"]


async def test_bad_ticket_parameters_are_named(client: AsyncClient, editor: AuthFor) -> None:
    event = await create_record(client, editor, "events", "Talk")
    response = await client.post(
        f"{API}/tickets",
        json={"event": event["id"], "name": "A", "capacity": -1, "max_per_person": 0},
        headers=editor.basic,
    )
    assert response.status_code == 400
    assert set(response.json()["data"]["params"]) == {"capacity", "max_per_person"}
    missing = await client.post(f"{API}/tickets", json={"event": event["id"]}, headers=editor.basic)
    assert missing.status_code == 400
    assert missing.json()["code"] == "rest_missing_callback_param"
    window = await client.post(
        f"{API}/tickets",
        json={
            "event": event["id"],
            "name": "A",
            "sale_starts": "+2 hours",
            "sale_ends": "+1 hour",
        },
        headers=editor.basic,
    )
    assert window.status_code == 400
    assert "sale_ends" in window.json()["data"]["params"]
    unknown = await client.post(
        f"{API}/tickets", json={"event": 999_999_999, "name": "A"}, headers=editor.basic
    )
    assert unknown.status_code == 404


async def test_tickets_of_an_event_nobody_may_read_are_hidden(
    client: AsyncClient, editor: AuthFor
) -> None:
    event_id, made = await ticketed_event(client, editor, event={"status": "draft"})
    assert (await client.get(f"{API}/tickets/{made['id']}")).status_code in (401, 403)
    listed = await client.get(f"{API}/tickets")
    assert made["id"] not in [item["id"] for item in listed.json()["tickets"]]
    by_event = await client.get(f"{API}/tickets", params={"event": event_id})
    assert by_event.status_code in (401, 403)
    seen = await client.get(f"{API}/tickets/{made['id']}", headers=editor.basic)
    assert seen.status_code == 200


async def test_a_ticket_changes_and_goes(client: AsyncClient, editor: AuthFor) -> None:
    _, made = await ticketed_event(client, editor, capacity=5)
    path = f"{API}/tickets/{made['id']}"
    changed = await client.patch(
        path, json={"name": "Seat", "capacity": None, "waitlist": True}, headers=editor.basic
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["name"] == "Seat"
    assert changed.json()["capacity"] is None
    assert changed.json()["waitlist"] is True
    assert (await client.patch(path, json={"name": "X"})).status_code == 401
    deleted = await client.delete(path, headers=editor.basic)
    assert deleted.status_code == 200
    assert deleted.json()["previous"]["name"] == "Seat"
    assert (await client.get(path)).status_code == 404


async def test_the_routes_are_in_the_doc_with_their_security(client: AsyncClient) -> None:
    doc = (await client.get(f"{API}/doc")).json()
    paths = doc["paths"]
    assert "security" in paths["/tickets"]["post"]
    assert "security" in paths["/tickets/{id}"]["patch"]
    assert "security" in paths["/tickets/{id}"]["delete"]
    rsvp = paths["/tickets/{id}/rsvp"]["post"]
    # Anonymous: credentials optional, the document's default.
    assert "security" not in rsvp
    assert rsvp["x-almanac-anonymous"] is True
    assert {"409", "429"} <= set(rsvp["responses"])
    body = rsvp["requestBody"]["content"]["application/json"]["schema"]
    name = body["$ref"].rsplit("/", 1)[1]
    assert set(doc["components"]["schemas"][name]["required"]) == {"name", "email"}


async def test_a_protected_events_tickets_are_listed_only_with_its_password(
    client: AsyncClient, editor: AuthFor
) -> None:
    event_id, made = await ticketed_event(client, editor, event={"password": "pw"})
    everything = await client.get(f"{API}/tickets")
    assert made["id"] not in [item["id"] for item in everything.json()["tickets"]]
    refused = await client.get(f"{API}/tickets", params={"event": event_id})
    assert refused.status_code == 403
    opened = await client.get(f"{API}/tickets", params={"event": event_id, "password": "pw"})
    assert [item["id"] for item in opened.json()["tickets"]] == [made["id"]]
    editors = await client.get(f"{API}/tickets", headers=editor.basic)
    assert made["id"] in [item["id"] for item in editors.json()["tickets"]]
