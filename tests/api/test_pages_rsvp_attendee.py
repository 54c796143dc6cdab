"""An attendee's own page at the signed link (`/[de|sk/]rsvp/<id>/<token>/`, app/pages/rsvp.py):
what it shows and to whom (a wrong or tampered link is the 404 page), its headers (no cache,
no referrer), a change and a cancellation by its forms (a 303 back, the places given back and
the waitlist moved up), a refused change at its field, and DELETE, the API's cancellation."""

import logging
import re

import pytest
from fastapi import FastAPI
from httpx import AsyncClient

from tests.api.rsvp_pages import (
    answer_shown,
    attendee_path,
    page_path,
    read_ticket,
    rsvp,
    ticketed_event,
)
from tests.factories import API, AuthFor


async def answered(
    client: AsyncClient, app: FastAPI, editor: AuthFor, **ticket: object
) -> tuple[str, dict[str, object], str]:
    """(the event page's path, the ticket, the attendee's page path) after one answer."""
    event, made = await ticketed_event(client, editor, **ticket)
    response = await rsvp(client, app, page_path(event), made["id"])
    assert response.status_code == 303, response.text[:500]
    return page_path(event), made, attendee_path(response.headers["location"])


def places(html: str) -> str:
    found = re.search(r"<dt>Places</dt><dd>(\d+)</dd>", html)
    assert found is not None
    return found.group(1)


async def test_the_page_shows_the_answer_privately(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    _, _, path = await answered(client, app, editor)
    response = await client.get(path)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["referrer-policy"] == "no-referrer"
    html = response.text
    assert '<meta name="robots" content="noindex">' in html
    assert "Poetry Night" in html
    assert "Entry" in html
    assert "Ada Lovelace" in html
    assert places(html) == "2"
    assert "Change your answer" in html
    assert "Cancel my answer" in html
    assert "Thank you!" not in html  # the notice follows the answer's redirect only
    # The same link in another language.
    slovak = await client.get(f"/sk{path}")
    assert slovak.status_code == 200
    assert "Vaša odpoveď" in slovak.text


async def test_a_wrong_or_tampered_link_is_the_404_page(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    _, _, path = await answered(client, app, editor)
    number, token = re.findall(r"/rsvp/(\d+)/([^/]+)/", path)[0]
    other_token = token[:-1] + ("A" if token[-1] != "A" else "B")
    for wrong in (
        f"/rsvp/{number}/{other_token}/",
        f"/rsvp/{int(number) + 1}/{token}/",
        f"/rsvp/{number}/x/",
        "/rsvp/999999999/abc/",
    ):
        response = await client.get(wrong)
        assert response.status_code == 404, wrong
        assert response.headers["content-type"].startswith("text/html")
        assert "Ada Lovelace" not in response.text
        assert response.headers["cache-control"] == "no-store"
        posted = await client.post(wrong, data={"action": "cancel"})
        assert posted.status_code == 404, wrong
        deleted = await client.delete(wrong)
        assert deleted.status_code == 404, wrong
        assert deleted.json()["code"] == "rest-attendee-not-found"
    assert places((await client.get(path)).text) == "2"  # untouched


async def test_a_change_of_places_and_of_going(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    _, ticket, path = await answered(client, app, editor)
    response = await client.post(path, data={"action": "change", "quantity": "3", "going": "yes"})
    assert response.status_code == 303
    assert response.headers["location"].endswith(f"{path}?done=changed")
    page = await client.get(response.headers["location"])
    assert "Your answer is changed." in page.text
    assert places(page.text) == "3"
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 3
    response = await client.post(path, data={"action": "change", "quantity": "3", "going": "no"})
    assert response.status_code == 303
    page = await client.get(path)
    assert answer_shown(page.text) == "not_going: Not going"
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 0


async def test_a_refused_change_is_shown_at_its_field(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    _, ticket, path = await answered(client, app, editor)
    response = await client.post(path, data={"action": "change", "quantity": "9", "going": "yes"})
    assert response.status_code == 400
    assert (
        '<span class="field-error" id="change-quantity-error">Choose from 1 to 4' in response.text
    )
    assert 'value="9"' in response.text  # what was sent, to correct
    assert response.headers["cache-control"] == "no-store"
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 2


async def test_a_change_beyond_the_places_left_is_sold_out(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    _, ticket, path = await answered(client, app, editor, capacity=3)
    response = await client.post(path, data={"action": "change", "quantity": "4", "going": "yes"})
    assert response.status_code == 409
    assert "Sorry, this ticket is sold out." in response.text
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 2


async def test_a_cancellation_frees_the_places_and_moves_the_waitlist_up(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event_path, ticket, path = await answered(client, app, editor, capacity=2, waitlist=True)
    waiting = await rsvp(
        client, app, event_path, ticket["id"], name="Grace", email="grace@example.org"
    )
    assert waiting.status_code == 303
    grace = attendee_path(waiting.headers["location"])
    assert answer_shown((await client.get(grace)).text) == "waitlisted: On the waitlist"
    response = await client.post(path, data={"action": "cancel"})
    assert response.status_code == 303
    assert response.headers["location"].endswith(f"{path}?done=cancelled")
    page = await client.get(response.headers["location"])
    assert "Your answer is cancelled." in page.text
    assert answer_shown(page.text) == "cancelled: Cancelled"
    assert "Cancel my answer" not in page.text
    assert "Change your answer" not in page.text
    moved = await client.get(grace)
    assert answer_shown(moved.text) == "going: Going"
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 2


async def test_delete_cancels_as_the_api_does(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    _, ticket, path = await answered(client, app, editor)
    response = await client.delete(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert list(body) == ["id", "event", "ticket", "status", "quantity"]
    assert body["ticket"] == ticket["id"]
    assert body["status"] == "cancelled"
    assert body["quantity"] == 2
    assert "ada" not in response.text.lower()  # no name, no address
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 0
    again = await client.delete(path)  # cancelling twice is one cancellation
    assert again.status_code == 200
    assert again.json()["status"] == "cancelled"


async def test_a_checked_in_answer_shows_when_and_no_longer_changes(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    _, _, path = await answered(client, app, editor)
    number = int(re.findall(r"/rsvp/(\d+)/", path)[0])
    checked = await client.post(f"{API}/attendees/{number}/check-in", headers=editor.basic)
    assert checked.status_code == 200, checked.text
    page = await client.get(path)
    assert page.status_code == 200
    assert re.search(r"<dt>Checked in</dt><dd>\w+, \w+ \d+, \d{4}, ", page.text)
    assert "Change your answer" not in page.text
    assert "Cancel my answer" not in page.text


async def test_the_access_log_masks_the_links_secret(
    client: AsyncClient, app: FastAPI, editor: AuthFor, caplog: pytest.LogCaptureFixture
) -> None:
    _, _, path = await answered(client, app, editor)
    token = path.rstrip("/").rsplit("/", 1)[1]
    caplog.set_level(logging.INFO, logger="almanac.access")
    assert (await client.get(f"/de{path}?done=changed")).status_code == 200
    lines = [r for r in caplog.records if r.name == "almanac.access"]
    assert lines
    assert lines[-1].path == f"/de{path[: -len(token) - 1]}***/?done=changed"  # type: ignore[attr-defined]
    assert all(token not in r.getMessage() for r in caplog.records)
