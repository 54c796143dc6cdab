"""The filter bar (docs/pages-and-desk.md#the-filter-bar): what a visitor narrowed the views
to, read from the URL (the reference Filter Bar add-on's parameter names, so that its old
links keep working), applied to a view's `EventQuery`, kept in the views' links, and the
choices it offers: what the next upcoming dates have, with how many each
(app/pages/repository.py: one bounded statement)."""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from app.core.database.engine import Session
from app.core.rules.constants import FALSE_WORDS, TRUE_WORDS
from app.events.query import DAY_PARTS, TIMES_OF_DAY, EventQuery, TimeOfDay
from app.pages.content import Content
from app.pages.repository import upcoming_facets

# The parameters, by the reference add-on's names (its forms send `name[]`, repeated; the
# views' links write one value with commas).
CATEGORIES = "tribe_eventcategory[]"
TAGS = "tribe_tags[]"
VENUES = "tribe_venues[]"
ORGANIZERS = "tribe_organizers[]"
WEEKDAYS = "tribe_dayofweek[]"
TIMES = "tribe_timeofday[]"
FEATURED = "tribe_featuredevent"
# The add-on's cost is a range, `min-max`; almanac's form asks for each end on its own.
COST = "tribe_cost"
COST_MIN = "cost_min"
COST_MAX = "cost_max"
FREE = "free"
NAMES = (CATEGORIES, TAGS, VENUES, ORGANIZERS, WEEKDAYS, TIMES, FEATURED, COST_MIN, COST_MAX)
# `tribe_cost` and `free` are read, never written: the form and the links use the above.

# The add-on's values of the times of day (EventQuery's DAY_PARTS: almanac's names).
REFERENCE_TIMES: dict[str, TimeOfDay] = {
    "allday": "all_day",
    "06-12": "morning",
    "12-17": "afternoon",
    "17-21": "evening",
    "21-06": "night",
}
MAX_VALUES = 50  # values of one parameter read (an old link's, a crafted one's)
MAX_COST = 10**9
# The choices' bounds (their statement's cost): the next dates counted, the most values of
# one facet shown.
FACET_DATES = 2000
FACET_VALUES = 20


class BadFilter(Exception):
    """A filter's value the bar cannot read: the 400 page naming the parameter."""

    def __init__(self, name: str) -> None:
        self.name = name


def time_of_day(hour: int) -> TimeOfDay:
    """The part of the day an hour of a local start is in (ALL_DAY_HOUR: all-day)."""
    for name, hours in DAY_PARTS.items():
        if hour in hours:
            return name
    return "all_day"


@dataclass(frozen=True, slots=True)
class Filters:
    """The filter bar's values; empty tuples and None: not asked for."""

    categories: tuple[int | str, ...] = ()
    tags: tuple[int | str, ...] = ()
    venues: tuple[int, ...] = ()
    organizers: tuple[int, ...] = ()
    weekdays: tuple[int, ...] = ()  # 1-7, Monday 1
    times: tuple[TimeOfDay, ...] = ()  # EventQuery's TIMES_OF_DAY
    featured: bool = False
    cost_min: Decimal | None = None
    cost_max: Decimal | None = None

    @property
    def active(self) -> bool:
        return self != Filters()

    def apply(self, scope: EventQuery) -> EventQuery:
        """`scope` (a view's, a category's or tag's page) narrowed to these filters. A
        category's page keeps its own category (its bar offers none), a tag's its tag."""
        changes: dict[str, Any] = {}
        if self.categories and scope.categories is None:
            changes["categories"] = self.categories
        if self.tags and scope.tags is None:
            changes["tags"] = self.tags
        if self.venues:
            changes["venues"] = self.venues
        if self.organizers:
            changes["organizers"] = self.organizers
        if self.featured:
            changes["featured"] = True
        if self.cost_min is not None:
            changes["cost_min"] = self.cost_min
        if self.cost_max is not None:
            changes["cost_max"] = self.cost_max
        if self.weekdays:
            changes["weekdays"] = self.weekdays
        if self.times:
            changes["times_of_day"] = self.times
        return replace(scope, **changes) if changes else scope

    def query(self) -> dict[str, Any]:
        """The values to keep in the views' links (one parameter each, values by commas)."""
        query: dict[str, Any] = {}
        lists = (
            (CATEGORIES, self.categories),
            (TAGS, self.tags),
            (VENUES, self.venues),
            (ORGANIZERS, self.organizers),
            (WEEKDAYS, self.weekdays),
            (TIMES, self.times),
        )
        for name, values in lists:
            if values:
                query[name] = list(values)
        if self.featured:
            query[FEATURED] = "1"
        for name, cost in ((COST_MIN, self.cost_min), (COST_MAX, self.cost_max)):
            if cost is not None:
                query[name] = f"{cost.normalize():f}"
        return query

    def selected(self, facet: str, key: int | str) -> bool:
        values: dict[str, Sequence[int | str]] = {
            "category": self.categories,
            "tag": self.tags,
            "venue": self.venues,
            "organizer": self.organizers,
            "weekday": self.weekdays,
            "time": self.times,
        }
        return key in values.get(facet, ()) or str(key) in map(str, values.get(facet, ()))


