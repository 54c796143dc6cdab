"""Tickets on the events' side: `ticketed` in every event body and as a filter of the list,
its feed and the pages' lists; the attendance figures for the callers who may see an
event's attendees (editors, administrators, the event's author) and nobody else."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import icalendar
from httpx import AsyncClient
from sqlalchemy import insert, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import refresh_statistics
from app.events.query import EventQuery
from app.models import Attendee, Ticket
from tests.factories import API, Auth, AuthFor, create_record
from tests.list_plans import dates_scan, list_plans

FIGURES = ("going", "not_going", "waitlisted", "checked_in", "capacity")


async def add_ticket(
    db: AsyncSession, event_id: int, *, occurrence_id: int | None = None, **values: Any
) -> int:
    """A ticket row (`event_id`: the events row; `occurrence_id`: one date of a series)."""
    row = {"name": "Entry", "currency": "EUR", **values}
    stmt = insert(Ticket).values(event_id=event_id, occurrence_id=occurrence_id, **row)
    ticket_id = int((await db.execute(stmt.returning(Ticket.id))).scalar_one())
    await db.commit()
    return ticket_id


async def add_attendee(
    db: AsyncSession,
    ticket_id: int,
    event_id: int,
    status: str,
    quantity: int = 1,
    checked_in: bool = False,
) -> int:
    values = {
        "ticket_id": ticket_id,
        "event_id": event_id,
        "name": "Ann Example",
        "email": "ann@example.com",
        "quantity": quantity,
        "status": status,
        "language": "en",
        "secret": "s" * 32,
        "checked_in_at": datetime.now(UTC) if checked_in else None,
    }
    stmt = insert(Attendee).values(**values).returning(Attendee.id)
    attendee_id = int((await db.execute(stmt)).scalar_one())
    await db.commit()
    return attendee_id


def day(days: int) -> str:
    moment = datetime.now(UTC) + timedelta(days=days)
    return moment.strftime("%Y-%m-%d 10:00:00")


async def event(client: AsyncClient, who: AuthFor, title: str, days: int, **fields: Any) -> Any:
    return await create_record(
        client, who, "events", title, start_date=day(days), end_date=day(days)[:11] + "12:00:00",
        **fields,
    )  # fmt: skip


async def listed(client: AsyncClient, headers: dict[str, str] | None = None, **params: Any) -> Any:
    response = await client.get(f"{API}/events", params=params, headers=headers or {})
    assert response.status_code == 200, response.text
    return response.json()


async def test_ticketed_in_every_body_and_as_the_lists_filter(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    plain = await event(client, editor, "Plain", 1)
    single = await event(client, editor, "Single", 2)
    # A series' ticket without a date: every date; one of a date: that date alone.
    pooled = await event(client, editor, "Pooled", 3, recurrence=["RRULE:FREQ=DAILY;COUNT=2"])
    dated = await event(client, editor, "Dated", 6, recurrence=["RRULE:FREQ=DAILY;COUNT=3"])
    await add_ticket(db, single["id"])
    await add_ticket(db, pooled["id"])
    dates = (await listed(client, post_parent=dated["id"]))["events"]
    assert [d["id"] for d in dates][0] == dated["id"]
    assert len(dates) == 3
    await add_ticket(db, dated["id"], occurrence_id=dates[1]["id"])

    body = await listed(client)
    flags = {e["id"]: e["ticketed"] for e in body["events"]}
    pooled_dates = [e["id"] for e in body["events"] if e["title"] == "Pooled"]
    assert len(pooled_dates) == 2
    assert flags == {
        plain["id"]: False,
        single["id"]: True,
        **dict.fromkeys(pooled_dates, True),
        dates[0]["id"]: False,
        dates[1]["id"]: True,
        dates[2]["id"]: False,
    }
    # At the end of the fields, where the reference's add-on appends it; no attendance for
    # an anonymous caller.
    first = body["events"][0]
    keys = list(first)
    assert keys[keys.index("custom_fields") + 1] == "ticketed"
    assert "attendance" not in first

    with_tickets = await listed(client, ticketed="true")
    assert {e["id"] for e in with_tickets["events"]} == {
        single["id"], *pooled_dates, dates[1]["id"]
    }  # fmt: skip
    assert with_tickets["total"] == 4
    assert with_tickets["rest_url"].endswith("&status=publish&ticketed=1")
    without = await listed(client, ticketed="0")
    assert {e["id"] for e in without["events"]} == {plain["id"], dates[0]["id"], dates[2]["id"]}
    assert without["total"] == 3

    # Single reads: the event, a later date of a series (its own ID), a series' row.
    for event_id, expected in ((single["id"], True), (plain["id"], False),
                               (pooled_dates[1], True), (dates[1]["id"], True),
                               (dates[2]["id"], False)):  # fmt: skip
        response = await client.get(f"{API}/events/{event_id}")
        assert response.status_code == 200
        assert response.json()["ticketed"] is expected, event_id


async def test_the_feed_and_the_pages_filter_alike(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    plain = await event(client, editor, "Plain evening", 1)
    ticketed = await event(client, editor, "Ticketed evening", 2)
    await add_ticket(db, ticketed["id"])

    def uids(response: Any) -> set[str]:
        calendar = icalendar.Calendar.from_ical(response.content)
        return {str(c["UID"]) for c in calendar.walk("VEVENT")}

    every = uids(await client.get(f"{API}/events.ics"))
    only = uids(await client.get(f"{API}/events.ics", params={"ticketed": "true"}))
    none = uids(await client.get(f"{API}/events.ics", params={"ticketed": "false"}))
    assert len(every) == 2
    assert len(only) == 1
    assert len(none) == 1
    assert only | none == every
    assert not only & none
    assert any(str(ticketed["id"]) in uid for uid in only)
    named = await client.get(f"/de{API}/events.ics", params={"ticketed": "false"})
    assert "Veranstaltungen: Ohne Tickets" in icalendar.Calendar.from_ical(named.content)["NAME"]

    page = await client.get("/events/list/", params={"ticketed": "1"})
    assert page.status_code == 200
    assert "Ticketed evening" in page.text
    assert "Plain evening" not in page.text
    page = await client.get("/events/list/", params={"ticketed": "0"})
    assert "Plain evening" in page.text
    assert "Ticketed evening" not in page.text
    # The filter stays in the views' links (the month's previous and next).
    month = await client.get("/events/month/", params={"ticketed": "1"})
    assert month.status_code == 200
    assert month.text.count("ticketed=1") >= 2
    refused = await client.get("/events/list/", params={"ticketed": "maybe"})
    assert refused.status_code == 400
    assert plain["id"]


async def test_attendance_for_editors_and_the_events_author_alone(
    client: AsyncClient, auth: Auth, db: AsyncSession
) -> None:
    author = await auth("author")
    other = await auth("author")
    editor = await auth("editor")
    admin = await auth("administrator")
    contributor = await auth("contributor")
    show = await event(client, author, "Show", 1)
    limited = await add_ticket(db, show["id"], capacity=10)
    open_ticket = await add_ticket(db, show["id"], capacity=None, name="Standing")
    await add_attendee(db, limited, show["id"], "going", 2, checked_in=True)
    await add_attendee(db, limited, show["id"], "going", 3)
    await add_attendee(db, open_ticket, show["id"], "going", 1)
    await add_attendee(db, limited, show["id"], "not_going", 1)
    await add_attendee(db, limited, show["id"], "waitlisted", 4)
    await add_attendee(db, limited, show["id"], "cancelled", 5)
    bare = await event(client, author, "No tickets", 2)

    expected = {"going": 6, "not_going": 1, "waitlisted": 4, "checked_in": 2, "capacity": None}
    empty = {"going": 0, "not_going": 0, "waitlisted": 0, "checked_in": 0, "capacity": 0}
    for who in (author, editor, admin):
        single = (await client.get(f"{API}/events/{show['id']}", headers=who.basic)).json()
        assert single["attendance"] == expected, who.login
        assert list(single["attendance"]) == list(FIGURES)
        keys = list(single)
        assert keys[keys.index("ticketed") + 1] == "attendance"
        bodies = {e["id"]: e for e in (await listed(client, who.basic))["events"]}
        assert bodies[show["id"]]["attendance"] == expected
        assert bodies[bare["id"]]["attendance"] == empty
    for who in (other, contributor, None):
        headers = who.basic if who else {}
        single = (await client.get(f"{API}/events/{show['id']}", headers=headers)).json()
        assert single["ticketed"] is True
        assert "attendance" not in single
        for body in (await listed(client, headers))["events"]:
            assert "attendance" not in body

    # Every ticket limited: the capacity is their sum.
    await db.execute(Ticket.__table__.update().values(capacity=20).where(Ticket.id == open_ticket))
    await db.commit()
    single = (await client.get(f"{API}/events/{show['id']}", headers=editor.basic)).json()
    assert single["attendance"]["capacity"] == 30

    # A contributor's own event: the figures (their own attendees).
    own = await event(client, contributor, "Own", 3, status="draft")
    response = await client.get(f"{API}/events/{own['id']}", headers=contributor.basic)
    assert response.json()["attendance"] == empty


async def test_a_protected_events_flags_are_redacted(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    secret = await event(client, editor, "Secret", 1, password="pw")
    await add_ticket(db, secret["id"])
    body = (await listed(client))["events"][0]
    assert body["ticketed"] is None
    opened = (await listed(client, password="pw"))["events"][0]
    assert opened["ticketed"] is True


BULK_EVENTS = """
    INSERT INTO events (title, slug, status, start_at, end_at, start_local, end_local,
        timezone, timezone_abbr, all_day, cost, cost_details, show_map, show_map_link,
        hide_from_listings, sticky, featured, published_at, modified_at, description, excerpt)
    SELECT 'Bulk ' || n, 'bulk-' || n, 'publish', s, s + interval '2 hours', s,
        s + interval '2 hours', 'UTC', 'UTC', false, '', '{}', false, false, false, false, false,
        now(), now(), '', ''
    FROM (SELECT n, now() + (n * interval '10 minutes') AS s
          FROM generate_series(CAST(:first AS int), CAST(:last AS int)) AS n) AS series
