"""The desk's attendees of an event through HTTP (app/desk/tickets/attendees.py,
check_in.py, outbox.py): the list with its search, filters and totals, the CSV, check-in by
the row's button and by the QR code's link (twice: "already checked in"), an editor's
cancellation moving the waitlist up, a message to all, the outbox; and who sees them
(editors, administrators and the event's author; the others the desk's 403 page)."""

import re
from typing import Any

from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.app_services import app_services
from app.models import Attendee
from app.tickets.links import link_key, sign
from tests.api.test_desk_tickets import published_event, rsvp, tickets_of
from tests.desk_support import DeskUser, DeskUserFactory, desk_login
from tests.factories import API


async def ticketed_event(
    client: AsyncClient, who: DeskUser, capacity: int = 3, **ticket: Any
) -> tuple[int, int]:
    """A published event with one ticket (through the API); (event id, ticket id)."""
    event_id = await published_event(client, who, "Jazz night")
    body = {"event": event_id, "name": "Entry", "capacity": capacity, **ticket}
    made = await client.post(f"{API}/tickets", json=body, headers=who.basic)
    assert made.status_code == 201, made.text
    return event_id, int(made.json()["id"])


def rows(html: str) -> list[str]:
    """The attendees' names, in the table's order."""
    return [name.strip() for name in re.findall(r'<th scope="row">([^<]*)</th>', html)]


def total(html: str, label: str) -> int:
    found = re.search(
        rf'<span class="number">(\d+)</span> <span class="label">{label}</span>', html
    )
    assert found is not None, label
    return int(found.group(1))


