"""Event queries (grown by the events issues)."""

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Event


@dataclass(slots=True, frozen=True)
class Ownership:
    author_id: int | None
    status: str


async def event_ownership(session: AsyncSession, event_id: int) -> Ownership | None:
    """Author and status of an event, to decide whether a caller may see it."""
    row = (
        await session.execute(select(Event.author_id, Event.status).where(Event.id == event_id))
    ).first()
    return Ownership(author_id=row.author_id, status=row.status) if row else None
