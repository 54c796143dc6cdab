"""The capacity under a rush, in one process (docs/design.md#tickets-and-rsvp): 300
simultaneous RSVPs for 50 places give exactly 50 going attendees and 250 clear 409s. The
requests run on sessions of their own (real transactions, real row locks), not in the test's
rolled-back transaction, and each comes from an address of its own (the throttle counts per
address); what they committed is deleted afterwards. Two instances: tests/live."""

import asyncio
from collections import Counter
from collections.abc import AsyncIterator

import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.core.app_services import app_services
from app.core.database.engine import get_sessionmaker
from tests.factories import AuthFor, asgi_client, make_auth
from tests.tickets import rsvp, ticket, ticketed_event

RUSH, PLACES = 300, 50
# What the rush appends beside its event's rows: (table, key column).
MARKED = (("change_log", "seq"), ("mail_outbox", "id"))


@pytest.fixture
async def committing(app: FastAPI, engine: AsyncEngine) -> AsyncIterator[AuthFor]:
    """Requests commit for real; an editor committed too. Afterwards the event it makes (its
    tickets and attendees go with it), the editor and the log's and outbox's new rows go."""
    maker = async_sessionmaker(engine, expire_on_commit=False)
    async with engine.begin() as conn:
        marks = {
            (table, key): await conn.scalar(text(f"SELECT coalesce(max({key}), 0) FROM {table}"))
            for table, key in MARKED
        }
    async with maker() as db:
        editor = await make_auth(db, "editor")
    app.dependency_overrides[get_sessionmaker] = lambda: maker
    await app_services(app).failed_logins.clear()
    try:
        yield editor
    finally:
        app.dependency_overrides.clear()
        await app_services(app).failed_logins.clear()
        async with engine.begin() as conn:
            await conn.execute(text("DELETE FROM events WHERE author_id = :id"), {"id": editor.id})
            await conn.execute(text("DELETE FROM users WHERE id = :id"), {"id": editor.id})
            for (table, key), mark in marks.items():
                await conn.execute(text(f"DELETE FROM {table} WHERE {key} > :m"), {"m": mark})


async def test_300_simultaneous_rsvps_for_50_places(
    app: FastAPI, engine: AsyncEngine, committing: AuthFor
) -> None:
    async with asgi_client(app) as client:
        _, made = await ticketed_event(client, committing, capacity=PLACES)

    async def one(number: int) -> int:
        address = (f"10.45.{number // 250}.{number % 250 + 1}", 40000)
        async with asgi_client(app, client=address) as visitor:
            answer = await rsvp(visitor, made["id"], email=f"p{number}@example.org")
        if answer.status_code == 409:
            assert answer.json()["code"] == "ticket-sold-out"
        return answer.status_code

    statuses = await asyncio.wait_for(asyncio.gather(*(one(n) for n in range(RUSH))), 180)
    assert Counter(statuses) == {201: PLACES, 409: RUSH - PLACES}
    async with asgi_client(app) as client:
        after = await ticket(client, made["id"])
    assert (after["taken"], after["available"]) == (PLACES, 0)
    async with AsyncSession(engine) as db:
        going = await db.scalar(
            text("SELECT count(*) FROM attendees WHERE ticket_id = :id AND status = 'going'"),
            {"id": made["id"]},
        )
    assert going == PLACES