async def test_the_list_with_its_search_filters_and_totals(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    event_id, ticket_id = await ticketed_event(client, editor, waitlist=True)
    await rsvp(client, ticket_id, "Ann", 2)
    await rsvp(client, ticket_id, "Bob", 1)
    await rsvp(client, ticket_id, "Cyril", 2)  # sold out: waitlisted
    await rsvp(client, ticket_id, "Dana", 1, going=False)
    await desk_login(client, editor)
    page = await client.get(f"/desk/events/{event_id}/attendees")
    assert page.status_code == 200
    assert sorted(rows(page.text)) == ["Ann", "Bob", "Cyril", "Dana"]
    assert "ann@example.org" in page.text
    assert (total(page.text, "Going"), total(page.text, "Waitlisted")) == (3, 2)
    assert (total(page.text, "Not going"), total(page.text, "Capacity")) == (1, 3)
    assert f'href="/desk/events/{event_id}/attendees.csv"' in page.text

    searched = await client.get(f"/desk/events/{event_id}/attendees", params={"search": "bob@"})
    assert rows(searched.text) == ["Bob"]
    waiting = await client.get(
        f"/desk/events/{event_id}/attendees", params={"status": "waitlisted"}
    )
    assert rows(waiting.text) == ["Cyril"]
    one_ticket = await client.get(
        f"/desk/events/{event_id}/attendees", params={"ticket": ticket_id, "status": "nonsense"}
    )
    assert len(rows(one_ticket.text)) == 4  # an unknown status: no filter

    csv = await client.get(f"/desk/events/{event_id}/attendees.csv")
    assert csv.status_code == 200
    assert csv.headers["content-type"].startswith("text/csv")
    assert "attachment" in csv.headers["content-disposition"]
    assert "Ann" in csv.text
    assert "ann@example.org" in csv.text

    slovak = await client.get(f"/sk/desk/events/{event_id}/attendees")
    assert "Účastníci" in slovak.text
    german = await client.get(f"/de/desk/events/{event_id}/attendees")
    assert "Teilnehmende" in german.text
    assert "Auf der Warteliste" in german.text


async def test_who_sees_the_attendees(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    author = await desk_user("author")
    event_id, ticket_id = await ticketed_event(client, author)
    await rsvp(client, ticket_id, "Ann")
    await desk_login(client, author)  # the event's author
    own = await client.get(f"/desk/events/{event_id}/attendees")
    assert own.status_code == 200
    assert "ann@example.org" in own.text
    for role in ("author", "contributor", "subscriber"):
        await desk_login(client, await desk_user(role))
        page = await client.get(f"/desk/events/{event_id}/attendees")
        assert page.status_code == 403, role
        assert "ann@example.org" not in page.text
        csv = await client.get(f"/desk/events/{event_id}/attendees.csv")
        assert csv.status_code == 403
        assert "ann@example.org" not in csv.text
    await desk_login(client, await desk_user("administrator"))
    assert (await client.get(f"/desk/events/{event_id}/attendees")).status_code == 200


async def attendee_status(client: AsyncClient, who: DeskUser, attendee_id: int) -> dict[str, Any]:
    answer = await client.get(f"{API}/attendees/{attendee_id}", headers=who.basic)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


async def test_check_in_and_cancel_with_the_rows_buttons(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    event_id, ticket_id = await ticketed_event(client, editor, capacity=2, waitlist=True)
    ann = await rsvp(client, ticket_id, "Ann", 2)
    bob = await rsvp(client, ticket_id, "Bob", 1)
    assert bob["status"] == "waitlisted"
    token = await desk_login(client, editor)
    back = {"list": str(event_id), "back": "status=going"}

    checked = await client.post(
        f"/desk/attendees/{ann['id']}/check-in", data={"csrf_token": token, **back}
    )
    assert checked.status_code == 303
    assert checked.headers["location"] == f"/desk/events/{event_id}/attendees?status=going"
    listing = await client.get(checked.headers["location"])
    assert "Checked in: Ann." in listing.text
    assert (await attendee_status(client, editor, ann["id"]))["checked_in_at"] is not None
    again = await client.post(
        f"/desk/attendees/{ann['id']}/check-in", data={"csrf_token": token, **back}
    )
    assert again.status_code == 303
    assert "Ann:" in (await client.get(again.headers["location"])).text

    cancelled = await client.post(
        f"/desk/attendees/{ann['id']}/cancel", data={"csrf_token": token, **back}
    )
    assert cancelled.status_code == 303
    assert "Cancelled: Ann." in (await client.get(cancelled.headers["location"])).text
    assert (await attendee_status(client, editor, ann["id"]))["status"] == "cancelled"
    assert (await attendee_status(client, editor, bob["id"]))["status"] == "going"  # moved up
    [ticket] = await tickets_of(client, editor, event_id)
    assert ticket["taken"] == 1


async def check_in_code(app: FastAPI, db: AsyncSession, attendee_id: int) -> str:
    """The signed code of the attendee's QR link, as the confirmation's link carries it."""
    secret = (await db.execute(select(Attendee.secret).where(Attendee.id == attendee_id))).scalar()
    assert secret is not None
    key = link_key(app_services(app).settings.app_password_pepper)
    return sign(key, "check_in", attendee_id, secret)


async def test_the_qr_link_checks_in_once(
    app: FastAPI, client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession
) -> None:
    editor = await desk_user("editor")
    _, ticket_id = await ticketed_event(client, editor)
    ann = await rsvp(client, ticket_id, "Ann", 2)
    link = f"/desk/check-in/{ann['id']}/{await check_in_code(app, db, ann['id'])}/"
    signed_out = await client.get(link)
    assert signed_out.status_code == 303
    assert "/desk/signin?next=" in signed_out.headers["location"]

    token = await desk_login(client, editor)
    page = await client.get(link)
    assert page.status_code == 200
    assert "Ann" in page.text
    assert '<dd class="places">2</dd>' in page.text
    assert 'type="submit" class="big"' in page.text
    wrong = await client.get(f"/desk/check-in/{ann['id']}/AAAAAAAAAAAAAAAAAAAAAAAA/")
    assert wrong.status_code == 404
    assert "Ann" not in wrong.text

    forged = await client.post(link, data={})  # without the session's CSRF token
    assert forged.status_code == 403
    assert (await attendee_status(client, editor, ann["id"]))["checked_in_at"] is None
    done = await client.post(link, data={"csrf_token": token})
    assert done.status_code == 200
    assert re.search(r"Checked in at \d\d:\d\d\.", done.text)
    second = await client.get(link)
    assert re.search(r"Already checked in at \d\d:\d\d\.", second.text)
    assert 'class="big"' not in second.text
    twice = await client.post(link, data={"csrf_token": token})
    assert twice.status_code == 409
    assert "Already checked in at" in twice.text

    await desk_login(client, await desk_user("author"))
    assert (await client.get(link)).status_code == 403


async def test_a_message_to_all_waits_in_the_outbox(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    event_id, ticket_id = await ticketed_event(client, editor, capacity=1, waitlist=True)
    await rsvp(client, ticket_id, "Ann")
    await rsvp(client, ticket_id, "Bob")  # waitlisted: written to as well
    await rsvp(client, ticket_id, "Cyril", going=False)  # not
    token = await desk_login(client, editor)
    message = f"/desk/events/{event_id}/attendees/message"
    empty = await client.post(message, data={"csrf_token": token, "subject": " ", "body": "Hi"})
    assert empty.status_code == 400
    assert "Fill this in." in empty.text
    assert ">Hi</textarea>" in empty.text  # kept
    sent = await client.post(
        message, data={"csrf_token": token, "subject": "Doors at 19:00", "body": "See you."}
    )
    assert sent.status_code == 303
    assert "Message queued for 2 attendees." in (await client.get(sent.headers["location"])).text

    outbox = await client.get("/desk/outbox/")
    assert outbox.status_code == 200
    assert "messages wait here until mail is set up" in outbox.text  # no SMTP_URL in tests
    listed = re.findall(r'<th scope="row">([^<]*)</th>\s*<td>([^<]*) <span', outbox.text)
    to_all = sorted(to for subject, to in listed if "Doors at 19:00" in subject)
    assert to_all == ["ann@example.org", "bob@example.org"]
    waiting = await client.get("/desk/outbox/", params={"status": "sent"})
    assert "Doors at 19:00" not in waiting.text
    assert 'href="/desk/outbox/"' in (await client.get("/desk/")).text

    await desk_login(client, await desk_user("author"))
    assert (await client.get("/desk/outbox/")).status_code == 403
    assert 'href="/desk/outbox/"' not in (await client.get("/desk/")).text
