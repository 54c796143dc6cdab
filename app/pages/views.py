"""The views' data: what each page template gets, read through `Content` (the API's
services). No query per event: a view is one list read (plus the record it is about)."""

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from urllib.parse import quote

from app.core.rules.geography import Fix, Point
from app.core.rules.paging import MAX_LIST_DEPTH
from app.core.settings import Settings
from app.events.query import EventQuery
from app.geo.distance import Near
from app.pages.calendar import DAY_READ, add_months, by_day, month_bounds, month_grid
from app.pages.content import Body, Content, ListedEvent, NotShown
from app.pages.filter_bar import Filters
from app.pages.links import PageLinks
from app.pages.places import PlacedEvent

LIST_PAGE_SIZE = 12  # the reference's default number of events per list page
SERIES_DATES = 5  # next dates shown on a series' page
RELATED_EVENTS = 10  # upcoming events on a venue's, organizer's page
MAP_EVENTS = 50  # upcoming events on the map view (its markers and its list): under 60 KB
NEARBY_READ = 50  # events read for a venue's "events nearby" (its own left out)
# The deepest list page, by the API's bound (docs/design.md, Limits): a later day in the
# search bar shows what lies beyond, from an index, instead of skipping thousands of rows.
LAST_LIST_PAGE = MAX_LIST_DEPTH // LIST_PAGE_SIZE


class TooDeep(Exception):
    """A page of a paged view past its deepest (LAST_LIST_PAGE for the list): the 400 page
    saying how to go further."""

    def __init__(self, deepest: int = LAST_LIST_PAGE) -> None:
        super().__init__(deepest)
        self.deepest = deepest


@dataclass(frozen=True, slots=True)
class Place:
    """The place the search names: the visitor's text, where it is (None: no such place is
    known) and the radius around it (GEOFENCE_RADIUS)."""

    text: str
    fix: Fix | None
    radius: float

    @property
    def near(self) -> Near | None:
        return Near(self.fix.point, self.radius) if self.fix else None


@dataclass(frozen=True)
class Search:
    """The search bar's values: the reference's `tribe-bar-search`, `tribe-bar-date`,
    `tribe-bar-geoloc` and `eventDisplay`, so that old links keep working."""

    words: str = ""
    day: date | None = None
    display: str | None = None
    near: str = ""  # `tribe-bar-geoloc`: a place's name, as the visitor typed it
    place: Place | None = None  # where `near` is (`locate`)
    # `ticketed`: events with a ticket (True), without (False); None: either (the API's).
    ticketed: bool | None = None
    filters: Filters = Filters()  # the filter bar's (app/pages/filter_bar.py)

    @property
    def centre(self) -> Near | None:
        """The circle the views keep to: the place found, else none."""
        return self.place.near if self.place else None

    def of(self, scope: EventQuery, **bounds: Any) -> EventQuery:
        """The list of `scope` (a category's, a tag's or every event) under this search,
        between `bounds` taken as exact instants, near its place when one was found."""
        words = self.words if self.words.strip() else None
        return replace(
            self.filters.apply(scope),
            strict=True,
            search=words,
            near=self.centre,
            ticketed=self.ticketed,
            **bounds,
        )

    def query(self) -> dict[str, Any]:
        """The values to keep in the view's links (paging, previous and next)."""
        query: dict[str, Any] = {}
        if self.words.strip():
            query["tribe-bar-search"] = self.words
        if self.day:
            query["tribe-bar-date"] = self.day.isoformat()
        if self.near.strip():
            query["tribe-bar-geoloc"] = self.near
        if self.ticketed is not None:
            query["ticketed"] = "1" if self.ticketed else "0"
        return {**query, **self.filters.query()}


async def locate(content: Content, settings: Settings, search: Search) -> Search:
    """The search with the place its `near` text names (the gazetteer, else the geocoding
    service), or with the text alone when it names none (the views say so)."""
    text = search.near.strip()
    if not text:
        return search
    place = Place(text, await content.locate(text), settings.geofence_radius)
    return replace(search, place=place)


