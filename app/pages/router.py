"""The public pages' routes: thin handlers that read the request's view, call `views.py`
and render a template. Every route is served in the default language and under `/de`, `/sk`
(and `/en`) as well (docs/design.md, Public pages)."""

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, date
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import HTMLResponse, RedirectResponse, Response

from app.core.app_services import app_services, services_of
from app.core.database.engine import MakerDep
from app.core.errors import ApiError
from app.core.rules.constants import FALSE_WORDS, TRUE_WORDS
from app.core.settings import Settings
from app.core.web.responses import json_response
from app.core.web.urls import urls_of
from app.events.query import EventQuery
from app.geo.service import PLACE_MAX_LENGTH
from app.i18n import LANGUAGES, path_language
from app.i18n.dates import Dates, first_weekday
from app.pages import filter_bar, rsvp, showcase, views, week
from app.pages.content import Content, NotShown, PasswordNeeded, visitor_context
from app.pages.face import SiteFace, site_face
from app.pages.headers import page_headers, page_nonce
from app.pages.leaflet import maps_of
from app.pages.links import SITE_VIEWS, PageLinks
from app.pages.paths import (
    READS,
    is_page_path,
    page_path,
    under_unknown_language,
)
from app.pages.pictures import page_picture
from app.pages.places import markers, openstreetmap_link, venue_marker
from app.pages.rsvp_form import NO_STORE, read_posted
from app.pages.series_text import describe_series
from app.pages.sitemap import discovery_router
from app.tickets.commands import RsvpChange

router = APIRouter(include_in_schema=False)
ERROR_TEMPLATE = "error.html"


class BadInput(Exception):
    """A query value the page cannot read (a date): a 400 page naming it."""

    def __init__(self, name: str) -> None:
        self.name = name


def render_page(
    request: Request, language: str, template: str, status: int = 200, **values: Any
) -> Response:
    """A template of the pages in `language`, with what every page's layout needs."""
    settings = services_of(request).settings
    links = values.pop("links", None) or PageLinks(
        urls_of(request, settings), language, settings.default_language
    )
    path = page_path(request)
    environments = services_of(request).page_templates
    # An error page (404, 400) is no page of its own: no canonical URL and no hreflang
    # alternates naming the missing page as if it existed in each language; its language
    # menu leads to each language's calendar.
    error = template == ERROR_TEMPLATE
    face = values.pop("face", None) or site_face(settings, language, links.urls)
    html = environments.render(
        language,
        template,
        links=links,
        path=path,
        canonical=None if error else links.page(path),
        alternates=[] if error else links.alternates(path),
        language_menu=links.alternates("/events/" if error else path),
        face=face,
        site_name=face.name,
        csp_nonce=page_nonce(request),
        maps=maps_of(settings),
        **values,
    )
    # The page's own language, stored with it in the response cache: a hit must not take
    # the header from the request's Accept-Language (the path decides a page's language).
    headers = {"Content-Language": language, **page_headers(request, links.urls.site)}
    return HTMLResponse(html, status_code=status, headers=headers)


@dataclass
class PageRequest:
    """One page's request: its language, links, settings, search values and reads."""

    request: Request
    language: str
    links: PageLinks
    settings: Settings
    content: Content
    search: views.Search = field(default_factory=views.Search)
    face: SiteFace | None = None
    # The filter bar's choices, on the calendar's views (app/pages/filter_bar.py).
    choices: filter_bar.Choices | None = None

    def render(self, template: str, status: int = 200, **values: Any) -> Response:
        return render_page(
            self.request,
            self.language,
            template,
            status,
            links=self.links,
            face=self.face,
            page=self,
            search=self.search,
            filter_bar=filter_bar.bar(
                self.choices if status == 200 else None,
                page_path(self.request),
                self.search.query(),
                self.search.display,
            ),
            **values,
        )

    @property
    def first_weekday(self) -> int:
        return first_weekday(self.language, self.settings.week_start)


