"""Parameters of the media routes."""

from typing import Annotated

from pydantic import Field

from app.http.coercion import NonEmptyStr, PositiveInt, StrOrEmpty, WPBool
from app.http.pagination import PageParams
from app.http.params import Params

MAX_TITLE = 200
MAX_TEXT = 2000


class MediaListParams(PageParams):
    search: Annotated[NonEmptyStr, Field(max_length=200)] | None = Field(
        None, description="Only images whose title (in any language) or file name contains this"
    )
    author: PositiveInt | None = Field(None, description="Only images uploaded by this user ID")


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
