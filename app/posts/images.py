"""Images of events, venues and organizers (docs/design.md#images).

`image` in a write accepts an image ID (a row of `images`: an upload of the media library,
app/media/, or a recorded URL) or an http(s) URL. A URL is recorded as it is, never
fetched: nothing the service does may make it request a client-supplied address. The same
URL always maps to the same row.
"""

import posixpath
from typing import Any, Literal, Protocol
from urllib.parse import unquote, urlsplit

from app.core.errors import invalid, note
from app.core.rules.constants import MAX_ID
from app.core.web.refusals import Refused
from app.core.web.urls import Urls
from app.posts.commands import NO_IMAGE, ImageRef
from app.posts.repository import ImageRepository

MAX_URL_LENGTH = 2048
EXTENSION_LENGTH = 20
CLEARING_VALUES = (None, False, "", 0, "0")

BAD_IMAGE = note("bad_image")


class ImageLike(Protocol):
    @property
    def id(self) -> int: ...
    @property
    def url(self) -> str | None: ...
    @property
    def extension(self) -> str: ...
    @property
    def width(self) -> int | None: ...
    @property
    def height(self) -> int | None: ...
    @property
    def file(self) -> str | None: ...
    @property
    def filesize(self) -> int | None: ...
    @property
    def sizes(self) -> dict[str, Any] | None: ...
    @property
    def alt(self) -> str | None: ...


def with_urls(entry: dict[str, Any], urls: Urls) -> dict[str, Any]:
    """A stored size (or source) with its `file` replaced by the file's public `url`, as
    WordPress does with an attachment's metadata."""
    shown = {key: value for key, value in entry.items() if key not in ("file", "sources")}
    shown["url"] = urls.media(entry["file"])
    if entry.get("sources"):
        shown["sources"] = {
            mime: with_urls(source, urls) for mime, source in entry["sources"].items()
        }
    return shown


# The order sizes are shown in (JSONB keeps keys in an order of its own), smallest first.
SIZE_ORDER = ("thumbnail", "medium", "medium_large", "large", "full")


def size_rank(name: str) -> tuple[int, str]:
    """Where a stored size goes among the sizes: smallest first, unknown names last."""
    return (SIZE_ORDER.index(name) if name in SIZE_ORDER else len(SIZE_ORDER), name)


def sizes_body(sizes: dict[str, Any], urls: Urls) -> dict[str, Any]:
    """Stored sizes as bodies show them, smallest first."""
    return {name: with_urls(sizes[name], urls) for name in sorted(sizes, key=size_rank)}


def image_body(row: ImageLike | None, urls: Urls) -> Literal[False] | dict[str, Any]:
    """The reference's `image`: false, or `{url, id, extension}` plus known dimensions;
    an upload adds `filesize`, `sizes` (each `{width, height, mime-type, filesize, url}`,
    and its WebP variant under `sources`) and `alt`."""
    if row is None:
        return False
    url = urls.media(row.file) if row.file else row.url or ""
    body: dict[str, Any] = {"url": url, "id": row.id, "extension": row.extension}
    if row.width:
        body["width"] = row.width
    if row.height:
        body["height"] = row.height
    if row.file:
        body["filesize"] = row.filesize
        body["sizes"] = sizes_body(row.sizes or {}, urls)
        body["alt"] = row.alt or ""
    return body


def url_extension(url: str) -> str:
    """`jpg` for `https://x.test/a/photo.JPG?size=2`; empty when the path has none."""
    name = posixpath.basename(unquote(urlsplit(url).path))
    _, dot, extension = name.rpartition(".")
    extension = extension.lower()
    if not dot or not extension.isascii() or not extension.isalnum():
        return ""
    return extension[:EXTENSION_LENGTH]


def is_http_url(value: str) -> bool:
    """An absolute http(s) URL with a host and no whitespace."""
    if len(value) > MAX_URL_LENGTH or any(c.isspace() for c in value):
        return False
    try:
        parts = urlsplit(value)
        host = parts.hostname
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(host)


async def resolve_image(images: ImageRepository, image: ImageRef) -> int | None:
    """The image ID a write's image names (None: NO_IMAGE clears it), or 400 naming `image`.
    An ID must exist; a URL is recorded (or its existing row reused) without any request."""
    if isinstance(image, Refused):
        raise invalid("image", image.note)
    if isinstance(image, str):
        return await images.record_url(image, url_extension(image))
    if image == NO_IMAGE:
        return None
    if 0 < image <= MAX_ID and await images.exists(image):
        return image
    raise invalid("image", BAD_IMAGE)
