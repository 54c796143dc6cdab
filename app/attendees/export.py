"""An event's attendees as CSV (RFC 4180: a header row, CRLF line ends, fields quoted when
they hold a comma, a quote or a line end). A spreadsheet runs a cell starting with `=`, `+`,
`-` or `@` (or a tab or carriage return, which some read past) as a formula: such a value,
typed by whoever RSVPed, is written with a leading `'`, which shows it as text."""

import csv
import io
from collections.abc import Sequence
from datetime import tzinfo

from app.attendees.repository import ExportRow
from app.core.rules.dates import format_datetime

HEADER = (
    "id",
    "event",
    "ticket",
    "ticket_name",
    "name",
    "email",
    "quantity",
    "status",
    "language",
    "checked_in_at",
    "created",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def defused(value: str) -> str:
    """`value` as a spreadsheet shows it, never runs it."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def attendees_csv(rows: Sequence[ExportRow], zone: tzinfo) -> str:
    """The CSV text; dates `Y-m-d H:i:s` in the site's zone (`zone`), as the API writes them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADER)
    for row in rows:
        attendee = row.attendee
        checked_in = attendee.checked_in_at
        writer.writerow(
            (
                attendee.id,
                attendee.event_id,
                attendee.ticket_id,
                defused(row.ticket_name),
                defused(attendee.name),
                defused(attendee.email),
                attendee.quantity,
                attendee.status,
                attendee.language,
                "" if checked_in is None else format_datetime(checked_in, zone),
                format_datetime(attendee.created_at, zone),
            )
        )
    return out.getvalue()
