"""Recurring events in feeds (RFC 5545 §3.8.5, §3.8.4.4): a series is one VEVENT with its
rules and its own first date; an edited date (an override) is a VEVENT of its own with the
series' UID and a RECURRENCE-ID.

A calendar expands the rules itself, so a feed must say which of the rules' dates the list
left out (filters an override no longer matches, the window's edges, the materialised
horizon, the feed's limit): those become EXDATEs, and expanding the feed over its window
gives the dates the JSON list gives for the same query, no more.
"""

import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from itertools import takewhile

from app.core.rules.dates import parse_zone
from app.events.records import EventRecord
from app.events.recurrence import LINE, UNTIL_PART, parse_recurrence, until_utc
from app.events.repository.events import EventRepository
from app.events.repository.list_query import EventListFilters
from app.events.serializer import render_events
from app.feeds.builder import Item, Rules
from app.posts.serializer import View

# Window bounds are wall times compared with each event's own wall times: a zone's offset
# is under a day, so a day either side holds every date the bounds could have let in.
MARGIN = timedelta(days=1)
STAMP = "%Y%m%dT%H%M%SZ"


def _overrides(record: EventRecord) -> bool:
    return record.recurrence is not None and record.content_id != record.series_id


def _range(filters: EventListFilters) -> tuple[datetime | None, datetime | None]:
    """The instants outside which no date of the list can start (None: unbounded)."""

    def instant(value: datetime) -> datetime:
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)

    lows = [getattr(filters, n) for n in ("start_min", "starts_after", "ends_after")]
    highs = [getattr(filters, n) for n in ("end_max", "starts_before", "ends_before")]
    low = max((instant(v) for v in lows if v is not None), default=None)
    high = min((instant(v) for v in highs if v is not None), default=None)
    return low, high


def _rrule(value: str, record: EventRecord) -> str:
    """An RRULE value with UNTIL as RFC 5545 wants it beside DTSTART: UTC for a timed
    series, a date for an all-day one (rules may store a local or date UNTIL, read in the
    series' zone, app/events/recurrence.py)."""
    zone = parse_zone(record.timezone)

    def until(match: re.Match[str]) -> str:
        stamp = until_utc(match.group(1), zone)
        if not record.all_day:
            return f"UNTIL={stamp}"
        moment = datetime.strptime(stamp, STAMP).replace(tzinfo=UTC).astimezone(zone)
        return f"UNTIL={moment:%Y%m%d}"

    return UNTIL_PART.sub(until, value)


async def series_item(
    repo: EventRepository,
    view: View,
    series_id: int,
    listed: set[datetime] | None,
    bounds: tuple[datetime | None, datetime | None] = (None, None),
) -> Item | None:
    """The series' VEVENT: its row (its own first date) and its rules. `listed`: the
    original starts of its dates in the list; the rules' other dates within `bounds`
    (widened by the series' duration and MARGIN) become EXDATEs. None: the whole series."""
    record = await repo.get_row(series_id)
    if record is None or record.recurrence is None:
        return None
    rules = parse_recurrence(record.recurrence, record.start_local, record.timezone)
    zone = parse_zone(record.timezone)
    start = record.start_at
    excluded = set(rules.excluded)
    if listed is not None:
        low, high = bounds
        if high is None:
            # No upper bound (e.g. `include`): the list ends with the materialised dates.
            high = await repo.last_stored_start(series_id)
        low = None if low is None else low - MARGIN - (record.end_at - record.start_at)
        high = (high or start) + MARGIN
        instants = (local.replace(tzinfo=zone).astimezone(UTC) for local in rules.starts())
        for moment in takewhile(lambda m: m <= high, instants):
            if (low is None or moment >= low) and moment not in listed:
                excluded.add(moment)
    body = render_events([record], view, False)[0]
    return Item(
        record,
        body,
        Rules(
            rrules=tuple(
                _rrule(match.group(3), record)
                for line in record.recurrence
                if (match := LINE.match(line.strip())) and match.group(1).upper() == "RRULE"
            ),
            # An RDATE before the start is not a date of the series (as the list reads it).
            rdates=tuple(sorted({m.astimezone(UTC) for m in rules.dates if m >= start})),
            exdates=tuple(sorted(excluded)),
        ),
    )


async def list_items(
    repo: EventRepository,
    records: Sequence[EventRecord],
    bodies: Sequence[dict[str, object]],
    view: View,
    filters: EventListFilters,
) -> list[Item]:
    """The feed's items in the list's order: single events as they are; a series once,
    where its first listed date is; its listed overrides where they are. The other dates
    of a series are its rules' (not VEVENTs of their own)."""
    listed: dict[int, set[datetime]] = {}
    for record in records:
        if record.recurrence is not None and record.original_start is not None:
            listed.setdefault(record.series_id, set()).add(record.original_start)
    bounds = _range(filters)
    items: list[Item] = []
    done: set[int] = set()
    for record, body in zip(records, bodies, strict=True):
        if record.recurrence is not None and record.series_id not in done:
            done.add(record.series_id)
            series = await series_item(
                repo, view, record.series_id, listed[record.series_id], bounds
            )
            if series is not None:
                items.append(series)
        if record.recurrence is None or _overrides(record):
            items.append(Item(record, dict(body)))
    return items


async def event_items(repo: EventRepository, view: View, record: EventRecord) -> list[Item] | None:
    """A date of a series in its single-event feed: the whole series, as calendars import
    a recurring event (its VEVENT and its overrides); None for a single event."""
    if record.recurrence is None:
        return None
    series = await series_item(repo, view, record.series_id, None)
    if series is None:
        return None
    ids = await repo.override_ids(record.series_id)
    overrides = sorted(await repo.get_many(ids), key=lambda r: (r.start_at, r.id))
    bodies = render_events(overrides, view, False)
    return [series, *(Item(o, b) for o, b in zip(overrides, bodies, strict=True))]
