"""Attendees through HTTP, in process: who sees them (an event's author, editors and
administrators; an event the caller may not read answers as reading it does), the list's
filters, search and totals, one attendee, check-in (a second time: 409 with the time), by
the QR code's signed link, the CSV export (RFC 4180, formulas defused) and a message to all.
Attendees come from RSVPs through the API; those the API cannot make (on a draft, with
names a spreadsheet would run) are rows (tests/attendees.py)."""

import csv
import io

import pytest
from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.attendees.service import AttendeeService
from app.core.errors import ApiError
from app.core.rules.constants import MAX_ID
from app.core.rules.permissions import Principal, Role
from app.core.settings import get_settings
from app.tickets.links import link_key, sign
from app.tickets.rsvp import RsvpService
from tests.attendees import add_attendee, add_ticket, command_context
from tests.factories import API, Auth, AuthFor, create_record, make_event
from tests.tickets import make_ticket, rsvp, ticketed_event

HUGE = "99999999999999999999999999"  # past 64 bits


async def event_with_attendees(
    client: AsyncClient, db: AsyncSession, owner: AuthFor
) -> dict[str, int]:
    """A published event of `owner` with two tickets and five answers through the API (one
    cancelled as the desk cancels, one checked in); their IDs by name."""
    event, hall = await ticketed_event(client, owner, name="Hall", capacity=3, waitlist=True)
    balcony = await make_ticket(client, owner, event=event, name="Balcony")
    ids = {"event": event, "hall": hall["id"], "balcony": balcony["id"]}
    answers = (
        ("ada", hall, "Ada Lovelace", "ada@example.org", {"quantity": 2}),
        ("bob", hall, "Bob 100%", "BOB@example.org", {"going": False}),
        ("cy", hall, "Cy", "cy@example.org", {"quantity": 3}),  # 1 place left: waits
        ("dee", balcony, "Dee", "dee@example.org", {}),
        ("eve", balcony, "Eve", "eve@example.org", {}),
    )
    for key, ticket, name, email, fields in answers:
        answer = await rsvp(client, ticket["id"], email, name=name, **fields)
        assert answer.status_code == 201, answer.text
        ids[key] = answer.json()["id"]
    await RsvpService(command_context(db)).cancel(ids["dee"], trusted=True)
    await db.commit()
    checked = await client.post(f"{API}/attendees/{ids['eve']}/check-in", headers=owner.basic)
    assert checked.status_code == 200, checked.text
    return ids


async def listed(client: AsyncClient, who: AuthFor, **params: object) -> dict[str, object]:
    answer = await client.get(f"{API}/attendees", params=params, headers=who.basic)
    assert answer.status_code == 200, answer.text
    body: dict[str, object] = answer.json()
    return body


def names(body: dict[str, object]) -> list[str]:
    items = body["attendees"]
    assert isinstance(items, list)
    return [item["name"] for item in items]


async def test_only_the_author_editors_and_administrators_see_attendees(
    client: AsyncClient, db: AsyncSession, auth: Auth
) -> None:
    author = await auth("author")
    ids = await event_with_attendees(client, db, author)
    one = f"{API}/attendees/{ids['ada']}"
    routes = (
        ("GET", f"{API}/attendees?event={ids['event']}"),
        ("GET", one),
        ("GET", f"{API}/attendees.csv?event={ids['event']}"),
    )
    for method, url in routes:
        anonymous = await client.request(method, url)
        assert anonymous.status_code == 401, url
        assert "ada@example.org" not in anonymous.text
    for role in ("subscriber", "contributor", "author"):
        other = await auth(role)
        for method, url in routes:
            answer = await client.request(method, url, headers=other.basic)
            assert answer.status_code == 403, (role, url)
            assert answer.json()["code"] == "rest_forbidden"
            assert "ada@example.org" not in answer.text
    refused = await client.get(one, headers=(await auth("author")).basic)
    assert "attendees are seen by its author" in refused.json()["message"]
    for who in (author, await auth("editor"), await auth("administrator")):
        answer = await client.get(one, headers=who.basic)
        assert answer.status_code == 200, answer.text
        assert answer.json()["email"] == "ada@example.org"
        assert answer.headers["cache-control"] == "no-store"


async def test_an_event_the_caller_may_not_read_answers_as_reading_it(
    client: AsyncClient, db: AsyncSession, auth: Auth
) -> None:
    owner = await auth("author")
    draft = await make_event(db, status="draft", author_id=owner.id)
    ticket = await add_ticket(db, draft)
    attendee = await add_attendee(db, ticket, "Ada", "ada@example.org")
    other = await auth("author")
    for url in (f"{API}/attendees?event={draft}", f"{API}/attendees/{attendee}"):
        answer = await client.get(url, headers=other.basic)
        assert answer.status_code == 403
        assert answer.json()["code"] == "event-not-accessible"
    editor = await auth("editor")
    missing = await client.get(f"{API}/attendees?event={draft + 1000}", headers=editor.basic)
    assert missing.status_code == 404
    assert missing.json()["code"] == "rest-event-not-found"
    own = await client.get(f"{API}/attendees?event={draft}", headers=owner.basic)
    assert names(own.json()) == ["Ada"]


