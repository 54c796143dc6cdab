"""Parameters of the media routes."""

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from app.http.coercion import (
    NonEmptyStr,
    PositiveInt,
    StrOrEmpty,
    WPBool,
    list_schema,
    string_list,
)
from app.http.pagination import PageParams
from app.http.params import Params

MIME_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp", "image/avif")
MAX_TITLE = 200


def _mime_types(value: Any) -> Any:
    items = [item.strip().lower() for item in string_list(value)]
    if not all(item in MIME_TYPES for item in items):
        raise PydanticCustomError("not_one_of", "not a type", {"choices": ", ".join(MIME_TYPES)})
    return items


MimeTypes = Annotated[
    list[str],
    BeforeValidator(_mime_types),
    WithJsonSchema(
        list_schema({"type": "string", "enum": list(MIME_TYPES)}, f"({'|'.join(MIME_TYPES)})")
    ),
]
MAX_TEXT = 2000


class MediaListParams(PageParams):
    search: Annotated[NonEmptyStr, Field(max_length=200)] | None = Field(
        None, description="Only images whose title (in any language) or file name contains this"
    )
    author: PositiveInt | None = Field(None, description="Only images uploaded by this user ID")
    post: PositiveInt | None = Field(
        None, description="Only images uploaded for this event, venue or organizer ID"
    )
    mime_type: MimeTypes | None = Field(
        None, description="Only images of these types (image/jpeg, image/png, ...)"
    )


class MediaWriteParams(Params):
    """The texts of an image, in the request's language (`i18n_language`)."""

    title: Annotated[StrOrEmpty, Field(max_length=MAX_TITLE)] | None = Field(
        None, description="Title (default: the uploaded file's name)"
    )
    alt_text: Annotated[StrOrEmpty, Field(max_length=MAX_TEXT)] | None = Field(
        None, description="Alternative text, read out in place of the image"
    )
    caption: Annotated[StrOrEmpty, Field(max_length=MAX_TEXT)] | None = Field(
        None, description="Caption"
    )


class MediaUploadParams(MediaWriteParams):
    post: PositiveInt | None = Field(
        None,
        description="The event, venue or organizer the image is uploaded for (contributors: "
        "a draft of their own, required)",
    )


class MediaDeleteParams(Params):
    force: WPBool = Field(
        False, description="Delete even while events, venues or organizers show the image"
    )
