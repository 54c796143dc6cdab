"""Events: the list, and create, read, update, delete by ID and by slug (interface §4.3, §4.4)."""

from collections.abc import Awaitable, Callable

from fastapi import APIRouter, Request
from pydantic import Field
from sqlalchemy import select, union_all
from starlette.responses import Response

from app.core.count_cache import CountCache
from app.core.database import SessionDep
from app.core.errors import ApiError, MissingParams, NotFound
from app.core.permissions import User, may, poster, require
from app.core.responses import json_response
from app.core.settings import get_settings
from app.core.sql import lock_row
from app.core.urls import Urls
from app.events.input import EventWriteParams
from app.events.listing import EventListParams, build_list_request
from app.events.repository import EventListQuery, EventRecord, EventRepository
from app.events.views import event_bodies
from app.events.writer import EventWriter
from app.http.context import ContextDep, RequestContext
from app.http.openapi import api_doc
from app.http.pagination import PageDep, list_response
from app.http.params import MAX_ID, Params, WPBool, parse
from app.http.routing import RecordId, RecordSlug, update_route
from app.models import Event as EventRow
from app.models import Organizer, Venue
from app.posts.schemas import Event, EventList
from app.posts.serializer import is_hidden_from

router = APIRouter(prefix="/events", tags=["events"])

REQUIRED_ON_CREATE = ("title", "start_date", "end_date")


class ReadParams(Params):
    password: str | None = Field(None, description="Password of a protected event")


class DeleteParams(Params):
    force: WPBool = Field(False, description="Delete permanently instead of moving to the trash")


class Lookup:
    """Finds the event of a route and applies the reference's access rules (§8.1)."""

    def __init__(self, session: SessionDep, language: str) -> None:
        settings = get_settings()
        self.session = session
        self.repo = EventRepository(session, language, settings.default_language)

    async def by_id(self, event_id: int) -> EventRecord:
        record = await self.repo.get(event_id) if event_id <= MAX_ID else None
        if record is None:
            if event_id <= MAX_ID and await self._is_other_post(event_id):
                raise ApiError(400, "rest-invalid-event-id")
            raise NotFound("event", event_id)
        return record

    async def for_writing(self, record: EventRecord) -> EventRecord:
        """The event, locked for this transaction and read again (see lock_row)."""
        if not await lock_row(self.session, EventRow, record.id):
            raise NotFound("event", record.id)
        return await self.by_id(record.id)

    async def by_slug(self, slug: str) -> EventRecord:
        # PostgreSQL text cannot hold NUL: such a slug names nothing.
        record = await self.repo.get_by_slug(slug) if "\x00" not in slug else None
        if record is None:
            raise NotFound("event", slug)
        return record

    async def _is_other_post(self, post_id: int) -> bool:
        """Events, venues and organizers share IDs: is this one a venue or an organizer?"""
        found = await self.session.scalar(
            union_all(
                select(Venue.id).where(Venue.id == post_id),
                select(Organizer.id).where(Organizer.id == post_id),
            ).limit(1)
        )
        return found is not None


def check_readable(user: User, event: EventRecord, password: str | None) -> None:
    can_edit = may(user, "edit", event.author_id, event.status)
    if event.status == "trash" and not can_edit:
        raise ApiError(403, "event-no-longer-available")
    if not may(user, "read", event.author_id, event.status):
        raise ApiError(403, "event-not-accessible")
    if is_hidden_from(event, user, password):
        raise ApiError(403, "event-password-protected")


def render(
    record: EventRecord,
    urls: Urls,
    user: User,
    *,
    json_ld: bool = False,
    password: str | None = None,
) -> dict[str, object]:
    return event_bodies([record], urls, user=user, password=password, json_ld=json_ld)[0]


def writer(ctx: RequestContext) -> EventWriter:
    user = poster(ctx.user)
    return EventWriter(
        session=ctx.session, user=user, language=ctx.language, settings=get_settings()
    )


def lookup(ctx: RequestContext) -> Lookup:
    return Lookup(ctx.session, ctx.language)


@router.get(
    "",
    summary="List events",
    **api_doc(query=EventListParams, response=EventList, errors=(401, 404), paging_headers=True),
)
async def list_events(request: Request, page: PageDep, ctx: ContextDep) -> Response:
    """Events in a date window (default: 00:00 yesterday to two years ahead), start ascending."""
    settings = get_settings()
    params = parse(EventListParams, ctx.raw)
    listing = await build_list_request(ctx.session, params, ctx.user, settings)
    repo = EventRepository(ctx.session, ctx.language, settings.default_language)
    totals: CountCache = request.app.state.event_totals
    records, total = await EventListQuery(repo, listing.filters).page(
        page.offset, page.size, totals
    )
    return list_response(
        urls=ctx.urls,
        path="/events",
        key="events",
        kind="event",
        items=event_bodies(records, ctx.urls, user=ctx.user, password=params.password),
        total=total,
        page=page,
        filters=listing.echo,
    )


