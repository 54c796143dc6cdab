"""The event list, typed: an `EventQuery` (app/events/query.py) and a page in, records and
their total out. The rules live here: the default window, whole days unless strict, status
visibility by role, unknown venues, organizers and terms refused by name, the depth bound,
a password's guesses (docs/design.md#event-list). Reading the API's parameters and writing
its bodies and links is the door's (app/events/wire.py); the pages, the desk and the feeds
call these functions with their own typed queries."""

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

from dateutil.relativedelta import relativedelta

from app.core.caching.cache import CountCache
from app.core.errors import Problems, note, unknown_ids
from app.core.rules.constants import END_OF_DAY, STATUSES, TRASH
from app.core.rules.paging import MAX_LIST_DEPTH, Page
from app.core.rules.permissions import User, can_create_posts, can_see_all_statuses
from app.events.kind import event_repository
from app.events.query import BOUNDS, DAY_PARTS, EventQuery, ListWindow
from app.events.records import EventRecord, EventSummary
from app.events.repository.day_query import DayEvents, DayQuery
from app.events.repository.list_query import EventListFilters, EventListQuery
from app.events.search import search_query
from app.geo.params import check_radius
from app.http.context import RequestContext
from app.http.params import check
from app.models import CATEGORY, TAG
from app.organizers.kind import ORGANIZERS
from app.posts.kind import PostKind
from app.posts.serializer import View
from app.posts.service import check_visible_event
from app.terms.repository import TermRepository
from app.venues.kind import VENUES

RELATIVE_BOUNDS = BOUNDS[2:]
MAX_SEARCH_WORDS = 32
# Where each bound goes in the filter (the window's own two have other names there).
FILTER_FIELDS = {"start_date": "start_min", "end_date": "end_max"}

# A default window: (site zone, now, strict) -> (start, end), naive site wall times.
Window = Callable[[tzinfo, datetime, bool], tuple[datetime, datetime]]


def default_window(zone: tzinfo, now: datetime, strict: bool = False) -> tuple[datetime, datetime]:
    """00:00 yesterday to 23:59:59 of the day two years ahead, in the site time zone."""
    local_now = now.astimezone(zone).replace(tzinfo=None)
    yesterday = local_now.date() - timedelta(days=1)
    start = datetime.combine(yesterday, time(23, 59) if strict else time.min)
    end_moment = local_now + relativedelta(months=24)
    end = (
        end_moment.replace(microsecond=0)
        if strict
        else datetime.combine(end_moment.date(), END_OF_DAY)
    )
    return start, end


@dataclass(frozen=True, slots=True)
class EventPage:
    """A page of the list, its total, and the window it applied."""

    records: list[EventRecord]
    total: int
    window: ListWindow


@dataclass(frozen=True, slots=True)
class PreparedList:
    """A query checked and turned into the list's statement builder, with its window."""

    query: EventListQuery
    window: ListWindow

    @property
    def filters(self) -> EventListFilters:
        return self.query.filters


def _bound(name: str, moment: datetime, zone: tzinfo, strict: bool) -> tuple[datetime, datetime]:
    """A date bound as (naive site wall time, UTC instant): whole days unless strict
    (docs/design.md#event-list)."""
    local = moment.astimezone(zone).replace(tzinfo=None)
    if strict:
        return local, moment.astimezone(UTC)
    local = datetime.combine(local.date(), time.min if name == "start_date" else END_OF_DAY)
    return local, _instant(local, zone)


def _instant(local: datetime, zone: tzinfo) -> datetime:
    """The UTC instant of a site wall time (a time in a DST gap or fold: zoneinfo's fold=0)."""
    return local.replace(tzinfo=zone).astimezone(UTC)


def apply_window(
    filters: EventListFilters,
    query: EventQuery,
    zone: tzinfo,
    utc: bool,
    now: datetime,
    window: Window,
) -> ListWindow:
    """The date bounds; the default window unless a date or `include` says otherwise. With
    `utc` the bounds are the UTC instants of the site wall times, compared with the events'
    instants; else the wall times themselves, compared with the events' local times."""
    if query.include is not None:
        # `include` ignores every date filter (the reference's documented intent).
        filters.include = list(query.include)
        return ListWindow()
    values = {
        name: _bound(name, moment, zone, query.strict)
        for name in BOUNDS
        if (moment := getattr(query, name)) is not None
    }
    if not any(name in values for name in RELATIVE_BOUNDS):
        for name, local in zip(BOUNDS[:2], window(zone, now, query.strict), strict=True):
            values.setdefault(name, (local, _instant(local, zone)))
    filters.utc = utc
    for name, (local, instant) in values.items():
        setattr(filters, FILTER_FIELDS.get(name, name), instant if utc else local)
    return ListWindow(**{name: local for name, (local, _) in values.items()})


