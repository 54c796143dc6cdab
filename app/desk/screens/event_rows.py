"""What the Events table shows of an event of the list: one row each, from its record, with
what the caller may do to it decided by the one permission rule."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo

from babel.dates import format_date, format_datetime, format_time

from app.core.rules.permissions import User, may
from app.events.records import EventRecord
from app.posts.serializer import is_hidden_from


@dataclass(frozen=True)
class Row:
    id: int
    title: str
    status: str
    when: str  # start (and end) in the desk's language
    venue: str
    categories: tuple[str, ...]
    author: str
    modified: str  # the last change, in the site's time zone
    editable: bool  # the caller may change it: a checkbox for the bulk actions
    recurring: bool
    series_id: int  # its series' ID (its own for a single event)


def when_text(start: datetime, end: datetime, all_day: bool, language: str) -> str:
    """An event's start and end (wall times of its own zone) in the desk's language: days
    for an all-day event, day and time otherwise."""
    if all_day:
        first = format_date(start, "medium", locale=language)
        last = format_date(end, "medium", locale=language)
        return first if first == last else f"{first} – {last}"

    def moment(value: datetime) -> str:
        day = format_date(value, "medium", locale=language)
        return f"{day}, {format_time(value, 'short', locale=language)}"

    if end.date() == start.date():
        return f"{moment(start)} – {format_time(end, 'short', locale=language)}"
    return f"{moment(start)} – {moment(end)}"


def event_when(record: EventRecord, user: User, language: str) -> str:
    """`when_text` of a record; a protected event the caller may not edit shows no
    all-day flag (as its body hides it, docs/design.md#passwords)."""
    all_day = record.all_day and not is_hidden_from(record, user, None)
    return when_text(record.start_local, record.end_local, all_day, language)


def row(
    record: EventRecord, user: User, logins: Mapping[int, str], language: str, zone: tzinfo
) -> Row:
    author_id = record.author_id or None
    # A protected event keeps its title and dates, not its venue nor its terms.
    hidden = is_hidden_from(record, user, None)
    venue = record.venue
    shown_venue = venue is not None and may(user, "read", venue.author_id, venue.status)
    modified = record.modified_at.astimezone(zone).replace(tzinfo=None)
    return Row(
        id=record.id,
        title=record.title,
        status=record.status,
        when=event_when(record, user, language),
        venue=venue.name if venue is not None and shown_venue and not hidden else "",
        categories=() if hidden else tuple(term.name for term in record.categories),
        author=logins.get(author_id, "") if author_id else "",
        modified=format_datetime(modified.replace(microsecond=0), "short", locale=language),
        editable=may(user, "edit", author_id, record.status),
        recurring=bool(record.recurrence),
        series_id=(record.series_id if record.recurrence is not None else 0) or record.id,
    )


def rows(
    records: Sequence[EventRecord],
    user: User,
    logins: Mapping[int, str],
    language: str,
    zone: tzinfo,
) -> list[Row]:
    return [row(record, user, logins, language, zone) for record in records]