def _search(request: Request) -> views.Search:
    query = request.query_params
    words = query.get("tribe-bar-search", "")[:200]
    day = _date(query.get("tribe-bar-date"), "tribe-bar-date")
    near = query.get("tribe-bar-geoloc", "")[:PLACE_MAX_LENGTH]
    ticketed = _flag(query.get("ticketed"), "ticketed")
    display = query.get("eventDisplay")
    try:
        filters = filter_bar.read_filters(query)
    except filter_bar.BadFilter as exc:
        raise BadInput(exc.name) from exc
    return views.Search(
        words=words, day=day, display=display, near=near, ticketed=ticketed, filters=filters
    )


def _flag(value: str | None, name: str) -> bool | None:
    """A query's true or false (the API's words); absent or empty means either, anything
    else is a 400."""
    if value is None or not value.strip():
        return None
    word = value.strip().lower()
    if word not in TRUE_WORDS | FALSE_WORDS:
        raise BadInput(name)
    return word in TRUE_WORDS


# Calendar dates the pages show: a year of four digits, far enough from date's own limits
# that the previous and next day or month always exist.
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
MONTH = re.compile(r"\d{4}-\d{2}")
YEARS = range(1000, 9999)


def calendar_date(text: str) -> date | None:
    """A day (YYYY-MM-DD) or a month (YYYY-MM: its first day), else None."""
    text = text.strip()
    try:
        if MONTH.fullmatch(text):
            value = date.fromisoformat(f"{text}-01")
        elif DAY.fullmatch(text):
            value = date.fromisoformat(text)
        else:
            return None
    except ValueError:
        return None
    return value if value.year in YEARS else None


def _date(value: str | None, name: str) -> date | None:
    """A query's day or month; empty means none, anything else unreadable is a 400."""
    if not value or not value.strip():
        return None
    day = calendar_date(value)
    if day is None:
        raise BadInput(name)
    return day


Build = Callable[[PageRequest], Awaitable[Response]]


async def _respond(request: Request, maker: Any, build: Build) -> Response:
    """Run a page's build in the visitor's context; a record not shown is the 404 page,
    a value that cannot be read the 400 page."""
    settings = services_of(request).settings
    language = path_language(request, settings.default_language)
    request.state.language = language  # Content-Language; no Accept-Language in Vary
    services = services_of(request)
    async with visitor_context(request, maker, language) as ctx:
        links = PageLinks(ctx.urls, language, settings.default_language)
        content = Content(ctx, services.event_totals, services.geocoder)
        page = PageRequest(request, language, links, settings, content)
        logo = await content.image(settings.site_logo)
        page.face = site_face(settings, language, ctx.urls, logo)
        try:
            page.search = await views.locate(content, settings, _search(request))
            if filter_bar.on_views(page_path(request)):
                page.choices = await filter_bar.choices_of(content)
            return await build(page)
        except NotShown:
            return page.render(ERROR_TEMPLATE, 404, code=404)
        except BadInput as exc:
            return page.render(ERROR_TEMPLATE, 400, code=400, parameter=exc.name)
        except views.TooDeep as exc:
            return page.render(ERROR_TEMPLATE, 400, code=400, deepest=exc.deepest)


def _month_of(value: str) -> date:
    month = calendar_date(value) if MONTH.fullmatch(value) else None
    if month is None:
        raise NotShown
    return month


def _day_of(value: str) -> date:
    day = calendar_date(value) if DAY.fullmatch(value) else None
    if day is None:
        raise NotShown
    return day


# ---- the calendar views -----------------------------------------------------------


async def _list(
    page: PageRequest, number: int, scope: EventQuery, base: str, **extra: Any
) -> Response:
    past = page.search.display == "past"
    view = await views.list_view(page.content, page.settings, page.search, number, past, scope)
    return page.render("list.html", view=view, base=base, current_view="list", **extra)


async def _month(
    page: PageRequest, month: date | None, scope: EventQuery, base: str, **extra: Any
) -> Response:
    month = month or (page.search.day or views.today(page.settings)).replace(day=1)
    view = await views.month_view(
        page.content, page.settings, month, page.first_weekday, page.search, scope
    )
    return page.render("month.html", view=view, base=base, current_view="month", **extra)


