"""What the pages show, read through the API's own services: the event list (its window,
visibility, hidden-from-listings and language rules), single reads (status and password
rules), terms. The pages never decide on their own who may see what. Every body read here
is a `PageBody`: its markup reads sanitised, whoever wrote it (app/pages/markup.py)."""

from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from datetime import date
from typing import Any

from fastapi import Request

from app.core.caching.cache import CountCache
from app.core.database.engine import SessionMaker
from app.core.errors import ApiError
from app.core.geocoding.geocoder import Geocoder
from app.core.rules.geography import Fix, Point
from app.core.rules.paging import Page
from app.core.rules.permissions import may
from app.events.listing import event_days, event_records, event_summaries
from app.events.query import EventQuery
from app.events.records import EventRecord
from app.events.serializer import render_events, summary_body
from app.events.service import EventService
from app.geo.service import locate_place
from app.http.context import RequestContext, open_request_context, read_only
from app.media.repository import MediaRecord, MediaRepository
from app.organizers.kind import ORGANIZERS
from app.pages.markup import PageBody
from app.posts.commands import ReadRequest
from app.posts.serializer import View
from app.posts.service import PostService
from app.terms.commands import TermQuery
from app.terms.serializer import term_body
from app.terms.service import CATEGORIES, TAGS, TermService
from app.users.auth import session_reader
from app.venues.kind import VENUES
from app.venues.repository import VenueRecord

Body = dict[str, Any]
# More events than any day shows: one query reads them all.
MAX_EVENTS_PER_VIEW = 1000
PROTECTED = "event-password-protected"


class NotShown(Exception):
    """A record the visitor may not see, or none at all: the 404 page."""


class PasswordNeeded(Exception):
    """A protected event without its password: the password form and nothing else."""


class ListedEvent(PageBody):
    """An event of a list as a page shows it: its body (what the templates print,
    redacted as the API redacts it) and its record (its dates, for the views' own
    arithmetic)."""

    __slots__ = ("record",)

    def __init__(self, body: dict[str, Any], record: EventRecord) -> None:
        super().__init__(body)
        self.record = record


class ShownVenue(PageBody):
    """A venue's page body and its point, when it has one the visitor may see."""

    __slots__ = ("point",)

    def __init__(self, body: dict[str, Any], point: Point | None) -> None:
        super().__init__(body)
        self.point = point


@contextmanager
def _refused_as_not_shown() -> Iterator[None]:
    """A list the API refuses (an unknown term or venue of an old link: 400) is not shown."""
    try:
        yield
    except ApiError as exc:
        if exc.status in (400, 404):
            raise NotShown from exc
        raise


def visitor_context(
    request: Request, maker: SessionMaker, language: str
) -> AbstractAsyncContextManager[RequestContext]:
    """A reader's request context: pages show what a visitor sees, or, to a person signed
    in to the desk (its session cookie, on a GET), what their role may see (app/users/auth.py;
    such pages are neither stored nor served by the response cache). Reads only: nothing is
    committed, so no data version is drawn, whatever the method. A visitor's page is an
    anonymous read whatever its method (a password form), and the password form's guesses
    are throttled as the API's are."""
    return open_request_context(
        request, maker, language, caller=session_reader, session=read_only, admitted_as="GET"
    )


