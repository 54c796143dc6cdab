"""The RSVP form's guards against bots (app/pages/rsvp_form.py): the time trap (a signed
stamp of when the form was made: sooner than 3 seconds, forged or too old is refused with
a message, nothing written), the honeypot, and why a page with a form is never stored by
the response cache (app/core/caching/cache.py `storable`)."""

import asyncio
import time

from fastapi import FastAPI
from httpx import AsyncClient

from app.core.caching.cache import storable
from app.pages.paths import is_cached_path
from app.pages.rsvp_form import MAX_AGE_SECONDS, MIN_SECONDS, make_stamp, stamp_problem
from tests.api.rsvp_pages import (
    aged_stamp,
    page_path,
    pepper,
    read_ticket,
    rsvp,
    stamp_in,
    ticketed_event,
)
from tests.factories import AuthFor

SECRET = "pepper"
TOO_FAST = "That was quicker than a person fills in a form."
EXPIRED = "This form has expired."


def test_a_stamp_opens_after_three_seconds_and_only_for_its_ticket() -> None:
    now = time.time()
    stamp = make_stamp(SECRET, 7, now)
    assert MIN_SECONDS == 3
    assert stamp_problem(SECRET, 7, stamp, now + 1) is not None
    assert stamp_problem(SECRET, 7, stamp, now + 2.9) is not None
    assert stamp_problem(SECRET, 7, stamp, now + 3.01) is None
    assert stamp_problem(SECRET, 8, stamp, now + 10) is not None  # another ticket's form
    assert stamp_problem("another pepper", 7, stamp, now + 10) is not None
    assert stamp_problem(SECRET, 7, stamp, now + MAX_AGE_SECONDS + 1) is not None
    issued, _, mac = stamp.partition(".")
    assert stamp_problem(SECRET, 7, f"{int(issued) - 60_000}.{mac}", now + 10) is not None
    for forged in ("", "abc", "123", "123.", f"{issued}.{'0' * len(mac)}"):
        assert stamp_problem(SECRET, 7, forged, now + 10) is not None, forged


def test_a_response_that_says_no_store_or_private_is_not_stored() -> None:
    def start(*headers: tuple[bytes, bytes]) -> dict[str, object]:
        return {"type": "http.response.start", "status": 200, "headers": list(headers)}

    assert storable(start((b"content-type", b"text/html")))
    assert not storable(start((b"cache-control", b"no-store")))
    assert not storable(start((b"Cache-Control", b"private, no-cache")))
    assert storable(start((b"cache-control", b"max-age=60")))
    # An attendee's own page is not even looked up.
    assert not is_cached_path("/rsvp/3/abc/")
    assert not is_cached_path("/de/rsvp/3/abc/")
    assert is_cached_path("/event/jazz/")
    assert is_cached_path("/sk/events/list/")


async def test_an_answer_sooner_than_three_seconds_is_refused_then_taken(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    """The real path: the form's own stamp, sent at once, then after the trap's time."""
    event, ticket = await ticketed_event(client, editor)
    path = page_path(event)
    stamp = stamp_in((await client.get(path)).text, ticket["id"])
    quick = await rsvp(client, app, path, ticket["id"], stamp=stamp)
    assert quick.status_code == 400
    assert TOO_FAST in quick.text
    assert 'value="Ada Lovelace"' in quick.text  # the answer is kept for the visitor
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 0
    await asyncio.sleep(MIN_SECONDS + 0.2)
    taken = await rsvp(client, app, path, ticket["id"], stamp=stamp)
    assert taken.status_code == 303, taken.text[:500]
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 2


async def test_a_forged_missing_or_stale_stamp_is_refused(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor)
    path = page_path(event)
    stale = aged_stamp(app, ticket["id"], MAX_AGE_SECONDS + 60)
    other = aged_stamp(app, ticket["id"] + 1000)
    for stamp in ("", "1700000000000.deadbeef", stale, other):
        response = await rsvp(client, app, path, ticket["id"], stamp=stamp)
        assert response.status_code == 400, stamp
        assert EXPIRED in response.text
        assert stamp_in(response.text, ticket["id"]) != stamp  # a new one to send again
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 0


async def test_a_filled_honeypot_is_refused(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor)
    path = page_path(event)
    response = await rsvp(client, app, path, ticket["id"], homepage="https://spam.example")
    assert response.status_code == 400
    assert "The form could not be sent. Please send it again." in response.text
    assert "spam.example" not in response.text  # the trap is empty again
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 0


async def test_the_guards_speak_the_pages_language(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor)
    fresh = make_stamp(pepper(app), ticket["id"], time.time())
    german = await rsvp(client, app, page_path(event, "/de"), ticket["id"], stamp=fresh)
    slovak = await rsvp(client, app, page_path(event, "/sk"), ticket["id"], homepage="x")
    assert "Das ging schneller, als ein Mensch ein Formular ausfüllt." in german.text
    assert "Formulár sa nepodarilo odoslať." in slovak.text