async def _day(
    page: PageRequest,
    day: date | None,
    scope: EventQuery | None = None,
    base: str = SITE_VIEWS,
    **extra: Any,
) -> Response:
    day = day or page.search.day or views.today(page.settings)
    view = await views.day_view(
        page.content, page.settings, day, page.search, scope or EventQuery()
    )
    return page.render("day.html", view=view, base=base, current_view="day", **extra)


async def _showcase(
    page: PageRequest, name: str, number: int, scope: EventQuery, base: str, **extra: Any
) -> Response:
    """The photo or summary view (app/pages/showcase.py), paged like the list."""
    if number < 1:
        raise NotShown
    past = page.search.display == "past"
    build = showcase.VIEWS[name]
    view = await build(page.content, page.settings, page.search, number, past, scope)
    return page.render(f"{name}.html", view=view, base=base, current_view=name, **extra)


async def _map(page: PageRequest, scope: EventQuery, base: str, **extra: Any) -> Response:
    view = await views.map_view(page.content, page.settings, page.search, scope)
    view["markers"] = markers(view["events"], page.links, Dates(page.language))
    return page.render("map.html", view=view, base=base, current_view="map", **extra)


async def _week(
    page: PageRequest, day: date | None, scope: EventQuery, base: str, **extra: Any
) -> Response:
    day = day or page.search.day or views.today(page.settings)
    view = await week.week_view(
        page.content, page.settings, day, page.first_weekday, page.search, scope
    )
    return page.render("week.html", view=view, base=base, current_view="week", **extra)


@router.api_route("/events", methods=READS)
async def events_page(request: Request, maker: MakerDep) -> Response:
    """The default view (`DEFAULT_VIEW`), or the one `eventDisplay` names."""

    async def build(page: PageRequest) -> Response:
        display = page.search.display or page.settings.default_view
        if display == "month":
            return await _month(page, None, EventQuery(), "/events")
        if display == "day":
            return await _day(page, None)
        if display == "map":
            return await _map(page, EventQuery(), "/events")
        if display == "week":
            return await _week(page, None, EventQuery(), "/events")
        if display in showcase.VIEWS:
            return await _showcase(page, display, 1, EventQuery(), "/events")
        return await _list(page, 1, EventQuery(), "/events")

    return await _respond(request, maker, build)


@router.api_route("/events/list", methods=READS)
async def list_page(request: Request, maker: MakerDep) -> Response:
    return await _respond(request, maker, lambda page: _list(page, 1, EventQuery(), "/events"))


@router.api_route("/events/list/page/{number:id}", methods=READS)
async def list_page_n(request: Request, number: int, maker: MakerDep) -> Response:
    async def build(page: PageRequest) -> Response:
        if number < 1:
            raise NotShown
        return await _list(page, number, EventQuery(), "/events")

    return await _respond(request, maker, build)


@router.api_route("/events/map", methods=READS)
async def map_page(request: Request, maker: MakerDep) -> Response:
    """Upcoming events on a map (registered before `/events/{day}`)."""
    return await _respond(request, maker, lambda page: _map(page, EventQuery(), "/events"))


@router.api_route("/events/week", methods=READS)
async def week_page(request: Request, maker: MakerDep) -> Response:
    """This week, or the search's day's (registered before `/events/{day}`)."""
    return await _respond(request, maker, lambda page: _week(page, None, EventQuery(), "/events"))


@router.api_route("/events/week/{day}", methods=READS)
async def week_page_of(request: Request, day: str, maker: MakerDep) -> Response:
    """The week holding a day (any day of it)."""
    return await _respond(
        request, maker, lambda page: _week(page, _day_of(day), EventQuery(), "/events")
    )


@router.api_route("/events/{name:showcase}", methods=READS)
async def showcase_page(request: Request, name: str, maker: MakerDep) -> Response:
    """The photo or summary view (registered before `/events/{day}`)."""
    return await _respond(
        request, maker, lambda page: _showcase(page, name, 1, EventQuery(), "/events")
    )


