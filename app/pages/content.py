"""What the pages show, read through the API's own services: the event list (its window,
visibility, hidden-from-listings and language rules), single reads (status and password
rules), terms. The pages never decide on their own who may see what. Every body read here
is a `PageBody`: its markup reads sanitised, whoever wrote it (app/pages/markup.py)."""

import dataclasses
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from datetime import UTC, date, datetime
from typing import Any

from fastapi import Request

from app.core.edge.caching import CountCache
from app.core.edge.errors import ApiError
from app.core.infra.database import SessionMaker
from app.events.listing import list_bodies, list_days, list_summaries
from app.events.service import EventService
from app.http.context import RequestContext, open_request_context, read_only
from app.http.pagination import Page
from app.organizers.kind import ORGANIZERS
from app.pages.markup import PageBody, page_bodies
from app.posts.commands import ReadRequest
from app.posts.service import PostService
from app.terms.service import CATEGORIES, TAGS, TermService
from app.users.auth import session_reader
from app.venues.kind import VENUES

Body = dict[str, Any]
# More events than any day shows: one query reads them all.
MAX_EVENTS_PER_VIEW = 1000
PROTECTED = "event-password-protected"


class NotShown(Exception):
    """A record the visitor may not see, or none at all: the 404 page."""


class PasswordNeeded(Exception):
    """A protected event without its password: the password form and nothing else."""


def utc_text(moment: datetime) -> str:
    """A bound for the list's strict dates (read as UTC without an offset)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


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

    def __init__(self, ctx: RequestContext, totals: CountCache) -> None:
        self.ctx = ctx
        self.totals = totals

    def _with(self, raw: dict[str, Any]) -> RequestContext:
        return dataclasses.replace(self.ctx, raw=raw)

    async def events(
        self, filters: dict[str, Any], offset: int = 0, limit: int = MAX_EVENTS_PER_VIEW
    ) -> list[Body]:
        """Events of the list under `filters` (the API's parameters), without the total."""
        with _refused_as_not_shown():
            return page_bodies(await list_bodies(self._with(filters), self.totals, offset, limit))

    async def summaries(self, filters: dict[str, Any], limit: int) -> list[Body]:
        """Up to `limit` events of the list under `filters`, as a calendar grid shows them:
        title, link and dates (`summary_body`), the same events the list would show."""
        with _refused_as_not_shown():
            summaries = await list_summaries(self._with(filters), self.totals, Page(1, limit))
        return page_bodies(summaries)

    async def days(
        self, filters: dict[str, Any], first: date, last: date, per_day: int
    ) -> list[tuple[date, int, list[Body]]]:
        """The list under `filters` on each day from `first` to `last`: for each day with
        events, how many and the first `per_day` of them as a calendar grid shows them."""
        with _refused_as_not_shown():
            days = await list_days(self._with(filters), first, last, per_day)
        return [(day, count, page_bodies(shown)) for day, count, shown in days]

    async def event(self, slug: str, day: Any = None, password: str | None = None) -> Body:
        service = EventService(self.ctx)
        request = ReadRequest(password or None)
        try:
            if day is None:
                return PageBody(await service.read(slug, request))
            return PageBody(await service.read_on(slug, day, request))
        except ApiError as exc:
            # A throttled client's guess is not even checked: the form again.
            if exc.code in (PROTECTED, "rest_too_many_requests"):
                raise PasswordNeeded from exc
            raise NotShown from exc

    async def venue(self, slug: str) -> Body:
        return await self._post(PostService(VENUES, self.ctx), slug)

    async def organizer(self, slug: str) -> Body:
        return await self._post(PostService(ORGANIZERS, self.ctx), slug)

    @staticmethod
    async def _post(service: PostService[Any], slug: str) -> Body:
        try:
            return PageBody(await service.read(slug))
        except ApiError as exc:
            raise NotShown from exc

    async def term(self, taxonomy: str, slug: str) -> Body:
        kind = CATEGORIES if taxonomy == "category" else TAGS
        raw = {"slug": [slug], "hide_empty": "false"}
        terms, _, _ = await TermService(kind, self._with(raw)).list(Page(1, 1))
        if not terms:
            raise NotShown
        return PageBody(terms[0])
