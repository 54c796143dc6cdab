"""A person's data by their email address: `almanac attendees export` prints everything kept
about it (attendees with their tickets, messages without bodies), `almanac attendees forget`
erases it (answers cancelled with their places given back and the waitlist moved up, no
message to the address, then its attendees and messages deleted); in process over the
test's transaction, and as the real commands on a database of their own."""

import json
from datetime import UTC, datetime

from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

from app.attendees.privacy import Forgotten, export, forget
from app.models import OutboxMessage
from tests.attendees import add_attendee, add_ticket, command_context
from tests.factories import API, AuthFor, make_event
from tests.live.harness import almanac, fresh_database
from tests.tickets import make_ticket, rsvp, ticket, ticketed_event


async def add_message(db: AsyncSession, recipient: str, subject: str, **values: object) -> int:
    message = OutboxMessage(
        kind=values.pop("kind", "message"),
        recipient=recipient,
        language="en",
        subject=subject,
        message=b"Subject: x\r\n\r\nbody",
        **values,
    )
    db.add(message)
    await db.flush()
    await db.commit()
    return message.id


async def people(db: AsyncSession) -> dict[str, int]:
    """Ada answered twice (two events, her address in two cases), Bob once; messages to
    each of them."""
    first, second = await make_event(db), await make_event(db)
    hall = await add_ticket(db, first, name="Hall")
    stage = await add_ticket(db, second, name="Stage")
    ids = {"first": first, "second": second, "hall": hall, "stage": stage}
    ids["ada"] = await add_attendee(
        db, hall, "Ada", "ada@example.org", quantity=2, checked_in_at=datetime.now(UTC)
    )
    ids["ada2"] = await add_attendee(
        db, stage, "Ada L.", "Ada@Example.org", status="waitlisted", language="de"
    )
    ids["bob"] = await add_attendee(db, hall, "Bob", "bob@example.org")
    ids["ada_mail"] = await add_message(
        db, "ada@example.org", "You are going", kind="going", attendee_id=ids["ada"]
    )
    ids["ada_news"] = await add_message(db, "ADA@example.org", "Doors at 7", event_id=first)
    ids["bob_mail"] = await add_message(db, "bob@example.org", "You are going")
    return ids


async def test_an_export_holds_everything_about_the_address_and_nothing_else(
    db: AsyncSession,
) -> None:
    ids = await people(db)
    body = await export(command_context(db), "ADA@EXAMPLE.ORG")
    assert body["email"] == "ADA@EXAMPLE.ORG"
    attendees = body["attendees"]
    assert [a["id"] for a in attendees] == [ids["ada"], ids["ada2"]]
    assert [a["ticket_name"] for a in attendees] == ["Hall", "Stage"]
    assert attendees[0]["email"] == "ada@example.org"
    assert attendees[0]["quantity"] == 2
    assert attendees[0]["checked_in_at_utc"] is not None
    assert attendees[1]["status"] == "waitlisted"
    assert attendees[1]["language"] == "de"
    messages = body["messages"]
    assert [m["id"] for m in messages] == [ids["ada_mail"], ids["ada_news"]]
    assert [m["subject"] for m in messages] == ["You are going", "Doors at 7"]
    assert messages[0]["attendee"] == ids["ada"]
    assert messages[1]["event"] == ids["first"]
    assert messages[0]["status"] == "waiting"
    assert messages[0]["sent_utc"] is None
    assert "Bob" not in json.dumps(body)
    assert "body" not in json.dumps(messages)  # subjects and dates, never the messages
    nobody = await export(command_context(db), "nobody@example.org")
    assert nobody == {"email": "nobody@example.org", "attendees": [], "messages": []}


async def outbox(db: AsyncSession) -> list[tuple[str, str]]:
    rows = await db.execute(text("SELECT lower(recipient), kind FROM mail_outbox ORDER BY id"))
    return [(row[0], row[1]) for row in rows]


async def test_forgetting_an_address_frees_its_places_and_erases_it(
    client: AsyncClient, db: AsyncSession, editor: AuthFor
) -> None:
    event, hall = await ticketed_event(client, editor, capacity=2, waitlist=True)
    other = await make_ticket(client, editor, event=event, name="Balcony")
    ada = (await rsvp(client, hall["id"], "ada@example.org", quantity=2)).json()
    bob = (await rsvp(client, hall["id"], "bob@example.org", name="Bob")).json()
    assert bob["status"] == "waitlisted"
    no = await rsvp(client, other["id"], "ADA@example.org", going=False)
    assert no.json()["status"] == "not_going"
    assert ("ada@example.org", "going") in await outbox(db)

    done = await forget(command_context(db), "Ada@Example.org")
    await db.commit()
    # Her two answers, her two confirmations (nothing new to her), her two attendees.
    assert done == Forgotten(cancelled=2, attendees=2, messages=2)
    assert [row for row in await outbox(db) if row[0] == "ada@example.org"] == []
    # Her places went to Bob, who is told.
    assert (await ticket(client, hall["id"]))["taken"] == 1
    assert ("bob@example.org", "promoted") in await outbox(db)
    listed = await client.get(f"{API}/attendees", params={"event": event}, headers=editor.basic)
    assert [(a["name"], a["status"]) for a in listed.json()["attendees"]] == [("Bob", "going")]
    gone = await client.get(f"{API}/attendees/{ada['id']}", headers=editor.basic)
    assert gone.status_code == 404
    assert await export(command_context(db), "ada@example.org") == {
        "email": "ada@example.org",
        "attendees": [],
        "messages": [],
    }
    again = await forget(command_context(db), "ada@example.org")
    assert again == Forgotten(cancelled=0, attendees=0, messages=0)


async def test_the_export_and_forget_commands(database_url: str) -> None:
    async with fresh_database(database_url, "almanac_attendees_cli", migrated=True) as url:
        engine = create_async_engine(url)
        try:
            async with AsyncSession(engine, expire_on_commit=False) as db:
                ids = await people(db)
            printed = await almanac(url, "attendees", "export", "ada@example.org")
            forgotten = await almanac(url, "attendees", "forget", "ada@example.org")
            async with AsyncSession(engine) as db:
                left = await db.execute(text("SELECT lower(email) FROM attendees"))
                emails = [row[0] for row in left]
                recipients = await outbox(db)
        finally:
            await engine.dispose()
    body = json.loads(printed)
    assert [a["id"] for a in body["attendees"]] == [ids["ada"], ids["ada2"]]
    assert [m["id"] for m in body["messages"]] == [ids["ada_mail"], ids["ada_news"]]
    assert forgotten.splitlines() == [
        "answers cancelled: 2",
        "attendees deleted: 2",
        "messages deleted: 2",
    ]
    assert emails == ["bob@example.org"]
    assert recipients == [("bob@example.org", "message")]
