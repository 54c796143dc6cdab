"""The RSVP part of `make bench` (docs/design.md#tickets-and-rsvp, docs/performance.md):

1. RSVPs per second at saturation: every connection answers "going" to one ticket whose
   capacity the run cannot reach, each request a new address: every answer takes the
   ticket's row (the one conditional UPDATE of `tickets.taken`), writes the attendee, its
   message to the outbox (the ticket's QR code and the event's .ics, made in the request)
   and the throttle's count, so the row is the point all of them pass one at a time;
2. the capacity held: the same load on a ticket of a few places until the end: exactly that
   many going (read back from the database: `taken`, the going attendees' places), every
   other answer a 409 `ticket-sold-out`, and how many answers a second a sold-out ticket
   gives.
"""

import asyncio
import base64
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, Protocol

import asyncpg

from app.tickets.params import MAX_PLACES
from bench.load import PLACEHOLDER, Spec
from bench.webhooks import LoadResult as Timed

API = "/calendar/events/v1"
UNREACHED = MAX_PLACES  # the first ticket's capacity: no run sells it out
SOLD_OUT_PLACES = 50  # the second ticket's, by default (--rsvp-places)


class LoadResult(Timed, Protocol):
    """What a run of the load reports (bench/run.py's Result), errors included."""

    @property
    def p99_ms(self) -> float: ...
    @property
    def non2xx(self) -> int: ...
    @property
    def transport(self) -> int: ...


@dataclass
class RsvpNumbers:
    concurrency: int
    going: LoadResult  # the unreached ticket: every answer a place
    sold_out: LoadResult  # the small ticket: SOLD_OUT_PLACES answers a place, then 409s
    taken: int  # the small ticket's `taken` after the run
    going_places: int  # the places its going attendees hold
    capacity: int

    @property
    def held(self) -> bool:
        """No more places taken than the capacity, and `taken` what the attendees hold."""
        return self.taken == self.going_places <= self.capacity

    def lines(self) -> list[str]:
        going, sold = self.going, self.sold_out
        return [
            "",
            f"RSVP (POST /tickets/{{id}}/rsvp, one ticket, {self.concurrency} connections):",
            f"  {going.rate:,.0f} RSVPs/s at saturation, p50 {going.p50_ms:.1f} ms, "
            f"p99 {going.p99_ms:.1f} ms, {going.requests} going, "
            f"{going.non2xx + going.transport} errors",
            f"  sold out ({self.capacity} places): {sold.rate:,.0f} answers/s over "
            f"{sold.requests} requests, {sold.requests - sold.non2xx} going, "
            f"{sold.non2xx} refused (409), {sold.transport} transport errors; "
            f"taken {self.taken} of {self.capacity}, going places {self.going_places}: "
            + ("capacity held" if self.held else "CAPACITY NOT HELD"),
        ]


def _post(base: str, path: str, headers: dict[str, str], body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        f"{base}{API}{path}",
        data=json.dumps(body).encode(),
        headers={**headers, "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"POST {path}: {error.code} {error.read().decode()}") from error


async def _held(database: str, ticket_id: int) -> tuple[int, int]:
    """(the ticket's `taken`, the places of its going attendees)."""
    conn = await asyncpg.connect(database)
    try:
        taken = await conn.fetchval("SELECT taken FROM tickets WHERE id = $1", ticket_id)
        going = await conn.fetchval(
            "SELECT coalesce(sum(quantity), 0) FROM attendees"
            " WHERE ticket_id = $1 AND status = 'going'",
            ticket_id,
        )
        return int(taken), int(going)
    finally:
        await conn.close()


def measure(
    *,
    database: str,
    server: str,
    editor: tuple[str, str],
    run: Callable[[Spec, float], LoadResult],
    concurrency: int,
    duration: float,
    warmup: float,
    step: Callable[[str], None],
    places: int = SOLD_OUT_PLACES,
) -> RsvpNumbers:
    """`run(spec, seconds)` drives the server with `concurrency` connections; `places`:
    the capacity of the ticket sold out."""
    token = base64.b64encode(f"{editor[0]}:{editor[1]}".encode()).decode()
    headers = {"Authorization": f"Basic {token}"}
    day = date.today() + timedelta(days=60)
    event = _post(
        server,
        "/events",
        headers,
        {"title": "Bench concert", "start_date": f"{day} 19:00:00", "end_date": f"{day} 22:00:00"},
    )

    def ticket(capacity: int) -> int:
        made = _post(server, "/tickets", headers, {"event": event["id"], "name": "Entry",
                                                    "capacity": capacity})  # fmt: skip
        return int(made["id"])

    def answers(ticket_id: int) -> Spec:
        body = {"name": f"Guest {PLACEHOLDER}", "email": f"guest{PLACEHOLDER}@example.org"}
        return Spec(
            "POST",
            [f"{API}/tickets/{ticket_id}/rsvp"],
            headers={"Content-Type": "application/json"},
            body=json.dumps(body),
        )

    plenty = answers(ticket(UNREACHED))
    if warmup > 0:
        run(plenty, warmup)
    going = run(plenty, duration)
    step(f"RSVP: {going.rate:,.0f} going answers/s, p50 {going.p50_ms:.1f} ms")
    few = ticket(places)
    # Long enough to sell it out about three times over at the rate just measured.
    sold_out = run(answers(few), max(duration / 2, 3 * places / max(going.rate, 1)))
    taken, going_places = asyncio.run(_held(database, few))
    step(f"RSVP sold out: {sold_out.rate:,.0f} answers/s, taken {taken} of {places}")
    return RsvpNumbers(concurrency, going, sold_out, taken, going_places, places)
