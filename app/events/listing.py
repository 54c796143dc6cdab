"""`GET /events`: its parameters turned into one filter object (the default window, day
widening, strict dates, relations and status visibility; docs/design.md#event-list), then
the page and its total."""

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

from dateutil.relativedelta import relativedelta

from app.core.edge.caching import CountCache
from app.core.edge.errors import Problems, invalid, note, unknown_ids
from app.core.rules.constants import DATE_PARAMS, END_OF_DAY, STATUSES, TRASH, TRUE_WORDS
from app.core.rules.dates import DATETIME_FORMAT, parse_when
from app.core.rules.permissions import User, can_create_posts, can_see_all_statuses
from app.events.params import EventFilterParams, EventListParams
from app.events.records import EventRecord
from app.events.repository.day_query import DayQuery
from app.events.repository.events import EventRepository
from app.events.repository.list_query import EventListFilters, EventListQuery
from app.events.search import search_query
from app.events.serializer import render_events, summary_body
from app.http.context import RequestContext
from app.http.pagination import Page
from app.http.params import check, parse
from app.models import CATEGORY, TAG
from app.organizers.kind import ORGANIZERS
from app.posts.kind import PostKind
from app.posts.listing import status_echo
from app.posts.params import asked_statuses
from app.posts.serializer import View
from app.posts.service import check_visible_event
from app.terms.repository import TermRepository
from app.venues.kind import VENUES

RELATIVE_PARAMS = DATE_PARAMS[2:]
FEED_PATH = "/events.ics"  # the calendar feed of the list (app/feeds)
MAX_SEARCH_WORDS = 32
ECHO_ORDER = (
    *("start_date", "end_date", "search", "status", "post_parent", "include"),
    *RELATIVE_PARAMS,
    *("venue", "organizer", "featured", "categories", "tags", "strict_dates", "orderby", "order"),
    "hide_subsequent_recurrences",
)


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


def _bound(
    name: str, value: Any, zone: tzinfo, strict: bool, now: datetime
) -> tuple[datetime, datetime]:
    """A date parameter as (naive site wall time, UTC instant): whole days unless strict
    (docs/design.md#event-list)."""
    try:
        moment = parse_when(value, UTC if strict else zone, now)
    except ValueError:
        raise invalid(name, note("bad_date", name=name)) from None
    local = moment.astimezone(zone).replace(tzinfo=None)
    if strict:
        return local, moment.astimezone(UTC)
    day = local.date()
    local = datetime.combine(day, time.min if name == "start_date" else END_OF_DAY)
    return local, _instant(local, zone)


def _instant(local: datetime, zone: tzinfo) -> datetime:
    """The UTC instant of a site wall time (a time in a DST gap or fold: zoneinfo's fold=0)."""
    return local.replace(tzinfo=zone).astimezone(UTC)


@dataclass(slots=True)
class ListRequest:
    """The filter of one list request, and its effective parameters (for `rest_url` and the
    paging links)."""

    filters: EventListFilters = field(default_factory=EventListFilters)
    echo: dict[str, Any] = field(default_factory=dict)

    def set(self, name: str, value: Any, parameter: str | None = None) -> None:
        """Filter on `name` and echo the value as its `parameter` (the same name by default)."""
        setattr(self.filters, name, value)
        self.echo[parameter or name] = value

    def ordered_echo(self) -> dict[str, Any]:
        """The echo in the order links have always shown it (clients may compare URLs)."""
        return {name: self.echo[name] for name in ECHO_ORDER if name in self.echo}


def _window(
    listing: ListRequest,
    params: EventFilterParams,
    zone: tzinfo,
    utc: bool,
    now: datetime,
    window: Window,
) -> None:
    """The date bounds; the default window unless a date or `include` says otherwise. With
    `utc` the bounds are the UTC instants of the site wall times, compared with the events'
    instants; else the wall times themselves, compared with the events' local times."""
    strict = (params.strict_dates or "").strip().lower() in TRUE_WORDS
    if strict:
        listing.echo["strict_dates"] = "1"
    if params.include is not None:
        # `include` ignores every date filter (the reference's documented intent).
        listing.set("include", params.include)
        return
    values = {
        name: _bound(name, getattr(params, name), zone, strict, now)
        for name in DATE_PARAMS
        if getattr(params, name) is not None
    }
    if not any(name in values for name in RELATIVE_PARAMS):
        for name, local in zip(DATE_PARAMS[:2], window(zone, now, strict), strict=True):
            values.setdefault(name, (local, _instant(local, zone)))
    listing.filters.utc = utc
    targets = {"start_date": "start_min", "end_date": "end_max"}
    for name, (local, instant) in values.items():
        setattr(listing.filters, targets.get(name, name), instant if utc else local)
        listing.echo[name] = local.strftime(DATETIME_FORMAT)


