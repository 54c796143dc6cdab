from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Schema(BaseModel):
    model_config = ConfigDict(extra="allow")


class ErrorData(Schema):
    status: int = Field(description="HTTP status")
    params: dict[str, str] | list[str] | None = Field(
        None, description="Invalid parameters with a note each, or the missing ones"
    )
    details: dict[str, Any] | list[Any] | None = Field(None, description="Validation details")
    term_id: int | None = Field(None, description="The existing term (term_exists)")
    role: str | None = Field(None, description="The caller's role (403 rest_forbidden)")
    total: int | None = Field(None, description="Records in the list (404 of a page past the end)")
    total_pages: int | None = Field(
        None, description="Pages of the list (404 of a page past the end)"
    )


class ErrorEnvelope(Schema):
    """Every error: the reference's envelope, the message in the request language."""

    code: str = Field(description="Stable error code, e.g. rest_invalid_param")
    message: str = Field(description="Human-readable message in the request language")
    data: ErrorData


class ImageSource(Schema):
    url: str
    filesize: int


class ImageSize(Schema):
    """One size of an uploaded image (the reference's `ImageSize`)."""

    width: int
    height: int
    mime_type: str = Field(alias="mime-type")
    filesize: int
    url: str
    sources: dict[str, ImageSource] | None = Field(
        None, description="The same size in other formats, by MIME type (image/webp)"
    )


class Image(Schema):
    url: str
    id: int
    extension: str
    width: int | None = None
    height: int | None = None
    filesize: int | None = Field(None, description="Uploaded images: bytes of the full size")
    sizes: dict[str, ImageSize] | None = Field(
        None,
        description="Uploaded images: thumbnail, medium, medium_large, large (those smaller "
        "than the original) and full",
    )
    alt: str | None = Field(None, description="Uploaded images: alternative text")


ImageOrFalse = Image | Literal[False]


class DateDetails(Schema):
    """Zero-padded strings, as the reference sends them."""

    year: str
    month: str
    day: str
    hour: str
    minutes: str
    seconds: str


class ListLinks(Schema):
    rest_url: str = Field(description="This page, with its effective parameters")
    next_rest_url: str | None = Field(None, description="Present when a next page has rows")
    previous_rest_url: str | None = Field(None, description="Present on pages after the first")
    total: int = Field(description="Matching records across all pages")
    total_pages: int = Field(description="Pages at this per_page (0 when empty)")
