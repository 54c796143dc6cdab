"""Attendees, for those who need them (docs/design.md#tickets-and-rsvp): the lists with
their totals, one attendee, check-in (by the desk's button or the ticket's QR link), the CSV
export and a message to all. The one rule of who sees them is
`core/rules/permissions.can_see_attendees`: an event's author, editors and administrators;
an event the caller may not read answers as reading it does."""

from dataclasses import dataclass
from datetime import UTC, datetime

from app.attendees.commands import AttendeeQuery
from app.attendees.export import attendees_csv
from app.attendees.params import MessageParams
from app.attendees.repository import AttendeeFilters, AttendeeRepository, AttendeeTotals
from app.core.errors import ApiError, InvalidParams, NotFound, invalid, note
from app.core.rules.dates import door_time, format_datetime
from app.core.rules.paging import Page
from app.core.rules.permissions import ATTENDEES, Principal, can_see_attendees, require
from app.events.service import EventService
from app.http.context import RequestContext
from app.http.params import refused_values
from app.tickets.links import link_key, verify
from app.tickets.mailing import queue_event_message
from app.tickets.records import AttendeeRecord

# Who a message to all is for: those holding or waiting for a place.
MESSAGED = ("going", "waitlisted")


@dataclass(frozen=True)
class AttendeePage:
    """A page of attendees, how many match the whole query, and the totals (in places) of
    its scope: the event, ticket (and, for an author, their own events) whatever the status
    or search, as the desk shows them above the list."""

    records: list[AttendeeRecord]
    total: int
    totals: AttendeeTotals


class AttendeeService:
    def __init__(self, ctx: RequestContext) -> None:
        # Before anything is looked up: anonymous callers get a 401, callers who could not
        # see even their own events' attendees (subscribers) a 403.
        user = ctx.user
        require(user, can_see_attendees(user, user.id if user else None), ATTENDEES)
        assert user is not None
        self.user: Principal = user
        self.ctx = ctx
        self.repo = AttendeeRepository(ctx.session)

    # ---- reads --------------------------------------------------------------------

    async def page(self, query: AttendeeQuery, page: Page) -> AttendeePage:
        query.refused.raise_any()
        event = query.event
        if query.ticket is not None:
            ticket_event = await self.repo.ticket_event(query.ticket)
            if ticket_event is None:
                raise invalid("ticket", note("unknown_ticket", name="ticket", id=query.ticket))
            await self._event(ticket_event)
        if event is not None:
            await self._event(event)
        narrowed = event is None and query.ticket is None
        filters = AttendeeFilters(
            event_id=event,
            ticket_id=query.ticket,
            author_id=self._own_only() if narrowed else None,
            status=query.status,
            search=query.search,
        )
        records, total, totals = await self.repo.page(filters, page)
        return AttendeePage(records, total, totals)

    async def read(self, attendee_id: int) -> AttendeeRecord:
        record = await self.repo.get(attendee_id)
        if record is None:
            raise NotFound("attendee", attendee_id)
        await self._event(record.event_id)
        return record

    async def csv(self, event_id: int | None) -> str:
        """The event's attendees as CSV (app/attendees/export.py: RFC 4180, formulas
        defused); no event: every attendee the caller may see, as the list without one."""
        if event_id is not None:
            await self._event(event_id)
        own = None if event_id is not None else self._own_only()
        rows = await self.repo.export_rows(AttendeeFilters(event_id=event_id, author_id=own))
        return attendees_csv(rows, self.ctx.settings.site_zone)

    # ---- check-in -----------------------------------------------------------------

    async def check_in(self, attendee_id: int) -> AttendeeRecord:
        """Check the going attendee in, now, by the caller (409 `already-checked-in` naming
        the time of the first)."""
        record = await self.repo.get(attendee_id, lock=True)
        if record is None:
            raise NotFound("attendee", attendee_id)
        return await self._check_in(record)

    async def check_in_by_code(self, attendee_id: int, code: str) -> AttendeeRecord:
        """The check-in a ticket's QR code opens (app/tickets/links.py, purpose `check_in`):
        a wrong code is a 404, as a missing attendee is."""
        record = await self.repo.get(attendee_id, lock=True)
        key = link_key(self.ctx.settings.app_password_pepper)
        if record is None or not verify(key, "check_in", record.id, record.secret, code):
            raise NotFound("attendee", attendee_id)
        return await self._check_in(record)

    async def _check_in(self, record: AttendeeRecord) -> AttendeeRecord:
        await self._event(record.event_id)
        if record.status != "going":
            values = {"id": record.id, "status": record.status}
            raise ApiError(409, "attendee-not-going", values=values, data=values)
        if record.checked_in_at is not None:
            raise self._already_checked_in(record.checked_in_at)
        await self.repo.check_in(record.id, self.user.id)
        checked = await self.repo.get(record.id)
        assert checked is not None  # locked above
        return checked

    def _already_checked_in(self, at: datetime) -> ApiError:
        zone = self.ctx.settings.site_zone
        shown = door_time(at, zone)
        data = {
            "checked_in_at": format_datetime(at, zone),
            "checked_in_at_utc": format_datetime(at, UTC),
        }
        return ApiError(409, "already-checked-in", values={"time": shown}, data=data)

    # ---- a message to all ---------------------------------------------------------

    async def message(self, event_id: int, subject: str, body: str) -> int:
        """Queue `subject` and `body` (plain text) to every going and waitlisted attendee of
        the event, in this transaction (app/tickets/mailing.py); how many messages."""
        await self._event(event_id)
        notes = refused_values(MessageParams, {"event": event_id, "subject": subject, "body": body})
        if notes:
            raise InvalidParams(notes)
        recipients = await self.repo.of_event(event_id, MESSAGED)
        return await queue_event_message(self.ctx, event_id, recipients, subject, body)

    # ---- pieces -------------------------------------------------------------------

    def _own_only(self) -> int | None:
        """Without an event or a ticket: the caller's ID when they see only their own
        events' attendees (an author), else None (everybody's)."""
        return None if can_see_attendees(self.user, None) else self.user.id

    async def _event(self, event_id: int) -> None:
        """The caller may see the event's attendees: it reads the event as a GET of it
        would (404, 403 for a draft of another...), then the one rule decides."""
        record, _ = await EventService(self.ctx).readable(event_id)
        require(self.user, can_see_attendees(self.user, record.author_id), ATTENDEES)
