"""Serving the files of the media library at `/media/<name>` (outside the namespace), for
set-ups without a web server in front that serves the directory itself.

Names carry the content hash, so a name's bytes never change: a year of caching, marked
immutable. Only names the server makes are served, each with the type of its extension,
and never as anything a browser would run (no HTML, no SVG; `nosniff` from the common
headers, and a sandboxing Content-Security-Policy should one be opened directly).
"""

import asyncio

from fastapi import Request
from starlette.responses import FileResponse, Response

from app.core.app_services import services_of
from app.core.errors import no_route
from app.media.storage import LocalStorage, MediaStorage

TYPES = {
    "jpg": "image/jpeg",
    "png": "image/png",
    "gif": "image/gif",
    "webp": "image/webp",
    "avif": "image/avif",
}
IMMUTABLE = "public, max-age=31536000, immutable"
SANDBOX = "default-src 'none'; sandbox"


def media_storage(request: Request) -> MediaStorage:
    """The settings' media directory, as the commands and the importer open it too."""
    return LocalStorage(services_of(request).settings.media_root)


def processing_slots(request: Request) -> asyncio.Semaphore:
    return services_of(request).media_slots


async def serve_media_file(name: str, request: Request) -> Response:
    path = media_storage(request).local_path(name)
    if path is None:
        raise no_route()
    return FileResponse(
        path,
        media_type=TYPES[name.rsplit(".", 1)[-1]],
        headers={"Cache-Control": IMMUTABLE, "Content-Security-Policy": SANDBOX},
    )
