"""The dates of a series, as its editor lists them (a page at a time): each links to the
editor of that one date; a date moved off the rules' time, one changed on its own and one
cancelled (an EXDATE, no longer a date one can open) are marked.

Read from the series' occurrences (app/events/occurrences.py keeps one per date) and its
rules' excluded dates: the desk user may edit the series, so every date of it is theirs to
see.
"""

from dataclasses import dataclass
from datetime import datetime

from app.core.database.engine import Session
from app.core.errors import ApiError
from app.core.rules.dates import ZoneError, parse_zone
from app.events.records import EventRecord
from app.events.recurrence import parse_recurrence
from app.events.repository.series import OccurrenceRepository

PER_PAGE = 20


@dataclass(frozen=True, slots=True)
class SeriesDate:
    start: datetime  # local wall time
    occurrence_id: int | None  # None: cancelled
    moved: bool = False  # starts elsewhen than the rules say
    changed: bool = False  # has texts, venue ... of its own (an override)

    @property
    def cancelled(self) -> bool:
        return self.occurrence_id is None


@dataclass(frozen=True, slots=True)
class DatesPage:
    dates: list[SeriesDate]
    page: int
    pages: int
    total: int


async def series_dates(session: Session, series: EventRecord, page: int) -> DatesPage:
    """Page `page` (from 1; past the last: the last) of `series`' dates, in date order."""
    dates = [
        SeriesDate(
            row.start_local,
            row.id,
            moved=row.start_at != row.original_start,
            changed=row.content_id != series.series_id,
        )
        for row in await OccurrenceRepository(session).listed_dates(series.series_id)
    ]
    dates.extend(SeriesDate(start, None) for start in _cancelled(series))
    dates.sort(key=lambda item: item.start)
    pages = max(1, -(-len(dates) // PER_PAGE))
    page = min(max(page, 1), pages)
    shown = dates[(page - 1) * PER_PAGE : page * PER_PAGE]
    return DatesPage(shown, page, pages, len(dates))


def _cancelled(series: EventRecord) -> list[datetime]:
    """The local starts the series' EXDATE lines take out."""
    if not series.recurrence:
        return []
    try:
        zone = parse_zone(series.timezone)
        rules = parse_recurrence(list(series.recurrence), series.start_local, series.timezone)
    except (ApiError, ZoneError, ValueError):
        return []  # lines the API took once and reads no more: no date is marked
    return sorted(moment.astimezone(zone).replace(tzinfo=None) for moment in rules.excluded)
