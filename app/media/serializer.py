"""Bodies of the media routes."""

from datetime import UTC, tzinfo
from typing import Any

from app.core.rules.dates import format_datetime
from app.core.web.urls import Urls
from app.media.repository import MediaRecord
from app.posts.images import sizes_body


def in_language(texts: dict[str, str], language: str, default_language: str) -> str:
    """A text in `language`, else in the default language, else empty."""
    return texts.get(language) or texts.get(default_language) or ""


def media_body(
    record: MediaRecord, urls: Urls, zone: tzinfo, language: str, default_language: str
) -> dict[str, Any]:
    """An image of the library: the image object of events (`url`, `id`, `extension`,
    `width`, `height`, `filesize`, `sizes`), its texts in the request language, and who
    uploaded it when."""

    def text(texts: dict[str, str]) -> str:
        return in_language(texts, language, default_language)

    return {
        "id": record.id,
        "date": format_datetime(record.created_at, zone),
        "date_utc": format_datetime(record.created_at, UTC),
        "modified": format_datetime(record.modified_at, zone),
        "modified_utc": format_datetime(record.modified_at, UTC),
        "author": str(record.author_id or 0),
        "title": text(record.title),
        "alt_text": text(record.alt),
        "caption": text(record.caption),
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
