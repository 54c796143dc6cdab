"""The records events, venues and organizers share, as repositories return them."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol


class Protectable(Protocol):
    """What deciding access (and trashing) takes: every post kind's record has it (events
    included), and when it last changed (kept by an update that changes nothing)."""

    @property
    def id(self) -> int: ...
    @property
    def slug(self) -> str: ...
    @property
    def author_id(self) -> int | None: ...
    @property
    def status(self) -> str: ...
    @property
    def password(self) -> str | None: ...
    @property
    def modified_at(self) -> datetime: ...


@dataclass(frozen=True, slots=True)
class ImageRecord:
    """An image as records embed it. An upload has `file` (its name in the media storage)
    and `sizes`; an external image only its `url`. `alt` is in the request language."""

    id: int
    url: str | None
    extension: str
    width: int | None = None
    height: int | None = None
    file: str | None = None
    filesize: int | None = None
    sizes: dict[str, Any] | None = None
    alt: str | None = None


@dataclass
class PostCore:
    """The columns every post kind's record has (events, venues, organizers)."""

    id: int
    author_id: int | None
    status: str
    slug: str
    published_at: datetime
    modified_at: datetime
    password: str | None


@dataclass(slots=True)
class PostRecord(PostCore):
    """A venue or organizer; `name`, `description` and `excerpt` in the request language."""

    name: str
    description: str
    excerpt: str
    image: ImageRecord | None


@dataclass(frozen=True, slots=True)
class Ownership:
    """Who wrote a record and its status: enough to decide whether a caller may see it."""

    author_id: int | None
    status: str
