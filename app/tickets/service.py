"""Tickets on events (docs/design.md#tickets-and-rsvp): anyone reads the tickets of an event
they may read (as reading the event answers: 401, 403, 404); who may edit the event makes,
changes and deletes them. A ticket belongs to an event row and, for one date of a series, to
that date; without a date on a series it is one pool for the whole series."""

from datetime import UTC, date, datetime

from app.core.caching.etags import etag_of, if_match_holds
from app.core.errors import (
    InvalidParams,
    MissingParams,
    NotFound,
    Problems,
    invalid,
    note,
    precondition_failed,
)
from app.core.rules.paging import Page
from app.core.rules.permissions import may, poster, record_need, require
from app.core.web.responses import dumps
from app.events.records import EventRecord
from app.events.service import EventService
from app.http.context import RequestContext
from app.posts.commands import ReadRequest
from app.tickets.commands import TicketQuery, TicketWrite
from app.tickets.records import TicketRecord
from app.tickets.repository.tickets import TicketRepository, Visibility
from app.tickets.serializer import ticket_body


class TicketService:
    def __init__(self, ctx: RequestContext) -> None:
        self.ctx = ctx
        self.repo = TicketRepository(ctx.session)
        self.events = EventService(ctx)

    # ---- reads ------------------------------------------------------------------------

    async def page(self, query: TicketQuery, page: Page) -> tuple[list[TicketRecord], int]:
        """A page of the tickets the caller may see (of one event: once it may read it)."""
        query.refused.raise_any()
        now = datetime.now(UTC)
        event = None
        visible = self._visibility()
        if query.event is not None:
            record = await self.event(query.event, query.password)
            event, visible = (record.id, record.series_id), Visibility(everything=True)
        return await self.repo.page(
            page,
            visible,
            event=event,
            on_sale_at=now if query.on_sale else None,
            not_on_sale_at=now if query.on_sale is False else None,
        )

    async def of_event(self, event_id: int, password: str | None = None) -> list[TicketRecord]:
        """The tickets of an event as clients name it (a date of a series: its own and the
        series' without a date), by their dates' start."""
        record = await self.event(event_id, password)
        return await self.repo.of_event(record.id, record.series_id)

    async def read(self, ticket_id: int, password: str | None = None) -> TicketRecord:
        """The ticket, if the caller may read its event (`password`: of a protected one)."""
        ticket = await self._get(ticket_id)
        await self.event(ticket.event_id, password)
        return ticket

    async def event(self, event_id: int, password: str | None = None) -> EventRecord:
        """The event (as clients name it) if the caller may read it, else what reading it
        answers."""
        record, _ = await self.events.readable(event_id, ReadRequest(password))
        return record

    def etag(self, ticket: TicketRecord) -> str:
        """The ETag of a GET of the ticket (its body's digest): what `If-Match` names."""
        return etag_of(dumps(ticket_body(ticket, self.ctx)))

    def check_if_match(self, ticket: TicketRecord) -> None:
        """412 unless the request's `If-Match` (if any) names the ticket as it is now."""
        if not if_match_holds(self.ctx.if_match, self.etag(ticket)):
            raise precondition_failed()

    # ---- writes -----------------------------------------------------------------------

    async def create(self, write: TicketWrite) -> TicketRecord:
        user = poster(self.ctx.user)  # 401 before anything the request sends
        if write.refused.error is not None:
            raise write.refused.error
        missing = [name for name in ("event", "name") if getattr(write, name) is None]
        if write.event is None:
            write.refused.raise_any()
            raise MissingParams(missing)
        record = await self.events.by_id(write.event)
        allowed = may(user, "edit", record.author_id, record.status)
        require(user, allowed, record_need(user, record.author_id))
        write.refused.raise_any()
        if missing:
            raise MissingParams(missing)
        occurrence_id = await self._occurrence(record, write)
        values = write.values()
        _check_window(values)
        values.update(
            event_id=record.series_id,
            occurrence_id=occurrence_id,
            currency=self.ctx.settings.ticket_currency,
        )
        return await self._get(await self.repo.create(values))

    async def update(self, ticket_id: int, write: TicketWrite) -> TicketRecord:
        """Change what the write sends (its event and date stay: a ticket does not move)."""
        current = await self._for_writing(ticket_id)
        write.refused.raise_any()
        values = write.values()
        problems = Problems()
        capacity = values.get("capacity", current.capacity)
        if isinstance(capacity, int) and capacity < current.taken:
            why = note("capacity_below_taken", name="capacity", taken=current.taken)
            problems.add("capacity", why)
        with problems.gather():
            _check_window(
                {
                    "sale_starts": values.get("sale_starts", current.sale_starts),
                    "sale_ends": values.get("sale_ends", current.sale_ends),
                }
            )
        problems.raise_any()
        if values:
            await self.repo.update(ticket_id, values)
        return await self._get(ticket_id)

    async def delete(self, ticket_id: int) -> TicketRecord:
        """Delete the ticket, its attendees with it; the ticket as it was."""
        previous = await self._for_writing(ticket_id)
        await self.repo.delete(ticket_id)
        return previous

    # ---- pieces -----------------------------------------------------------------------

    async def _get(self, ticket_id: int) -> TicketRecord:
        ticket = await self.repo.get(ticket_id)
        if ticket is None:
            raise NotFound("ticket", ticket_id)
        return ticket

    async def _for_writing(self, ticket_id: int) -> TicketRecord:
        """The ticket, locked for this transaction, once the caller may edit its event and
        the request's `If-Match` holds (checked under the lock)."""
        user = poster(self.ctx.user)
        if not await self.repo.lock(ticket_id):
            raise NotFound("ticket", ticket_id)
        ticket = await self._get(ticket_id)
        record = await self.events.by_id(ticket.series_id)
        allowed = may(user, "edit", record.author_id, record.status)
        require(user, allowed, record_need(user, record.author_id))
        self.check_if_match(ticket)
        return ticket

    async def _occurrence(self, record: EventRecord, write: TicketWrite) -> int | None:
        """The date of a series the ticket is for: a later date named by `event`, or the
        date starting on `date`'s local day; None: the event, or the whole series."""
        if write.day is None:
            return record.id if record.id != record.series_id else None
        if record.recurrence is None:
            if record.start_local.date() != write.day:
                raise _no_date(write.day)
            return None
        found = await self.events.events.occurrence_on(record.series_id, write.day)
        if found is None:
            raise _no_date(write.day)
        return found.id

    def _visibility(self) -> Visibility:
        user = self.ctx.user
        if user is None:
            return Visibility()
        if may(user, "read", None, "draft"):  # editors and up read every status
            return Visibility(everything=True)
        return Visibility(author_id=user.id)


def _no_date(day: date) -> InvalidParams:
    return invalid("date", note("ticket_no_date", name="date", day=day.isoformat()))


def _check_window(values: dict[str, object]) -> None:
    starts, ends = values.get("sale_starts"), values.get("sale_ends")
    if isinstance(starts, datetime) and isinstance(ends, datetime) and starts >= ends:
        raise invalid("sale_ends", note("sale_ends_before_start", name="sale_ends"))
