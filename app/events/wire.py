"""The event list's door on the API: the request's parameters (the reference's lenient
dates, `1`/`true`/`yes`, comma lists, IDs or slugs) read into an `EventQuery`, and what the
list's body and headers echo of them (`rest_url`, the paging links, the calendar feed's
`Link`), in the reference's forms. The list's rules are the service's
(app/events/listing.py); the JSON list and the calendar feed (app/feeds) read their
parameters here."""

import dataclasses
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from decimal import Decimal
from typing import Any, Generic, TypeVar

from starlette.responses import Response

from app.core.errors import Problems, note
from app.core.geocoding.geocoder import Geocoder
from app.core.rules.constants import TRUE_WORDS
from app.core.rules.dates import DATETIME_FORMAT, parse_when
from app.core.rules.paging import Page
from app.core.rules.permissions import User
from app.events.listing import EventPage
from app.events.params import EventFilterParams, EventListParams
from app.events.query import BOUNDS, EventQuery, ListWindow
from app.events.serializer import render_events
from app.geo.distance import shown_km
from app.geo.params import place_near, read_near
from app.http.context import RequestContext
from app.http.pagination import list_response
from app.http.params import parse
from app.posts.listing import status_echo
from app.posts.params import asked_statuses
from app.posts.serializer import View

P = TypeVar("P", bound=EventFilterParams)

FEED_PATH = "/events.ics"  # the calendar feed of the list (app/feeds)
# The price and the local start's day and hour (docs/design.md#event-list), last.
FILTERS_OF_ISSUE_46 = ("cost_min", "cost_max", "weekday", "time_of_day")
# The order links have always shown the filters in (clients may compare URLs).
ECHO_ORDER = (
    *("start_date", "end_date", "search", "status", "post_parent", "include"),
    *BOUNDS[2:],
    "ticketed",
    *("venue", "organizer", "featured", "categories", "tags", "strict_dates", "orderby", "order"),
    "hide_subsequent_recurrences",
    *("geoloc", "geoloc_lat", "geoloc_lng", "geoloc_radius", "near"),
    *FILTERS_OF_ISSUE_46,
)


@dataclass(frozen=True, slots=True)
class ListRequest(Generic[P]):
    """A list request as the door read it: its parameter model (paging, a feed's limit),
    the typed query, the moment its relative dates were read at, and the invalid
    parameters found so far (the service adds its own before one 400 names them all)."""

    params: P
    query: EventQuery
    now: datetime
    problems: Problems


def _strict(params: EventFilterParams) -> bool:
    """`strict_dates` in any of WordPress's true-words: the dates are used as given."""
    return (params.strict_dates or "").strip().lower() in TRUE_WORDS


def _moments(
    params: EventFilterParams, strict: bool, zone: tzinfo, now: datetime, problems: Problems
) -> dict[str, datetime]:
    """The date parameters as instants: wall times in UTC when strict (the list uses them
    as given), else in the site's zone (the list takes their days). The first unreadable
    one is refused."""
    moments: dict[str, datetime] = {}
    for name in BOUNDS:
        value = getattr(params, name)
        if value is None:
            continue
        try:
            moments[name] = parse_when(value, UTC if strict else zone, now)
        except ValueError:
            problems.add(name, note("bad_date", name=name))
            break
    return moments


def event_query(
    params: EventFilterParams,
    zone: tzinfo,
    now: datetime,
    problems: Problems,
    radius: float,
) -> EventQuery:
    """The typed query of a list's parameters (`radius`: a search near a point's default)."""
    strict = _strict(params)
    moments = {} if params.include is not None else _moments(params, strict, zone, now, problems)

    def ids(values: list[Any] | None) -> tuple[Any, ...] | None:
        return None if values is None else tuple(values)

    statuses = asked_statuses(params.status)
    return EventQuery(
        **moments,
        strict=strict,
        include=ids(params.include),
        search=params.search or None,
        categories=ids(params.categories),
        tags=ids(params.tags),
        venues=ids(params.venue),
        organizers=ids(params.organizer),
        featured=params.featured,
        has_geo=params.geoloc,
        near=read_near(params, radius, problems),
        statuses=ids(statuses),
        post_parent=params.post_parent,
        first_of_series=bool(params.hide_subsequent_recurrences),
        ticketed=params.ticketed,
        cost_min=params.cost_min,
        cost_max=params.cost_max,
        weekdays=ids(params.weekday),
        times_of_day=ids(params.time_of_day),
        orderby=params.orderby or "start_date",
        descending=params.order == "desc",
        password=params.password,
    )