"""


async def _plans(db: AsyncSession, ticketed: bool | None) -> dict[str, str]:
    return await list_plans(db, EventQuery(ticketed=ticketed))


async def test_the_ticketed_filter_plans_on_100k_events(db: AsyncSession) -> None:
    """Loaded as the seeder loads (tests/api/test_event_list_queries.py): one event in a
    thousand ticketed among 100,000 (run with -s to read the plans)."""
    for first, last in ((1, 1000), (1001, 100_000)):
        await db.execute(text(BULK_EVENTS), {"first": first, "last": last})
        await refresh_statistics(db, "events", "occurrences")
    await db.execute(
        text(
            "INSERT INTO tickets (event_id, name, currency) SELECT id, 'Entry', 'EUR' "
            "FROM events WHERE id % 1000 = 0"
        )
    )
    await refresh_statistics(db, "tickets")
    # With a ticket: the tickets' dates are read first (through the occurrences' series
    # index), then the page's and the count's rows by their keys: no walk of the list.
    plans = await _plans(db, True)
    for plan in plans.values():
        assert "occurrences_series_idx" in plan
        assert "occurrences_pkey" in plan
        assert not re.search(r"Seq Scan on (occurrences|events)\b", plan)
    # Without: the list's walk, each date checked against the hashed set of ticketed ones;
    # the count is the plain list's, with that check.
    plans = await _plans(db, False)
    assert re.search(r"Index Scan using occurrences_(start|listing)_idx", plans["page"])
    assert "hashed SubPlan" in plans["page"]
    plain = await _plans(db, None)
    assert dates_scan(plans["count"]) == dates_scan(plain["count"])
    # Every page's bodies: `ticketed` probed for the page's rows alone, never a hash of
    # every ticket built for each request.
    assert "hashed SubPlan" not in plain["page"]
    assert "loops=9" in plain["page"]
