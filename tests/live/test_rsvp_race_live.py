"""The capacity race over two instances: 300 simultaneous RSVPs for 50 places, sent half to
each of two real `almanac serve` processes on one database, give exactly 50 going
attendees; every other answer is a clear 409 `ticket-sold-out`, and the ticket, the
attendee list and the event's attendance agree (docs/design.md#tickets-and-rsvp: the one
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


async def test_300_rsvps_over_two_instances_give_exactly_the_capacity(pair: Pair) -> None:
    limits = httpx.Limits(max_connections=REQUESTS, max_keepalive_connections=REQUESTS)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        start = datetime.now(UTC) + timedelta(days=3)
        event = await client.post(
            f"{pair.a.base}{API}/events",
            json={
                "title": "Sold out in seconds",
                "start_date": start.strftime("%Y-%m-%d %H:%M:%S"),
                "end_date": (start + timedelta(hours=2)).strftime("%Y-%m-%d %H:%M:%S"),
            },
            headers=pair.editor,
        )
        assert event.status_code == 201, event.text
        event_id = event.json()["id"]
        ticket = await client.post(
            f"{pair.b.base}{API}/tickets",
            json={"event": event_id, "name": "Entry", "capacity": PLACES},
            headers=pair.editor,
        )
        assert ticket.status_code == 201, ticket.text
        ticket_id = ticket.json()["id"]

        async def answer(number: int) -> httpx.Response:
            base = (pair.a, pair.b)[number % 2].base
            payload = {"name": f"Guest {number}", "email": f"guest{number}@example.org"}
            return await client.post(f"{base}{API}/tickets/{ticket_id}/rsvp", json=payload)

        answers = await asyncio.gather(*(answer(number) for number in range(REQUESTS)))
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
