"""Every query of tickets (app/models/tickets.py): reads with the start of their event (or
date), a page of them, writes, and the places an RSVP takes and gives back. `taken` changes
only by the conditional UPDATE of `take` and by `give_back`: the row is the one thing an
RSVP locks, and the table's check keeps it within the capacity whatever the writer."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Date, and_, cast, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import lock_row
from app.core.rules.constants import PUBLISH, TRASH
from app.core.rules.paging import Page
from app.models import Event, Occurrence
from app.models.tickets import Ticket
from app.tickets.records import TicketRecord

# When the event (or the ticket's date) starts: a ticket without a date on a series is one
# pool for the whole series, closing when the series' first date (the event row) starts.
EVENT_START = func.coalesce(Occurrence.start_at, Event.start_at)
CLOSES = func.least(func.coalesce(Ticket.sale_ends, EVENT_START), EVENT_START)


@dataclass(frozen=True)
class Visibility:
    """Whose events' tickets a list shows: every event but trashed ones (`everything`, an
    editor's), else published events without a password and the caller's own."""

    everything: bool = False
    author_id: int | None = None

    def condition(self) -> Any:
        if self.everything:
            return Event.status != TRASH
        public = and_(Event.status == PUBLISH, func.coalesce(Event.password, "") == "")
        if self.author_id is None:
            return public
        return or_(public, and_(Event.author_id == self.author_id, Event.status != TRASH))


def _select() -> Any:
    return (
        select(
            Ticket.id,
            func.coalesce(Ticket.occurrence_id, Ticket.event_id).label("event_id"),
            Ticket.event_id.label("series_id"),
            Ticket.occurrence_id,
            Ticket.name,
            Ticket.description,
            Ticket.capacity,
            Ticket.taken,
            Ticket.max_per_person,
            Ticket.sale_starts,
            Ticket.sale_ends,
            Ticket.waitlist,
            Ticket.price,
            Ticket.currency,
            EVENT_START.label("event_start"),
            Ticket.created_at,
            Ticket.modified_at,
            cast(Occurrence.start_local, Date).label("day"),
        )
        .join(Event, Event.id == Ticket.event_id)
        .outerjoin(Occurrence, Occurrence.id == Ticket.occurrence_id)
    )


def _records(rows: Sequence[Any]) -> list[TicketRecord]:
    return [TicketRecord(**row._mapping) for row in rows]


def of_event_condition(event_id: int, series_id: int) -> Any:
    """The tickets of an event as clients name it: those of that date (or single event),
    and the series' tickets without a date."""
    return or_(
        Ticket.occurrence_id == event_id,
        and_(Ticket.occurrence_id.is_(None), Ticket.event_id == series_id),
    )


class TicketRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get(self, ticket_id: int) -> TicketRecord | None:
        rows = (await self.session.execute(_select().where(Ticket.id == ticket_id))).all()
        return _records(rows)[0] if rows else None

    async def of_event(self, event_id: int, series_id: int) -> list[TicketRecord]:
        """The event's tickets, by their dates' start then ID."""
        stmt = _select().where(of_event_condition(event_id, series_id))
        rows = (await self.session.execute(stmt.order_by(EVENT_START, Ticket.id))).all()
        return _records(rows)

    async def page(
        self,
        page: Page,
        visible: Visibility,
        *,
        event: tuple[int, int] | None = None,
        on_sale_at: datetime | None = None,
        not_on_sale_at: datetime | None = None,
    ) -> tuple[list[TicketRecord], int]:
        """A page of the tickets the caller may see, by ID, and their number. `event`: the
        (event, series) IDs of one event; `on_sale_at` / `not_on_sale_at`: on sale at that
        moment, or not."""
        conditions: list[Any] = [visible.condition()]
        if event is not None:
            conditions.append(of_event_condition(*event))
        if on_sale_at is not None:
            conditions.append(_on_sale(on_sale_at))
        if not_on_sale_at is not None:
            conditions.append(~_on_sale(not_on_sale_at))
        stmt = _select().where(*conditions)
        total = await self.session.scalar(select(func.count()).select_from(stmt.subquery()))
        stmt = stmt.order_by(Ticket.id).limit(page.size).offset(page.offset)
        return _records((await self.session.execute(stmt)).all()), int(total or 0)

    async def create(self, values: dict[str, Any]) -> int:
        ticket = Ticket(**values)
        self.session.add(ticket)
        await self.session.flush()
        return ticket.id

    async def update(self, ticket_id: int, values: dict[str, Any]) -> None:
        await self.session.execute(
            update(Ticket).where(Ticket.id == ticket_id).values(**values, modified_at=func.now())
        )

    async def delete(self, ticket_id: int) -> None:
        await self.session.execute(delete(Ticket).where(Ticket.id == ticket_id))

    async def lock(self, ticket_id: int) -> bool:
        return await lock_row(self.session, Ticket, ticket_id)

    async def take(self, ticket_id: int, places: int) -> bool:
        """Take `places` if they are left (locking the ticket's row); False: sold out."""
        taken = await self.session.scalar(
            update(Ticket)
            .where(
                Ticket.id == ticket_id,
                or_(Ticket.capacity.is_(None), Ticket.taken + places <= Ticket.capacity),
            )
            .values(taken=Ticket.taken + places)
            .returning(Ticket.id)
        )
        return taken is not None

    async def give_back(self, ticket_id: int, places: int) -> None:
        await self.session.execute(
            update(Ticket).where(Ticket.id == ticket_id).values(taken=Ticket.taken - places)
        )


def _on_sale(now: datetime) -> Any:
    opened = or_(Ticket.sale_starts.is_(None), Ticket.sale_starts <= now)
    return and_(opened, CLOSES.__gt__(now))
