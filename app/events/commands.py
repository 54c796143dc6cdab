"""The typed inputs of the event service: a write (create or update) and a removal, with
the dates of a series they change (docs/design.md#events, #recurring-events). Values are
parsed; `None` is a field not sent. The API's door (app/events/door.py) builds them from a
request's parameters, the desk from its editor's form."""

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta, tzinfo
from typing import Literal

from app.core.web.refusals import NOTHING_REFUSED, Refusals, Refused
from app.posts.commands import PostFields, RecordWrite

Scope = Literal["this", "following", "all"]
# A venue or an organizer an event links: its ID, or an inline record (created unless an
# identical one exists); from a door, also an item it refused.
LinkRef = int | RecordWrite | Refused
# A category or tag: its ID, or its slug or name (an unknown name makes a new term).
TermRef = int | str
# A cost as written: a text, a number, or a list of them (e.g. "Free", 10, ["5$", "10$"]).
CostValue = str | int | float | list[str | int | float]


@dataclass(frozen=True)
class EventWrite:
    """A create or update of an event. `start`/`end` are instants when aware, else wall
    times in the event's zone (the one sent, else its own, else the site's)."""

    title: str | None = None
    description: str | None = None
    excerpt: str | None = None
    start: datetime | None = None
    end: datetime | None = None
    timezone: str | None = None  # an IANA name or UTC±H[:MM]; "" is the default zone
    all_day: bool | None = None
    cost: CostValue | Refused | None = None  # "" clears it
    website: str | None = None  # "" clears it
    show_map: bool | None = None
    show_map_link: bool | None = None
    hide_from_listings: bool | None = None
    sticky: bool | None = None
    featured: bool | None = None
    categories: Sequence[TermRef] | Refused | None = None  # [] unlinks them all
    tags: Sequence[TermRef] | Refused | None = None
    venue: Sequence[LinkRef] | Refused | None = None  # [] unlinks it; one at most
    organizers: Sequence[LinkRef] | Refused | None = None  # [] unlinks them all
    recurrence: Sequence[str] | None = None  # RFC 5545 lines; [] makes a single event
    post: PostFields = field(default_factory=PostFields)
    # On a date of a series: which of its dates the write changes.
    scope: Scope | Refused | None = None
    # The parameter names the request sent, in order (None: those of the fields set).
    names: tuple[str, ...] | None = None
    refused: Refusals = NOTHING_REFUSED

    def sent(self) -> tuple[str, ...]:
        """The names of the parameters sent (the API's: `start_date`, `organizer`, ...)."""
        if self.names is not None:
            return self.names
        own = [_PARAMETER.get(name, name) for name in _FIELDS if getattr(self, name) is not None]
        common = [
            _PARAMETER.get(f.name, f.name)
            for f in fields(self.post)
            if getattr(self.post, f.name) is not None
        ]
        return (*own, *common, *(["scope"] if self.scope is not None else []))

    def values(self) -> dict[str, object]:
        """The values a write's limits apply to, by parameter (app/http/params.py,
        `refused_values`)."""
        return {
            "title": self.title,
            "description": self.description,
            "excerpt": self.excerpt,
            "timezone": self.timezone,
            "website": self.website,
            "recurrence": self.recurrence,
            **self.post.values(),
        }

    def shifted(self, by: timedelta, zone: tzinfo) -> "EventWrite":
        """The write with its dates moved by `by` as wall times in `zone` (an instant is
        first read in `zone`): a change sent for a later date of a series, moved onto the
        series' own start (Google Calendar's "all events")."""
        return replace(self, start=_shift(self.start, by, zone), end=_shift(self.end, by, zone))


_FIELDS = tuple(
    name
    for name in EventWrite.__dataclass_fields__
    if name not in ("post", "scope", "names", "refused")
)
# The API's parameter of a field whose name differs.
_PARAMETER = {
    "start": "start_date",
    "end": "end_date",
    "organizers": "organizer",
    "published": "date",
}


def _shift(moment: datetime | None, by: timedelta, zone: tzinfo) -> datetime | None:
    if moment is None:
        return None
    wall = moment if moment.tzinfo is None else moment.astimezone(zone).replace(tzinfo=None)
    return wall + by


@dataclass(frozen=True)
class EventRemoval:
    """A DELETE of an event, or of a date of a series (`scope`)."""

    force: bool = False
    scope: Scope | Refused | None = None
    refused: Refusals = NOTHING_REFUSED
