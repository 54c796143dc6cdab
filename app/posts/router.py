"""The routes every post kind has, as methods of one class: GET/POST on the collection, and
GET, DELETE and POST/PUT/PATCH (a true partial update) on `/{id}` and `/by-slug/{slug}`.
Each handler parses, calls the shared service (app.posts.service) and responds."""

from collections.abc import Callable
from typing import Any, Generic

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from app.core.caching.etags import etag_headers
from app.core.rules.paging import Page
from app.core.rules.permissions import POSTS
from app.core.web.responses import json_response
from app.http.context import ContextDep, RequestContext
from app.http.idempotency import idempotent
from app.http.openapi import api_doc
from app.http.pagination import PageDep, list_response
from app.http.params import Params
from app.http.routing import RecordId, RecordSlug, update_route
from app.posts.door import post_query, read_request, record_write, removal
from app.posts.kind import PostKind, R
from app.posts.listing import list_posts
from app.posts.params import DeleteParams, PostListParams, PostWriteParams, ReadParams
from app.posts.service import Key, PostService, Written


class PostRoutes(Generic[R]):
    """The routes of `kind`; the list only for kinds with `posts` (events have their own)."""

    # Documents a DELETE's query (events add their `scope`), and the list's (venues add a point).
    delete_params: type[Params] = DeleteParams
    list_params: type[Params] = PostListParams

    def __init__(self, kind: PostKind[R]) -> None:
        self.kind = kind
        self.router = APIRouter(prefix=f"/{kind.plural}", tags=[kind.plural])

    def service(self, ctx: RequestContext) -> PostService[R]:
        return PostService(self.kind, ctx)

    # ---- the door: the request's parameters as the service's typed inputs -------------

    def write_command(self, ctx: RequestContext) -> Any:
        """A venue's or an organizer's write (events: their own, EventRoutes)."""
        params = self.kind.write_params
        assert issubclass(params, PostWriteParams)
        return record_write(params, self.kind.name, ctx.raw, ctx.settings.site_zone)

    def removal(self, ctx: RequestContext) -> Any:
        return removal(ctx.raw)

    # ---- handlers -------------------------------------------------------------------

    async def list_records(self, page: PageDep, ctx: ContextDep, request: Request) -> Response:
        """The list (`request`: a kind's own list may need the app's services)."""
        assert self.kind.posts is not None  # registered only for kinds with posts
        query, echoed = post_query(ctx.raw, ctx.user)
        items, total = await list_posts(self.kind, self.kind.posts(ctx), ctx, query, page)
        return self.list_answer(ctx, page, items, total, echoed)

    def list_answer(
        self, ctx: RequestContext, page: Page, items: list[Any], total: int, echoed: Any
    ) -> Response:
        """A page of the list, its total and the links that keep its filters."""
        kind = self.kind
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

    async def create_record(self, request: Request, ctx: ContextDep) -> Response:
        return await idempotent(request, ctx, lambda: self._create(ctx))

    async def _create(self, ctx: RequestContext) -> Response:
        service = self.service(ctx)
        written = await service.create(self.write_command(ctx))
        record_id, body = written.record.id, service.bodies.one(written.record)
        location = ctx.urls.rest(f"/{self.kind.plural}/{record_id}")
        return json_response(body, 201, {"Location": location, **etag_headers(written.etag)})

    async def _read(self, ctx: RequestContext, key: Key) -> Response:
        service = self.service(ctx)
        record, password = await service.readable(key, read_request(ctx.raw))
        return json_response(service.bodies.one(record, json_ld=True, password=password))

    async def read_by_id(self, id: RecordId, ctx: ContextDep) -> Response:
        return await self._read(ctx, id)

    async def read_by_slug(self, slug: RecordSlug, ctx: ContextDep) -> Response:
        return await self._read(ctx, slug)

    @staticmethod
    def _written(service: PostService[R], written: Written[R]) -> Response:
        body = service.bodies.one(written.record)
        return json_response(body, 200, etag_headers(written.etag))

    async def _update(self, ctx: RequestContext, key: Key) -> Response:
        service = self.service(ctx)
        return self._written(service, await service.update(key, self.write_command(ctx)))

    async def _remove(self, ctx: RequestContext, key: Key) -> Response:
        service = self.service(ctx)
        return self._written(service, await service.remove(key, self.removal(ctx)))

    async def update_by_id(self, id: RecordId, ctx: ContextDep) -> Response:
        return await self._update(ctx, id)

    async def update_by_slug(self, slug: RecordSlug, ctx: ContextDep) -> Response:
        return await self._update(ctx, slug)

    async def delete_by_id(self, id: RecordId, ctx: ContextDep) -> Response:
        return await self._remove(ctx, id)

    async def delete_by_slug(self, slug: RecordSlug, ctx: ContextDep) -> Response:
        return await self._remove(ctx, slug)

    # ---- registration ---------------------------------------------------------------

    def register(self) -> APIRouter:
        """Add every route and return the router."""
        kind, add = self.kind, self.router.add_api_route
        if kind.posts is not None:
            listing = api_doc(
                query=self.list_params,
                response=kind.list_schema,
                errors=(401, 404),
                paging_headers=True,
            )
            add("", self.list_records, methods=["GET"], summary=f"List {kind.plural}", **listing)
        creating = api_doc(
            body=kind.write_params,
            required=kind.required,
            response=kind.schema,
            status=201,
            errors=(401, 403, 413),
            idempotent=True,
            needs=POSTS,
        )
        summary = f"Create {kind.label}"
        add("", self.create_record, methods=["POST"], status_code=201, summary=summary, **creating)
        by_id = (self.read_by_id, self.update_by_id, self.delete_by_id)
        self._register_record_routes("/{id:id}", "", *by_id)
        by_slug = (self.read_by_slug, self.update_by_slug, self.delete_by_slug)
        self._register_record_routes("/by-slug/{slug}", " by its slug", *by_slug)
        return self.router

    def _register_record_routes(
        self,
        path: str,
        by: str,
        read: Callable[..., Any],
        update: Callable[..., Any],
        delete: Callable[..., Any],
    ) -> None:
        kind, add = self.kind, self.router.add_api_route
        reading = api_doc(query=ReadParams, response=kind.schema, errors=(401, 403, 404))
        writing = api_doc(
            body=kind.write_params, response=kind.schema, errors=(401, 403, 404, 413), needs=POSTS
        )
        deleting = api_doc(
            query=self.delete_params,
            response=kind.schema,
            errors=(401, 403, 404, 410),
            needs=POSTS,
        )
        add(path, read, methods=["GET"], summary=f"Read {kind.label}{by}", **reading)
        update_route(self.router, path, summary=f"Update {kind.label}{by}", **writing)(update)
        summary = f"Trash {kind.label}{by} (force: delete it)"
        add(path, delete, methods=["DELETE"], summary=summary, **deleting)
