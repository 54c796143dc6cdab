"""Categories and tags: one router factory, since the two differ only in a few rules."""

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, BeforeValidator, Field, WithJsonSchema
from starlette.responses import Response

from app.core.errors import ApiError, MissingParams, NotFound, invalid
from app.core.permissions import TermAction, User, can_manage_terms, may, require
from app.core.responses import json_response
from app.core.settings import get_settings
from app.core.sql import lock_row
from app.events.repository import event_ownership
from app.http.context import ContextDep, RequestContext
from app.http.openapi import api_doc
from app.http.pagination import PageDep, PageParams, list_response
from app.http.params import (
    MAX_ID,
    NonEmptyStr,
    Params,
    PositiveInt,
    PositiveIntList,
    StringList,
    WPBool,
    check,
    decimal,
    lowercase,
    parse,
)
from app.http.routing import RecordId, update_route
from app.models import CATEGORY, TAG
from app.models import Term as TermRow
from app.terms.repository import (
    DuplicateName,
    DuplicateSlug,
    OrderBy,
    TermFilters,
    TermRecord,
    TermRepository,
)
from app.terms.schemas import CategoryList, TagList, Term
from app.terms.serializer import term_body


def _parent_id(value: Any) -> Any:
    """A parent reference: a non-negative integer (0 = none)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ID:
        return value
    number = decimal(value) if isinstance(value, str) else None
    if number is not None and 0 <= number <= MAX_ID:
        return number
    raise ValueError("not a term id")


ParentId = Annotated[
    int,
    BeforeValidator(_parent_id),
    WithJsonSchema({"type": "integer", "minimum": 0, "maximum": MAX_ID}),
]
Name = Annotated[NonEmptyStr, Field(max_length=200)]
Slug = Annotated[NonEmptyStr, Field(max_length=200)]


class TermListParams(PageParams):
    search: NonEmptyStr | None = Field(
        None, description="Limit to terms whose name or slug contains this text"
    )
    exclude: PositiveIntList | None = Field(None, description="Term IDs to leave out")
    include: PositiveIntList | None = Field(None, description="Limit to these term IDs")
    order: Annotated[Literal["asc", "desc"], BeforeValidator(lowercase)] | None = Field(
        None, description="Sort direction"
    )
    orderby: Annotated[OrderBy, BeforeValidator(lowercase)] | None = Field(
        None, description="Sort by this term attribute"
    )
    hide_empty: WPBool = Field(True, description="Hide terms assigned to no published event")
    post: PositiveInt | None = Field(None, description="Limit to terms of this event")
    event: PositiveInt | None = Field(None, description="Alias of post (wins over it)")
    slug: StringList | None = Field(None, description="Limit to terms with these slugs")


class CategoryListParams(TermListParams):
    parent: ParentId | None = Field(None, description="Limit to children of this category")


class TermWriteParams(Params):
    name: Name | None = Field(None, description="Term name")
    description: NonEmptyStr | None = Field(None, description="Term description")
    slug: Slug | None = Field(None, description="Term slug (made unique)")


class CategoryWriteParams(TermWriteParams):
    parent: ParentId | None = Field(None, description="Parent category ID (0 for none)")


class TagWriteParams(TermWriteParams):
    parent: Any = Field(None, description="Not allowed: tags are not hierarchical")


@dataclass(frozen=True)
class TermKind:
    taxonomy: str
    path: str  # route segment: categories / tags
    singular: str  # error codes: category / tag
    action: TermAction
    list_params: type[TermListParams]
    write_params: type[TermWriteParams]
    list_schema: type[BaseModel]


CATEGORIES = TermKind(
    CATEGORY,
    "categories",
    "category",
    "manage_categories",
    CategoryListParams,
    CategoryWriteParams,
    CategoryList,
)
TAGS = TermKind(TAG, "tags", "tag", "manage_tags", TermListParams, TagWriteParams, TagList)


def term_router(kind: TermKind) -> APIRouter:
    router = APIRouter(prefix=f"/{kind.path}", tags=[kind.path])

    def repository(ctx: RequestContext) -> TermRepository:
        default = get_settings().default_language
        return TermRepository(ctx.session, kind.taxonomy, ctx.language, default)

    async def load_for_writing(repo: TermRepository, term_id: int) -> TermRecord:
        """The term, locked for this transaction (concurrent writers go one at a time)."""
        if term_id <= MAX_ID:
            await lock_row(repo.session, TermRow, term_id)
        return await load(repo, term_id)

    async def load(repo: TermRepository, term_id: int) -> TermRecord:
        term = await repo.get(term_id) if term_id <= MAX_ID else None
        if term is None:
            raise NotFound(kind.singular, term_id)
        return term

    async def check_parent(repo: TermRepository, parent: int | None, term_id: int | None) -> None:
        if not parent:
            return
        check("parent", not await repo.missing_ids([parent]))
        if term_id is not None and await repo.is_ancestor(parent, term_id):
            raise ApiError(400, "rest_invalid_param", "term_parent_loop")

    def authorize(user: User) -> None:
        require(user, can_manage_terms(user, kind.action))

    def duplicate(exc: DuplicateName, parent: int | None) -> ApiError:
        key = "term_exists_parent" if kind.taxonomy == CATEGORY and parent else "term_exists"
        data = {"term_id": exc.term_id} if exc.term_id is not None else {}
        return ApiError(400, "term_exists", key, data=data)

    @router.get(
        "",
        summary=f"List {kind.path}",
        **api_doc(
            query=kind.list_params,
            response=kind.list_schema,
            errors=(401, 404),
            paging_headers=True,
        ),
    )
    async def list_terms(page: PageDep, ctx: ContextDep) -> Response:
        params = parse(kind.list_params, ctx.raw)
        repo = repository(ctx)
        for name in ("include", "exclude"):
            ids = getattr(params, name)
            if ids:
                check(name, not await repo.missing_ids(ids))
        parent = getattr(params, "parent", None)
        if parent:
            check("parent", not await repo.missing_ids([parent]))
        event = params.event or params.post
        if event is not None:
            name = "event" if params.event else "post"
            owner = await event_ownership(ctx.session, event)
            # An event the caller may not read is as unknown as a missing one.
            check(name, owner is not None and may(ctx.user, "read", owner.author_id, owner.status))
        filters = TermFilters(
            search=params.search,
            include=params.include,
            exclude=params.exclude,
            slugs=params.slug,
            parent=parent,
            event=event,
            hide_empty=params.hide_empty,
            orderby=params.orderby or "name",
            descending=params.order == "desc",
        )
        terms, total = await repo.find(filters, page)
        echoed = params.model_dump(
            exclude_none=True, exclude={"i18n_language", "page", "per_page"}, exclude_defaults=True
        )
        return list_response(
            urls=ctx.urls,
            path=f"/{kind.path}",
            key=kind.path,
            kind=kind.singular,
            items=[term_body(term, ctx.urls) for term in terms],
            total=total,
            page=page,
            filters=echoed,
            layout="terms",
        )

    @router.get(
        "/{id:int}",
        summary=f"Read one {kind.singular}",
        **api_doc(response=Term, errors=(401, 404)),
    )
    async def get_term(id: RecordId, ctx: ContextDep) -> Response:
        term = await load(repository(ctx), id)
        return json_response(term_body(term, ctx.urls, with_links=True))

    @router.post(
        "",
        status_code=201,
        summary=f"Create a {kind.singular}",
        **api_doc(
            body=kind.write_params,
            required=("name",),
            response=Term,
            status=201,
            errors=(401, 403, 413),
        ),
    )
    async def create_term(ctx: ContextDep) -> Response:
        authorize(ctx.user)
        params = parse(kind.write_params, ctx.raw)
        if params.name is None:
            raise MissingParams(["name"])
        parent = _parent_of(kind, params)
        repo = repository(ctx)
        await check_parent(repo, parent, None)
        try:
            term_id = await repo.create(
                name=params.name.strip(),
                description=params.description or "",
                slug=params.slug,
                parent_id=parent or None,
            )
        except DuplicateName as exc:
            raise duplicate(exc, parent) from None
        term = await load(repo, term_id)
        body = term_body(term, ctx.urls, with_links=True)
        return json_response(body, 201, {"Location": body["urls"]["self"]})

    @update_route(
        router,
        "/{id:int}",
        summary=f"Update a {kind.singular}",
        **api_doc(body=kind.write_params, response=Term, errors=(401, 403, 404, 413)),
    )
    async def update_term(id: RecordId, ctx: ContextDep) -> Response:
        authorize(ctx.user)
        repo = repository(ctx)
        term = await load_for_writing(repo, id)
        params = parse(kind.write_params, ctx.raw)
        parent = _parent_of(kind, params)
        await check_parent(repo, parent, term.id)
        changes: dict[str, Any] = params.model_dump(
            include={"name", "description", "slug"}, exclude_none=True
        )
        if "name" in changes:
            changes["name"] = changes["name"].strip()
        if parent is not None:
            changes["parent_id"] = parent or None
        try:
            await repo.update(term.id, changes)
        except DuplicateName as exc:
            raise duplicate(exc, parent if parent is not None else term.parent_id) from None
        except DuplicateSlug:
            raise invalid("slug") from None
        return json_response(term_body(await load(repo, term.id), ctx.urls, with_links=True))

    @router.delete(
        "/{id:int}",
        summary=f"Delete a {kind.singular} permanently",
        **api_doc(response=Term, errors=(401, 403, 404)),
    )
    async def delete_term(id: RecordId, ctx: ContextDep) -> Response:
        authorize(ctx.user)
        repo = repository(ctx)
        term = await load_for_writing(repo, id)
        try:
            await repo.delete(term)
        except DuplicateName as exc:
            data = {"term_id": exc.term_id} if exc.term_id is not None else {}
            raise ApiError(400, "term_exists", "term_exists_child", data=data) from None
        return json_response(term_body(term, ctx.urls))

    return router


def _parent_of(kind: TermKind, params: TermWriteParams) -> int | None:
    """The requested parent (0 = none), or None when not sent; tags refuse one."""
    parent = getattr(params, "parent", None)
    if kind.taxonomy == TAG:
        if parent is not None:
            raise ApiError(400, "rest_taxonomy_not_hierarchical")
        return None
    return parent


categories_router = term_router(CATEGORIES)
tags_router = term_router(TAGS)
