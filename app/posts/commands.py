"""The typed inputs of the post services (events, venues, organizers): a read, a removal,
and the fields every write shares; a venue's or an organizer's write. Values are parsed:
datetimes, IDs, booleans; `None` is a field not sent. The API's doors
(app/posts/door.py, app/events/door.py) build them from a request's parameters, the desk
from its forms."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from app.core.web.refusals import NOTHING_REFUSED, Refusals, Refused

# An image to set: its ID, an http(s) URL to record, or NO_IMAGE to clear it (or, from a
# door, what it refused).
NO_IMAGE = 0
ImageRef = int | str | Refused


@dataclass(frozen=True)
class PostQuery:
    """Which venues or organizers a list shows (docs/design.md#records)."""

    search: str | None = None
    event: int | None = None  # linked to this event
    has_events: bool | None = None  # linked to a non-draft event (true), to none (false)
    only_with_upcoming: bool = False  # linked to an upcoming event the caller may see
    statuses: list[str] | None = None  # None: the caller's default
    password: str | None = None  # of protected records, to show them unredacted


@dataclass(frozen=True)
class ReadRequest:
    """A read of one record: the password of a protected one, if sent."""

    password: str | None = None
    refused: Refusals = NOTHING_REFUSED


@dataclass(frozen=True)
class Removal:
    """A DELETE: trash the record, or (`force`) delete it."""

    force: bool = False
    refused: Refusals = NOTHING_REFUSED


@dataclass(frozen=True)
class PostFields:
    """What a write of every post kind may set (docs/design.md#records)."""

    status: str | None = None
    author: int | None = None
    # The publication date: `date` read in the site's zone, or `date_utc`.
    published: datetime | Refused | None = None
    image: ImageRef | None = None
    slug: str | None = None
    password: str | None = None  # "" clears it

    def values(self) -> dict[str, object]:
        """The values a write's limits apply to, by parameter."""
        return {"status": self.status, "slug": self.slug, "password": self.password}


@dataclass(frozen=True)
class RecordWrite:
    """A create or update of a venue or an organizer: its name, texts, the fields every
    kind shares, and its own fields (`details`, by column: texts, booleans for flags, and a
    venue's coordinates: degrees, or None to clear them)."""

    name: str | None = None
    description: str | None = None
    excerpt: str | None = None
    post: PostFields = field(default_factory=PostFields)
    details: Mapping[str, str | bool | float | None] = field(default_factory=dict)
    refused: Refusals = NOTHING_REFUSED

    def values(self, name: str) -> dict[str, object]:
        """The values a write's limits apply to, by parameter (`name`: the kind's name)."""
        texts = {name: self.name, "description": self.description, "excerpt": self.excerpt}
        return {**texts, **self.details, **self.post.values()}


# The defaults: a read without a password, a removal to the trash.
PLAIN_READ = ReadRequest()
TO_TRASH = Removal()
