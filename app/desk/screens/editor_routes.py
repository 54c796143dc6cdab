"""The routes of a list-and-editor screen (venues, organizers, categories, tags), one
implementation for all: `<path>` (the list), `<path>/new` (GET the form, POST a create),
`<path>/<id>/edit` (GET the editor, POST a save) and `<path>/<id>/<removal>` (POST: trash or
delete). Each answers only a principal the screen is for (`allowed`), as the nav offers it;
the services still decide every action."""

from typing import Protocol

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.desk.context import DeskContext
from app.desk.screens.api_calls import DeskReader, DeskWriter


class EditorScreens(Protocol):
    @property
    def path(self) -> str: ...  # venues
    @property
    def removal(self) -> str: ...  # trash, delete
    def allowed(self, desk: DeskContext) -> bool: ...
    async def list_page(self, desk: DeskContext, request: Request) -> Response: ...
    async def new_page(self, desk: DeskContext) -> Response: ...
    async def create(self, desk: DeskContext) -> Response: ...
    async def edit_page(self, desk: DeskContext, record_id: int) -> Response: ...
    async def update(self, desk: DeskContext, record_id: int) -> Response: ...
    async def remove(self, desk: DeskContext, record_id: int) -> Response: ...


def editor_routes(screens: EditorScreens) -> APIRouter:
    router = APIRouter()

    async def list_page(request: Request, desk: DeskReader) -> Response:
        desk.require(screens.allowed(desk))
        return await screens.list_page(desk, request)

    async def new_page(desk: DeskReader) -> Response:
        desk.require(screens.allowed(desk))
        return await screens.new_page(desk)

    async def create(desk: DeskWriter) -> Response:
        desk.require(screens.allowed(desk))
        return await screens.create(desk)

    async def edit_page(record_id: int, desk: DeskReader) -> Response:
        desk.require(screens.allowed(desk))
        return await screens.edit_page(desk, record_id)

    async def update(record_id: int, desk: DeskWriter) -> Response:
        desk.require(screens.allowed(desk))
        return await screens.update(desk, record_id)

    async def remove(record_id: int, desk: DeskWriter) -> Response:
        desk.require(screens.allowed(desk))
        return await screens.remove(desk, record_id)

    path = f"/{screens.path}"
    one = path + "/{record_id:id}"
    add = router.add_api_route
    add(path, list_page, methods=["GET"], include_in_schema=False)
    add(f"{path}/new", new_page, methods=["GET"], include_in_schema=False)
    add(f"{path}/new", create, methods=["POST"], include_in_schema=False)
    add(f"{one}/edit", edit_page, methods=["GET"], include_in_schema=False)
    add(f"{one}/edit", update, methods=["POST"], include_in_schema=False)
    add(f"{one}/{screens.removal}", remove, methods=["POST"], include_in_schema=False)
    return router