def _statuses(filters: EventListFilters, asked: list[str] | None, user: User) -> None:
    """Status visibility (docs/design.md#event-list, Visibility)."""
    if asked is not None and not can_create_posts(user):
        check("status", asked == ["publish"], note("status_publish_only"))
    every_but_trash = tuple(status for status in STATUSES if status != TRASH)
    if can_see_all_statuses(user):
        filters.statuses = tuple(asked or every_but_trash)
        filters.include_hidden = True
    elif user is not None and can_create_posts(user):
        filters.statuses = tuple(asked or every_but_trash)
        filters.others_statuses = tuple(s for s in filters.statuses if s == "publish")
        filters.viewer_id = user.id
    else:
        filters.statuses = ("publish",)


async def _relations(
    listing: ListRequest, params: EventFilterParams, ctx: RequestContext, problems: Problems
) -> None:
    """Venue, organizer and term filters; unknown IDs or slugs are a 400 naming them."""
    linked: tuple[tuple[PostKind[Any], list[int] | None], ...] = (
        (VENUES, params.venue),
        (ORGANIZERS, params.organizer),
    )
    for kind, ids in linked:
        if ids is not None and kind.posts is not None:
            missing = await kind.posts(ctx).missing_ids(ids)
            if missing:
                problems.add(kind.name, unknown_ids(kind.name, kind.name, missing))
            listing.set(f"{kind.name}_ids", ids, kind.name)
    for name, taxonomy, term_kind in (("categories", CATEGORY, "category"), ("tags", TAG, "tag")):
        refs = getattr(params, name)
        if refs is not None:
            language = ctx.language
            terms = TermRepository(ctx.session, taxonomy, language, ctx.settings.default_language)
            term_ids, unknown = await terms.with_descendants(refs)
            if unknown:
                refs_text = ", ".join(map(str, unknown))
                what = note(f"kind_{term_kind}")
                problems.add(name, note("unknown_terms", name=name, kind=what, refs=refs_text))
            listing.filters.term_ids.append(term_ids)
            listing.echo[name] = refs


async def list_request(
    params: EventFilterParams,
    ctx: RequestContext,
    now: datetime | None = None,
    problems: Problems | None = None,
    window: Window = default_window,
) -> ListRequest:
    """The filter (and echo) of a list request, every parameter checked: one 400 names all
    the invalid ones (with those `problems` the parameter model already found). `window`
    gives the dates when none are asked for (the calendar feed has its own)."""
    problems = problems or Problems()
    listing = ListRequest()
    settings = ctx.settings
    with problems.gather():
        moment = now or datetime.now(UTC)
        _window(listing, params, settings.site_zone, settings.list_dates_in_utc, moment, window)
    if params.search:
        words = params.search.split()[:MAX_SEARCH_WORDS]
        repo = EventRepository(ctx.session, ctx.language, settings.default_language)
        lexemes = await repo.search_lexemes(words)
        listing.filters.search = search_query(lexemes, ctx.language, settings.default_language)
        listing.echo["search"] = params.search
    statuses = asked_statuses(params.status)
    with problems.gather():
        _statuses(listing.filters, statuses, ctx.user)
    listing.echo["status"] = status_echo(statuses, ctx.user)
    if params.post_parent is not None:
        with problems.gather():
            await check_visible_event(ctx, "post_parent", params.post_parent)
        listing.set("parent_id", params.post_parent, "post_parent")
    if params.ticketed:
        problems.add("ticketed", ("ticketed_unavailable", {}))
    await _relations(listing, params, ctx, problems)
    problems.raise_any()
    if params.featured is not None:
        listing.set("featured", params.featured)
    if params.hide_subsequent_recurrences:
        listing.filters.first_of_series = True
        listing.echo["hide_subsequent_recurrences"] = "1"
    if params.orderby:
        listing.set("orderby", params.orderby)
    if params.order:
        listing.filters.descending = params.order == "desc"
        listing.echo["order"] = params.order
    return listing


