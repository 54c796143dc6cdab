"""Every rule an RSVP meets through the API (docs/design.md#tickets-and-rsvp): the sale
window, the event's state (as reading it answers), the answer's parameters, the throttle;
and a ticket's writes: If-Match, the capacity kept above the places taken, the list's
on_sale filter."""

from typing import Any

import pytest
from httpx import AsyncClient

from app.core.settings import get_settings
from tests.factories import API, AuthFor, create_record
from tests.tickets import make_ticket, rsvp, ticket, ticketed_event


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"sale_starts": "+2 hours"}, "not on sale yet"),
        ({"sale_starts": "-3 hours", "sale_ends": "-1 hour"}, "no longer on sale"),
    ],
)
async def test_outside_the_sale_window_is_refused_with_the_reason(
    client: AsyncClient, editor: AuthFor, fields: dict[str, Any], reason: str
) -> None:
    _, made = await ticketed_event(client, editor, **fields)
    assert made["on_sale"] is False
    refused = await rsvp(client, made["id"])
    assert refused.status_code == 400
    assert refused.json()["code"] == "ticket-not-on-sale"
    assert reason in refused.json()["message"]


async def test_a_begun_event_takes_no_rsvp(client: AsyncClient, editor: AuthFor) -> None:
    dates = {"start_date": "-1 hour", "end_date": "+1 hour"}
    _, made = await ticketed_event(client, editor, event=dates)
    refused = await rsvp(client, made["id"])
    assert refused.status_code == 400
    assert refused.json()["code"] == "ticket-not-on-sale"
    assert "has begun" in refused.json()["message"]
    german = await client.post(
        f"/de{API}/tickets/{made['id']}/rsvp", json={"name": "Ada", "email": "a@example.org"}
    )
    assert "begonnen" in german.json()["message"]


async def test_a_sale_end_after_the_start_closes_at_the_start(
    client: AsyncClient, editor: AuthFor
) -> None:
    event_id, made = await ticketed_event(client, editor, sale_ends="+1 year")
    event = (await client.get(f"{API}/events/{event_id}")).json()
    assert made["sale_ends"] == event["start_date"]


@pytest.mark.parametrize("status", ["draft", "private", "pending"])
async def test_an_event_nobody_may_read_takes_no_rsvp(
    client: AsyncClient, editor: AuthFor, status: str
) -> None:
    event_id, made = await ticketed_event(client, editor, event={"status": status})
    read = await client.get(f"{API}/events/{event_id}")
    refused = await rsvp(client, made["id"])
    assert refused.status_code == read.status_code
    assert refused.status_code in (401, 403, 404)
    assert refused.json()["code"] == read.json()["code"]
    assert (await ticket(client, made["id"], **editor.basic))["taken"] == 0


async def test_a_trashed_event_takes_no_rsvp(client: AsyncClient, editor: AuthFor) -> None:
    event_id, made = await ticketed_event(client, editor)
    assert (await client.delete(f"{API}/events/{event_id}", headers=editor.basic)).is_success
    refused = await rsvp(client, made["id"])
    assert refused.status_code == 403
    assert refused.json()["code"] == "event-no-longer-available"


async def test_a_protected_event_needs_its_password(client: AsyncClient, editor: AuthFor) -> None:
    _, made = await ticketed_event(client, editor, event={"password": "open sesame"})
    refused = await rsvp(client, made["id"])
    assert refused.status_code == 403
    assert refused.json()["code"] == "event-password-protected"
    wrong = await rsvp(client, made["id"], password="nope")
    assert wrong.status_code == 403
    assert (await client.get(f"{API}/tickets/{made['id']}")).status_code == 403
    answered = await rsvp(client, made["id"], password="open sesame")
    assert answered.status_code == 201, answered.text
    read = await client.get(f"{API}/tickets/{made['id']}", params={"password": "open sesame"})
    assert read.json()["taken"] == 1


async def test_an_unknown_ticket_is_a_404(client: AsyncClient) -> None:
    missing = await rsvp(client, 999_999_999)
    assert missing.status_code == 404
    assert missing.json()["code"] == "rest-ticket-not-found"


