"""The API's door of the media service: a request's parameters into its typed inputs
(app/media/commands.py), what it cannot read kept for the service to refuse after its
checks of the caller (app/core/web/refusals.py)."""

from typing import Any

from app.http.params import parse_later
from app.http.raw_params import RawParams
from app.media.commands import MediaQuery, MediaWrite
from app.media.params import MediaDeleteParams, MediaListParams, MediaUploadParams, MediaWriteParams
from app.posts.commands import Removal


def media_query(raw: RawParams) -> tuple[MediaQuery, dict[str, Any]]:
    """(the query, the filters as the list's links echo them)."""
    params, refused = parse_later(MediaListParams, raw)
    query = MediaQuery(params.search, params.author, params.post, params.mime_type, refused)
    echoed = params.model_dump(
        exclude_none=True, exclude={"i18n_language", "page", "per_page"}, exclude_defaults=True
    )
    return query, echoed


def media_upload(raw: RawParams) -> MediaWrite:
    params, refused = parse_later(MediaUploadParams, raw)
    return MediaWrite(params.title, params.alt_text, params.caption, params.post, refused)


def media_update(raw: RawParams) -> MediaWrite:
    params, refused = parse_later(MediaWriteParams, raw)
    return MediaWrite(params.title, params.alt_text, params.caption, refused=refused)


def media_removal(raw: RawParams) -> Removal:
    params, refused = parse_later(MediaDeleteParams, raw)
    return Removal(params.force, refused)