def _site_moment(day: date, settings: Settings, at: time = time.min) -> datetime:
    return datetime.combine(day, at).replace(tzinfo=settings.site_zone)


def now_bound() -> datetime:
    """Now, to the second: the list's bound for what has not yet ended (a second's
    precision keeps the list's statements and counts the same within a second)."""
    return datetime.now(UTC).replace(microsecond=0)


def today(settings: Settings, now: datetime | None = None) -> date:
    return (now or datetime.now(settings.site_zone)).astimezone(settings.site_zone).date()


@dataclass(frozen=True, slots=True)
class Paged:
    """A page of a paged view (the list, photo, summary): its events, whether a next page
    exists, and the moment the upcoming ones are counted from."""

    events: list[ListedEvent]
    more: bool
    since: datetime


async def upcoming_page(
    content: Content,
    settings: Settings,
    search: Search,
    number: int,
    past: bool,
    scope: EventQuery,
    size: int = LIST_PAGE_SIZE,
    nearest: bool = False,
) -> Paged:
    """Upcoming events (not yet ended) from now or from the search's day; with `past`,
    those that ended, newest first; `nearest`: near the search's place, nearest first."""
    since = _site_moment(search.day, settings) if search.day else now_bound()
    if past:
        query = search.of(scope, ends_before=since, descending=True)
    else:
        query = search.of(scope, ends_after=since)
    if nearest:
        query = replace(query, orderby="distance")
    deepest = MAX_LIST_DEPTH // size
    if number > deepest:
        raise TooDeep(deepest)
    # One more than a page shows: whether a next page exists (no count of them all).
    events = await content.events(query, (number - 1) * size, size + 1)
    if number > 1 and not events:
        raise NotShown  # past the last page
    return Paged(events[:size], len(events) > size, since)


async def list_view(
    content: Content,
    settings: Settings,
    search: Search,
    number: int,
    past: bool,
    scope: EventQuery,
) -> dict[str, Any]:
    """Upcoming events (not yet ended) from now or from the search's day, grouped by day;
    with `past`, those that ended, newest first."""
    nearest = search.centre is not None and not past
    found = await upcoming_page(content, settings, search, number, past, scope, nearest=nearest)
    events = found.events
    view: dict[str, Any] = {"number": number, "more": found.more, "past": past}
    if nearest:  # nearest first: not grouped by day
        return {**view, "groups": [], "placed": placed(content, events)}
    groups = by_day(events, None if past else found.since.astimezone(settings.site_zone).date())
    if past:
        groups.reverse()
    return {**view, "groups": groups, "placed": None}


def placed(content: Content, events: list[ListedEvent]) -> list[PlacedEvent]:
    """Each event with its venue's point and, in a list near a place, its distance."""
    return [
        PlacedEvent(event, content.venue_point(event.record.venue), event.record.distance)
        for event in events
    ]


async def month_view(
    content: Content,
    settings: Settings,
    month: date,
    first_weekday: int,
    search: Search,
    scope: EventQuery,
) -> dict[str, Any]:
    start, end = month_bounds(month, first_weekday)
    query = search.of(
        scope,
        ends_after=_site_moment(start, settings),
        starts_before=_site_moment(end + timedelta(days=1), settings),
    )
    # Each day's first events and total: a day's titles whatever the size of the month.
    days = await content.days(query, start, end, DAY_READ)
    weekdays = [(first_weekday + n) % 7 for n in range(7)]
    return {
        "month": month,
        "weeks": month_grid(month, first_weekday, days, today(settings)),
        "weekdays": weekdays,
        "previous": add_months(month, -1),
        "next": add_months(month, 1),
    }


