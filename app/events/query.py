"""What the event list is asked for, typed: `EventQuery` (the filters, as the list service
app/events/listing.py takes them from the API's door, app/events/wire.py, and from the
pages, the desk and the feeds alike), and what the service resolved of its window
(`ListWindow`). No parsing of request strings here (docs/design.md#event-list)."""

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from app.geo.distance import Near

# `distance` (nearest first) only with `near`.
OrderBy = Literal["start_date", "end_date", "title", "date", "modified", "id", "distance"]
# The date filters, by the names of the list's parameters (the start window first).
BOUNDS = ("start_date", "end_date", "starts_before", "starts_after", "ends_before", "ends_after")


@dataclass(frozen=True, slots=True)
class EventQuery:
    """The filters of one event list. Dates are aware instants; without `strict`, the list
    widens `start_date`/`end_date` (and the relative bounds) to whole days of the site's
    zone, with `strict` it uses them to the microsecond. Without any of `start_date`,
    `end_date` or the relative bounds the list takes its default window; `include` ignores
    every date. Collections are None when not asked for (an empty one asks for nothing)."""

    start_date: datetime | None = None
    end_date: datetime | None = None
    starts_before: datetime | None = None
    starts_after: datetime | None = None
    ends_before: datetime | None = None
    ends_after: datetime | None = None
    strict: bool = False
    include: tuple[int, ...] | None = None
    search: str | None = None  # words that must all occur (at most the first 32 count)
    categories: tuple[int | str, ...] | None = None  # IDs or slugs, children included
    tags: tuple[int | str, ...] | None = None
    venues: tuple[int, ...] | None = None
    organizers: tuple[int, ...] | None = None
    featured: bool | None = None
    # Whose venue has coordinates (True), has none or no venue (False); None: either.
    has_geo: bool | None = None
    # Only events whose venue is within the circle; each record then carries its distance.
    near: Near | None = None
    statuses: tuple[str, ...] | None = None  # None: what the caller sees by default
    post_parent: int | None = None  # children of an event, or the dates of a series
    first_of_series: bool = False  # only each series' first date in the window
    ticketed: bool | None = None  # with a ticket (True), without (False); None: either
    orderby: OrderBy = "start_date"
    descending: bool = False
    password: str | None = None  # of protected events, to read them unredacted

    def __post_init__(self) -> None:
        for name in BOUNDS:
            moment = getattr(self, name)
            if moment is not None and moment.tzinfo is None:
                raise ValueError(f"{name} must be an aware datetime")


@dataclass(frozen=True, slots=True)
class ListWindow:
    """The date bounds a list applied, as site wall times (naive), by parameter name: the
    asked ones widened to whole days unless strict, or the default window. Empty with
    `include`."""

    start_date: datetime | None = None
    end_date: datetime | None = None
    starts_before: datetime | None = None
    starts_after: datetime | None = None
    ends_before: datetime | None = None
    ends_after: datetime | None = None

    def items(self) -> list[tuple[str, datetime]]:
        """The bounds that are set, in `BOUNDS` order."""
        return [(name, value) for name in BOUNDS if (value := getattr(self, name)) is not None]
