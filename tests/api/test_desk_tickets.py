"""The desk's tickets of an event through HTTP (app/desk/tickets/tickets.py): added,
changed and deleted with the form linked from the event editor, the form's own refusals and
the ticket service's shown at their fields with the values sent, and who may use the
screens. What is written is read back through the API."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from httpx import AsyncClient, Response

from tests.api.test_desk_events import add_event
from tests.desk_support import DeskUserFactory, desk_login
from tests.factories import API, AuthFor

# A day well ahead (the tickets' sale windows are before it).
DAY = (datetime.now(UTC) + timedelta(days=60)).date()
START = f"{DAY} 18:00:00"


async def published_event(client: AsyncClient, who: AuthFor, title: str, **fields: Any) -> int:
    return await add_event(client, who, title, START, status="publish", **fields)


def ticket_form(**changes: str) -> dict[str, str]:
    form = {
        "name": "Entry",
        "description": "",
        "capacity": "50",
        "max_per_person": "4",
        "sale_starts": "",
        "sale_ends": "",
    }
    return {**form, **changes}


async def add_ticket(client: AsyncClient, token: str, event_id: int, **changes: str) -> Response:
    """The desk's "Add ticket" form, posted."""
    data = {"csrf_token": token, **ticket_form(**changes)}
    return await client.post(f"/desk/events/{event_id}/tickets", data=data)


async def tickets_of(client: AsyncClient, who: AuthFor, event_id: int) -> list[dict[str, Any]]:
    answer = await client.get(f"{API}/tickets", params={"event": event_id}, headers=who.basic)
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["tickets"]
    return found


def invalid_fields(page: Response) -> set[str]:
    """The fields shown with a message (aria-invalid)."""
    return set(re.findall(r'name="(\w+)"[^>]*aria-invalid="true"', page.text))