@router.api_route("/events/{name:showcase}/page/{number:id}", methods=READS)
async def showcase_page_n(request: Request, name: str, number: int, maker: MakerDep) -> Response:
    return await _respond(
        request, maker, lambda page: _showcase(page, name, number, EventQuery(), "/events")
    )


@router.api_route("/events/month", methods=READS)
async def month_page(request: Request, maker: MakerDep) -> Response:
    return await _respond(request, maker, lambda page: _month(page, None, EventQuery(), "/events"))


@router.api_route("/events/month/{month}", methods=READS)
async def month_page_of(request: Request, month: str, maker: MakerDep) -> Response:
    return await _respond(
        request, maker, lambda page: _month(page, _month_of(month), EventQuery(), "/events")
    )


@router.api_route("/events/today", methods=READS)
async def today_page(request: Request, maker: MakerDep) -> Response:
    return await _respond(request, maker, lambda page: _day(page, views.today(page.settings)))


@router.api_route("/events/{day}", methods=READS)
async def day_page(request: Request, day: str, maker: MakerDep) -> Response:
    return await _respond(request, maker, lambda page: _day(page, _day_of(day)))


# ---- categories and tags ------------------------------------------------------------

TAXONOMIES = ("category", "tag")


async def _term_page(
    request: Request, maker: Any, taxonomy: str, slug: str, view: str, arg: str | None = None
) -> Response:
    async def build(page: PageRequest) -> Response:
        if taxonomy not in TAXONOMIES:
            raise NotShown
        term = await page.content.term(taxonomy, slug)
        slug_of = (term["slug"],)
        scope = (
            EventQuery(categories=slug_of) if taxonomy == "category" else EventQuery(tags=slug_of)
        )
        base = f"/events/{taxonomy}/{term['slug']}"
        if view == "month":
            return await _month(page, _month_of(arg) if arg else None, scope, base, term=term)
        if view == "day":
            return await _day(page, _day_of(arg or ""), scope, base, term=term)
        if view == "map":
            return await _map(page, scope, base, term=term)
        if view == "week":
            return await _week(page, _day_of(arg) if arg else None, scope, base, term=term)
        number = int(arg) if arg else 1
        if view in showcase.VIEWS:
            return await _showcase(page, view, number, scope, base, term=term)
        if number < 1:
            raise NotShown
        return await _list(page, number, scope, base, term=term)

    return await _respond(request, maker, build)


@router.api_route("/events/{taxonomy}/{slug}", methods=READS)
async def term_page(request: Request, taxonomy: str, slug: str, maker: MakerDep) -> Response:
    return await _term_page(request, maker, taxonomy, slug, "list")


@router.api_route("/events/{taxonomy}/{slug}/list", methods=READS)
async def term_list_page(request: Request, taxonomy: str, slug: str, maker: MakerDep) -> Response:
    return await _term_page(request, maker, taxonomy, slug, "list")


@router.api_route("/events/{taxonomy}/{slug}/list/page/{number:id}", methods=READS)
async def term_list_page_n(
    request: Request, taxonomy: str, slug: str, number: int, maker: MakerDep
) -> Response:
    return await _term_page(request, maker, taxonomy, slug, "list", str(number))


@router.api_route("/events/{taxonomy}/{slug}/month", methods=READS)
async def term_month_page(request: Request, taxonomy: str, slug: str, maker: MakerDep) -> Response:
    return await _term_page(request, maker, taxonomy, slug, "month")


@router.api_route("/events/{taxonomy}/{slug}/month/{month}", methods=READS)
async def term_month_page_of(
    request: Request, taxonomy: str, slug: str, month: str, maker: MakerDep
) -> Response:
    return await _term_page(request, maker, taxonomy, slug, "month", month)


@router.api_route("/events/{taxonomy}/{slug}/week", methods=READS)
async def term_week_page(request: Request, taxonomy: str, slug: str, maker: MakerDep) -> Response:
    return await _term_page(request, maker, taxonomy, slug, "week")


@router.api_route("/events/{taxonomy}/{slug}/week/{day}", methods=READS)
async def term_week_page_of(
    request: Request, taxonomy: str, slug: str, day: str, maker: MakerDep
) -> Response:
    return await _term_page(request, maker, taxonomy, slug, "week", day)


