"""Categories and tags: the same routes for both kinds; handlers parse, call, respond."""

from fastapi import APIRouter
from starlette.requests import Request
from starlette.responses import Response

from app.core.caching.etags import etag_headers, etag_of
from app.core.rules.permissions import term_need
from app.core.web.responses import dumps, json_response
from app.http.context import ContextDep, RequestContext
from app.http.idempotency import idempotent
from app.http.openapi import api_doc
from app.http.pagination import PageDep, list_response
from app.http.routing import RecordId, update_route
from app.terms.door import term_query, term_write
from app.terms.schemas import Term
from app.terms.serializer import term_body
from app.terms.service import CATEGORIES, TAGS, TermKind, TermService


class TermRoutes:
    def __init__(self, kind: TermKind) -> None:
        self.kind = kind

    async def list_terms(self, page: PageDep, ctx: ContextDep) -> Response:
        query, echoed = term_query(self.kind, ctx.raw)
        terms, total = await TermService(self.kind, ctx).list(query, page)
        items = [term_body(term, ctx.urls) for term in terms]
        return list_response(
            urls=ctx.urls,
            path=f"/{self.kind.path}",
            key=self.kind.path,
            kind=self.kind.singular,
            items=items,
            total=total,
            page=page,
            filters=echoed,
            layout="terms",
        )

    async def get_term(self, id: RecordId, ctx: ContextDep) -> Response:
        term = await TermService(self.kind, ctx).get(id)
        return json_response(term_body(term, ctx.urls, with_links=True))

    async def create_term(self, request: Request, ctx: ContextDep) -> Response:
        return await idempotent(request, ctx, lambda: self._create(ctx))

    async def _create(self, ctx: RequestContext) -> Response:
        term = await TermService(self.kind, ctx).create(term_write(self.kind, ctx.raw))
        body = term_body(term, ctx.urls, with_links=True)
        headers = {"Location": body["urls"]["self"], "ETag": etag_of(dumps(body))}
        return json_response(body, 201, headers)

    async def update_term(self, id: RecordId, ctx: ContextDep) -> Response:
        term = await TermService(self.kind, ctx).update(id, term_write(self.kind, ctx.raw))
        body = term_body(term, ctx.urls, with_links=True)  # what a GET answers: its ETag too
        return json_response(body, 200, etag_headers(etag_of(dumps(body))))

    async def delete_term(self, id: RecordId, ctx: ContextDep) -> Response:
        term = await TermService(self.kind, ctx).delete(id)
        return json_response(term_body(term, ctx.urls), 200, etag_headers(None))

    def register(self) -> APIRouter:
        kind = self.kind
        router = APIRouter(prefix=f"/{kind.path}", tags=[kind.path])
        need = term_need(kind.action)  # what TermService requires of writes
        listing = api_doc(
            query=kind.list_params,
            response=kind.list_schema,
            errors=(401, 404),
            paging_headers=True,
        )
        creating = api_doc(
            body=kind.write_params,
            required=("name",),
            response=Term,
            status=201,
            errors=(401, 403, 413),
            idempotent=True,
            needs=need,
        )
        updating = api_doc(
            body=kind.write_params, response=Term, errors=(401, 403, 404, 413), needs=need
        )
        deleting = api_doc(response=Term, errors=(401, 403, 404), needs=need)
        reading = api_doc(response=Term, errors=(401, 404))
        add = router.add_api_route
        add("", self.list_terms, methods=["GET"], summary=f"List {kind.path}", **listing)
        summary = f"Create a {kind.singular}"
        add("", self.create_term, methods=["POST"], status_code=201, summary=summary, **creating)
        one = "/{id:id}"
        add(one, self.get_term, methods=["GET"], summary=f"Read one {kind.singular}", **reading)
        update_route(router, one, summary=f"Update a {kind.singular}", **updating)(self.update_term)
        summary = f"Delete a {kind.singular} permanently"
        add(one, self.delete_term, methods=["DELETE"], summary=summary, **deleting)
        return router


categories_router = TermRoutes(CATEGORIES).register()
tags_router = TermRoutes(TAGS).register()