def _statuses(filters: EventListFilters, asked: tuple[str, ...] | None, user: User) -> None:
    """Status visibility (docs/design.md#event-list, Visibility)."""
    if asked is not None and not can_create_posts(user):
        check("status", asked == ("publish",), note("status_publish_only"))
    every_but_trash = tuple(status for status in STATUSES if status != TRASH)
    if can_see_all_statuses(user):
        filters.statuses = asked or every_but_trash
        filters.include_hidden = True
    elif user is not None and can_create_posts(user):
        filters.statuses = asked or every_but_trash
        filters.others_statuses = tuple(s for s in filters.statuses if s == "publish")
        filters.viewer_id = user.id
    else:
        filters.statuses = ("publish",)


async def _relations(
    filters: EventListFilters, query: EventQuery, ctx: RequestContext, problems: Problems
) -> None:
    """Venue, organizer and term filters; unknown IDs or slugs are a 400 naming them."""
    linked: tuple[tuple[PostKind[Any], tuple[int, ...] | None], ...] = (
        (VENUES, query.venues),
        (ORGANIZERS, query.organizers),
    )
    for kind, ids in linked:
        if ids is not None and kind.posts is not None:
            missing = await kind.posts(ctx).missing_ids(list(ids))
            if missing:
                problems.add(kind.name, unknown_ids(kind.name, kind.name, missing))
            setattr(filters, f"{kind.name}_ids", list(ids))
    terms_of = (("categories", CATEGORY, "category"), ("tags", TAG, "tag"))
    for name, taxonomy, term_kind in terms_of:
        refs: tuple[int | str, ...] | None = getattr(query, name)
        if refs is not None:
            language = ctx.language
            terms = TermRepository(ctx.session, taxonomy, language, ctx.settings.default_language)
            term_ids, unknown = await terms.with_descendants(list(refs))
            if unknown:
                refs_text = ", ".join(map(str, unknown))
                what = note(f"kind_{term_kind}")
                problems.add(name, note("unknown_terms", name=name, kind=what, refs=refs_text))
            filters.term_ids.append(term_ids)


async def prepare(
    ctx: RequestContext,
    query: EventQuery,
    *,
    now: datetime | None = None,
    problems: Problems | None = None,
    window: Window = default_window,
) -> PreparedList:
    """The list statement's builder for `query`, every filter checked: one 400 names all
    the refused ones (with `problems` a door found before). `window` gives the dates when
    none are asked for (the calendar feed has its own)."""
    problems = problems or Problems()
    filters = EventListFilters()
    settings = ctx.settings
    moment = now or datetime.now(UTC)
    applied = apply_window(
        filters, query, settings.site_zone, settings.list_dates_in_utc, moment, window
    )
    repo = event_repository(ctx)
    if query.search:
        words = query.search.split()[:MAX_SEARCH_WORDS]
        lexemes = await repo.search_lexemes(words)
        filters.search = search_query(lexemes, ctx.language, settings.default_language)
    with problems.gather():
        _statuses(filters, query.statuses, ctx.user)
    if query.post_parent is not None:
        with problems.gather():
            await check_visible_event(ctx, "post_parent", query.post_parent)
        filters.parent_id = query.post_parent
    _geography(query, settings.geofence_max_radius, problems)
    _cost(query, problems)
    await _relations(filters, query, ctx, problems)
    problems.raise_any()
    filters.featured = query.featured
    filters.has_geo = query.has_geo
    filters.near = query.near
    filters.first_of_series = query.first_of_series
    filters.ticketed = query.ticketed
    _start_filters(filters, query)
    filters.orderby = query.orderby
    filters.descending = query.descending
    return PreparedList(EventListQuery(repo, filters), applied)


