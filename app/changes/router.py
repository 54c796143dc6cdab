"""GET /changes: what changed since a token (see app/changes/repository.py for tokens)."""

from fastapi import APIRouter
from starlette.responses import Response

from app.changes.params import ChangesParams
from app.changes.schemas import Changes
from app.changes.service import ChangeFeed
from app.core.web.responses import json_response
from app.http.context import ContextDep
from app.http.openapi import api_doc
from app.http.params import parse

router = APIRouter(tags=["changes"])


@router.get(
    "/changes",
    summary="Changes since a token (sync)",
    **api_doc(query=ChangesParams, response=Changes, errors=(400, 401, 410)),
)
async def read_changes(ctx: ContextDep) -> Response:
    params = parse(ChangesParams, ctx.raw)
    return json_response(await ChangeFeed(ctx).read(params.since, params.per_page))
