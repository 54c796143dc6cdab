"""What an event's tickets add to its reads: whether it is `ticketed` (a column of every
read, and the list's filter) and its attendance figures (a column of the reads of callers
who may see attendees). The tickets themselves are app/tickets'.

A date of an event has the tickets of its series without a date (one pool for every date)
and its own (`tickets.occurrence_id`): an event row read as itself is its first date
(its ID is that date's). Each is one probe of the tickets' indexes."""

from typing import Any

from sqlalchemy import JSON, and_, case, false, func, or_, select, true, type_coerce, union_all
from sqlalchemy.orm import aliased

from app.events.records import Attendance
from app.models import Attendee, Occurrence, Ticket


def _its_tickets(occurrence_id: Any, series_id: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The conditions on a ticket of the date `occurrence_id` of the series `series_id`:
    (one of the series without a date, one of the date)."""
    whole = (Ticket.event_id == series_id, Ticket.occurrence_id.is_(None))
    return whole, (Ticket.occurrence_id == occurrence_id,)


def ticketed(occurrence_id: Any, series_id: Any) -> Any:
    """Whether the date has a ticket: two index probes (`tickets_event_idx`, and
    `tickets_occurrence_idx`), each stopping at the first ticket, for each body of a page.
    Scalar subqueries with a LIMIT: the planner would turn an EXISTS into a hash of every
    ticket, built on every request whatever the page's size."""
    probes = [
        select(true()).where(*where).limit(1).scalar_subquery()
        for where in _its_tickets(occurrence_id, series_id)
    ]
    return func.coalesce(*probes, false())


def ticketed_dates(o: Any) -> Any:
    """The condition "the date `o` has a ticket", as the list's filter: the dates of the
    tickets (those of a series without a date: each of its dates, through the occurrences'
    series index), a set the planner can start from when tickets are few (then the page
    and its count read those dates alone), or hash and probe while it walks the list's
    index when they are many (docs/performance.md, "Tickets and RSVP")."""
    dates = aliased(Occurrence, name="ticketed_dates")
    whole = (
        select(dates.id)
        .join(Ticket, Ticket.event_id == dates.series_id)
        .where(Ticket.occurrence_id.is_(None))
    )
    dated = select(Ticket.occurrence_id).where(Ticket.occurrence_id.is_not(None))
    return o.id.in_(union_all(whole, dated))


def attendance(occurrence_id: Any, series_id: Any) -> Any:
    """The date's figures as a JSON object (`Attendance`'s fields), in places: the sums of
    its tickets' attendees' quantities per status, of those checked in (going), and the
    tickets' capacity (null when one is unlimited; 0 without tickets)."""
    a = Attendee

    def places(*conditions: Any) -> Any:
        return func.coalesce(func.sum(a.quantity).filter(*conditions), 0)

    figures = (
        select(
            places(a.status == "going").label("going"),
            places(a.status == "not_going").label("not_going"),
            places(a.status == "waitlisted").label("waitlisted"),
            places(a.status == "going", a.checked_in_at.is_not(None)).label("checked_in"),
        )
        .where(a.ticket_id == Ticket.id)
        .lateral("figures")
    )
    unlimited = func.bool_or(Ticket.capacity.is_(None))
    capacity = case((unlimited, None), else_=func.coalesce(func.sum(Ticket.capacity), 0))
    obj = func.json_build_object(
        "going", func.coalesce(func.sum(figures.c.going), 0),
        "not_going", func.coalesce(func.sum(figures.c.not_going), 0),
        "waitlisted", func.coalesce(func.sum(figures.c.waitlisted), 0),
        "checked_in", func.coalesce(func.sum(figures.c.checked_in), 0),
        "capacity", capacity,
    )  # fmt: skip
    stmt = (
        select(obj)
        .select_from(Ticket)
        .join(figures, true())
        .where(or_(*(and_(*where) for where in _its_tickets(occurrence_id, series_id))))
    )
    return type_coerce(stmt.scalar_subquery(), JSON)


def attendance_of(value: dict[str, Any] | None) -> Attendance | None:
    """The record's figures from the column `attendance` read (None when not read)."""
    if value is None:
        return None
    capacity = value["capacity"]
    return Attendance(
        going=int(value["going"]),
        not_going=int(value["not_going"]),
        waitlisted=int(value["waitlisted"]),
        checked_in=int(value["checked_in"]),
        capacity=None if capacity is None else int(capacity),
    )