def _geography(query: EventQuery, max_radius: float, problems: Problems) -> None:
    """A search near a point: a radius over 0 and at most `max_radius` (km); the order by
    distance only with a point (docs/design.md#events-near-a-place)."""
    check_radius(query.near, max_radius, problems)
    if query.orderby == "distance" and query.near is None:
        problems.add("orderby", note("distance_needs_point"))


def _cost(query: EventQuery, problems: Problems) -> None:
    """Price bounds from 0, the lower one not above the upper one."""
    for name in ("cost_min", "cost_max"):
        amount = getattr(query, name)
        if amount is not None and amount < 0:
            problems.add(name, note("at_least", name=name, min=0))
    low, high = query.cost_min, query.cost_max
    if low is not None and high is not None and low > high:
        problems.add("cost_min", note("range_reversed", name="cost_min", other="cost_max"))


def _start_filters(filters: EventListFilters, query: EventQuery) -> None:
    """The price, and the local start's weekday and hour: the parts of the day as the hours
    they hold (all-day events in none of them: `all_day` alone)."""
    filters.cost_min, filters.cost_max = query.cost_min, query.cost_max
    if query.weekdays is not None:
        filters.weekdays = sorted(set(query.weekdays))
    if query.times_of_day is not None:
        parts = set(query.times_of_day)
        filters.start_hours = sorted(hour for part in parts for hour in DAY_PARTS[part])
        filters.all_day = "all_day" in parts


def _check_depth(page: Page, problems: Problems | None) -> Problems:
    """A page beyond MAX_LIST_DEPTH rows is refused, naming `page` (app/http/pagination.py)."""
    problems = problems or Problems()
    if page.number * page.size > MAX_LIST_DEPTH:
        problems.add("page", note("list_too_deep", name="page", max=MAX_LIST_DEPTH))
    return problems


async def event_page(
    ctx: RequestContext,
    query: EventQuery,
    page: Page,
    totals: CountCache | None,
    *,
    now: datetime | None = None,
    problems: Problems | None = None,
) -> EventPage:
    """A page of the list and its total. A `password` is one guess of the caller against
    every protected event of the page (throttled with its failed logins)."""
    problems = _check_depth(page, problems)
    prepared = await prepare(ctx, query, now=now, problems=problems)
    if query.password is not None and ctx.guesses is not None:
        await ctx.guesses.check()
    records, total = await prepared.query.page(page.offset, page.size, totals)
    await _count_guess(ctx, records, query.password)
    return EventPage(records, total, prepared.window)


async def _count_guess(
    ctx: RequestContext, records: list[EventRecord], password: str | None
) -> None:
    """A list's `password` is one guess against every protected event of the page: wrong
    (one failed guess of the client) when it opens none of those it protects."""
    if password is None or ctx.guesses is None:
        return
    view = View(ctx.urls, ctx.settings.site_zone, ctx.user, password)
    unopened = dataclasses.replace(view, password=None)
    protected = [record for record in records if unopened.hides(record)]
    if protected and all(view.hides(record) for record in protected):
        await ctx.guesses.failed()


async def event_records(
    ctx: RequestContext, query: EventQuery, offset: int, limit: int, totals: CountCache | None
) -> list[EventRecord]:
    """The same list as `event_page` from `offset`, without the total: a view that needs
    only to know whether there is more asks for one more. (The total of a list bounded by
    the current second is a new count on every request.)"""
    prepared = await prepare(ctx, query)
    return await prepared.query.records(offset, limit, totals)


async def event_summaries(
    ctx: RequestContext, query: EventQuery, limit: int, totals: CountCache | None
) -> list[EventSummary]:
    """The first `limit` events of the same list as `event_page` (filters, visibility,
    order), each as what a calendar grid shows of it, without the total."""
    prepared = await prepare(ctx, query)
    return await prepared.query.summaries(0, limit, totals)


async def event_days(
    ctx: RequestContext, query: EventQuery, first: date, last: date, per_day: int
) -> list[DayEvents]:
    """The same list as `event_page` (filters, visibility, order) laid on the days from
    `first` to `last` (local dates; an event on each day it covers): for each day with
    events, how many it has and the first `per_day` of them."""
    prepared = await prepare(ctx, query)
    return await DayQuery(prepared.query, first, last, per_day).days()