async def test_the_list_filters_searches_and_totals_in_places(
    client: AsyncClient, db: AsyncSession, editor: AuthFor
) -> None:
    ids = await event_with_attendees(client, db, editor)
    await event_with_attendees(client, db, editor)  # another event's: not listed
    body = await listed(client, editor, event=ids["event"])
    assert names(body) == ["Ada Lovelace", "Bob 100%", "Cy", "Dee", "Eve"]
    assert body["total"] == 5
    assert body["totals"] == {
        "going": 3,
        "not_going": 1,
        "waitlisted": 3,
        "cancelled": 1,
        "checked_in": 1,
    }
    first = body["attendees"][0]  # type: ignore[index]
    assert list(first) == [
        "id",
        "event",
        "ticket",
        "name",
        "email",
        "quantity",
        "status",
        "language",
        "checked_in_at",
        "checked_in_at_utc",
        "created",
        "created_utc",
        "modified",
        "modified_utc",
    ]
    assert first["event"] == ids["event"]
    assert first["ticket"] == ids["hall"]
    assert first["checked_in_at"] is None
    by_ticket = await listed(client, editor, event=ids["event"], ticket=ids["balcony"])
    assert names(by_ticket) == ["Dee", "Eve"]
    assert by_ticket["totals"]["going"] == 1  # type: ignore[index]
    going = await listed(client, editor, event=ids["event"], status="going")
    assert names(going) == ["Ada Lovelace", "Eve"]
    assert going["totals"] == body["totals"]  # the event's, whatever the status asked
    checked = await listed(client, editor, event=ids["event"], status="checked_in")
    assert names(checked) == ["Eve"]
    # The name or the address, any case; % is a character, not a wildcard.
    assert names(await listed(client, editor, event=ids["event"], search="bob@")) == ["Bob 100%"]
    assert names(await listed(client, editor, event=ids["event"], search="0%")) == ["Bob 100%"]
    assert names(await listed(client, editor, event=ids["event"], search="LOVE")) == [
        "Ada Lovelace"
    ]
    paged = await listed(client, editor, event=ids["event"], per_page=2, page=2)
    assert names(paged) == ["Cy", "Dee"]
    assert paged["total_pages"] == 3
    assert "event=" in str(paged["next_rest_url"])


async def test_without_an_event_an_author_lists_their_own_events_attendees(
    client: AsyncClient, db: AsyncSession, auth: Auth
) -> None:
    author = await auth("author")
    await event_with_attendees(client, db, author)
    others = await event_with_attendees(client, db, await auth("editor"))
    mine = await listed(client, author)
    assert names(mine) == ["Ada Lovelace", "Bob 100%", "Cy", "Dee", "Eve"]
    editor = await auth("editor")
    everyone = await listed(client, editor, ticket=others["hall"])
    assert names(everyone) == ["Ada Lovelace", "Bob 100%", "Cy"]
    refused = await client.get(
        f"{API}/attendees", params={"ticket": others["hall"]}, headers=author.basic
    )
    assert refused.status_code == 403


async def test_bad_filters_are_400s_naming_them(
    client: AsyncClient, db: AsyncSession, editor: AuthFor
) -> None:
    answer = await client.get(
        f"{API}/attendees", params={"status": "maybe", "event": "x"}, headers=editor.basic
    )
    assert answer.status_code == 400
    assert set(answer.json()["data"]["params"]) == {"status", "event"}
    unknown = await client.get(
        f"{API}/attendees", params={"ticket": 99999999}, headers=editor.basic
    )
    assert unknown.status_code == 400
    assert (
        unknown.json()["data"]["params"]["ticket"] == "ticket: there is no ticket with ID 99999999."
    )
    german = await client.get(
        f"{API}/attendees", params={"ticket": 99999999, "i18n_language": "de"}, headers=editor.basic
    )
    assert "kein Ticket" in german.json()["data"]["params"]["ticket"]
    # The caller is checked before the parameters: an anonymous bad request is a 401.
    anonymous = await client.get(f"{API}/attendees", params={"status": "maybe"})
    assert anonymous.status_code == 401
    missing = await client.get(f"{API}/attendees/99999999", headers=editor.basic)
    assert missing.status_code == 404
    assert missing.json()["code"] == "rest-attendee-not-found"
    past_the_end = await client.get(f"{API}/attendees", params={"page": 9}, headers=editor.basic)
    assert past_the_end.status_code == 404
    assert past_the_end.json()["code"] == "attendees-archive-page-not-found"


