"""Every query of the attendees' reads and of their check-in, CSV export and forgetting:
the `attendees` rows as `AttendeeRecord`s (app/tickets/records.py), their totals in places,
and the tickets and events they hang on (an attendee's event is the one clients name:
its ticket's date, else its event). The RSVP's writes (insert, cancel, promote) are the
tickets' (app/tickets)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, and_, case, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import escape_like
from app.core.rules.paging import Page
from app.models import Attendee, Event, Ticket
from app.tickets.records import AttendeeRecord
from app.tickets.repository.attendees import COLUMNS, attendee_record


@dataclass(frozen=True, slots=True)
class AttendeeFilters:
    """Which attendees a list shows. `author_id`: only those of events this user wrote (a
    caller who sees no other event's attendees); `status` "checked_in": the going ones
    checked in."""

    event_id: int | None = None
    ticket_id: int | None = None
    author_id: int | None = None
    status: str | None = None
    search: str | None = None


@dataclass(frozen=True, slots=True)
class AttendeeTotals:
    """Places (sums of quantities) per status, and the places of checked-in attendees."""

    going: int = 0
    not_going: int = 0
    waitlisted: int = 0
    cancelled: int = 0
    checked_in: int = 0


@dataclass(frozen=True, slots=True)
class ExportRow:
    """An attendee as the CSV writes it: the record and its ticket's name."""

    attendee: AttendeeRecord
    ticket_name: str


def _same_email(email: str) -> ColumnElement[bool]:
    # The index on lower(email) finds them; addresses match case-insensitively.
    return func.lower(Attendee.email) == email.lower()


class AttendeeRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ---- reads --------------------------------------------------------------------

    async def get(self, attendee_id: int, *, lock: bool = False) -> AttendeeRecord | None:
        """The attendee; `lock`: its row locked for the rest of the transaction (a check-in
        reads it under the lock, so that of two check-ins only the first writes)."""
        statement = select(*COLUMNS).where(Attendee.id == attendee_id)
        if lock:
            statement = statement.with_for_update()
        row = (await self.session.execute(statement)).first()
        return attendee_record(row) if row else None

    async def ticket_event(self, ticket_id: int) -> int | None:
        """The event as clients name it of the ticket (its date, else its event)."""
        found = await self.session.scalar(
            select(func.coalesce(Ticket.occurrence_id, Ticket.event_id)).where(
                Ticket.id == ticket_id
            )
        )
        return int(found) if found is not None else None

    async def page(
        self, filters: AttendeeFilters, page: Page
    ) -> tuple[list[AttendeeRecord], int, AttendeeTotals]:
        """(a page of the attendees, in the order they answered; how many match; the totals
        of the list's scope: its event, ticket and author, whatever the status and search)."""
        scope = self._scope(filters)
        matching = [*scope, *self._narrowing(filters)]
        total = await self.session.scalar(
            select(func.count()).select_from(Attendee).where(*matching)
        )
        rows = await self.session.execute(
            select(*COLUMNS)
            .where(*matching)
            .order_by(Attendee.id)
            .limit(page.size)
            .offset(page.offset)
        )
        records = [attendee_record(row) for row in rows]
        return records, total or 0, await self._totals(scope)

    async def of_event(
        self, event_id: int, statuses: Sequence[str] | None = None
    ) -> list[AttendeeRecord]:
        """Every attendee of the event (of `statuses` when given), in the order they answered."""
        conditions = [Attendee.event_id == event_id]
        if statuses is not None:
            conditions.append(Attendee.status.in_(statuses))
        rows = await self.session.execute(select(*COLUMNS).where(*conditions).order_by(Attendee.id))
        return [attendee_record(row) for row in rows]

    async def export_rows(self, filters: AttendeeFilters) -> list[ExportRow]:
        """The attendees of the filters' scope (event, ticket, author) with their tickets'
        names, in the order they answered."""
        return await self._with_tickets(*self._scope(filters))

    async def by_email(self, email: str) -> list[ExportRow]:
        """Every attendee with this address (any case), with their tickets' names."""
        return await self._with_tickets(_same_email(email))

    # ---- writes -------------------------------------------------------------------

    async def check_in(self, attendee_id: int, by: int | None) -> None:
        """Checked in now (the transaction's time), by user `by`."""
        await self.session.execute(
            update(Attendee)
            .where(Attendee.id == attendee_id)
            .values(checked_in_at=func.now(), checked_in_by=by, modified_at=func.now())
        )

    async def delete_by_email(self, email: str) -> int:
        """Delete every attendee with this address (their outbox rows go with them: the
        outbox's key cascades); how many."""
        deleted = await self.session.scalars(
            delete(Attendee).where(_same_email(email)).returning(Attendee.id)
        )
        return len(deleted.all())

    # ---- pieces -------------------------------------------------------------------

    async def _with_tickets(self, *conditions: ColumnElement[bool]) -> list[ExportRow]:
        rows = await self.session.execute(
            select(*COLUMNS, Ticket.name.label("ticket_name"))
            .join(Ticket, Ticket.id == Attendee.ticket_id)
            .where(*conditions)
            .order_by(Attendee.id)
        )
        keys = [column.key for column in COLUMNS]
        return [
            ExportRow(AttendeeRecord(**{key: row._mapping[key] for key in keys}), row.ticket_name)
            for row in rows
        ]

    @staticmethod
    def _scope(filters: AttendeeFilters) -> list[ColumnElement[bool]]:
        conditions: list[ColumnElement[bool]] = []
        if filters.event_id is not None:
            conditions.append(Attendee.event_id == filters.event_id)
        if filters.ticket_id is not None:
            conditions.append(Attendee.ticket_id == filters.ticket_id)
        if filters.author_id is not None:
            # The ticket's event row carries the author (a date of a series: the series').
            authored = (
                select(Ticket.id)
                .join(Event, Event.id == Ticket.event_id)
                .where(Event.author_id == filters.author_id)
            )
            conditions.append(Attendee.ticket_id.in_(authored))
        return conditions

    @staticmethod
    def _narrowing(filters: AttendeeFilters) -> list[ColumnElement[bool]]:
        conditions: list[ColumnElement[bool]] = []
        if filters.status == "checked_in":
            conditions.append(and_(Attendee.status == "going", Attendee.checked_in_at.is_not(None)))
        elif filters.status is not None:
            conditions.append(Attendee.status == filters.status)
        if filters.search:
            pattern = f"%{escape_like(filters.search)}%"
            conditions.append(or_(Attendee.name.ilike(pattern), Attendee.email.ilike(pattern)))
        return conditions

    async def _totals(self, scope: Sequence[ColumnElement[bool]]) -> AttendeeTotals:
        def places(condition: ColumnElement[bool]) -> Any:
            return func.coalesce(func.sum(case((condition, Attendee.quantity), else_=0)), 0)

        checked_in = and_(Attendee.status == "going", Attendee.checked_in_at.is_not(None))
        row = (
            await self.session.execute(
                select(
                    places(Attendee.status == "going").label("going"),
                    places(Attendee.status == "not_going").label("not_going"),
                    places(Attendee.status == "waitlisted").label("waitlisted"),
                    places(Attendee.status == "cancelled").label("cancelled"),
                    places(checked_in).label("checked_in"),
                ).where(*scope)
            )
        ).one()
        return AttendeeTotals(**{key: int(value) for key, value in row._mapping.items()})
