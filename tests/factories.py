"""Small builders for test data. Records the API cannot create yet are inserted directly."""

import base64
import itertools
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.permissions import Role
from app.core.settings import get_settings
from app.models import Event, event_terms
from app.users.service import Accounts

_counter = itertools.count(1)


@dataclass
class AuthFor:
    id: int
    login: str
    password: str

    @property
    def basic(self) -> dict[str, str]:
        token = base64.b64encode(f"{self.login}:{self.password}".encode()).decode()
        return {"Authorization": f"Basic {token}"}

    @property
    def bearer(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.password}"}


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
    response = await client.post(f"/calendar/events/v1/{plural}", json=fields, headers=who.basic)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body