# ---- reading the URL --------------------------------------------------------------------


def _values(query: Any, name: str) -> list[str]:
    """A parameter's values: repeated (`name[]=a&name[]=b`), by commas, or under the name
    without `[]`; empty ones dropped."""
    names = (name, name.removesuffix("[]"))
    raw = [value for key in dict.fromkeys(names) for value in query.getlist(key)]
    values = [part.strip() for value in raw for part in value.split(",") if part.strip()]
    return values[:MAX_VALUES]


def _ids(values: Iterable[str], name: str) -> tuple[int, ...]:
    try:
        ids = tuple(dict.fromkeys(int(value) for value in values))
    except ValueError:
        raise BadFilter(name) from None
    if any(not 0 < value < 2**63 for value in ids):
        raise BadFilter(name)
    return ids


def _refs(values: Iterable[str]) -> tuple[int | str, ...]:
    """Term IDs (the add-on's) or slugs."""
    return tuple(dict.fromkeys(int(v) if v.isdigit() else v[:200] for v in values))


def _cost(value: str | None, name: str) -> Decimal | None:
    if value is None or not value.strip():
        return None
    try:
        cost = Decimal(value.strip())
    except InvalidOperation:
        raise BadFilter(name) from None
    if not cost.is_finite() or not 0 <= cost <= MAX_COST:
        raise BadFilter(name)
    return cost


def _cost_range(query: Any) -> tuple[Decimal | None, Decimal | None]:
    """`cost_min`/`cost_max`, else the add-on's `tribe_cost=min-max` (either end may be
    left out); `free` asks for free events (cost_max 0)."""
    low, high = _cost(query.get(COST_MIN), COST_MIN), _cost(query.get(COST_MAX), COST_MAX)
    if low is None and high is None and (text := query.get(COST, "").strip()):
        first, _, second = text.partition("-")
        low, high = _cost(first, COST), _cost(second, COST)
    if _flag(query.get(FREE), FREE):
        high = Decimal(0)
    if low is not None and high is not None and low > high:
        raise BadFilter(COST_MIN)
    return low, high


def _flag(value: str | None, name: str) -> bool:
    word = (value or "").strip().lower()
    if word not in TRUE_WORDS | FALSE_WORDS:
        raise BadFilter(name)
    return word in TRUE_WORDS


def _weekdays(values: list[str]) -> tuple[int, ...]:
    days = _ids(values, WEEKDAYS)
    if any(day > 7 for day in days):
        raise BadFilter(WEEKDAYS)
    return tuple(sorted(days))


def _times(values: list[str]) -> tuple[TimeOfDay, ...]:
    times = {REFERENCE_TIMES.get(value, value.lower()) for value in values}
    if not times <= set(TIMES_OF_DAY):
        raise BadFilter(TIMES)
    return tuple(name for name in TIMES_OF_DAY if name in times)


def read_filters(query: Any) -> Filters:
    """The filter bar's values of a request's query (a Starlette `QueryParams`); a value
    that cannot be read is a `BadFilter` naming its parameter."""
    cost_min, cost_max = _cost_range(query)
    return Filters(
        categories=_refs(_values(query, CATEGORIES)),
        tags=_refs(_values(query, TAGS)),
        venues=_ids(_values(query, VENUES), VENUES),
        organizers=_ids(_values(query, ORGANIZERS), ORGANIZERS),
        weekdays=_weekdays(_values(query, WEEKDAYS)),
        times=_times(_values(query, TIMES)),
        featured=_flag(query.get(FEATURED), FEATURED),
        cost_min=cost_min,
        cost_max=cost_max,
    )


