"""The records a The Events Calendar site answers with, as the importer reads them.

Each model takes a record as the source's REST API serialises it (lists and singles have the
same shape) and keeps only what comes over; anything malformed fails validation, and the
record is reported and skipped before any write. `digest()` is a fingerprint of what was
read: with the source's modification time it tells a changed record from an unchanged one.
"""

import hashlib
import html
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

# Statuses a record can be imported in; WordPress's others (`trash`, `auto-draft`,
# `inherit`) are not content to move.
Status = Literal["publish", "future", "draft", "pending", "private"]
WP_DATE = "%Y-%m-%d %H:%M:%S"


def _text(value: Any) -> Any:
    """A text field that the source may give as null or leave empty: ""."""
    return "" if value is None else value


def _entity_text(value: Any) -> Any:
    """Titles and names arrive HTML-encoded (`&#8211;`, `&amp;`): the text they mean."""
    return html.unescape(value).strip() if isinstance(value, str) else value


def _utc(value: Any) -> Any:
    """`Y-m-d H:i:s` in UTC (the `*_utc` fields) as an aware datetime; WordPress writes
    `0000-00-00 00:00:00` for a date never set, which becomes None."""
    if value in (None, "", "0000-00-00 00:00:00"):
        return None
    if isinstance(value, str):
        return datetime.strptime(value.strip(), WP_DATE).replace(tzinfo=UTC)
    raise ValueError("not a date")


Text = Annotated[str, BeforeValidator(_text)]
Title = Annotated[str, BeforeValidator(_entity_text), Field(min_length=1, max_length=500)]
UtcDate = Annotated[datetime | None, BeforeValidator(_utc)]


class SourceModel(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    def digest(self) -> str:
        return hashlib.sha256(self.model_dump_json().encode()).hexdigest()


class SourceRecord(SourceModel):
    """A record with its source ID."""

    id: int = Field(gt=0)


class SourceImage(SourceModel):
    url: str = Field(min_length=1, max_length=2048)
    extension: Text = ""
    width: int | None = None
    height: int | None = None


def _image(value: Any) -> Any:
    """`false` (none) or an image object."""
    return None if value in (False, None, [], "") else value


Image = Annotated[SourceImage | None, BeforeValidator(_image)]


class SourceTerm(SourceRecord):
    name: Title
    slug: str = Field(min_length=1, max_length=200)
    description: Text = ""
    parent: int = Field(0, ge=0)


class SourcePost(SourceRecord):
    """What events, venues and organizers share."""

    status: Status
    date_utc: UtcDate = None
    modified_utc: UtcDate = None
    slug: Text = ""
    description: Text = ""
    excerpt: Text = ""
    image: Image = None
    # Not in the reference's responses: WordPress's own listing gives it to editors.
    password: str | None = None

    @property
    def modified(self) -> datetime | None:
        return self.modified_utc or self.date_utc


class SourceVenue(SourcePost):
    venue: Title
    address: Text = ""
    city: Text = ""
    country: Text = ""
    province: Text = ""
    state: Text = ""
    zip: Text = ""
    phone: Text = ""
    website: Text = ""
    stateprovince: Text = ""
    geo_lat: float | None = None
    geo_lng: float | None = None
    show_map: bool = True  # the reference's default when the flag was never stored
    show_map_link: bool = True


class SourceOrganizer(SourcePost):
    organizer: Title
    phone: Text = ""
    website: Text = ""
    email: Text = ""


def _venue(value: Any) -> Any:
    """The reference writes `[]` for no venue (and a list when add-ons link several)."""
    if value in (None, [], False, ""):
        return None
    if isinstance(value, list) and len(value) == 1:
        return value[0]
    return value


class Redacted(SourceRecord):
    """A linked venue or organizer the source redacted (password-protected): its ID only."""


# Linked records as the event embeds them: whole, or only their ID when redacted.
LinkedVenue = Annotated[
    Annotated[SourceVenue | Redacted | None, Field(union_mode="left_to_right")],
    BeforeValidator(_venue),
]
LinkedOrganizer = Annotated[SourceOrganizer | Redacted, Field(union_mode="left_to_right")]


class SourceEvent(SourcePost):
    title: Title
    start_date: str = Field(min_length=10)
    end_date: str = Field(min_length=10)
    timezone: Text = ""
    all_day: bool = False
    cost: Text = ""
    cost_details: dict[str, Any] = Field(default_factory=dict)
    url: Text = ""
    website: Text = ""
    show_map: bool = False
    show_map_link: bool = False
    hide_from_listings: bool = False
    sticky: bool = False
    featured: bool = False
    categories: list[SourceTerm] = Field(default_factory=list)
    tags: list[SourceTerm] = Field(default_factory=list)
    venue: LinkedVenue = None
    organizer: list[LinkedOrganizer] = Field(default_factory=list)

    @property
    def own_website(self) -> str | None:
        """The event's own website: the reference answers with the permalink when none is
        stored, which is not a website to keep."""
        website = self.website.strip()
        return website if website and website != self.url.strip() else None

    def digest(self) -> str:
        """Linked records count by their IDs only: their own changes (or a term's count
        moving with other events) do not make the event changed."""
        data = self.model_dump(mode="json", exclude={"categories", "tags", "venue", "organizer"})
        data["links"] = [
            [term.id for term in self.categories],
            [term.id for term in self.tags],
            self.venue.id if self.venue else None,
            [organizer.id for organizer in self.organizer],
        ]
        return hashlib.sha256(repr(sorted(data.items())).encode()).hexdigest()


def is_redacted(kind: str, raw: dict[str, Any]) -> bool:
    """Is this a password-protected record as the reference shows it without its password?
    Its flags become null, and a venue's or organizer's name an empty list."""
    if kind == "event":
        return raw.get("show_map", False) is None or raw.get("featured", False) is None
    if kind in ("venue", "organizer"):
        return isinstance(raw.get(kind), list) or raw.get("show_map", False) is None
    return False
