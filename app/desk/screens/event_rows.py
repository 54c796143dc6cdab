"""What the Events table shows of an event body of the API's list: one row each, with what
the caller may do to it decided by the one permission rule."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from babel.dates import format_date, format_datetime, format_time

from app.core.rules.permissions import User, may

BODY_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"  # the bodies' `start_date`, the event's wall time


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


def when_text(body: Mapping[str, Any], language: str) -> str:
    """The event's start and end as its own time zone shows them: days for an all-day
    event, day and time otherwise."""
    start = datetime.strptime(body["start_date"], BODY_DATE_FORMAT)
    end = datetime.strptime(body["end_date"], BODY_DATE_FORMAT)
    if body.get("all_day"):
        first = format_date(start, "medium", locale=language)
        last = format_date(end, "medium", locale=language)
        return first if first == last else f"{first} – {last}"

    def moment(value: datetime) -> str:
        day = format_date(value, "medium", locale=language)
        return f"{day}, {format_time(value, 'short', locale=language)}"

    if end.date() == start.date():
        return f"{moment(start)} – {format_time(end, 'short', locale=language)}"
    return f"{moment(start)} – {moment(end)}"


def _author_id(body: Mapping[str, Any]) -> int | None:
    author = int(body.get("author") or 0)
    return author or None


def row(body: Mapping[str, Any], user: User, logins: Mapping[int, str], language: str) -> Row:
    author_id = _author_id(body)
    venue = body.get("venue")
    return Row(
        id=int(body["id"]),
        title=str(body["title"]),
        status=str(body["status"]),
        when=when_text(body, language),
        venue=str(venue.get("venue", "")) if isinstance(venue, Mapping) else "",
        categories=tuple(str(term["name"]) for term in body.get("categories", ())),
        author=logins.get(author_id, "") if author_id else "",
        modified=format_datetime(
            datetime.strptime(body["modified"], BODY_DATE_FORMAT), "short", locale=language
        ),
        editable=may(user, "edit", author_id, str(body["status"])),
        recurring=bool(body.get("recurrence")),
        series_id=int(body.get("series_id") or body["id"]),
    )


def rows(
    bodies: Sequence[Mapping[str, Any]], user: User, logins: Mapping[int, str], language: str
) -> list[Row]:
    return [row(body, user, logins, language) for body in bodies]
