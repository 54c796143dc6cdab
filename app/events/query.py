"""What the event list is asked for, typed: `EventQuery` (the filters, as the list service
app/events/listing.py takes them from the API's door, app/events/wire.py, and from the
pages, the desk and the feeds alike), and what the service resolved of its window
(`ListWindow`). No parsing of request strings here (docs/design.md#event-list)."""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Literal

from app.geo.distance import Near

# `distance` (nearest first) only with `near`.
OrderBy = Literal["start_date", "end_date", "title", "date", "modified", "id", "distance"]
# The date filters, by the names of the list's parameters (the start window first).
BOUNDS = ("start_date", "end_date", "starts_before", "starts_after", "ends_before", "ends_after")

# The parts of a day a date's local start falls in (`time_of_day`), by the hours they hold:
# morning 05-12, afternoon 12-17, evening 17-21, night 21-05 (docs/design.md#event-list).
# All-day events start at no hour: they are `all_day` alone, as the reference's Filter Bar
# lists them apart.
TimeOfDay = Literal["morning", "afternoon", "evening", "night", "all_day"]
DAY_PARTS: dict[TimeOfDay, tuple[int, ...]] = {
    "morning": tuple(range(5, 12)),
    "afternoon": tuple(range(12, 17)),
    "evening": tuple(range(17, 21)),
    "night": (21, 22, 23, 0, 1, 2, 3, 4),
    "all_day": (),
}
TIMES_OF_DAY: tuple[TimeOfDay, ...] = tuple(DAY_PARTS)
WEEKDAYS = tuple(range(1, 8))  # ISO: Monday 1 to Sunday 7


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
    # One of the event's amounts (its cost's numbers, `free` is 0: app/events/cost.py) is
    # within [cost_min, cost_max], in the site's currency; `cost_max=0`: free events.
    cost_min: Decimal | None = None
    cost_max: Decimal | None = None
    weekdays: tuple[int, ...] | None = None  # of the local start, ISO (Monday 1)
    times_of_day: tuple[TimeOfDay, ...] | None = None  # of the local start (DAY_PARTS)
    orderby: OrderBy = "start_date"
    descending: bool = False
    password: str | None = None  # of protected events, to read them unredacted

    def __post_init__(self) -> None:
        for name in BOUNDS:
            moment = getattr(self, name)
            if moment is not None and moment.tzinfo is None:
                raise ValueError(f"{name} must be an aware datetime")
        if self.weekdays is not None and not set(self.weekdays) <= set(WEEKDAYS):
            raise ValueError("weekdays are 1 (Monday) to 7 (Sunday)")
        if self.times_of_day is not None and not set(self.times_of_day) <= set(TIMES_OF_DAY):
            raise ValueError(f"times of day are {', '.join(TIMES_OF_DAY)}")


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