class Content:
    """The reads of one page, through the API's services."""

    def __init__(
        self, ctx: RequestContext, totals: CountCache, geocoder: Geocoder | None = None
    ) -> None:
        self.ctx = ctx
        self.totals = totals
        self.geocoder = geocoder

    async def locate(self, text: str) -> Fix | None:
        """Where the place a visitor typed is (app/geo/service.py), None if it is unknown.
        The geocoding service's answer is kept in its cache by this commit: the pages'
        session commits nothing else (and draws no data version: no after-commit hook runs
        on it), so that the next page asks the cache, not the service."""
        fix = await locate_place(self.ctx.session, self.geocoder, text)
        if self.geocoder is not None:
            await self.ctx.session.commit()
        return fix

    async def events(
        self, query: EventQuery, offset: int = 0, limit: int = MAX_EVENTS_PER_VIEW
    ) -> list[ListedEvent]:
        """Events of the list under `query`, without the total, each a card's body with
        its record (its dates)."""
        with _refused_as_not_shown():
            records = await event_records(self.ctx, query, offset, limit, self.totals)
        bodies = render_events(records, self.view, False)
        return [ListedEvent(body, record) for body, record in zip(bodies, records, strict=True)]

    async def summaries(self, query: EventQuery, limit: int) -> list[Body]:
        """Up to `limit` events of the list under `query`, as a calendar grid shows them:
        title, link and dates (`summary_body`), the same events the list would show."""
        with _refused_as_not_shown():
            summaries = await event_summaries(self.ctx, query, limit, self.totals)
        return [PageBody(summary_body(summary, self.ctx.urls)) for summary in summaries]

    async def days(
        self, query: EventQuery, first: date, last: date, per_day: int
    ) -> list[tuple[date, int, list[Body]]]:
        """The list under `query` on each day from `first` to `last`: for each day with
        events, how many and the first `per_day` of them as a calendar grid shows them."""
        with _refused_as_not_shown():
            days = await event_days(self.ctx, query, first, last, per_day)
        urls = self.ctx.urls
        return [
            (day.day, day.total, [PageBody(summary_body(shown, urls)) for shown in day.events])
            for day in days
        ]

    async def event(self, slug: str, day: Any = None, password: str | None = None) -> ListedEvent:
        service = EventService(self.ctx)
        request = ReadRequest(password or None)
        try:
            if day is None:
                record, password = await service.readable(slug, request)
            else:
                record, password = await service.readable_on(slug, day, request)
            # The templates read the API's body (rendered here, at the pages' door); the
            # views read the record's dates.
            body = service.bodies.one(record, json_ld=True, password=password)
            return ListedEvent(body, record)
        except ApiError as exc:
            # A throttled client's guess is not even checked: the form again.
            if exc.code in (PROTECTED, "rest_too_many_requests"):
                raise PasswordNeeded from exc
            raise NotShown from exc

    @property
    def view(self) -> View:
        return View(self.ctx.urls, self.ctx.settings.site_zone, self.ctx.user)

    def venue_point(self, venue: VenueRecord | None) -> Point | None:
        """Where `venue` is, as this visitor may see it: none for a venue without
        coordinates, one its password hides (the API shows 0 there) or one the event's body
        leaves out (a draft venue of a published event)."""
        if venue is None or venue.geo_lat is None or venue.geo_lng is None:
            return None
        view = self.view
        if view.hides(venue) or not may(view.user, "read", venue.author_id, venue.status):
            return None
        return Point(venue.geo_lat, venue.geo_lng)

    async def venue(self, slug: str) -> ShownVenue:
        service = PostService(VENUES, self.ctx)
        try:
            record, _ = await service.readable(slug)
        except ApiError as exc:
            raise NotShown from exc
        return ShownVenue(service.bodies.one(record, json_ld=True), self.venue_point(record))

    async def organizer(self, slug: str) -> Body:
        return await self._post(PostService(ORGANIZERS, self.ctx), slug)

    @staticmethod
    async def _post(service: PostService[Any], slug: str) -> Body:
        try:
            record, _ = await service.readable(slug)
            return PageBody(service.bodies.one(record, json_ld=True))
        except ApiError as exc:
            raise NotShown from exc

    async def image(self, image_id: int | None) -> MediaRecord | None:
        """An image of the media library by its ID (the site's logo, `SITE_LOGO`: public
        as every stored file is), or None."""
        if image_id is None:
            return None
        return await MediaRepository(self.ctx.session).get(image_id)

    async def term(self, taxonomy: str, slug: str) -> Body:
        kind = CATEGORIES if taxonomy == "category" else TAGS
        query = TermQuery(slugs=[slug], hide_empty=False)
        terms, _ = await TermService(kind, self.ctx).list(query, Page(1, 1))
        if not terms:
            raise NotShown
        return PageBody(term_body(terms[0], self.ctx.urls))  # the templates read the body