async def test_bad_answers_are_named(client: AsyncClient, editor: AuthFor) -> None:
    _, made = await ticketed_event(client, editor)
    path = f"{API}/tickets/{made['id']}/rsvp"
    bad = await client.post(
        path, json={"name": "Ada", "email": "not an address", "quantity": 0, "going": "maybe"}
    )
    assert bad.status_code == 400
    assert set(bad.json()["data"]["params"]) == {"email", "quantity", "going"}
    missing = await client.post(path, json={"name": "Ada"})
    assert missing.status_code == 400
    assert missing.json()["data"]["params"] == ["email"]
    # A form works as JSON does.
    form = await client.post(path, data={"name": "Ada", "email": "ada@example.org"})
    assert form.status_code == 201
    assert (await ticket(client, made["id"]))["taken"] == 1


async def test_rsvps_are_throttled_per_client_address(client: AsyncClient, editor: AuthFor) -> None:
    _, made = await ticketed_event(client, editor, capacity=1)
    limit = get_settings().rsvp_limit
    # Every answer counts, taken or refused.
    statuses = [(await rsvp(client, made["id"], email=f"p{n}@example.org")).status_code
                for n in range(limit)]  # fmt: skip
    assert statuses == [201] + [409] * (limit - 1)
    throttled = await rsvp(client, made["id"], email="late@example.org")
    assert throttled.status_code == 429
    assert throttled.json()["code"] == "rest_too_many_requests"
    assert "RSVP" in throttled.json()["message"]
    assert int(throttled.headers["Retry-After"]) >= 1
    # Reading is not answering: still served.
    assert (await client.get(f"{API}/tickets/{made['id']}")).status_code == 200


async def test_a_ticket_write_honours_if_match(client: AsyncClient, editor: AuthFor) -> None:
    _, made = await ticketed_event(client, editor)
    path = f"{API}/tickets/{made['id']}"
    etag = (await client.get(path)).headers["etag"]
    stale = await client.patch(
        path, json={"name": "B"}, headers={**editor.basic, "If-Match": '"stale"'}
    )
    assert stale.status_code == 412
    changed = await client.patch(
        path, json={"name": "B"}, headers={**editor.basic, "If-Match": etag}
    )
    assert changed.status_code == 200
    assert changed.headers["etag"] == (await client.get(path)).headers["etag"]
    again = await client.delete(path, headers={**editor.basic, "If-Match": etag})
    assert again.status_code == 412


async def test_the_capacity_stays_above_the_places_taken(
    client: AsyncClient, editor: AuthFor
) -> None:
    _, made = await ticketed_event(client, editor, capacity=5)
    assert (await rsvp(client, made["id"], quantity=3)).status_code == 201
    path = f"{API}/tickets/{made['id']}"
    below = await client.patch(path, json={"capacity": 2}, headers=editor.basic)
    assert below.status_code == 400
    assert list(below.json()["data"]["params"]) == ["capacity"]
    exact = await client.patch(path, json={"capacity": 3}, headers=editor.basic)
    assert exact.json()["available"] == 0


async def test_the_list_filters_by_on_sale(client: AsyncClient, editor: AuthFor) -> None:
    event = await create_record(client, editor, "events", "Festival")
    open_now = await make_ticket(client, editor, event=event["id"], name="Now")
    later = await make_ticket(
        client, editor, event=event["id"], name="Later", sale_starts="+1 hour"
    )
    base = {"event": event["id"]}

    async def listed(**params: str) -> list[int]:
        response = await client.get(f"{API}/tickets", params={**base, **params})
        assert response.status_code == 200, response.text
        return [item["id"] for item in response.json()["tickets"]]

    assert await listed() == [open_now["id"], later["id"]]
    assert await listed(on_sale="true") == [open_now["id"]]
    assert await listed(on_sale="false") == [later["id"]]


async def test_a_ticket_without_an_event_or_name_is_refused_before_anything(
    client: AsyncClient, editor: AuthFor
) -> None:
    missing = await client.post(f"{API}/tickets", json={}, headers=editor.basic)
    assert missing.status_code == 400
    assert set(missing.json()["data"]["params"]) == {"event", "name"}
    assert (await client.post(f"{API}/tickets", json={})).status_code == 401
