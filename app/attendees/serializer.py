"""Bodies of the attendee routes, for the callers who may see an event's attendees (the
router renders them; nobody else ever sees a name or an address)."""

from datetime import UTC, datetime, tzinfo
from typing import Any

from app.attendees.repository import AttendeeTotals
from app.core.rules.dates import format_datetime
from app.tickets.records import AttendeeRecord

Body = dict[str, Any]


def _when(moment: datetime | None, zone: tzinfo) -> str | None:
    return None if moment is None else format_datetime(moment, zone)


def attendee_body(record: AttendeeRecord, zone: tzinfo) -> Body:
    """An attendee; dates `Y-m-d H:i:s` in the site's zone (`zone`) and in UTC."""
    return {
        "id": record.id,
        "event": record.event_id,
        "ticket": record.ticket_id,
        "name": record.name,
        "email": record.email,
        "quantity": record.quantity,
        "status": record.status,
        "language": record.language,
        "checked_in_at": _when(record.checked_in_at, zone),
        "checked_in_at_utc": _when(record.checked_in_at, UTC),
        "created": format_datetime(record.created_at, zone),
        "created_utc": format_datetime(record.created_at, UTC),
        "modified": format_datetime(record.modified_at, zone),
        "modified_utc": format_datetime(record.modified_at, UTC),
    }


def totals_body(totals: AttendeeTotals) -> Body:
    return {
        "going": totals.going,
        "not_going": totals.not_going,
        "waitlisted": totals.waitlisted,
        "cancelled": totals.cancelled,
        "checked_in": totals.checked_in,
    }