async def test_check_in_once_then_409_with_the_time(
    client: AsyncClient, db: AsyncSession, auth: Auth
) -> None:
    author = await auth("author")
    ids = await event_with_attendees(client, db, author)
    url = f"{API}/attendees/{ids['ada']}/check-in"
    assert (await client.post(url)).status_code == 401
    assert (await client.post(url, headers=(await auth("author")).basic)).status_code == 403
    first = await client.post(url, headers=author.basic)
    assert first.status_code == 200, first.text
    checked = first.json()
    assert checked["checked_in_at"] is not None
    assert checked["status"] == "going"
    second = await client.post(url, headers=author.basic)
    assert second.status_code == 409
    error = second.json()
    assert error["code"] == "already-checked-in"
    assert error["data"]["checked_in_at"] == checked["checked_in_at"]
    assert error["data"]["checked_in_at_utc"] == checked["checked_in_at_utc"]
    assert error["message"] == f"Already checked in at {checked['checked_in_at'][11:16]}."
    body = await listed(client, author, event=ids["event"], status="checked_in")
    assert names(body) == ["Ada Lovelace", "Eve"]
    assert body["totals"]["checked_in"] == 3  # type: ignore[index]
    for status in ("bob", "cy", "dee"):  # not going, waitlisted, cancelled
        refused = await client.post(f"{API}/attendees/{ids[status]}/check-in", headers=author.basic)
        assert refused.status_code == 409
        assert refused.json()["code"] == "attendee-not-going"
    missing = await client.post(f"{API}/attendees/99999999/check-in", headers=author.basic)
    assert missing.status_code == 404


async def test_check_in_by_the_qr_codes_signed_link(
    db: AsyncSession, auth: Auth, client: AsyncClient
) -> None:
    editor = await auth("editor")
    ids = await event_with_attendees(client, db, editor)
    settings = get_settings()
    user = Principal(editor.id, editor.login, Role.EDITOR)
    service = AttendeeService(command_context(db, user))
    secret = await db.scalar(
        text("SELECT secret FROM attendees WHERE id = :id"), {"id": ids["ada"]}
    )
    key = link_key(settings.app_password_pepper)
    for wrong in (sign(key, "manage", ids["ada"], secret), "x" * 24):
        with pytest.raises(ApiError) as refused:
            await service.check_in_by_code(ids["ada"], wrong)
        assert refused.value.status == 404
    checked = await service.check_in_by_code(ids["ada"], sign(key, "check_in", ids["ada"], secret))
    assert checked.checked_in_at is not None
    assert checked.checked_in_by == editor.id


async def test_the_csv_export(
    client: AsyncClient, db: AsyncSession, editor: AuthFor, auth: Auth
) -> None:
    event = await make_event(db)
    ticket = await add_ticket(db, event, name="=Front, row")
    await add_attendee(db, ticket, '=HYPERLINK("http://x")', "a@example.org", quantity=2)
    await add_attendee(db, ticket, 'Line\nbreak "quoted"', "+b@example.org")
    await add_attendee(db, ticket, "-1", "@c@example.org", status="waitlisted")
    answer = await client.get(f"{API}/attendees.csv", params={"event": event}, headers=editor.basic)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "text/csv; charset=utf-8"
    assert answer.headers["content-disposition"] == f'attachment; filename="attendees-{event}.csv"'
    assert answer.headers["cache-control"] == "no-store"
    text = answer.text
    assert text.startswith("id,event,ticket,ticket_name,name,email,quantity,status,")
    assert text.endswith("\r\n")
    assert text.count("\r\n") == 4
    assert '"Line\nbreak ""quoted"""' in text
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert [row["name"] for row in rows] == [
        '\'=HYPERLINK("http://x")',
        'Line\nbreak "quoted"',
        "'-1",
    ]
    assert [row["email"] for row in rows] == ["a@example.org", "'+b@example.org", "'@c@example.org"]
    assert {row["ticket_name"] for row in rows} == {"'=Front, row"}
    assert rows[0]["quantity"] == "2"
    assert rows[2]["status"] == "waitlisted"
    assert rows[0]["event"] == str(event)
    assert rows[0]["checked_in_at"] == ""
    # Without an event: every attendee the caller sees (an author: their own events').
    everything = await client.get(f"{API}/attendees.csv", headers=editor.basic)
    assert everything.headers["content-disposition"] == 'attachment; filename="attendees.csv"'
    assert '"Line\nbreak ""quoted"""' in everything.text
    author = await auth("author")
    own = await client.get(f"{API}/attendees.csv", headers=author.basic)
    assert own.status_code == 200
    assert own.text.count("\r\n") == 1  # the header alone
    bad = await client.get(f"{API}/attendees.csv", params={"event": "x"}, headers=editor.basic)
    assert bad.status_code == 400
    assert list(bad.json()["data"]["params"]) == ["event"]


