"""RSVP from an event page (app/pages/rsvp.py, templates/tickets.html) through HTTP into a
real PostgreSQL: the tickets and their forms, an answer and the 303 to the attendee's own
page, each rule of the service as the form shows it (at its field, or for the whole form),
the states of a ticket, the languages. The bots' guards: test_pages_rsvp_guards.py."""

import re

from fastapi import FastAPI
from httpx import AsyncClient

from app.core.app_services import app_services
from tests.api.rsvp_pages import (
    add_ticket,
    answer,
    answer_shown,
    attendee_path,
    day,
    moment,
    page_path,
    read_ticket,
    rsvp,
    stamp_in,
    ticketed_event,
)
from tests.factories import AuthFor, asgi_client, create_record


async def test_the_event_page_shows_its_ticket_and_a_form(
    client: AsyncClient, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor, description="Bring a poem")
    response = await client.get(page_path(event))
    assert response.status_code == 200
    html = response.text
    assert "Tickets" in html
    assert "Entry" in html
    assert "Free, 50 places left." in html
    assert "At most 4 places per person." in html
    stamp_in(html, ticket["id"])
    for field in ('name="name"', 'name="email"', 'name="quantity"', 'name="going"'):
        assert field in html
    # The honeypot: labelled, out of the tab order, hidden from screen readers.
    trap = re.search(r'<div class="trap" aria-hidden="true">(.*?)</div>', html, re.S)
    assert trap is not None
    assert "Leave empty" in trap.group(1)
    assert 'tabindex="-1"' in trap.group(1)
    # A page with a form made for this visitor is kept by no cache.
    assert response.headers["cache-control"] == "no-store"
    # The script that sends the form without a reload: the site's own, with the nonce.
    script = re.search(r'<script src="[^"]*/assets/rsvp\.js" nonce="([^"]+)" defer>', html)
    assert script is not None
    assert f"'nonce-{script.group(1)}'" in response.headers["content-security-policy"]
    asset = await client.get("/assets/rsvp.js")
    assert asset.status_code == 200
    assert asset.headers["content-type"].startswith("text/javascript")


async def test_an_event_without_tickets_has_no_form_and_stays_cacheable(
    client: AsyncClient, editor: AuthFor
) -> None:
    event = await create_record(client, editor, "events", "Open Air Cinema")
    response = await client.get(page_path(event))
    assert response.status_code == 200
    assert 'class="tickets"' not in response.text
    assert "rsvp.js" not in response.text
    assert "cache-control" not in response.headers


async def test_an_answer_is_taken_and_leads_to_the_attendees_page(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor)
    response = await rsvp(client, app, page_path(event), ticket["id"])
    assert response.status_code == 303, response.text
    location = response.headers["location"]
    assert location.startswith("http://testserver/rsvp/")
    assert location.endswith("/?done=answered#answer")
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 2
    page = await client.get(location)
    assert page.status_code == 200
    assert "Thank you! Your answer is saved" in page.text
    assert "ada@example.org" in page.text
    assert "Ada Lovelace" in page.text
    assert "Going" in page.text
    # The event's page tells the places left.
    again = await client.get(page_path(event))
    assert "Free, 48 places left." in again.text


async def test_not_going_is_an_answer_too(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor)
    response = await rsvp(client, app, page_path(event), ticket["id"], going="no", quantity="1")
    assert response.status_code == 303
    page = await client.get(response.headers["location"])
    assert answer_shown(page.text) == "not_going: Not going"
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 0


async def test_an_answer_in_german_leads_to_the_german_page(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor)
    german = await client.get(page_path(event, "/de"))
    assert "Eintrittskarten" in german.text
    assert "Antwort senden" in german.text
    response = await rsvp(client, app, page_path(event, "/de"), ticket["id"])
    assert response.status_code == 303
    assert attendee_path(response.headers["location"]).startswith("/de/rsvp/")
    page = await client.get(response.headers["location"])
    assert "Vielen Dank!" in page.text
    assert '<html lang="de">' in page.text


async def test_each_field_error_is_shown_at_its_field_and_nothing_is_written(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor)
    path = page_path(event)
    cases = {
        "name": ({"name": ""}, "Enter your name"),
        "email": ({"email": "not an address"}, "Enter your email address"),
        "quantity": ({"quantity": "5"}, "Choose from 1 to 4 places"),
    }
    for field, (fields, words) in cases.items():
        response = await rsvp(client, app, path, ticket["id"], **fields)
        assert response.status_code == 400, (field, response.text[:300])
        html = response.text
        error_id = f"ticket-{ticket['id']}-{field}-error"
        assert f'<span class="field-error" id="{error_id}">{words}' in html, field
        named = re.search(rf'<input id="ticket-{ticket["id"]}-{field}"[^>]*>', html)
        assert named is not None, field
        assert 'aria-invalid="true"' in named.group(0), field
        assert error_id in named.group(0)
        # The visitor's values are kept; a new stamp is in the form.
        if field != "email":
            assert 'value="ada@example.org"' in html
        stamp_in(html, ticket["id"])
        assert response.headers["cache-control"] == "no-store"
    for text in ("two", "0", "-1"):
        response = await rsvp(client, app, path, ticket["id"], quantity=text)
        assert response.status_code == 400, text
        assert f"ticket-{ticket['id']}-quantity-error" in response.text
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 0


async def test_more_places_than_one_person_may_hold_over_two_answers(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor)
    path = page_path(event)
    assert (await rsvp(client, app, path, ticket["id"], quantity="3")).status_code == 303
    again = await rsvp(client, app, path, ticket["id"], quantity="2", email="ADA@example.org")
    assert again.status_code == 400
    assert "your earlier answers count too" in again.text
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 3


