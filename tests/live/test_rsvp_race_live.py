"""The capacity race over two instances: 300 simultaneous RSVPs for 50 places, sent half to
each of two real `almanac serve` processes on one database, give exactly 50 going
attendees; every other answer is a clear 409 `ticket-sold-out` (or, when the ticket has a
waitlist, a place on it), and the ticket, the attendee list and the event's attendance agree (docs/design.md#tickets-and-rsvp: the one
conditional UPDATE of `tickets.taken`)."""

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from tests.factories import API, basic
from tests.live.harness import add_user, fresh_database
from tests.live.test_instances import Instance, serving

PLACES = 50
REQUESTS = 300
# Every RSVP comes from 127.0.0.1: the throttle (RSVP_LIMIT per client address) must not be
# what answers here.
RSVP_LIMIT = 10 * REQUESTS


@dataclass(frozen=True)
class Pair:
    a: Instance
    b: Instance
    editor: dict[str, str]


@pytest.fixture(scope="module")
async def pair(database_url: str) -> AsyncIterator[Pair]:
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(
            fresh_database(database_url, "almanac_rsvp_race", migrated=True)
        )
        _, password = await add_user(url, "doorman", "editor")
        # The default pool (test_instances' servers have a small one), and a connection
        # waited for as long as a whole burst on one ticket's row may take on a busy machine:
        # each answer is the ticket's, never the pool's 503.
        settings = {
            "RSVP_LIMIT": str(RSVP_LIMIT),
            "DB_POOL_SIZE": "10",
            "DB_MAX_OVERFLOW": "10",
            "DB_CONNECT_TIMEOUT": "90",
        }
        a, b = await asyncio.gather(
            stack.enter_async_context(serving(url, workers=1, **settings)),
            stack.enter_async_context(serving(url, workers=1, **settings)),
        )
        yield Pair(a, b, basic("doorman", password))


@dataclass(frozen=True)
class Burst:
    event_id: int
    ticket_id: int
    answers: list[httpx.Response]  # in the order sent: even to instance a, odd to b


async def burst(pair: Pair, client: httpx.AsyncClient, title: str, **ticket: object) -> Burst:
    """An event (made through one instance) with a ticket of PLACES places and `ticket`'s
    fields (made through the other), then REQUESTS answers at once, half to each."""
    start = datetime.now(UTC) + timedelta(days=3)
    event = await client.post(
        f"{pair.a.base}{API}/events",
        json={
            "title": title,
            "start_date": start.strftime("%Y-%m-%d %H:%M:%S"),
            "end_date": (start + timedelta(hours=2)).strftime("%Y-%m-%d %H:%M:%S"),
        },
        headers=pair.editor,
    )
    assert event.status_code == 201, event.text
    event_id = event.json()["id"]
    made = await client.post(
        f"{pair.b.base}{API}/tickets",
        json={"event": event_id, "name": "Entry", "capacity": PLACES, **ticket},
        headers=pair.editor,
    )
    assert made.status_code == 201, made.text
    ticket_id = made.json()["id"]

    async def answer(number: int) -> httpx.Response:
        base = (pair.a, pair.b)[number % 2].base
        email = f"guest{number}.{ticket_id}@example.org"
        payload = {"name": f"Guest {number}", "email": email}
        return await client.post(f"{base}{API}/tickets/{ticket_id}/rsvp", json=payload)

    answers = await asyncio.gather(*(answer(number) for number in range(REQUESTS)))
    return Burst(event_id, ticket_id, list(answers))


def client_for_bursts() -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=REQUESTS, max_keepalive_connections=REQUESTS)
    return httpx.AsyncClient(timeout=120, limits=limits)


async def test_300_rsvps_over_two_instances_give_exactly_the_capacity(pair: Pair) -> None:
    async with client_for_bursts() as client:
        found = await burst(pair, client, "Sold out in seconds")
        answers, event_id, ticket_id = found.answers, found.event_id, found.ticket_id
        statuses = Counter(response.status_code for response in answers)
        assert statuses == {201: PLACES, 409: REQUESTS - PLACES}, statuses
        going = [r.json() for r in answers if r.status_code == 201]
        assert {body["status"] for body in going} == {"going"}
        refused = [r.json() for r in answers if r.status_code == 409]
        assert {body["code"] for body in refused} == {"ticket-sold-out"}
        assert all(body["message"] for body in refused)
        # Both instances sold places: the race was theirs, not one process's.
        sold_by = Counter(n % 2 for n, r in enumerate(answers) if r.status_code == 201)
        assert set(sold_by) == {0, 1}, sold_by

        # The ticket, the list of attendees and the event's figures agree, on either side.
        for instance in (pair.a, pair.b):
            read = (await client.get(f"{instance.base}{API}/tickets/{ticket_id}")).json()
            assert (read["taken"], read["available"]) == (PLACES, 0)
            attendees = await client.get(
                f"{instance.base}{API}/attendees",
                params={"event": event_id, "per_page": 100},
                headers=pair.editor,
            )
            assert attendees.status_code == 200, attendees.text
            listed = attendees.json()["attendees"]
            assert len(listed) == PLACES
            assert {a["status"] for a in listed} == {"going"}
            figures = (
                await client.get(f"{instance.base}{API}/events/{event_id}", headers=pair.editor)
            ).json()["attendance"]
            assert figures["going"] == PLACES
            assert figures["capacity"] == PLACES


async def test_with_a_waitlist_the_others_wait_in_line(pair: Pair) -> None:
    async with client_for_bursts() as client:
        found = await burst(pair, client, "Queue for it", waitlist=True)
        statuses = Counter(
            (response.status_code, response.json()["status"]) for response in found.answers
        )
        assert statuses == {(201, "going"): PLACES, (201, "waitlisted"): REQUESTS - PLACES}
        read = (await client.get(f"{pair.a.base}{API}/tickets/{found.ticket_id}")).json()
        assert (read["taken"], read["available"]) == (PLACES, 0)
        figures = (
            await client.get(f"{pair.b.base}{API}/events/{found.event_id}", headers=pair.editor)
        ).json()["attendance"]
        assert (figures["going"], figures["waitlisted"]) == (PLACES, REQUESTS - PLACES)

        # A cancellation through one instance moves the first one waiting up, for both.
        going = next(r.json() for r in found.answers if r.json()["status"] == "going")
        cancelled = await client.delete(going["manage_url"])
        assert cancelled.status_code == 200, cancelled.text
        assert cancelled.json()["status"] == "cancelled"
        first_waiting = min(
            r.json()["id"] for r in found.answers if r.json()["status"] == "waitlisted"
        )
        for instance in (pair.b, pair.a):
            moved = await client.get(
                f"{instance.base}{API}/attendees/{first_waiting}", headers=pair.editor
            )
            assert moved.json()["status"] == "going"
            read = (await client.get(f"{instance.base}{API}/tickets/{found.ticket_id}")).json()
            assert read["taken"] == PLACES
