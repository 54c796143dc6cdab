"""Generating the events' rows: schedules, texts, relations, and the series with their
occurrences (expanded by wall-clock steps: `SeriesRule.starts`, checked against
app/events/recurrence.py by tests/live/test_seed.py)."""

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock
from typing import Any
from zoneinfo import ZoneInfo

from app.core.rules.dates import zone_abbreviation
from app.core.rules.slugs import make_slug
from app.events.cost import parse_cost
from app.events.recurrence import SERIES_COMPLETE
from app.i18n import LANGUAGES
from app.seed.tables import HIDDEN_COLUMN
from app.seed.vocabulary import (
    CITIES,
    COSTS,
    EVENT_ADJECTIVES,
    EVENT_GENRES,
    EVENT_INTRO,
    EVENT_KINDS,
    LINES,
    STATUSES,
    City,
    event_titles,
)

# How many organizers / categories / tags an event gets, with their weights.
ORGANIZERS_PER_EVENT = ((0, 0.2), (1, 0.5), (2, 0.2), (3, 0.1))

CATEGORIES_PER_EVENT = ((1, 0.7), (2, 0.3))

TAGS_PER_EVENT = ((0, 0.3), (1, 0.3), (2, 0.25), (3, 0.15))

# Share of records with a translation, per non-default language (in LANGUAGES order).
EVENT_TRANSLATED = (0.3, 0.2)

# Share of events that are series, and their rules: (frequency, how they end, weight), with
# the ranges of COUNT (dates) and of UNTIL (weeks or days after the start).
RECURRING_SHARE = 0.1

SERIES_RULES: tuple[tuple[str, str, float], ...] = (
    ("WEEKLY", "COUNT", 0.45),
    ("WEEKLY", "UNTIL", 0.25),
    ("DAILY", "COUNT", 0.18),
    ("DAILY", "UNTIL", 0.10),
    ("WEEKLY", "", 0.02),  # endless: up to the horizon
)

SERIES_COUNTS = {"WEEKLY": (4, 12), "DAILY": (2, 7)}

SERIES_SPANS = {"WEEKLY": (4, 16), "DAILY": (3, 10)}

STEPS = {"WEEKLY": timedelta(weeks=1), "DAILY": timedelta(days=1)}


def weighted(pairs: Sequence[tuple[Any, float]]) -> tuple[list[Any], list[float]]:
    """Values and cumulative weights, for `Random.choices(values, cum_weights=...)`."""
    values, cumulative, total = [], [], 0.0
    for value, weight in pairs:
        total += weight
        values.append(value)
        cumulative.append(total)
    return values, cumulative


@dataclass(slots=True)
class Plan:
    """What every event chunk draws from: the records of this run and fixed choices."""

    language: int  # index of the default language in LANGUAGES
    others: tuple[int, ...]  # indexes of the other languages
    now: datetime
    today: date
    zones: list[tuple[str, ZoneInfo]]
    zone_weights: list[float]
    venues: list[tuple[int, City]]
    organizers: list[int]
    categories: list[int]
    tags: list[int]
    images: list[int]
    costs: list[tuple[str, str]] = field(default_factory=list)  # (display, details JSON)
    cost_weights: list[float] = field(default_factory=list)
    slugs: dict[tuple[int, int, int], str] = field(default_factory=dict)
    days: tuple[int, int] = (-365, 730)  # start days, relative to today
    translated: tuple[float, ...] = EVENT_TRANSLATED
    recurring: float = RECURRING_SHARE
    horizon_days: int = 730  # as the app's settings: RECURRENCE_HORIZON_DAYS
    max_occurrences: int = 1000  # RECURRENCE_MAX_OCCURRENCES

    def __post_init__(self) -> None:
        raws, self.cost_weights = weighted(COSTS)
        for raw in raws:
            cost = parse_cost(raw)
            self.costs.append((cost.display, json.dumps(cost.details())))