async def _list_query(ctx: RequestContext) -> tuple[EventListQuery, EventListParams, ListRequest]:
    """The list query of the request's parameters (every one checked), the parameters and
    the filter with its echo."""
    problems = Problems()
    params = parse(EventListParams, ctx.raw, problems)
    listing = await list_request(params, ctx, problems=problems)
    repo = EventRepository(ctx.session, ctx.language, ctx.settings.default_language)
    return EventListQuery(repo, listing.filters), params, listing


async def list_events(
    ctx: RequestContext, totals: CountCache, page: Page | None = None
) -> tuple[list[dict[str, Any]], int, dict[str, Any], Page]:
    """(bodies of the page, total, the effective filters to echo in links, the page). The
    query is parsed once, paging included, unless the caller chooses the `page` (the
    public pages do)."""
    query, params, listing = await _list_query(ctx)
    page = page or Page(number=params.page, size=params.per_page)
    if params.password is not None and ctx.guesses is not None:
        await ctx.guesses.check()
    records, total = await query.page(page.offset, page.size, totals)
    view = View(ctx.urls, ctx.settings.site_zone, ctx.user, params.password)
    await _count_guess(ctx, records, view)
    return render_events(records, view, False), total, listing.ordered_echo(), page


async def _count_guess(ctx: RequestContext, records: list[EventRecord], view: View) -> None:
    """A list's `password` is one guess against every protected event of the page: wrong
    (one failed guess of the client) when it opens none of those it protects."""
    if view.password is None or ctx.guesses is None:
        return
    unopened = dataclasses.replace(view, password=None)
    protected = [record for record in records if unopened.hides(record)]
    if protected and all(view.hides(record) for record in protected):
        await ctx.guesses.failed()


async def list_bodies(
    ctx: RequestContext, totals: CountCache, offset: int, limit: int
) -> list[dict[str, Any]]:
    """The same list as `list_events` from `offset`, without the total: a view that needs
    only to know whether there is more asks for one more. (The total of a list bounded by
    the current second is a new count on every request.)"""
    query, params, _ = await _list_query(ctx)
    records = await query.records(offset, limit, totals)
    view = View(ctx.urls, ctx.settings.site_zone, ctx.user, params.password)
    return render_events(records, view, False)


async def list_summaries(
    ctx: RequestContext, totals: CountCache, page: Page
) -> list[dict[str, Any]]:
    """The same list as `list_events` (parameters, visibility, order), each event as what a
    calendar grid shows of it (`summary_body`), without the total."""
    query, _, _ = await _list_query(ctx)
    summaries = await query.summaries(page.offset, page.size, totals)
    return [summary_body(summary, ctx.urls) for summary in summaries]


async def list_days(
    ctx: RequestContext, first: date, last: date, per_day: int
) -> list[tuple[date, int, list[dict[str, Any]]]]:
    """The same list as `list_events` (parameters, visibility, order) laid on the days from
    `first` to `last` (local dates; an event on each day it covers): for each day with
    events, how many it has and the first `per_day` of them as `summary_body`."""
    query, _, _ = await _list_query(ctx)
    days = await DayQuery(query, first, last, per_day).days()
    return [
        (day.day, day.total, [summary_body(summary, ctx.urls) for summary in day.events])
        for day in days
    ]


def feed_link(ctx: RequestContext, echo: dict[str, Any]) -> str:
    """The list's calendar feed as a `Link` value: the filters the caller gave, normalised,
    in the same language. Not the default window (the feed has its own, so that a
    subscription keeps moving with the days), no paging, `status` only when asked for (an
    editor's list must not link a feed that anonymous calendar apps are refused), never the
    password."""
    query = {name: value for name, value in echo.items() if name in ctx.raw}
    if "i18n_language" in ctx.raw:
        query["i18n_language"] = ctx.language
    return f'<{ctx.urls.rest(FEED_PATH, query)}>; rel="alternate"; type="text/calendar"'
