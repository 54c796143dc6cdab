"""Routes of post-like records (venues, organizers): one factory, since the kinds differ only
in their fields.

Every kind gets: GET/POST on the collection, and GET, DELETE and POST/PUT/PATCH (a true
partial update) on `/{id}` and on `/by-slug/{slug}`. Writes check the caller before they
read any parameter (DESIGN §5), then the caller's right on that very record (on the by-slug
routes too), then the parameters.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Annotated, Any, ClassVar, Generic

from fastapi import APIRouter, Depends
from pydantic import AfterValidator, BaseModel, BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.responses import Response

from app.core.auth import CurrentUser
from app.core.database import SessionDep
from app.core.dates import parse_when
from app.core.errors import ApiError, MissingParams, NotFound, invalid
from app.core.permissions import (
    STATUSES,
    Principal,
    User,
    can_create_posts,
    can_see_all_statuses,
    may,
    poster,
    require,
    scale_status,
)
from app.core.responses import json_response
from app.core.settings import get_settings
from app.core.sql import lock_row
from app.core.urls import Urls, UrlsDep
from app.events.repository import event_ownership
from app.http.context import LanguageDep, RawParamsDep
from app.http.openapi import api_doc
from app.http.pagination import PageDep, PageParams, list_response
from app.http.params import (
    MAX_ID,
    STATUS_SCHEMA,
    WEBSITE_PATTERN,
    NonEmptyStr,
    Params,
    PositiveInt,
    RawParams,
    StatusNames,
    StrOrEmpty,
    WPBool,
    check,
    parse,
)
from app.http.routing import RecordId, RecordSlug, update_route
from app.models import User as UserRow
from app.posts.images import is_http_url, resolve_image
from app.posts.repository import TRASH, PostFilters, PostRepository, R, SlugTaken
from app.posts.serializer import is_hidden_from

# ---- parameter types -------------------------------------------------------------------


def _invalid() -> PydanticCustomError:
    return PydanticCustomError("invalid", "invalid")


def _status(value: Any) -> Any:
    if value not in STATUSES:
        raise _invalid()
    return value


def _statuses(values: list[str]) -> list[str]:
    for value in values:
        _status(value)
    return values


def _when(value: Any, zone: tzinfo) -> datetime:
    try:
        return parse_when(value, zone)
    except (ValueError, OverflowError):
        raise _invalid() from None


def _site_date(value: Any) -> Any:
    return _when(value, get_settings().site_zone)


def _utc_date(value: Any) -> Any:
    return _when(value, UTC)


def _url_or_empty(value: Any) -> Any:
    if isinstance(value, str) and (not value.strip() or is_http_url(value.strip())):
        return value.strip()
    if value is None:
        return ""
    raise _invalid()


def _none_is_false(value: Any) -> Any:
    return False if value is None else value


Status = Annotated[str, BeforeValidator(_status), WithJsonSchema(STATUS_SCHEMA)]
StatusList = Annotated[StatusNames, AfterValidator(_statuses)]
SiteDate = Annotated[datetime, BeforeValidator(_site_date)]
UtcDate = Annotated[datetime, BeforeValidator(_utc_date)]
Name = Annotated[NonEmptyStr, Field(max_length=500)]
Slug = Annotated[NonEmptyStr, Field(max_length=200)]
Website = Annotated[
    str,
    BeforeValidator(_url_or_empty),
    Field(max_length=2048, json_schema_extra={"pattern": WEBSITE_PATTERN}),
]
Flag = Annotated[WPBool, BeforeValidator(_none_is_false)]
Phone = Annotated[StrOrEmpty, Field(max_length=100)]
Region = Annotated[StrOrEmpty, Field(max_length=200)]  # city, country, province, state
Address = Annotated[StrOrEmpty, Field(max_length=1000)]
Zip = Annotated[StrOrEmpty, Field(max_length=50)]
Email = Annotated[StrOrEmpty, Field(max_length=320)]
Password = Annotated[StrOrEmpty, Field(max_length=255)]


class ReadParams(Params):
    password: str | None = Field(
        None, description="Password of a protected record: shows it unredacted"
    )


class PostListParams(ReadParams, PageParams):
    search: Annotated[NonEmptyStr, Field(max_length=500)] | None = Field(
        None, description="Every word in one of the name, description, excerpt or details"
    )
    event: PositiveInt | None = Field(None, description="Only those linked to this event ID")
    has_events: WPBool | None = Field(
        None, description="true: linked to a non-draft event; false: linked to none"
    )
    only_with_upcoming: WPBool = Field(
        False, description="Only those linked to an upcoming event the caller may see"
    )
    status: StatusList | None = Field(None, description="Statuses to list")


class DeleteParams(Params):
    force: WPBool = Field(False, description="Delete permanently instead of trashing")


class PostWriteParams(Params):
    """What every post-like record accepts; a kind adds its name field and its details."""

    NAME: ClassVar[str]  # the name field: venue / organizer

    description: StrOrEmpty = Field("", description="Description (HTML)")
    excerpt: StrOrEmpty = Field("", description="Excerpt (HTML)")
    status: Status | None = Field(None, description="publish, future, draft, pending, private or trash")  # fmt: skip
    author: PositiveInt | None = Field(None, description="Author user ID (editors: anybody)")
    date: SiteDate | None = Field(None, description="Publication date (site time zone)")
    date_utc: UtcDate | None = Field(None, description="Publication date in UTC (wins over date)")
    image: Any = Field(None, description="Image ID or http(s) URL; empty clears")
    password: Password = Field("", description="Password protecting the record; empty clears")
    slug: Slug | None = Field(None, description="Slug (made unique); renames on update")


COMMON_FIELDS = frozenset(PostWriteParams.model_fields)
TEXTS = ("description", "excerpt")


@dataclass(frozen=True)
class PostKind(Generic[R]):
    name: str  # venue: error codes and the response's name key
    plural: str  # venues: the route segment and the list key
    repository: type[PostRepository[R]]
    write_params: type[PostWriteParams]
    body: Callable[..., dict[str, Any]]  # (record, urls, *, json_ld, redact)
    schema: type[BaseModel]  # documents `body` in OpenAPI
    list_schema: type[BaseModel]


@dataclass(frozen=True)
class Context(Generic[R]):
    user: User
    raw: RawParams
    session: AsyncSession
    urls: Urls
    repo: PostRepository[R]


async def _user_exists(session: AsyncSession, user_id: int) -> bool:
    return await session.scalar(select(UserRow.id).where(UserRow.id == user_id)) is not None


async def common_columns(
    params: PostWriteParams, user: Principal, session: AsyncSession, *, creating: bool
) -> dict[str, Any]:
    """The columns every kind shares, from what was sent (everything on create)."""
    sent = params.model_fields_set
    columns: dict[str, Any] = {}
    if creating or params.status is not None:
        columns["status"] = scale_status(user, params.status)
    if params.author is not None:
        check("author", await _user_exists(session, params.author))
        # Giving a record to somebody else is editing others' records: editors and up.
        require(user, params.author == user.id or can_see_all_statuses(user))
        columns["author_id"] = params.author
    elif creating:
        columns["author_id"] = user.id
    published = params.date_utc or params.date
    if published is not None:
        columns["published_at"] = published
    if "image" in sent:
        columns["image_id"] = await resolve_image(session, params.image)
    if "password" in sent:
        columns["password"] = params.password or None
    return columns


def sent_fields(params: PostWriteParams) -> tuple[dict[str, Any], dict[str, str]]:
    """(the kind's own columns, the texts) among what was sent."""
    sent = params.model_dump(exclude_unset=True)
    texts = {text: sent[text] for text in TEXTS if text in sent}
    if params.NAME in sent:
        texts["name"] = sent[params.NAME].strip()
    own = {k: v for k, v in sent.items() if k not in COMMON_FIELDS and k != params.NAME}
    return own, texts


async def insert_record(
    kind: PostKind[R], repo: PostRepository[R], user: Principal, raw: RawParams
) -> int:
    """Validate `raw` as a create payload of `kind` and insert the record; its ID.

    What POST on the collection does once the caller may create records; inline venues
    and organizers of an event payload can be created the same way.
    """
    params = parse(kind.write_params, raw)
    if kind.name not in params.model_fields_set:
        raise MissingParams([kind.name])
    columns = await common_columns(params, user, repo.session, creating=True)
    own, texts = sent_fields(params)
    return await repo.create({**columns, **own}, texts, slug=params.slug or texts["name"])


def post_router(kind: PostKind[R]) -> APIRouter:
    router = APIRouter(prefix=f"/{kind.plural}", tags=[kind.plural])

    async def context(
        raw: RawParamsDep,
        language: LanguageDep,
        user: CurrentUser,
        session: SessionDep,
        urls: UrlsDep,
    ) -> Context[R]:
        repo = kind.repository(session, language, get_settings().default_language)
        return Context(user=user, raw=raw, session=session, urls=urls, repo=repo)

    async def by_id(ctx: Context[R], record_id: int) -> R:
        record = await ctx.repo.get(record_id) if record_id <= MAX_ID else None
        if record is None:
            raise NotFound(kind.name, record_id)
        return record

    async def by_slug(ctx: Context[R], slug: str) -> R:
        record = await ctx.repo.get_by_slug(slug) if "\x00" not in slug else None
        if record is None:
            key = f"{kind.name}_slug_not_found"
            raise ApiError(404, f"rest-{kind.name}-not-found", key, values={"slug": slug})
        return record

    # ---- what the by-ID and by-slug routes do alike -----------------------------------

    async def read(ctx: Context[R], record: R) -> Response:
        if not may(ctx.user, "read", record.author_id, record.status):
            raise ApiError(403, f"{kind.name}-not-accessible")
        password = parse(ReadParams, ctx.raw).password
        redact = is_hidden_from(record, ctx.user, password)
        return json_response(kind.body(record, ctx.urls, json_ld=True, redact=redact))

    async def change(ctx: Context[R], user: Principal, record: R) -> Response:
        require(user, may(user, "edit", record.author_id, record.status))
        params = parse(kind.write_params, ctx.raw)
        columns = await common_columns(params, user, ctx.session, creating=False)
        own, texts = sent_fields(params)
        try:
            await ctx.repo.update(record.id, {**columns, **own}, texts, slug=params.slug)
        except SlugTaken:
            raise invalid("slug") from None
        return json_response(kind.body(await by_id(ctx, record.id), ctx.urls))

    async def for_writing(ctx: Context[R], record: R) -> R:
        """The record, locked and read again (see lock_row)."""
        if not await lock_row(ctx.session, kind.repository.model, record.id):
            raise NotFound(kind.name, record.id)
        return await by_id(ctx, record.id)

    async def remove(ctx: Context[R], user: Principal, record: R) -> Response:
        require(user, may(user, "delete", record.author_id, record.status))
        if parse(DeleteParams, ctx.raw).force:
            body = kind.body(record, ctx.urls)
            await ctx.repo.delete(record.id)
            return json_response(body)
        if record.status == TRASH:
            raise ApiError(410, f"{kind.name}-is-in-trash")
        await ctx.repo.trash(record.id)
        return json_response(kind.body(await by_id(ctx, record.id), ctx.urls))

    # ---- routes ---------------------------------------------------------------------

    @router.get(
        "",
        summary=f"List {kind.plural}",
        **api_doc(
            query=PostListParams, response=kind.list_schema, errors=(401, 404), paging_headers=True
        ),
    )
    async def list_records(page: PageDep, ctx: Annotated[Context[R], Depends(context)]) -> Response:
        params = parse(PostListParams, ctx.raw)
        if params.status is not None:
            # Who cannot create records may only ask for published ones (reference §5.5).
            check("status", can_create_posts(ctx.user) or params.status == ["publish"])
        if params.event is not None:
            owner = await event_ownership(ctx.session, params.event)
            # An event the caller may not read is as unknown as a missing one.
            visible = owner is not None and may(ctx.user, "read", owner.author_id, owner.status)
            check("event", visible)
        filters = PostFilters(
            search=params.search,
            event=params.event,
            has_events=params.has_events,
            only_with_upcoming=params.only_with_upcoming,
            statuses=params.status,
        )
        records, total = await ctx.repo.find(filters, ctx.user, page)
        items = [
            kind.body(record, ctx.urls, redact=is_hidden_from(record, ctx.user, params.password))
            for record in records
        ]
        echoed = params.model_dump(
            exclude_none=True,
            exclude_defaults=True,
            exclude={"i18n_language", "password", "page", "per_page"},
        )
        return list_response(
            urls=ctx.urls,
            path=f"/{kind.plural}",
            key=kind.plural,
            kind=kind.name,
            items=items,
            total=total,
            page=page,
            filters=echoed,
        )

    @router.post(
        "",
        status_code=201,
        summary=f"Create a {kind.name}",
        **api_doc(
            body=kind.write_params,
            required=(kind.name,),
            response=kind.schema,
            status=201,
            errors=(401, 403, 413),
        ),
    )
    async def create_record(ctx: Annotated[Context[R], Depends(context)]) -> Response:
        user = poster(ctx.user)
        record_id = await insert_record(kind, ctx.repo, user, ctx.raw)
        body = kind.body(await by_id(ctx, record_id), ctx.urls)
        location = ctx.urls.rest(f"/{kind.plural}/{record_id}")
        return json_response(body, 201, {"Location": location})

    @router.get(
        "/{id:int}",
        summary=f"Read a {kind.name}",
        **api_doc(query=ReadParams, response=kind.schema, errors=(401, 403, 404)),
    )
    async def read_by_id(id: RecordId, ctx: Annotated[Context[R], Depends(context)]) -> Response:
        return await read(ctx, await by_id(ctx, id))

    @router.get(
        "/by-slug/{slug}",
        summary=f"Read a {kind.name} by its slug",
        **api_doc(query=ReadParams, response=kind.schema, errors=(401, 403, 404)),
    )
    async def read_by_slug(
        slug: RecordSlug, ctx: Annotated[Context[R], Depends(context)]
    ) -> Response:
        return await read(ctx, await by_slug(ctx, slug))

    @router.delete(
        "/{id:int}",
        summary=f"Trash a {kind.name} (force: delete it)",
        **api_doc(query=DeleteParams, response=kind.schema, errors=(401, 403, 404, 410)),
    )
    async def delete_by_id(id: RecordId, ctx: Annotated[Context[R], Depends(context)]) -> Response:
        user = poster(ctx.user)
        return await remove(ctx, user, await for_writing(ctx, await by_id(ctx, id)))

    @router.delete(
        "/by-slug/{slug}",
        summary=f"Trash a {kind.name} by its slug",
        **api_doc(query=DeleteParams, response=kind.schema, errors=(401, 403, 404, 410)),
    )
    async def delete_by_slug(
        slug: RecordSlug, ctx: Annotated[Context[R], Depends(context)]
    ) -> Response:
        user = poster(ctx.user)
        return await remove(ctx, user, await for_writing(ctx, await by_slug(ctx, slug)))

    @update_route(
        router,
        "/{id:int}",
        summary=f"Update a {kind.name}",
        **api_doc(body=kind.write_params, response=kind.schema, errors=(401, 403, 404, 413)),
    )
    async def update_by_id(id: RecordId, ctx: Annotated[Context[R], Depends(context)]) -> Response:
        user = poster(ctx.user)
        return await change(ctx, user, await for_writing(ctx, await by_id(ctx, id)))

    @update_route(
        router,
        "/by-slug/{slug}",
        summary=f"Update a {kind.name} by its slug",
        **api_doc(body=kind.write_params, response=kind.schema, errors=(401, 403, 404, 413)),
    )
    async def update_by_slug(
        slug: RecordSlug, ctx: Annotated[Context[R], Depends(context)]
    ) -> Response:
        user = poster(ctx.user)
        return await change(ctx, user, await for_writing(ctx, await by_slug(ctx, slug)))

    return router
