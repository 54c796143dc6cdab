"""Single events: create, read, update, delete, by ID and by slug (interface §4.4)."""

from fastapi import APIRouter, Request
from pydantic import Field
from sqlalchemy import select, union_all
from starlette.responses import Response

from app.auth import CurrentUser
from app.config import get_settings
from app.count_cache import CountCache
from app.db import SessionDep
from app.deps import LanguageDep, RawParamsDep
from app.errors import ApiError, MissingParams, NotFound
from app.models import Event as EventRow
from app.models import Organizer, Venue
from app.openapi import api_doc
from app.pagination import PageDep, list_response
from app.params import Params, WPBool, parse
from app.permissions import Principal, User, can_create_posts, may, require
from app.repositories.base import lock_row
from app.repositories.events import EventListQuery, EventRecord, EventRepository
from app.responses import json_response
from app.routers.routing import RecordId, RecordSlug, update_route
from app.schemas.posts import Event, EventList
from app.serializers.posts import is_hidden_from
from app.services.event_input import EventWriteParams
from app.services.event_list import EventListParams, build_list_request
from app.services.event_views import event_bodies
from app.services.events import EventWriter
from app.urls import Urls, UrlsDep

router = APIRouter(prefix="/events", tags=["events"])

MAX_ID = 2**63 - 1
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


def writer(session: SessionDep, user: Principal, language: str) -> EventWriter:
    return EventWriter(session=session, user=user, language=language, settings=get_settings())


