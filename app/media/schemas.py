"""Bodies of the media routes, for the OpenAPI document only."""

from pydantic import Field

from app.http.schemas import ImageSize, ListLinks, Schema


class Media(Schema):
    """An image of the media library."""

    id: int
    date: str = Field(description="Upload time, site time, Y-m-d H:i:s")
    date_utc: str
    modified: str
    modified_utc: str
    author: str = Field(description="Uploader's user ID as a string")
    title: str = Field(description="In the request language (else the default one)")
    alt_text: str
    caption: str
    media_type: str = Field(description="Always image")
    mime_type: str
    post: int = Field(description="The record it was uploaded for, 0 for none")
    url: str = Field(description="The full size")
    extension: str
    width: int
    height: int
    filesize: int
    sizes: dict[str, ImageSize]
    rest_url: str


class MediaList(ListLinks):
    media: list[Media]
    total: int
    total_pages: int


class MediaDeleted(Schema):
    deleted: bool
    previous: Media
