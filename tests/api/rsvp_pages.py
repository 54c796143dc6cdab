"""What the pages' RSVP tests share (tests/api/test_pages_rsvp*.py): an event with a ticket
made through the API as an editor would, the form an event page shows, and a post of it
as a person would send it (the time trap's stamp made a while ago, the honeypot empty)."""

import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import FastAPI
from httpx import AsyncClient, Response

from app.core.app_services import app_services
from app.pages.rsvp_form import make_stamp
from tests.factories import API, AuthFor, create_record

TODAY = datetime.now(UTC).date()


def day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


def moment(hours: float) -> str:
    """An instant `hours` from now, as the API reads it (UTC)."""
    value = datetime.now(UTC) + timedelta(hours=hours)
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


async def ticketed_event(
    client: AsyncClient, editor: AuthFor, title: str = "Poetry Night", **ticket: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A published event tomorrow evening with one ticket (`ticket`: its fields)."""
    event = await create_record(
        client,
        editor,
        "events",
        title,
        start_date=f"{day(1)} 19:00:00",
        end_date=f"{day(1)} 21:00:00",
    )
    return event, await add_ticket(client, editor, event["id"], **ticket)


async def add_ticket(
    client: AsyncClient, editor: AuthFor, event_id: int, **fields: Any
) -> dict[str, Any]:
    fields = {"name": "Entry", "capacity": 50, "max_per_person": 4, **fields}
    response = await client.post(
        f"{API}/tickets", json={"event": event_id, **fields}, headers=editor.basic
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def read_ticket(client: AsyncClient, editor: AuthFor, ticket_id: int) -> dict[str, Any]:
    response = await client.get(f"{API}/tickets/{ticket_id}", headers=editor.basic)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def page_path(event: dict[str, Any], language: str = "") -> str:
    """The event's page (`language`: "", "/de" or "/sk")."""
    return f"{language}/event/{event['slug']}/"


def pepper(app: FastAPI) -> str:
    """The server's secret the forms' stamps are signed with."""
    return app_services(app).settings.app_password_pepper


def aged_stamp(app: FastAPI, ticket_id: int, seconds: float = 10.0) -> str:
    """A stamp made `seconds` ago: a person who took that long to fill in the form."""
    return make_stamp(pepper(app), ticket_id, time.time() - seconds)


def answer(
    app: FastAPI, ticket_id: int, *, stamp: str | None = None, **fields: Any
) -> dict[str, Any]:
    """The RSVP form's fields as a person sends them."""
    return {
        "ticket": str(ticket_id),
        "stamp": aged_stamp(app, ticket_id) if stamp is None else stamp,
        "name": "Ada Lovelace",
        "email": "ada@example.org",
        "quantity": "2",
        "going": "yes",
        "homepage": "",
        **fields,
    }


async def rsvp(
    client: AsyncClient, app: FastAPI, path: str, ticket_id: int, **fields: Any
) -> Response:
    return await client.post(path, data=answer(app, ticket_id, **fields))


def stamp_in(html: str, ticket_id: int) -> str:
    """The stamp of a ticket's form on a page."""
    form = re.search(
        rf'<input type="hidden" name="ticket" value="{ticket_id}">\s*'
        r'<input type="hidden" name="stamp" value="([^"]+)">',
        html,
    )
    assert form is not None, "no RSVP form for the ticket"
    return form.group(1)


def attendee_path(location: str) -> str:
    """The path of an attendee's page from a redirect's absolute URL."""
    found = re.search(r"(/(?:de/|sk/)?rsvp/\d+/[A-Za-z0-9_-]+/)", location)
    assert found is not None, location
    return found.group(1)


def answer_shown(html: str) -> str:
    """The answer an attendee's page shows ("Going", "Not going", ...), with its status."""
    found = re.search(r'<dd class="status status-(\w+)">\s*([^<]+)</dd>', html)
    assert found is not None, "no answer on the page"
    return f"{found.group(1)}: {found.group(2).strip()}"
