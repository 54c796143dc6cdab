"""Bodies of the media routes: the doors render them (app/media/router.py), the service only
digests them into ETags."""

from datetime import UTC
from typing import Any

from app.core.rules.dates import format_datetime
from app.http.context import RequestContext
from app.media.repository import MediaRecord
from app.posts.images import sizes_body


def media_body(record: MediaRecord, ctx: RequestContext) -> dict[str, Any]:
    """An image of the library as `ctx` asks for it: the image object of events (`url`,
    `id`, `extension`, `width`, `height`, `filesize`, `sizes`), its texts in the request
    language, and who uploaded it when."""
    urls, zone = ctx.urls, ctx.settings.site_zone
    texts = record.texts_in(ctx.language, ctx.settings.default_language)
    return {
        "id": record.id,
        "date": format_datetime(record.created_at, zone),
        "date_utc": format_datetime(record.created_at, UTC),
        "modified": format_datetime(record.modified_at, zone),
        "modified_utc": format_datetime(record.modified_at, UTC),
        "author": str(record.author_id or 0),
        "title": texts.title,
        "alt_text": texts.alt_text,
        "caption": texts.caption,
        "media_type": "image",
        "mime_type": record.mime_type,
        "post": record.post_id or 0,
        "url": urls.media(record.file),
        "extension": record.extension,
        "width": record.width,
        "height": record.height,
        "filesize": record.filesize,
        "sizes": sizes_body(record.sizes, urls),
        "rest_url": urls.rest(f"/media/{record.id}"),
    }


def deletion_body(previous: MediaRecord, ctx: RequestContext) -> dict[str, Any]:
    return {"deleted": True, "previous": media_body(previous, ctx)}