async def test_sold_out_says_so_and_shows_no_form(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor, capacity=2)
    path = page_path(event)
    form_page = await client.get(path)
    assert (await rsvp(client, app, path, ticket["id"])).status_code == 303
    # A second visitor who opened the page before the last places went.
    late = await client.post(
        path,
        data=answer(app, ticket["id"], name="Grace", email="grace@example.org", quantity="1"),
    )
    assert late.status_code == 409
    assert 'role="alert"' in late.text
    assert "Sorry, this ticket is sold out." in late.text
    assert f'name="ticket" value="{ticket["id"]}"' not in late.text  # no form left
    assert "Free, 2 places left." in form_page.text
    shown = await client.get(path)
    assert "Sold out." in shown.text
    assert "Send my answer" not in shown.text


async def test_a_full_ticket_with_a_waitlist_takes_answers_to_it(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor, capacity=1, waitlist=True)
    path = page_path(event)
    assert (await rsvp(client, app, path, ticket["id"], quantity="1")).status_code == 303
    page = await client.get(path)
    assert "Answer to join the waitlist" in page.text
    assert "Join the waitlist" in page.text
    response = await rsvp(
        client, app, path, ticket["id"], name="Grace", email="grace@example.org", quantity="1"
    )
    assert response.status_code == 303
    mine = await client.get(response.headers["location"])
    assert answer_shown(mine.text) == "waitlisted: On the waitlist"


async def test_a_ticket_not_on_sale_shows_when_and_refuses_an_answer(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, later = await ticketed_event(client, editor, sale_starts=moment(6))
    ended = await add_ticket(
        client,
        editor,
        event["id"],
        name="Early bird",
        sale_starts=moment(-48),
        sale_ends=moment(-24),
    )
    path = page_path(event)
    page = await client.get(path)
    assert "On sale from " in page.text
    assert "The sale has ended." in page.text
    assert 'name="ticket"' not in page.text  # neither has a form
    for ticket in (later, ended):
        response = await rsvp(client, app, path, ticket["id"])
        assert response.status_code == 400
        alert = re.search(r'<p class="error" role="alert"[^>]*>([^<]+)</p>', response.text)
        assert alert is not None
        assert alert.group(1).strip()
        assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 0


async def test_a_ticket_of_another_event_is_not_answered_here(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, _ = await ticketed_event(client, editor)
    _, other = await ticketed_event(client, editor, title="Another night")
    response = await rsvp(client, app, page_path(event), other["id"])
    assert response.status_code == 404
    assert (await read_ticket(client, editor, other["id"]))["taken"] == 0


async def test_a_draft_event_takes_no_answer(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor)
    changed = await client.post(
        f"/calendar/events/v1/events/{event['id']}", json={"status": "draft"}, headers=editor.basic
    )
    assert changed.status_code == 200
    response = await rsvp(client, app, page_path(event), ticket["id"])
    assert response.status_code == 404
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 0


async def test_a_protected_event_answers_with_its_password(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    event, ticket = await ticketed_event(client, editor)
    changed = await client.post(
        f"/calendar/events/v1/events/{event['id']}",
        json={"password": "s3cret"},
        headers=editor.basic,
    )
    assert changed.status_code == 200
    path = page_path(event)
    hidden = await client.get(path)
    assert "Protected event" in hidden.text
    assert 'name="ticket"' not in hidden.text
    shown = await client.post(path, data={"post_password": "s3cret"})
    assert shown.status_code == 200
    assert '<input type="hidden" name="post_password" value="s3cret">' in shown.text
    stamp_in(shown.text, ticket["id"])
    without = await rsvp(client, app, path, ticket["id"])
    assert without.status_code == 200
    assert "Protected event" in without.text
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 0
    right = await rsvp(client, app, path, ticket["id"], post_password="s3cret")
    assert right.status_code == 303
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == 2


async def test_a_date_of_a_series_offers_its_own_ticket(
    client: AsyncClient, app: FastAPI, editor: AuthFor
) -> None:
    series = await create_record(
        client,
        editor,
        "events",
        "Weekly Choir",
        start_date=f"{day(1)} 18:00:00",
        end_date=f"{day(1)} 19:00:00",
        recurrence=["RRULE:FREQ=WEEKLY;COUNT=4"],
    )
    second = day(8)
    dated = await add_ticket(client, editor, series["id"], name="Second week", date=second)
    path = f"/event/{series['slug']}/{second}/"
    page = await client.get(path)
    assert page.status_code == 200
    stamp_in(page.text, dated["id"])
    response = await rsvp(client, app, path, dated["id"], quantity="1")
    assert response.status_code == 303
    assert (await read_ticket(client, editor, dated["id"]))["taken"] == 1
    first = await client.get(f"/event/{series['slug']}/")
    assert "Second week" not in first.text


async def test_the_throttle_counts_the_pages_answers(
    app: FastAPI, client: AsyncClient, editor: AuthFor
) -> None:
    """RSVP_LIMIT answers of one address pass in the window; the next is a 429 with how
    long to wait, the page saying so at the form."""
    event, ticket = await ticketed_event(client, editor, capacity=None, max_per_person=1)
    limit = app_services(app).settings.rsvp_limit
    path = page_path(event)
    async with asgi_client(app, client=("203.0.113.7", 4000)) as visitor:
        for number in range(limit):
            sent = await rsvp(
                visitor, app, path, ticket["id"], quantity="1", email=f"p{number}@example.org"
            )
            assert sent.status_code == 303, (number, sent.text[:300])
        over = await rsvp(visitor, app, path, ticket["id"], quantity="1", email="late@example.org")
    assert over.status_code == 429
    assert int(over.headers["retry-after"]) > 0
    assert "Too many answers from your address." in over.text
    assert (await read_ticket(client, editor, ticket["id"]))["taken"] == limit
