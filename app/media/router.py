"""The media routes: `GET|POST /media`, `GET|POST|PUT|PATCH|DELETE /media/{id}`. Handlers
parse, call the service (app/media/service.py), which answers records, and render the
bodies (app/media/serializer.py)."""

from typing import Any

from fastapi import APIRouter, Request
from starlette.background import BackgroundTask
from starlette.responses import Response

from app.core.caching.etags import etag_headers
from app.core.rules.permissions import POSTS
from app.core.web.responses import json_response
from app.http.context import ContextDep
from app.http.openapi import api_doc
from app.http.pagination import PageDep, list_response
from app.http.routing import RecordId, update_route
from app.media.door import media_query, media_removal, media_update, media_upload
from app.media.files import media_storage, processing_slots
from app.media.incoming import IncomingFile, incoming_file
from app.media.params import MediaDeleteParams, MediaListParams, MediaUploadParams, MediaWriteParams
from app.media.schemas import Media, MediaDeleted, MediaList
from app.media.serializer import deletion_body, media_body
from app.media.service import MediaService


async def list_media(page: PageDep, ctx: ContextDep, request: Request) -> Response:
    query, echoed = media_query(ctx.raw)
    records, total = await MediaService(ctx, media_storage(request)).find(query, page)
    return list_response(
        urls=ctx.urls,
        path="/media",
        key="media",
        kind="media",
        items=[media_body(record, ctx) for record in records],
        total=total,
        page=page,
        filters=echoed,
    )


async def upload_media(ctx: ContextDep, request: Request) -> Response:
    async def incoming() -> IncomingFile:
        return await incoming_file(request, ctx.settings.max_upload_bytes)

    service = MediaService(ctx, media_storage(request), processing_slots(request))
    written = await service.upload(media_upload(ctx.raw), incoming)
    location = ctx.urls.rest(f"/media/{written.record.id}")
    headers = {"Location": location, **etag_headers(written.etag)}
    return json_response(media_body(written.record, ctx), 201, headers)


async def get_media(id: RecordId, ctx: ContextDep, request: Request) -> Response:
    record = await MediaService(ctx, media_storage(request)).get(id)
    return json_response(media_body(record, ctx))


async def update_media(id: RecordId, ctx: ContextDep, request: Request) -> Response:
    written = await MediaService(ctx, media_storage(request)).update(id, media_update(ctx.raw))
    return json_response(media_body(written.record, ctx), 200, etag_headers(written.etag))


async def delete_media(id: RecordId, ctx: ContextDep, request: Request) -> Response:
    service = MediaService(ctx, media_storage(request))
    deleted = await service.delete(id, media_removal(ctx.raw))
    response = json_response(deletion_body(deleted.previous, ctx))
    # After the response, hence after the commit (docs/architecture.md, One request).
    response.background = BackgroundTask(service.remove_files, deleted.orphans)
    return response


def _upload_doc() -> dict[str, Any]:
    """The upload's two bodies: a multipart form with the file, or the raw file."""
    doc = api_doc(
        query=MediaUploadParams, response=Media, status=201, errors=(401, 403, 413), needs=POSTS
    )
    fields = doc["openapi_extra"]["parameters"]
    properties: dict[str, Any] = {
        "file": {"type": "string", "format": "binary", "description": "The image"}
    }
    properties.update({p["name"]: p["schema"] for p in fields if p["name"] != "i18n_language"})
    doc["openapi_extra"]["requestBody"] = {
        "required": True,
        "description": "JPEG, PNG, GIF, WebP or AVIF, told by its bytes whatever the declared "
        "type: a multipart form, or the raw file (any Content-Type, e.g. image/jpeg) with "
        "`Content-Disposition: attachment; filename=...`.",
        "content": {
            "multipart/form-data": {
                "schema": {"type": "object", "properties": properties, "required": ["file"]}
            },
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        },
    }
    return doc


router = APIRouter(prefix="/media", tags=["media"])
add = router.add_api_route
listing = api_doc(
    query=MediaListParams,
    response=MediaList,
    errors=(401, 403, 404),
    paging_headers=True,
    needs=POSTS,
)
add("", list_media, methods=["GET"], summary="List the media library", **listing)
add("", upload_media, methods=["POST"], status_code=201, summary="Upload an image", **_upload_doc())
one = "/{id:id}"
reading = api_doc(response=Media, errors=(401, 403, 404), needs=POSTS)
add(one, get_media, methods=["GET"], summary="Read one image of the library", **reading)
writing = api_doc(
    body=MediaWriteParams, response=Media, errors=(401, 403, 404, 412, 413), needs=POSTS
)
update_route(router, one, summary="Change an image's title, alt text or caption", **writing)(
    update_media
)
deleting = api_doc(
    query=MediaDeleteParams,
    response=MediaDeleted,
    errors=(401, 403, 404, 409, 412),
    needs=POSTS,
)
add(one, delete_media, methods=["DELETE"], summary="Delete an image and its files", **deleting)