@dataclass(slots=True)
class EventRows:
    events: list[tuple[Any, ...]] = field(default_factory=list)
    translations: list[tuple[Any, ...]] = field(default_factory=list)
    terms: list[tuple[int, int]] = field(default_factory=list)
    organizers: list[tuple[int, int, int]] = field(default_factory=list)
    # Every event's occurrences: (event ID, original start, start_at, end_at, start_local,
    # end_local, listed, published_at, status, author, hidden), the first one first (it takes
    # the event's ID); a single event has one, the one the database's trigger would make.
    occurrences: list[tuple[Any, ...]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SeriesRule:
    """A simple rule (one RRULE line, weekly or daily, every `interval` periods) and its
    expansion by plain date arithmetic: the dates dateutil would give (`rule_starts`
    below is checked against app/events/recurrence.py by the tests)."""

    frequency: str
    interval: int = 1
    count: int | None = None
    until: datetime | None = None  # UTC

    def line(self) -> str:
        parts = [f"FREQ={self.frequency}"]
        if self.interval != 1:
            parts.append(f"INTERVAL={self.interval}")
        if self.count is not None:
            parts.append(f"COUNT={self.count}")
        if self.until is not None:
            parts.append(f"UNTIL={self.until:%Y%m%dT%H%M%SZ}")
        return "RRULE:" + ";".join(parts)

    def starts(
        self, start: datetime, zone: ZoneInfo, horizon: datetime, cap: int
    ) -> list[datetime]:
        """Local start times from `start` up to the local wall time `horizon`, at most
        `cap`: wall-clock steps (a 19:00 class stays at 19:00 across DST changes)."""
        step = STEPS[self.frequency] * self.interval
        limit = cap if self.count is None else min(cap, self.count)
        starts: list[datetime] = []
        local = start
        while len(starts) < limit and local <= horizon:
            if self.until is not None and local.replace(tzinfo=zone) > self.until:
                break
            starts.append(local)
            local += step
        return starts


def series_rule(rng: random.Random, start_local: datetime, zone: ZoneInfo) -> SeriesRule:
    values, cumulative = weighted([((f, e), w) for f, e, w in SERIES_RULES])
    frequency, ending = rng.choices(values, cum_weights=cumulative)[0]
    interval = 2 if frequency == "WEEKLY" and rng.random() < 0.15 else 1
    if ending == "COUNT":
        return SeriesRule(frequency, interval, count=rng.randint(*SERIES_COUNTS[frequency]))
    if ending == "UNTIL":
        # The end of a day, in the event's zone, as a UTC stamp (as calendar apps send it).
        last = start_local.date() + STEPS[frequency] * rng.randint(*SERIES_SPANS[frequency])
        end_of_day = datetime.combine(last, clock(23, 59, 59)).replace(tzinfo=zone)
        return SeriesRule(frequency, interval, until=end_of_day.astimezone(UTC))
    return SeriesRule(frequency, interval)


def _dates_until(plan: Plan, rule: SeriesRule, start_local: datetime, zone: ZoneInfo) -> datetime:
    """The series' `dates_until`, as SeriesStore.materialise sets it: complete when its rule
    ends (or meets the cap) by the horizon, else the horizon."""
    horizon = plan.now + timedelta(days=plan.horizon_days)
    local_horizon = horizon.astimezone(zone).replace(tzinfo=None)
    cap = plan.max_occurrences
    starts = rule.starts(start_local, zone, datetime.max - STEPS["WEEKLY"] * 53, cap)
    if all(start <= local_horizon for start in starts):
        return SERIES_COMPLETE
    return local_horizon.replace(tzinfo=zone).astimezone(UTC)


def _series_occurrences(
    rows: EventRows,
    plan: Plan,
    event: tuple[int, datetime, datetime, ZoneInfo, SeriesRule, str, bool, datetime],
) -> None:
    series_id, start_local, end_local, zone, rule, status, hidden, published = event
    listed = status == "publish" and not hidden
    horizon = (plan.now + timedelta(days=plan.horizon_days)).astimezone(zone).replace(tzinfo=None)
    duration = end_local - start_local
    for start in rule.starts(start_local, zone, horizon, plan.max_occurrences):
        start_at = start.replace(tzinfo=zone).astimezone(UTC)
        end = start + duration
        rows.occurrences.append(
            (
                series_id,
                start_at,
                start_at,
                end.replace(tzinfo=zone).astimezone(UTC),
                start,
                end,
                listed,
                published,
                status,
                None,  # seeded events have no author
                hidden,
            )
        )


def _pick_count(rng: random.Random, pairs: Sequence[tuple[int, float]], available: int) -> int:
    values, cumulative = weighted(pairs)
    wanted: int = rng.choices(values, cum_weights=cumulative)[0]
    return min(wanted, available)


def _schedule(rng: random.Random, plan: Plan, zone: ZoneInfo) -> tuple[datetime, datetime, bool]:
    """Local start and end (wall time in the event zone) and whether the event is all-day."""
    day = plan.today + timedelta(days=rng.randint(*plan.days))
    if rng.random() < 0.08:
        start = datetime.combine(day, clock.min)
        end = datetime.combine(day + timedelta(days=rng.choice((0, 0, 0, 1, 2))), clock.max)
        return start, end.replace(microsecond=0), True
    # Daytime starts only: no wall time falls into a daylight saving gap.
    start = datetime.combine(day, clock(rng.randint(8, 21), rng.choice((0, 15, 30, 45))))
    roll = rng.random()
    if roll < 0.7:
        length = timedelta(minutes=rng.choice((60, 90, 120, 150, 180)))
    elif roll < 0.95:
        length = timedelta(hours=rng.randint(3, 8))
    else:
        length = timedelta(days=rng.randint(1, 4), hours=rng.randint(0, 6))
    return start, start + length, False


def _event_texts(
    i: int, titles: list[str], city: City, line: int, more: int
) -> tuple[str, str, str]:
    """Title, description and excerpt of an event in language `i`."""
    description = EVENT_INTRO[i].format(
        title=titles[i], where=city.where[i], line=LINES[line][i], more=LINES[more][i]
    )
    return titles[i], description, LINES[line][i]


def _titles(plan: Plan, rng: random.Random) -> tuple[list[str], str]:
    """An event's title in every language, and the slug base of its default-language title
    (made once per title)."""
    adjective, genre, kind = (
        rng.randrange(len(EVENT_ADJECTIVES)),
        rng.randrange(len(EVENT_GENRES)),
        rng.randrange(len(EVENT_KINDS)),
    )
    key = (adjective, genre, kind)
    titles = list(event_titles(EVENT_ADJECTIVES[adjective], EVENT_GENRES[genre], EVENT_KINDS[kind]))
    base_slug = plan.slugs.get(key)
    if base_slug is None:
        base_slug = plan.slugs[key] = make_slug(titles[plan.language])
    return titles, base_slug


def _relations(rows: EventRows, plan: Plan, rng: random.Random, event_id: int) -> None:
    """The event's organizers (in order), categories and tags."""
    organizers = _pick_count(rng, ORGANIZERS_PER_EVENT, len(plan.organizers))
    for position, organizer_id in enumerate(rng.sample(plan.organizers, organizers)):
        rows.organizers.append((event_id, organizer_id, position))
    categories = _pick_count(rng, CATEGORIES_PER_EVENT, len(plan.categories))
    tags = _pick_count(rng, TAGS_PER_EVENT, len(plan.tags))
    for term_id in (*rng.sample(plan.categories, categories), *rng.sample(plan.tags, tags)):
        rows.terms.append((event_id, term_id))


def event_chunk(
    plan: Plan, rng: random.Random, series_rng: random.Random, ids: Sequence[int]
) -> EventRows:
    """Rows for the events with these IDs and for their translations, relations and (of
    series) occurrences; `series_rng` draws which events are series, and their rules."""
    rows = EventRows()
    lang = plan.language
    statuses, status_weights = weighted(STATUSES)
    zone_indexes = range(len(plan.zones))
    for event_id in ids:
        titles, base_slug = _titles(plan, rng)
        venue = rng.choice(plan.venues) if plan.venues and rng.random() < 0.9 else None
        city = venue[1] if venue else rng.choice(CITIES)
        line, more = rng.sample(range(len(LINES)), 2)

        zone_name, zone = plan.zones[rng.choices(zone_indexes, cum_weights=plan.zone_weights)[0]]
        start_local, end_local, all_day = _schedule(rng, plan, zone)
        start_at = start_local.replace(tzinfo=zone).astimezone(UTC)
        end_at = end_local.replace(tzinfo=zone).astimezone(UTC)
        published = plan.now - timedelta(seconds=rng.randint(3600, 730 * 86400))
        modified = published + (plan.now - published) * rng.random() * rng.random()
        cost, details = rng.choices(plan.costs, cum_weights=plan.cost_weights)[0]
        slug = f"{base_slug}-{event_id}"
        title, description, excerpt = _event_texts(lang, titles, city, line, more)
        has_venue = venue is not None
        # Its own generator: the other fields stay those of the same random seed without.
        rule = None
        if series_rng.random() < plan.recurring:
            rule = series_rule(series_rng, start_local, zone)
        rows.events.append(
            (
                event_id,
                rng.choices(statuses, cum_weights=status_weights)[0],
                slug,
                published,
                modified,
                "secret" if rng.random() < 0.01 else None,
                title,
                description,
                excerpt,
                rng.choice(plan.images) if plan.images and rng.random() < 0.25 else None,
                start_at,
                end_at,
                start_local,
                end_local,
                zone_name,
                zone_abbreviation(zone_name, zone, start_at),
                all_day,
                cost,
                details,
                f"https://events.example.org/{slug}" if rng.random() < 0.3 else None,
                has_venue and rng.random() < 0.6,
                has_venue and rng.random() < 0.6,
                rng.random() < 0.02,
                rng.random() < 0.01,
                rng.random() < 0.08,
                venue[0] if venue else None,
                None if rule is None else json.dumps([rule.line()]),
                None if rule is None else _dates_until(plan, rule, start_local, zone),
            )
        )
        status, hidden = rows.events[-1][1], rows.events[-1][HIDDEN_COLUMN]
        if rule is None:
            # As `occurrences_of_new_events` (migration e18a0b1c2d3e) makes it.
            listed = status == "publish" and not hidden
            rows.occurrences.append(
                (event_id, start_at, start_at, end_at, start_local, end_local, listed,
                 published, status, None, hidden)
            )  # fmt: skip
        else:
            event = (event_id, start_local, end_local, zone, rule, status, hidden, published)
            _series_occurrences(rows, plan, event)
        for other, share in zip(plan.others, plan.translated, strict=True):
            if rng.random() < share:
                texts = _event_texts(other, titles, city, line, more)
                rows.translations.append((event_id, LANGUAGES[other], *texts))
        _relations(rows, plan, rng, event_id)
    return rows