async def day_view(
    content: Content, settings: Settings, day: date, search: Search, scope: EventQuery
) -> dict[str, Any]:
    query = search.of(
        scope,
        ends_after=_site_moment(day, settings),
        starts_before=_site_moment(day + timedelta(days=1), settings),
    )
    events = await content.events(query)
    return {
        "day": day,
        "events": events,
        "previous": day - timedelta(days=1),
        "next": day + timedelta(days=1),
    }


async def map_view(
    content: Content, settings: Settings, search: Search, scope: EventQuery
) -> dict[str, Any]:
    """The next events (not yet ended, from now or from the search's day), by date or,
    near a place, nearest first, each with its venue's point: the map's markers and its
    list."""
    since = _site_moment(search.day, settings) if search.day else now_bound()
    query = search.of(scope, ends_after=since)
    if search.centre is not None:
        query = replace(query, orderby="distance")
    return {"events": placed(content, await content.events(query, 0, MAP_EVENTS))}


async def nearby_events(
    content: Content, settings: Settings, venue_id: int, point: Point
) -> list[PlacedEvent]:
    """The next events at other venues within GEOFENCE_RADIUS of a venue, by date, with
    their distance. One bounded read: the venue's own events are among those read (they
    are left out here), so a venue with many of them may show fewer."""
    near = Near(point, settings.geofence_radius)
    query = EventQuery(strict=True, ends_after=now_bound(), near=near)
    events = await content.events(query, 0, NEARBY_READ)
    others = [event for event in events if event.record.venue_id != venue_id]
    return placed(content, others[:RELATED_EVENTS])


async def related_events(content: Content, scope: EventQuery) -> list[ListedEvent]:
    """A venue's or an organizer's next events (not yet ended)."""
    query = replace(scope, strict=True, ends_after=now_bound())
    return await content.events(query, 0, RELATED_EVENTS)


async def neighbours(content: Content, start: datetime) -> tuple[Body | None, Body | None]:
    """The listed events just before and after an event starting at `start` (by start):
    their summaries."""
    before = await content.summaries(
        EventQuery(strict=True, starts_before=start, descending=True), 1
    )
    after = await content.summaries(EventQuery(strict=True, starts_after=start), 1)
    return (before[0] if before else None), (after[0] if after else None)


async def series_dates(content: Content, series_id: int | None, start: datetime) -> list[Body]:
    """The next dates of a series (after the one starting at `start`): their summaries."""
    if series_id is None:
        return []
    query = EventQuery(strict=True, post_parent=series_id, starts_after=start)
    return await content.summaries(query, SERIES_DATES)


def google_calendar_link(event: ListedEvent, text: str) -> str:
    """Google Calendar's "add event" template link (UTC times; dates for all-day events):
    the dates from the event's record, the words from its body."""
    record = event.record
    if record.all_day:
        last_day = record.end_local.date() + timedelta(days=1)
        dates = f"{record.start_local:%Y%m%d}/{last_day:%Y%m%d}"
    else:
        dates = "/".join(
            moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
            for moment in (record.start_at, record.end_at)
        )
    venue = event["venue"] if isinstance(event["venue"], dict) else {}
    where = ", ".join(
        str(part) for part in (venue.get("venue"), venue.get("address"), venue.get("city")) if part
    )
    query = {
        "action": "TEMPLATE",
        "text": event["title"],
        "dates": dates,
        "details": text[:1000],
        "location": where,
        "ctz": record.timezone,
    }
    return "https://calendar.google.com/calendar/render?" + "&".join(
        f"{name}={quote(str(value), safe='')}" for name, value in query.items() if value
    )


def webcal(url: str) -> str:
    return "webcal://" + url.split("://", 1)[1]


def links_for(event: Body, links: PageLinks) -> dict[str, str]:
    """An event's add-to-calendar links: its .ics, Google Calendar, and its first
    category's feed as webcal:."""
    result = {"ics": links.api(f"/events/{event['id']}.ics")}
    categories = event.get("categories") or []
    if categories:
        feed = links.api("/events.ics", {"categories": categories[0]["slug"]})
        result["webcal"] = webcal(feed)
    return result
