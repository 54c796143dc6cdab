"""Bodies of the attendee routes, for the callers who may see an event's attendees (the
router renders them; nobody else ever sees a name or an address)."""

from collections.abc import Sequence
from datetime import UTC, datetime, tzinfo
from typing import Any

from app.attendees.repository import AttendeeTotals, ExportRow
from app.core.rules.dates import format_datetime
from app.mail.records import OutboxEntry
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


def _utc(moment: datetime | None) -> str | None:
    return _when(moment, UTC)


def export_body(
    email: str, rows: Sequence[ExportRow], messages: Sequence[OutboxEntry], zone: tzinfo
) -> Body:
    """Everything kept about `email` (`almanac attendees export`): its attendees as the API
    shows them, with their tickets' names, and the messages to it, without their bodies."""
    return {
        "email": email,
        "attendees": [
            {**attendee_body(row.attendee, zone), "ticket_name": row.ticket_name} for row in rows
        ],
        "messages": [
            {
                "id": message.id,
                "kind": message.kind,
                "subject": message.subject,
                "language": message.language,
                "status": message.status,
                "event": message.event_id,
                "attendee": message.attendee_id,
                "created_utc": _utc(message.created_at),
                "sent_utc": _utc(message.sent_at),
                "failed_utc": _utc(message.failed_at),
            }
            for message in messages
        ],
    }