async def test_a_message_to_all_is_checked(
    client: AsyncClient, db: AsyncSession, auth: Auth
) -> None:
    author = await auth("author")
    ids = await event_with_attendees(client, db, author)
    url = f"{API}/attendees/message"
    payload = {"event": ids["event"], "subject": "Doors at 7", "body": "See you."}
    assert (await client.post(url, json=payload)).status_code == 401
    other = await auth("author")
    assert (await client.post(url, json=payload, headers=other.basic)).status_code == 403
    empty = await client.post(url, json={**payload, "subject": " "}, headers=author.basic)
    assert empty.status_code == 400
    assert list(empty.json()["data"]["params"]) == ["subject"]
    before = await messages_about(db, ids["event"])
    sent = await client.post(url, json=payload, headers=author.basic)
    assert sent.status_code == 200, sent.text
    # The going and the waitlisted: not Bob (not going), nor Dee (cancelled).
    assert sent.json() == {"event": ids["event"], "queued": 3}
    queued = [row for row in await messages_about(db, ids["event"]) if row not in before]
    assert sorted(recipient for recipient, _ in queued) == [
        "ada@example.org",
        "cy@example.org",
        "eve@example.org",
    ]
    assert {subject for _, subject in queued} == {"Doors at 7"}


async def messages_about(db: AsyncSession, event_id: int) -> list[tuple[str, str]]:
    rows = await db.execute(
        text(
            "SELECT recipient, subject FROM mail_outbox WHERE event_id = :id AND kind = 'message'"
        ),
        {"id": event_id},
    )
    return [(row.recipient, row.subject) for row in rows]


async def test_the_list_is_in_the_openapi_document(client: AsyncClient) -> None:
    document = (await client.get(f"{API}/doc")).json()
    paths = document["paths"]
    for path in ("/attendees", "/attendees/{id}", "/attendees/{id}/check-in", "/attendees.csv"):
        assert any(key.endswith(path) for key in paths), path
    listing = next(value for key, value in paths.items() if key.endswith("/attendees"))
    assert listing["get"]["security"]
    assert listing["get"]["x-almanac-role"] == "editor"


@pytest.mark.parametrize("number", [HUGE, str(2**63), str(MAX_ID + 1)])
async def test_ids_out_of_range_are_4xx(client: AsyncClient, admin: AuthFor, number: str) -> None:
    for method, path in (("GET", "/attendees/{id}"), ("POST", "/attendees/{id}/check-in")):
        answer = await client.request(
            method, API + path.replace("{id}", number), headers=admin.basic
        )
        assert answer.status_code == 404, answer.text
    for name in ("event", "ticket"):
        answer = await client.get(f"{API}/attendees", params={name: number}, headers=admin.basic)
        assert answer.status_code in (400, 404), answer.text
    csv_answer = await client.get(
        f"{API}/attendees.csv", params={"event": number}, headers=admin.basic
    )
    assert csv_answer.status_code in (400, 404), csv_answer.text
    message = await client.post(
        f"{API}/attendees/message",
        json={"event": number, "subject": "s", "body": "b"},
        headers=admin.basic,
    )
    assert message.status_code in (400, 404), message.text


async def test_a_date_of_a_series_has_its_own_attendees(client: AsyncClient, auth: Auth) -> None:
    author = await auth("author")
    series = await create_record(
        client, author, "events", "Weekly class", recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"]
    )
    dates = await client.get(
        f"{API}/events",
        params={"post_parent": series["id"], "start_date": "now", "end_date": "+1 year"},
    )
    first, second, _ = (date["id"] for date in dates.json()["events"])
    pool = await make_ticket(client, author, event=first, name="Season")
    week = await make_ticket(client, author, event=second, name="Week 2")
    assert (await rsvp(client, pool["id"], "ada@example.org", name="Ada")).status_code == 201
    assert (await rsvp(client, week["id"], "bob@example.org", name="Bob")).status_code == 201
    assert names(await listed(client, author, event=second)) == ["Bob"]
    assert names(await listed(client, author, event=first)) == ["Ada"]
    assert names(await listed(client, author)) == ["Ada", "Bob"]
    exported = await client.get(
        f"{API}/attendees.csv", params={"event": second}, headers=author.basic
    )
    assert [row["name"] for row in csv.DictReader(io.StringIO(exported.text, newline=""))] == [
        "Bob"
    ]
    other = await auth("author")
    refused = await client.get(f"{API}/attendees", params={"event": second}, headers=other.basic)
    assert refused.status_code == 403
