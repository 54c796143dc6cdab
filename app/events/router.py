"""Events: the list, and create, read, update, delete by ID and by slug (docs/design.md#url-space-and-discovery).
Everything but the list is the shared post routes."""

from datetime import date
from typing import Annotated

from fastapi import Path, Request
from starlette.responses import Response

from app.core.app_services import services_of
from app.core.rules.paging import Page
from app.core.web.responses import json_response
from app.events.commands import EventRemoval, EventWrite
from app.events.door import event_removal, event_write
from app.events.kind import EVENTS
from app.events.listing import event_page
from app.events.params import EventDeleteParams, EventListParams
from app.events.records import EventRecord
from app.events.schemas import Event, EventList
from app.events.service import EventService
from app.events.wire import list_answer, read_list
from app.http.context import ContextDep, RequestContext
from app.http.openapi import api_doc
from app.http.routing import RecordSlug
from app.posts.door import read_request
from app.posts.params import ReadParams
from app.posts.router import PostRoutes
from app.posts.service import PostService


class EventRoutes(PostRoutes[EventRecord]):
    """The shared post routes, with writes that know series (app/events/service.py)."""

    delete_params = EventDeleteParams

    def service(self, ctx: RequestContext) -> PostService[EventRecord]:
        return EventService(ctx)

    def write_command(self, ctx: RequestContext) -> EventWrite:
        return event_write(ctx.raw, ctx.settings.site_zone)

    def removal(self, ctx: RequestContext) -> EventRemoval:
        return event_removal(ctx.raw)


OccurrenceDay = Annotated[date, Path(description="The date's local day, YYYY-MM-DD")]

routes = EventRoutes(EVENTS)
router = routes.router


@router.get(
    "",
    summary="List events",
    **api_doc(query=EventListParams, response=EventList, errors=(401, 404), paging_headers=True),
)
async def list_events_route(request: Request, ctx: ContextDep) -> Response:
    """Events in a date window (default: 00:00 yesterday to two years ahead), start ascending."""
    totals = services_of(request).event_totals
    asked = await read_list(ctx, EventListParams, services_of(request).geocoder)
    page = Page(number=asked.params.page, size=asked.params.per_page)
    found = await event_page(ctx, asked.query, page, totals, now=asked.now, problems=asked.problems)
    return list_answer(ctx, asked.params, page, found)


@router.get(
    "/by-slug/{slug}/{day}",
    summary="Read the date of a series on a day, by the series' slug",
    **api_doc(query=ReadParams, response=Event, errors=(401, 403, 404)),
)
async def read_occurrence_route(slug: RecordSlug, day: OccurrenceDay, ctx: ContextDep) -> Response:
    """The occurrence of the series `slug` that starts on `day` (YYYY-MM-DD, the event's
    local date): the page URL of each date of a series ends the same way."""
    service = EventService(ctx)
    record, password = await service.readable_on(slug, day, read_request(ctx.raw))
    return json_response(service.bodies.one(record, json_ld=True, password=password))


routes.register()