@router.api_route("/events/{taxonomy}/{slug}/map", methods=READS)
async def term_map_page(request: Request, taxonomy: str, slug: str, maker: MakerDep) -> Response:
    return await _term_page(request, maker, taxonomy, slug, "map")


@router.api_route("/events/{taxonomy}/{slug}/{name:showcase}", methods=READS)
async def term_showcase_page(
    request: Request, taxonomy: str, slug: str, name: str, maker: MakerDep
) -> Response:
    return await _term_page(request, maker, taxonomy, slug, name)


@router.api_route("/events/{taxonomy}/{slug}/{name:showcase}/page/{number:id}", methods=READS)
async def term_showcase_page_n(
    request: Request, taxonomy: str, slug: str, name: str, number: int, maker: MakerDep
) -> Response:
    return await _term_page(request, maker, taxonomy, slug, name, str(number))


@router.api_route("/events/{taxonomy}/{slug}/day/{day}", methods=READS)
async def term_day_page(
    request: Request, taxonomy: str, slug: str, day: str, maker: MakerDep
) -> Response:
    """A category's or tag's day: the day view of its events (the month grid's days link
    here from the term's month view)."""
    return await _term_page(request, maker, taxonomy, slug, "day", day)


# ---- single records -------------------------------------------------------------------


async def _event_page(request: Request, maker: Any, slug: str, day: str | None) -> Response:
    form = await request.form() if request.method == "POST" else None
    password = str(form.get("post_password", "")) if form is not None else None
    posted = read_posted(form) if form is not None else None
    outcome = rsvp.Outcome()
    if posted is not None:
        on = calendar_date(day) if day is not None and DAY.fullmatch(day) else None
        if day is None or on is not None:  # else the 404 page (below)
            language = path_language(request, services_of(request).settings.default_language)
            outcome = await rsvp.answer_from_page(
                request, maker, language, slug, on, password or None, posted
            )
        if outcome.manage_url is not None:
            return RedirectResponse(outcome.manage_url, 303)

    async def build(page: PageRequest) -> Response:
        on = _day_of(day) if day is not None else None
        try:
            event = await page.content.event(slug, on, password)
        except PasswordNeeded:
            return page.render("password.html", 403 if password else 200, wrong=bool(password))
        if outcome.not_offered:
            raise NotShown
        # The page's instant as the body shows it (to the second): its neighbours start
        # before or after it.
        start = event.record.start_at.astimezone(UTC).replace(microsecond=0)
        previous, following = await views.neighbours(page.content, start)
        dates = await views.series_dates(page.content, event.get("series_id"), start)
        offered = await rsvp.event_tickets(page.content, int(event["id"]), password or None)
        refusal = outcome.refusal
        response = page.render(
            "event.html",
            200 if refusal is None else refusal.status,
            event=event,
            previous=previous,
            following=following,
            series_dates=dates,
            calendar=views.links_for(event, page.links),
            google=views.google_calendar_link(event, event.get("excerpt") or ""),
            picture=page_picture(event.get("image")),
            passed=event.record.end_at < views.now_bound(),
            series_text=describe_series(event.get("recurrence") or [], page.language),
            place_link=openstreetmap_link(page.content.venue_point(event.record.venue)),
            tickets=rsvp.tickets_shown(page.content, offered, refusal),
            password=password or None,
        )
        # A page with RSVP forms (each with the moment it was made) or an answer posted
        # back (a name, an address) is kept by no cache (app/pages/rsvp_form.py).
        if offered or posted is not None:
            response.headers.update(NO_STORE)
        if refusal is not None:
            response.headers.update(refusal.headers)
        return response

    return await _respond(request, maker, build)


@router.api_route("/event/{slug}", methods=[*READS, "POST"])
async def event_page(request: Request, slug: str, maker: MakerDep) -> Response:
    return await _event_page(request, maker, slug, None)


@router.api_route("/event/{slug}/{day}", methods=[*READS, "POST"])
async def event_date_page(request: Request, slug: str, day: str, maker: MakerDep) -> Response:
    return await _event_page(request, maker, slug, day)