# ---- the choices ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    """One value of a facet: its key (an ID, a weekday, a time of day), its name (None:
    the template names it) and how many upcoming dates have it; `depth`: a category's
    place under its shown parents."""

    key: int | str
    label: str | None
    count: int
    depth: int = 0


@dataclass(slots=True)
class Choices:
    """What the bar offers: each facet's values with upcoming dates."""

    categories: list[Choice] = field(default_factory=list)
    tags: list[Choice] = field(default_factory=list)
    venues: list[Choice] = field(default_factory=list)
    organizers: list[Choice] = field(default_factory=list)
    weekdays: list[Choice] = field(default_factory=list)
    times: list[Choice] = field(default_factory=list)
    featured: int = 0
    free: int = 0


def _tree(rows: list[tuple[int, str, int | None, int]]) -> list[Choice]:
    """Categories with their children under them (by name), each child one level deeper;
    a child whose parent is not shown stands at the top."""
    shown = {row[0] for row in rows}
    children: dict[int | None, list[tuple[int, str, int | None, int]]] = {}
    for row in rows:
        children.setdefault(row[2] if row[2] in shown else None, []).append(row)
    choices: list[Choice] = []

    def walk(parent: int | None, depth: int) -> None:
        for key, label, _, count in sorted(children.get(parent, []), key=lambda r: r[1].lower()):
            choices.append(Choice(key, label, count, depth))
            if depth < 8:
                walk(key, depth + 1)

    walk(None, 0)
    return choices


@dataclass(frozen=True, slots=True)
class Bar:
    """What the bar's template shows: the choices, where the form goes (the view's own
    address, its first page) and the search's values it keeps (hidden; with the action,
    the view without any filter)."""

    choices: Choices
    action: str
    kept: dict[str, Any]


PAGED = re.compile(r"/page/\d+/$")


def bar(
    choices: Choices | None, path: str, query: dict[str, Any], display: str | None
) -> Bar | None:
    """The bar of a view at `path` (without its language) whose links keep `query`."""
    if choices is None:
        return None
    kept = {name: value for name, value in query.items() if name not in NAMES}
    if display:
        kept["eventDisplay"] = display
    return Bar(choices, PAGED.sub("/", path), kept)


def on_views(path: str) -> bool:
    """Whether a page's path (without its language) is one of the calendar's views, the
    site's or a category's or tag's: those show the bar."""
    return path == "/events/" or path.startswith("/events/")


async def choices_of(content: Content) -> Choices:
    """The bar's choices as `content`'s visitor reads them, in its language."""
    ctx = content.ctx
    now = datetime.now(ctx.settings.site_zone).replace(tzinfo=None, microsecond=0)
    return await choices(ctx.session, now, ctx.language)


async def choices(session: Session, now: datetime, language: str) -> Choices:
    """The facets of the next FACET_DATES dates not yet ended at `now` (site wall time)."""
    rows = await upcoming_facets(session, now, language, FACET_DATES, FACET_VALUES)
    found = Choices()
    categories: list[tuple[int, str, int | None, int]] = []
    hours: dict[str, int] = {}
    named: Mapping[str, list[Choice]] = {
        "tag": found.tags,
        "venue": found.venues,
        "organizer": found.organizers,
    }
    for facet, key, label, parent, count in rows:
        if facet == "category":
            categories.append((key, label or "", parent, count))
        elif facet in named:
            named[facet].append(Choice(key, label or "", count))
        elif facet == "weekday":
            found.weekdays.append(Choice(key, None, count))
        elif facet == "hour":
            name = time_of_day(key)
            hours[name] = hours.get(name, 0) + count
        elif facet in ("featured", "free"):
            setattr(found, facet, count)
    found.categories = _tree(categories)
    for choices_of in named.values():
        choices_of.sort(key=lambda choice: str(choice.label).lower())
    found.weekdays.sort(key=lambda choice: int(choice.key))
    found.times = [Choice(name, None, hours[name]) for name in TIMES_OF_DAY if name in hours]
    return found