@router.get(
    "",
    summary="List events",
    **api_doc(query=EventListParams, response=EventList, errors=(401, 404), paging_headers=True),
)
async def list_events(
    http_request: Request,
    raw: RawParamsDep,
    page: PageDep,
    language: LanguageDep,
    user: CurrentUser,
    session: SessionDep,
    urls: UrlsDep,
) -> Response:
    """Events in a date window (default: 00:00 yesterday to two years ahead), start ascending."""
    settings = get_settings()
    params = parse(EventListParams, raw)
    request = await build_list_request(session, params, user, settings)
    repo = EventRepository(session, language, settings.default_language)
    totals: CountCache = http_request.app.state.event_totals
    query = EventListQuery(repo, request.filters)
    records, total = await query.page(page.offset, page.size, totals)
    bodies = event_bodies(records, urls, user=user, password=params.password)
    return list_response(
        urls=urls,
        path="/events",
        key="events",
        kind="event",
        items=bodies,
        total=total,
        page=page,
        filters=request.echo,
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
async def create_event(
    raw: RawParamsDep, language: LanguageDep, user: CurrentUser, session: SessionDep, urls: UrlsDep
) -> Response:
    """Create an event; contributors' events wait for review (`pending`)."""
    require(user, can_create_posts(user))
    assert user is not None
    params = parse(EventWriteParams, raw)
    missing = [name for name in REQUIRED_ON_CREATE if getattr(params, name) is None]
    if missing:
        raise MissingParams(missing)
    event_id = await writer(session, user, language).create(params)
    record = await Lookup(session, language).by_id(event_id)
    body = render(record, urls, user)
    return json_response(body, 201, {"Location": urls.rest(f"/events/{event_id}")})


async def _read(
    record: EventRecord,
    raw: RawParamsDep,
    language: str,
    user: User,
    session: SessionDep,
    urls: Urls,
) -> Response:
    params = parse(ReadParams, raw)
    check_readable(user, record, params.password)
    body = render(record, urls, user, json_ld=True, password=params.password)
    return json_response(body)


@router.get(
    "/{id:int}",
    summary="Read an event",
    **api_doc(query=ReadParams, response=Event, errors=(401, 403, 404)),
)
async def get_event(
    id: RecordId,
    raw: RawParamsDep,
    language: LanguageDep,
    user: CurrentUser,
    session: SessionDep,
    urls: UrlsDep,
) -> Response:
    """One event with its venue, organizers, terms and JSON-LD."""
    record = await Lookup(session, language).by_id(id)
    return await _read(record, raw, language, user, session, urls)


@router.get(
    "/by-slug/{slug}",
    summary="Read an event by slug",
    **api_doc(query=ReadParams, response=Event, errors=(401, 403, 404)),
)
async def get_event_by_slug(
    slug: RecordSlug,
    raw: RawParamsDep,
    language: LanguageDep,
    user: CurrentUser,
    session: SessionDep,
    urls: UrlsDep,
) -> Response:
    """One event, found by its slug."""
    record = await Lookup(session, language).by_slug(slug)
    return await _read(record, raw, language, user, session, urls)


async def _update(
    record: EventRecord,
    raw: RawParamsDep,
    language: str,
    user: Principal,
    session: SessionDep,
    urls: Urls,
) -> Response:
    require(user, may(user, "edit", record.author_id, record.status))
    params = parse(EventWriteParams, raw)
    await writer(session, user, language).update(record, params)
    updated = await Lookup(session, language).by_id(record.id)
    return json_response(render(updated, urls, user))


@update_route(
    router,
    "/{id:int}",
    summary="Update an event",
    **api_doc(body=EventWriteParams, response=Event, errors=(401, 403, 404, 413)),
)
async def update_event(
    id: RecordId,
    raw: RawParamsDep,
    language: LanguageDep,
    user: CurrentUser,
    session: SessionDep,
    urls: UrlsDep,
) -> Response:
    """Change the fields sent; the others stay as they are."""
    require(user, can_create_posts(user))
    assert user is not None
    lookup = Lookup(session, language)
    record = await lookup.for_writing(await lookup.by_id(id))
    return await _update(record, raw, language, user, session, urls)


@update_route(
    router,
    "/by-slug/{slug}",
    summary="Update an event by slug",
    **api_doc(body=EventWriteParams, response=Event, errors=(401, 403, 404, 413)),
)
async def update_event_by_slug(
    slug: RecordSlug,
    raw: RawParamsDep,
    language: LanguageDep,
    user: CurrentUser,
    session: SessionDep,
    urls: UrlsDep,
) -> Response:
    """Change the fields sent; a `slug` in the body renames the event."""
    require(user, can_create_posts(user))
    assert user is not None
    lookup = Lookup(session, language)
    record = await lookup.for_writing(await lookup.by_slug(slug))
    return await _update(record, raw, language, user, session, urls)


async def _delete(
    record: EventRecord,
    raw: RawParamsDep,
    language: str,
    user: Principal,
    session: SessionDep,
    urls: Urls,
) -> Response:
    require(user, may(user, "delete", record.author_id, record.status))
    params = parse(DeleteParams, raw)
    events = writer(session, user, language)
    if params.force:
        body = render(record, urls, user)
        await events.delete(record.id)
        return json_response(body)
    if record.status == "trash":
        raise ApiError(410, "event-is-in-trash")
    await events.trash(record.id)
    trashed = await Lookup(session, language).by_id(record.id)
    return json_response(render(trashed, urls, user))


@router.delete(
    "/{id:int}",
    summary="Delete an event",
    **api_doc(query=DeleteParams, response=Event, errors=(401, 403, 404, 410)),
)
async def delete_event(
    id: RecordId,
    raw: RawParamsDep,
    language: LanguageDep,
    user: CurrentUser,
    session: SessionDep,
    urls: UrlsDep,
) -> Response:
    """Move the event to the trash (again: 410); `force=true` deletes it permanently."""
    require(user, can_create_posts(user))
    assert user is not None
    lookup = Lookup(session, language)
    record = await lookup.for_writing(await lookup.by_id(id))
    return await _delete(record, raw, language, user, session, urls)


@router.delete(
    "/by-slug/{slug}",
    summary="Delete an event by slug",
    **api_doc(query=DeleteParams, response=Event, errors=(401, 403, 404, 410)),
)
async def delete_event_by_slug(
    slug: RecordSlug,
    raw: RawParamsDep,
    language: LanguageDep,
    user: CurrentUser,
    session: SessionDep,
    urls: UrlsDep,
) -> Response:
    """Move the event to the trash (again: 410); `force=true` deletes it permanently."""
    require(user, can_create_posts(user))
    assert user is not None
    lookup = Lookup(session, language)
    record = await lookup.for_writing(await lookup.by_slug(slug))
    return await _delete(record, raw, language, user, session, urls)