async def read_list(
    ctx: RequestContext, model: type[P], geocoder: Geocoder | None
) -> ListRequest[P]:
    """The request's list parameters against `model` (the JSON list's, or the feed's); a
    place (`near`) is located with the gazetteer, and `geocoder` where there is one."""
    problems = Problems()
    params = parse(model, ctx.raw, problems)
    now = datetime.now(UTC)
    settings = ctx.settings
    radius = settings.geofence_radius
    query = event_query(params, settings.site_zone, now, problems, radius)
    if params.near is not None:
        near = await place_near(params, radius, problems, ctx.session, geocoder)
        query = dataclasses.replace(query, near=near)
    return ListRequest(params, query, now, problems)


def list_echo(params: EventFilterParams, window: ListWindow, user: User) -> dict[str, Any]:
    """The list's effective filters, as its links keep them (`rest_url`, paging): the
    window it applied (whole days unless strict, or the default one) and what was asked,
    in the reference's forms and order."""
    echo: dict[str, Any] = {}
    if _strict(params):
        echo["strict_dates"] = "1"
    if params.include is not None:
        echo["include"] = params.include
    for name, local in window.items():
        echo[name] = local.strftime(DATETIME_FORMAT)
    if params.search:
        echo["search"] = params.search
    echo["status"] = status_echo(asked_statuses(params.status), user)
    if params.post_parent is not None:
        echo["post_parent"] = params.post_parent
    for name in ("venue", "organizer", "categories", "tags"):
        if getattr(params, name) is not None:
            echo[name] = getattr(params, name)
    for name in ("featured", "ticketed"):
        if getattr(params, name) is not None:
            echo[name] = getattr(params, name)
    if params.hide_subsequent_recurrences:
        echo["hide_subsequent_recurrences"] = "1"
    for name in ("geoloc", "geoloc_lat", "geoloc_lng", "geoloc_radius", "near"):
        if getattr(params, name) is not None:
            echo[name] = getattr(params, name)
    for name in ("cost_min", "cost_max"):
        if (amount := getattr(params, name)) is not None:
            echo[name] = amount_text(amount)
    for name in ("weekday", "time_of_day"):
        if getattr(params, name) is not None:
            echo[name] = getattr(params, name)
    if params.orderby:
        echo["orderby"] = params.orderby
    if params.order:
        echo["order"] = params.order
    return {name: echo[name] for name in ECHO_ORDER if name in echo}


def amount_text(amount: Decimal) -> str:
    """A price bound as links write it: `5`, `12.5` (no exponent, no trailing zeros)."""
    text = f"{amount.normalize():f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def feed_source(ctx: RequestContext) -> str:
    """The calendar feed's own URL (its `SOURCE`): its parameters as sent, but never the
    password."""
    return ctx.urls.rest(FEED_PATH, {k: v for k, v in ctx.raw.items() if k != "password"})


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


def list_answer(
    ctx: RequestContext, params: EventListParams, page: Page, found: EventPage
) -> Response:
    """The JSON list: the page's bodies, its total, and the links that keep its filters."""
    view = View(ctx.urls, ctx.settings.site_zone, ctx.user, params.password)
    echoed = list_echo(params, found.window, ctx.user)
    items = render_events(found.records, view, False)
    for body, record in zip(items, found.records, strict=True):
        if record.distance is not None:  # a list near a point: the venue's, last
            body["distance"] = shown_km(record.distance)
    return list_response(
        urls=ctx.urls,
        path="/events",
        key="events",
        kind="event",
        items=items,
        total=found.total,
        page=page,
        filters=echoed,
        alternates=[feed_link(ctx, echoed)],
    )