@router.post(
    "",
    status_code=201,
    summary="Create an event",
    **api_doc(
        body=EventWriteParams,
        required=REQUIRED_ON_CREATE,
        response=Event,
        status=201,
        errors=(401, 403, 413),
    ),
)
async def create_event(ctx: ContextDep) -> Response:
    """Create an event; contributors' events wait for review (`pending`)."""
    events = writer(ctx)
    params = parse(EventWriteParams, ctx.raw)
    missing = [name for name in REQUIRED_ON_CREATE if getattr(params, name) is None]
    if missing:
        raise MissingParams(missing)
    event_id = await events.create(params)
    body = render(await lookup(ctx).by_id(event_id), ctx.urls, ctx.user)
    return json_response(body, 201, {"Location": ctx.urls.rest(f"/events/{event_id}")})


def _read(ctx: RequestContext, record: EventRecord) -> Response:
    params = parse(ReadParams, ctx.raw)
    check_readable(ctx.user, record, params.password)
    body = render(record, ctx.urls, ctx.user, json_ld=True, password=params.password)
    return json_response(body)


@router.get(
    "/{id:int}",
    summary="Read an event",
    **api_doc(query=ReadParams, response=Event, errors=(401, 403, 404)),
)
async def get_event(id: RecordId, ctx: ContextDep) -> Response:
    """One event with its venue, organizers, terms and JSON-LD."""
    return _read(ctx, await lookup(ctx).by_id(id))


@router.get(
    "/by-slug/{slug}",
    summary="Read an event by slug",
    **api_doc(query=ReadParams, response=Event, errors=(401, 403, 404)),
)
async def get_event_by_slug(slug: RecordSlug, ctx: ContextDep) -> Response:
    """One event, found by its slug."""
    return _read(ctx, await lookup(ctx).by_slug(slug))


async def _update(
    ctx: RequestContext, find: Callable[[Lookup], Awaitable[EventRecord]]
) -> Response:
    events = writer(ctx)  # the caller before the parameters (DESIGN §5)
    found = lookup(ctx)
    record = await found.for_writing(await find(found))
    require(ctx.user, may(ctx.user, "edit", record.author_id, record.status))
    await events.update(record, parse(EventWriteParams, ctx.raw))
    return json_response(render(await found.by_id(record.id), ctx.urls, ctx.user))


@update_route(
    router,
    "/{id:int}",
    summary="Update an event",
    **api_doc(body=EventWriteParams, response=Event, errors=(401, 403, 404, 413)),
)
async def update_event(id: RecordId, ctx: ContextDep) -> Response:
    """Change the fields sent; the others stay as they are."""
    return await _update(ctx, lambda found: found.by_id(id))


@update_route(
    router,
    "/by-slug/{slug}",
    summary="Update an event by slug",
    **api_doc(body=EventWriteParams, response=Event, errors=(401, 403, 404, 413)),
)
async def update_event_by_slug(slug: RecordSlug, ctx: ContextDep) -> Response:
    """Change the fields sent; a `slug` in the body renames the event."""
    return await _update(ctx, lambda found: found.by_slug(slug))


async def _delete(
    ctx: RequestContext, find: Callable[[Lookup], Awaitable[EventRecord]]
) -> Response:
    events = writer(ctx)
    found = lookup(ctx)
    record = await found.for_writing(await find(found))
    require(ctx.user, may(ctx.user, "delete", record.author_id, record.status))
    if parse(DeleteParams, ctx.raw).force:
        body = render(record, ctx.urls, ctx.user)
        await events.delete(record.id)
        return json_response(body)
    if record.status == "trash":
        raise ApiError(410, "event-is-in-trash")
    await events.trash(record.id)
    return json_response(render(await found.by_id(record.id), ctx.urls, ctx.user))


@router.delete(
    "/{id:int}",
    summary="Delete an event",
    **api_doc(query=DeleteParams, response=Event, errors=(401, 403, 404, 410)),
)
async def delete_event(id: RecordId, ctx: ContextDep) -> Response:
    """Move the event to the trash (again: 410); `force=true` deletes it permanently."""
    return await _delete(ctx, lambda found: found.by_id(id))


@router.delete(
    "/by-slug/{slug}",
    summary="Delete an event by slug",
    **api_doc(query=DeleteParams, response=Event, errors=(401, 403, 404, 410)),
)
async def delete_event_by_slug(slug: RecordSlug, ctx: ContextDep) -> Response:
    """Move the event to the trash (again: 410); `force=true` deletes it permanently."""
    return await _delete(ctx, lambda found: found.by_slug(slug))