async def test_an_editor_adds_a_ticket_from_the_event_editor(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    event_id = await published_event(client, editor, "Jazz night")
    token = await desk_login(client, editor)
    editor_page = await client.get(f"/desk/events/{event_id}/edit")
    assert f'href="/desk/events/{event_id}/tickets"' in editor_page.text
    assert f'href="/desk/events/{event_id}/attendees"' in editor_page.text
    empty = await client.get(f"/desk/events/{event_id}/tickets")
    assert empty.status_code == 200
    assert "This event has no tickets yet" in empty.text

    closes = f"{DAY}T12:00"
    added = await add_ticket(
        client, token, event_id, sale_ends=closes, waitlist="true", description="At the door"
    )
    assert added.status_code == 303, added.text
    listing = await client.get(added.headers["location"])
    assert "Ticket added: Entry." in listing.text
    assert "0 / 50" in listing.text

    [ticket] = await tickets_of(client, editor, event_id)
    assert ticket["name"] == "Entry"
    assert ticket["description"] == "At the door"
    assert ticket["capacity"] == 50
    assert ticket["max_per_person"] == 4
    assert ticket["waitlist"] is True
    assert ticket["sale_ends"] == f"{DAY} 12:00:00"  # the site's zone (UTC here)
    assert ticket["sale_starts"] is None
    # Unlimited: capacity left empty.
    assert (
        await add_ticket(client, token, event_id, name="Standing", capacity="")
    ).status_code == 303
    standing = [t for t in await tickets_of(client, editor, event_id) if t["name"] == "Standing"]
    assert standing[0]["capacity"] is None
    assert standing[0]["available"] is None


async def test_the_form_and_the_service_refuse_at_their_fields(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    event_id = await published_event(client, editor, "Poetry")
    token = await desk_login(client, editor)
    unread = await add_ticket(client, token, event_id, name="", capacity="many")
    assert unread.status_code == 400
    assert invalid_fields(unread) == {"name", "capacity"}
    assert "Enter a whole number of at least 1." in unread.text
    assert "Fill this in." in unread.text
    assert 'value="many"' in unread.text  # kept for correction
    # The service's own rule: a sale that closes before it opens.
    backwards = await add_ticket(
        client, token, event_id, sale_starts=f"{DAY}T10:00", sale_ends=f"{DAY}T09:00"
    )
    assert backwards.status_code == 400
    assert invalid_fields(backwards) & {"sale_starts", "sale_ends"}
    assert await tickets_of(client, editor, event_id) == []
    german = await client.post(
        f"/de/desk/events/{event_id}/tickets",
        data={"csrf_token": token, **ticket_form(capacity="0")},
    )
    assert german.status_code == 400
    assert "Geben Sie eine ganze Zahl ab 1 ein." in german.text


async def rsvp(
    client: AsyncClient, ticket_id: int, name: str, quantity: int = 1, **extra: Any
) -> dict[str, Any]:
    """An anonymous RSVP through the API."""
    body = {"name": name, "email": f"{name.lower()}@example.org", "quantity": quantity, **extra}
    answer = await client.post(f"{API}/tickets/{ticket_id}/rsvp", json=body)
    assert answer.status_code == 201, answer.text
    found: dict[str, Any] = answer.json()
    return found


async def test_a_ticket_is_changed_and_deleted(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    event_id = await published_event(client, editor, "Workshop")
    token = await desk_login(client, editor)
    await add_ticket(client, token, event_id, capacity="10")
    [ticket] = await tickets_of(client, editor, event_id)
    await rsvp(client, ticket["id"], "Ann", 3)

    page = await client.get(f"/desk/tickets/{ticket['id']}/edit")
    assert page.status_code == 200
    assert "Places taken: 3" in page.text
    assert 'name="capacity" type="number" value="10"' in page.text
    edit = f"/desk/tickets/{ticket['id']}/edit"
    below = await client.post(edit, data={"csrf_token": token, **ticket_form(capacity="2")})
    assert below.status_code == 400
    assert invalid_fields(below) == {"capacity"}
    assert (await tickets_of(client, editor, event_id))[0]["capacity"] == 10
    saved = await client.post(
        edit, data={"csrf_token": token, **ticket_form(name="Seat", capacity="")}
    )
    assert saved.status_code == 303
    [changed] = await tickets_of(client, editor, event_id)
    assert (changed["name"], changed["capacity"], changed["taken"]) == ("Seat", None, 3)

    delete = f"/desk/tickets/{ticket['id']}/delete"
    unsure = await client.post(delete, data={"csrf_token": token})
    assert unsure.status_code == 400
    assert "Tick the box to delete the ticket." in unsure.text
    assert len(await tickets_of(client, editor, event_id)) == 1
    gone = await client.post(delete, data={"csrf_token": token, "confirm": "true"})
    assert gone.status_code == 303
    assert gone.headers["location"] == f"/desk/events/{event_id}/tickets"
    assert await tickets_of(client, editor, event_id) == []


async def test_only_who_may_edit_the_event_manages_its_tickets(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    event_id = await published_event(client, editor, "Concert")
    author = await desk_user("author")
    token = await desk_login(client, author)
    page = await client.get(f"/desk/events/{event_id}/tickets")
    assert page.status_code == 403
    refused = await add_ticket(client, token, event_id)
    assert refused.status_code == 403
    assert await tickets_of(client, editor, event_id) == []
    # Their own event: theirs to manage.
    own = await published_event(client, author, "Reading")
    assert (await add_ticket(client, token, own)).status_code == 303
    no_token = await client.post(f"/desk/events/{own}/tickets", data=ticket_form(name="Sneaky"))
    assert no_token.status_code == 403
    assert [t["name"] for t in await tickets_of(client, author, own)] == ["Entry"]

    subscriber = await desk_user("subscriber")
    await desk_login(client, subscriber)
    assert (await client.get(f"/desk/events/{own}/tickets")).status_code == 403


async def test_a_ticket_for_one_date_of_a_series(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    series = await published_event(
        client, editor, "Weekly class", recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"]
    )
    token = await desk_login(client, editor)
    page = await client.get(f"/desk/events/{series}/tickets")
    assert 'name="date" type="date"' in page.text
    pool = await add_ticket(client, token, series, name="Whole course")
    assert pool.headers["location"] == f"/desk/events/{series}/tickets"
    second = DAY + timedelta(days=7)
    dated = await add_ticket(client, token, series, name="Trial lesson", date=second.isoformat())
    assert dated.status_code == 303, dated.text
    date_page = dated.headers["location"]  # that date's own tickets
    assert date_page != f"/desk/events/{series}/tickets"
    listing = await client.get(date_page)
    assert "Ticket added: Trial lesson." in listing.text
    assert 'name="date"' not in listing.text  # a date's page adds tickets of that date
    date_id = int(date_page.split("/")[-2])
    tickets = {t["name"]: t for t in await tickets_of(client, editor, date_id)}
    assert tickets["Trial lesson"]["date"] == second.isoformat()
    assert tickets["Whole course"]["date"] is None
    trial = await client.get(f"/desk/tickets/{tickets['Trial lesson']['id']}/edit")
    assert "For the date of " in trial.text
    no_day = await add_ticket(client, token, series, date="2019-02-30")
    assert no_day.status_code == 400
    assert invalid_fields(no_day) == {"date"}
