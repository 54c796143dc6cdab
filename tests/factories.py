"""Small builders for test data. Records the API cannot create yet are inserted directly."""

import base64
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.rules.permissions import Role
from app.core.settings import get_settings
from app.models import Event, event_terms
from app.users.service import Accounts

API = "/calendar/events/v1"  # the REST namespace every route lives under

_counter = itertools.count(1)


def basic(login: str, password: str) -> dict[str, str]:
    """An HTTP Basic Authorization header."""
    token = base64.b64encode(f"{login}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


@dataclass
class AuthFor:
    id: int
    login: str
    password: str

    @property
    def basic(self) -> dict[str, str]:
        return basic(self.login, self.password)

    @property
    def bearer(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.password}"}


# The `auth` fixture: `await auth("editor")` creates a user of that role.
Auth = Callable[[str], Awaitable[AuthFor]]


def asgi_client(
    app: FastAPI, *, client: tuple[str, int] | None = None, **options: Any
) -> AsyncClient:
    """A client calling `app` in this process, as http://testserver (from `client`'s address
    when given). An exception in the app is answered by the app's 500, not raised."""
    peer = {"client": client} if client else {}
    transport = ASGITransport(app=app, raise_app_exceptions=False, **peer)
    return AsyncClient(transport=transport, base_url="http://testserver", **options)


async def make_auth(db: AsyncSession, role: str) -> AuthFor:
    user, password = await Accounts(db, get_settings().app_password_pepper).add(
        f"{role}{next(_counter)}", Role(role)
    )
    await db.commit()
    return AuthFor(id=user.id, login=user.login, password=password)


async def make_event(
    db: AsyncSession,
    *,
    status: str = "publish",
    term_ids: list[int] = (),
    **values: Any,  # type: ignore[assignment]
) -> int:
    """An event row (the events API arrives later); returns its ID."""
    number = next(_counter)
    start = values.pop("start", datetime.now(UTC) + timedelta(days=1))
    end = values.pop("end", start + timedelta(hours=2))
    event = Event(
        title=values.pop("title", f"Event {number}"),
        slug=values.pop("slug", f"event-{number}"),
        status=status,
        start_at=start,
        end_at=end,
        start_local=start.replace(tzinfo=None),
        end_local=end.replace(tzinfo=None),
        timezone="UTC",
        timezone_abbr="UTC",
        cost_details={},
        **values,
    )
    db.add(event)
    await db.flush()
    for term_id in term_ids:
        await db.execute(insert(event_terms).values(event_id=event.id, term_id=term_id))
    await db.commit()
    return event.id


async def link_organizers(db: AsyncSession, event_id: int, *organizer_ids: int) -> None:
    """Link organizers to an event, in that order."""
    from app.models import event_organizers

    for position, organizer_id in enumerate(organizer_ids):
        await db.execute(
            insert(event_organizers).values(
                event_id=event_id, organizer_id=organizer_id, position=position
            )
        )
    await db.commit()


async def create_post(client: Any, who: AuthFor, plural: str, **fields: Any) -> dict[str, Any]:
    """Create a venue or organizer through the API (`plural`: venues / organizers)."""
    response = await client.post(f"{API}/{plural}", json=fields, headers=who.basic)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


NAME_FIELD = {"events": "title", "venues": "venue", "organizers": "organizer"}
EVENT_DATES = {"start_date": "+1 day", "end_date": "+2 days"}  # inside the default window


def record_payload(plural: str, name: str, **fields: Any) -> dict[str, Any]:
    """A create payload of an event, venue or organizer (`plural`) named `name`."""
    dates = EVENT_DATES if plural == "events" else {}
    return {NAME_FIELD[plural]: name, **dates, **fields}


async def create_record(
    client: Any, who: AuthFor, plural: str, name: str, **fields: Any
) -> dict[str, Any]:
    """Create an event, venue or organizer through the API; its body (201 asserted)."""
    response = await client.post(
        f"{API}/{plural}", json=record_payload(plural, name, **fields), headers=who.basic
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body