@router.api_route("/venue/{slug}", methods=READS)
async def venue_page(request: Request, slug: str, maker: MakerDep) -> Response:
    async def build(page: PageRequest) -> Response:
        venue = await page.content.venue(slug)
        events = await views.related_events(page.content, EventQuery(venues=(venue["id"],)))
        point = venue.point
        nearby = (
            await views.nearby_events(page.content, page.settings, venue["id"], point)
            if point
            else []
        )
        shown = (
            [venue_marker(venue, point, events, page.links, Dates(page.language))] if point else []
        )
        return page.render(
            "venue.html",
            venue=venue,
            events=events,
            markers=shown,
            nearby=nearby,
            place_link=openstreetmap_link(point),
        )

    return await _respond(request, maker, build)


@router.api_route("/organizer/{slug}", methods=READS)
async def organizer_page(request: Request, slug: str, maker: MakerDep) -> Response:
    async def build(page: PageRequest) -> Response:
        organizer = await page.content.organizer(slug)
        scope = EventQuery(organizers=(organizer["id"],))
        events = await views.related_events(page.content, scope)
        return page.render("organizer.html", organizer=organizer, events=events)

    return await _respond(request, maker, build)


# ---- an attendee's own page -------------------------------------------------------------


@router.api_route("/rsvp/{attendee_id:id}/{token}", methods=[*READS, "POST", "DELETE"])
async def attendee_page(
    request: Request, attendee_id: int, token: str, maker: MakerDep
) -> Response:
    """The page of an RSVP's signed link: the answer, a form to change it and one to cancel
    it (POST, then a 303 back here); DELETE cancels it as the API would (JSON)."""
    language = path_language(request, services_of(request).settings.default_language)
    request.state.language = language
    if request.method == "DELETE":
        answered = await rsvp.change_by_link(
            request, maker, language, attendee_id, token, "cancel", RsvpChange()
        )
        return json_response(rsvp.cancelled_body(answered), headers=rsvp.ATTENDEE_HEADERS)
    failed: rsvp.FailedChange | None = None
    if request.method == "POST":
        action, change, quantity = rsvp.read_change(await request.form())
        try:
            await rsvp.change_by_link(request, maker, language, attendee_id, token, action, change)
        except ApiError as exc:
            failed = rsvp.FailedChange(exc, quantity, change.going is not False)
        else:
            done = "cancelled" if action == "cancel" else "changed"
            settings = services_of(request).settings
            own = PageLinks(urls_of(request, settings), language, settings.default_language)
            target = own.page(page_path(request), {"done": done})
            return RedirectResponse(target, 303, headers=rsvp.ATTENDEE_HEADERS)

    async def build(page: PageRequest) -> Response:
        done = request.query_params.get("done")
        view = await rsvp.attendee_page(page.content, attendee_id, token, done, failed)
        return page.render("rsvp.html", 200 if failed is None else failed.error.status, view=view)

    response = await _respond(request, maker, build)
    response.headers.update(rsvp.ATTENDEE_HEADERS)  # the 404 page of a wrong link too
    return response


# ---- assembly -------------------------------------------------------------------------


def add_page_routes(app: FastAPI) -> None:
    """The pages in every language, the sitemap, robots.txt and assets, and the HTML 404
    page for page paths (the API's paths keep their JSON errors)."""
    settings = app_services(app).settings
    app.include_router(discovery_router)
    for prefix in ("", *(f"/{language}" for language in LANGUAGES)):
        app.include_router(router, prefix=prefix)
    api_errors = app.exception_handlers[StarletteHTTPException]

    async def not_found(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        relative = request.url.path[len(request.scope.get("root_path", "")) :]
        if exc.status_code == 404 and (is_page_path(relative) or under_unknown_language(relative)):
            language = path_language(request, settings.default_language)
            request.state.language = language
            return render_page(request, language, ERROR_TEMPLATE, 404, code=404)
        answer = api_errors(request, exc)
        return await answer if isinstance(answer, Awaitable) else answer

    app.add_exception_handler(StarletteHTTPException, not_found)
