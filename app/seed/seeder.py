"""`almanac seed`: realistic bulk data for benchmarks and demos.

Events with venues, ordered organizers, categories (some nested), tags, images, costs, time
zones and German / Slovak translations. Rows are generated in Python and streamed with COPY
(asyncpg `copy_records_to_table`) inside one transaction; the next chunk of events is
generated in a thread while the previous one is being copied. Events, venues and organizers
draw their IDs from `post_id_seq` and their slugs end with that ID, so seeding appends to a
database in use without clashing with what is there (new terms get names not yet taken).
About a tenth of the events are series (weekly or daily, ending after a number of dates or on
a day, a few endless weekly ones): their occurrences are expanded here, as
`SeriesStore.materialise` would (up to the horizon and the cap), and copied after the
events; the first one has the series' ID, the others IDs from `post_id_seq` (a single
event's occurrence is made by the database's trigger). Afterwards the tables are vacuumed
and analysed so that plans and index-only scans are those of a settled database.
"""

import asyncio
import json
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock
from itertools import count
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from zoneinfo import ZoneInfo

import asyncpg

from app.core.database import asyncpg_url
from app.core.dates import zone_abbreviation
from app.core.settings import LANGUAGES
from app.core.slugs import make_slug
from app.core.sql import analyze_statement
from app.events.cost import parse_cost
from app.events.recurrence import SERIES_COMPLETE
from app.models import CATEGORY, TAG

# One text in every language, in the order of LANGUAGES (en, de, sk).
Text3 = tuple[str, str, str]

CHUNK = 20_000  # events generated and copied at a time
OTHER_ZONES = ("Europe/Berlin", "America/New_York")
EXTRA_ZONE_SHARE = 0.2  # the rest use the site time zone

EVENT_ADJECTIVES: tuple[Text3, ...] = (
    ("Summer", "Sommer", "Letný"),
    ("Winter", "Winter", "Zimný"),
    ("Spring", "Frühlings", "Jarný"),
    ("Autumn", "Herbst", "Jesenný"),
    ("Open", "Offenes", "Otvorený"),
    ("Late-Night", "Nächtliches", "Nočný"),
    ("Family", "Familien", "Rodinný"),
    ("Grand", "Großes", "Veľký"),
    ("Acoustic", "Akustisches", "Akustický"),
    ("Community", "Gemeinschafts", "Komunitný"),
    ("Midweek", "Wochenmitte", "Stredotýždňový"),
    ("Riverside", "Flussufer", "Nábrežný"),
)
EVENT_GENRES: tuple[Text3, ...] = (
    ("Jazz", "Jazz", "Jazzový"),
    ("Rock", "Rock", "Rockový"),
    ("Chess", "Schach", "Šachový"),
    ("Pottery", "Töpfer", "Keramický"),
    ("Poetry", "Poesie", "Básnický"),
    ("Salsa", "Salsa", "Salsový"),
    ("Photography", "Fotografie", "Fotografický"),
    ("Yoga", "Yoga", "Jogový"),
    ("Wine", "Wein", "Vínny"),
    ("Robotics", "Robotik", "Robotický"),
    ("Folk", "Volksmusik", "Folkový"),
    ("Comedy", "Kabarett", "Komediálny"),
    ("Baroque", "Barock", "Barokový"),
    ("Street Food", "Streetfood", "Gastro"),
    ("Cinema", "Kino", "Filmový"),
    ("Science", "Wissenschafts", "Vedecký"),
)
EVENT_KINDS: tuple[Text3, ...] = (
    ("Night", "Nacht", "večer"),
    ("Workshop", "Workshop", "workshop"),
    ("Festival", "Festival", "festival"),
    ("Meetup", "Treffen", "stretnutie"),
    ("Concert", "Konzert", "koncert"),
    ("Tour", "Rundgang", "okruh"),
    ("Market", "Markt", "trh"),
    ("Lecture", "Vortrag", "seminár"),
    ("Marathon", "Marathon", "maratón"),
    ("Masterclass", "Meisterkurs", "kurz"),
    ("Fair", "Messe", "jarmok"),
    ("Showcase", "Schau", "program"),
)
LINES: tuple[Text3, ...] = (
    (
        "Doors open thirty minutes before the start.",
        "Einlass ist dreißig Minuten vor Beginn.",
        "Vstup je tridsať minút pred začiatkom.",
    ),
    (
        "Bring your friends and family.",
        "Bringen Sie Freunde und Familie mit.",
        "Príďte s priateľmi a rodinou.",
    ),
    (
        "Tickets are available at the entrance.",
        "Karten gibt es am Eingang.",
        "Vstupenky sú k dispozícii pri vchode.",
    ),
    (
        "Suitable for all ages and levels of experience.",
        "Geeignet für alle Altersgruppen und Erfahrungsstufen.",
        "Vhodné pre všetky vekové kategórie a úrovne skúseností.",
    ),
    (
        "Light refreshments will be served.",
        "Es gibt kleine Erfrischungen.",
        "Podávať sa bude malé občerstvenie.",
    ),
    (
        "The programme may change at short notice.",
        "Das Programm kann sich kurzfristig ändern.",
        "Program sa môže na poslednú chvíľu zmeniť.",
    ),
)
EVENT_INTRO: Text3 = (
    "<p>Join us for the {title} in {city}. {line}</p><p>{more}</p>",
    "<p>Willkommen zum {title} in {city}. {line}</p><p>{more}</p>",
    "<p>Pozývame vás na {title} v meste {city}. {line}</p><p>{more}</p>",
)


@dataclass(frozen=True, slots=True)
class City:
    name: Text3
    country: Text3
    state: str
    lat: float
    lng: float
    zip: str
    phone: str


CITIES: tuple[City, ...] = (
    City(("Vienna", "Wien", "Viedeň"), ("Austria", "Österreich", "Rakúsko"), "", 48.2082, 16.3738, "1010", "+43 1"),
    City(("Berlin", "Berlin", "Berlín"), ("Germany", "Deutschland", "Nemecko"), "", 52.52, 13.405, "10117", "+49 30"),
    City(("Bratislava", "Bratislava", "Bratislava"), ("Slovakia", "Slowakei", "Slovensko"), "", 48.1486, 17.1077, "811 01", "+421 2"),
    City(("Košice", "Kaschau", "Košice"), ("Slovakia", "Slowakei", "Slovensko"), "", 48.7164, 21.2611, "040 01", "+421 55"),
    City(("Prague", "Prag", "Praha"), ("Czechia", "Tschechien", "Česko"), "", 50.0755, 14.4378, "110 00", "+420 2"),
    City(("Munich", "München", "Mníchov"), ("Germany", "Deutschland", "Nemecko"), "", 48.1351, 11.582, "80331", "+49 89"),
    City(("New York", "New York", "New York"), ("United States", "Vereinigte Staaten", "Spojené štáty"), "NY", 40.7128, -74.006, "10001", "+1 212"),
    City(("London", "London", "Londýn"), ("United Kingdom", "Vereinigtes Königreich", "Spojené kráľovstvo"), "", 51.5074, -0.1278, "WC2N 5DU", "+44 20"),
)  # fmt: skip
STREETS = ("Main Street", "Ringstraße", "Hlavná", "Market Square", "Opernring", "Dunajská")
VENUE_KINDS: tuple[Text3, ...] = (
    ("Concert Hall", "Konzerthalle", "Koncertná sála"),
    ("Community Centre", "Gemeinschaftszentrum", "Komunitné centrum"),
    ("Gallery", "Galerie", "Galéria"),
    ("Town Hall", "Rathaus", "Radnica"),
    ("Park Stage", "Parkbühne", "Pódium v parku"),
    ("Library", "Bibliothek", "Knižnica"),
    ("Arena", "Arena", "Aréna"),
    ("Studio", "Studio", "Štúdio"),
    ("Riverside Pavilion", "Flusspavillon", "Pavilón pri rieke"),
    ("Old Theatre", "Altes Theater", "Staré divadlo"),
)
VENUE_TEXT: Text3 = (
    "A venue in {city} with room for {seats} guests.",
    "Ein Veranstaltungsort in {city} mit Platz für {seats} Gäste.",
    "Priestor v meste {city} pre {seats} hostí.",
)
ORGANIZER_KINDS: tuple[Text3, ...] = (
    ("Arts Society", "Kunstverein", "Umelecký spolok"),
    ("Music Club", "Musikklub", "Hudobný klub"),
    ("Theatre Company", "Theaterkompanie", "Divadelná spoločnosť"),
    ("Sports Club", "Sportverein", "Športový klub"),
    ("Film Society", "Filmgesellschaft", "Filmový spolok"),
    ("Youth Network", "Jugendnetzwerk", "Mládežnícka sieť"),
    ("Culture Office", "Kulturamt", "Kultúrny úrad"),
    ("Book Circle", "Lesekreis", "Čitateľský krúžok"),
)
ORGANIZER_TEXT: Text3 = (
    "Organising events in {city} since {year}.",
    "Organisiert Veranstaltungen in {city} seit {year}.",
    "Organizuje podujatia v meste {city} od roku {year}.",
)
# "{kind} {city}" reads better in German and Slovak, "{city} {kind}" in English.
PLACE_NAME: Text3 = ("{city} {kind}", "{kind} {city}", "{kind} {city}")
CATEGORIES: tuple[Text3, ...] = (
    ("Concerts", "Konzerte", "Koncerty"),
    ("Theatre", "Theater", "Divadlo"),
    ("Exhibitions", "Ausstellungen", "Výstavy"),
    ("Workshops", "Workshops", "Workshopy"),
    ("Festivals", "Festivals", "Festivaly"),
    ("Sports", "Sport", "Šport"),
    ("Conferences", "Konferenzen", "Konferencie"),
    ("Markets", "Märkte", "Trhy"),
    ("Film", "Film", "Film"),
    ("Family", "Familie", "Rodina"),
    ("Dance", "Tanz", "Tanec"),
    ("Literature", "Literatur", "Literatúra"),
    ("Food and Drink", "Essen und Trinken", "Jedlo a pitie"),
    ("Talks", "Vorträge", "Prednášky"),
    ("Tours", "Führungen", "Prehliadky"),
    ("Comedy", "Kabarett", "Komédia"),
    ("Opera", "Oper", "Opera"),
    ("Kids", "Kinder", "Deti"),
    ("Outdoor", "Im Freien", "Vonku"),
    ("Charity", "Wohltätigkeit", "Charita"),
    ("Science", "Wissenschaft", "Veda"),
    ("Technology", "Technik", "Technológie"),
    ("Wellness", "Wellness", "Wellness"),
    ("Nightlife", "Nachtleben", "Nočný život"),
    ("Classical", "Klassik", "Klasika"),
)
CATEGORY_TEXT: Text3 = (
    "Everything about {name}.",
    "Alles rund um {name}.",
    "Všetko o téme {name}.",
)
TAGS: tuple[Text3, ...] = (
    ("free entry", "freier Eintritt", "voľný vstup"),
    ("accessible", "barrierefrei", "bezbariérové"),
    ("family friendly", "familienfreundlich", "pre rodiny"),
    ("live music", "Livemusik", "živá hudba"),
    ("vegan", "vegan", "vegánske"),
    ("in English", "auf Englisch", "v angličtine"),
    ("beginners", "Anfänger", "začiatočníci"),
    ("advanced", "Fortgeschrittene", "pokročilí"),
    ("outdoors", "draußen", "vonku"),
    ("indoors", "drinnen", "vnútri"),
    ("students", "Studierende", "študenti"),
    ("seniors", "Senioren", "seniori"),
    ("weekend", "Wochenende", "víkend"),
    ("evening", "Abend", "večer"),
    ("morning", "Morgen", "ráno"),
    ("online", "online", "online"),
    ("hands-on", "zum Mitmachen", "prakticky"),
    ("premiere", "Premiere", "premiéra"),
    ("limited seats", "begrenzte Plätze", "obmedzený počet miest"),
    ("registration required", "Anmeldung erforderlich", "nutná registrácia"),
    ("local artists", "lokale Künstler", "miestni umelci"),
    ("international", "international", "medzinárodné"),
    ("dog friendly", "hundefreundlich", "psy vítané"),
    ("guided", "geführt", "so sprievodcom"),
    ("kids under 12", "Kinder unter 12", "deti do 12 rokov"),
    ("networking", "Networking", "networking"),
    ("premium", "Premium", "prémiové"),
    ("new", "neu", "nové"),
)
# Raw cost inputs, parsed once by the app's own cost parser; None: no cost.
COSTS: tuple[tuple[Any, float], ...] = (
    (None, 0.40),
    ("Free", 0.15),
    ("$15", 0.10),
    ("$5 - $25", 0.07),
    ("20€", 0.08),
    ("€12.50", 0.06),
    (["0$", "20$", "30$"], 0.05),
    ("£8", 0.05),
    ("10 - 30 CHF", 0.02),
    ("Donation", 0.02),
)
STATUSES: tuple[tuple[str, float], ...] = (
    ("publish", 0.86),
    ("draft", 0.06),
    ("pending", 0.04),
    ("private", 0.04),
)
# How many organizers / categories / tags an event gets, with their weights.
ORGANIZERS_PER_EVENT = ((0, 0.2), (1, 0.5), (2, 0.2), (3, 0.1))
CATEGORIES_PER_EVENT = ((1, 0.7), (2, 0.3))
TAGS_PER_EVENT = ((0, 0.3), (1, 0.3), (2, 0.25), (3, 0.15))
# Share of records with a translation, per non-default language (in LANGUAGES order).
EVENT_TRANSLATED = (0.3, 0.2)
VENUE_TRANSLATED = (0.5, 0.4)
ORGANIZER_TRANSLATED = (0.3, 0.3)
TAG_TRANSLATED = (0.5, 0.5)
IMAGES_PER_RUN = 20

EVENT_COLUMNS = (
    "id", "status", "slug", "published_at", "modified_at", "password", "title", "description",
    "excerpt", "image_id", "start_at", "end_at", "start_local", "end_local", "timezone",
    "timezone_abbr", "all_day", "cost", "cost_details", "website", "show_map", "show_map_link",
    "hide_from_listings", "sticky", "featured", "venue_id", "recurrence", "dates_until",
)  # fmt: skip
VENUE_COLUMNS = (
    "id", "status", "slug", "published_at", "modified_at", "name", "description", "excerpt",
    "address", "city", "country", "province", "state", "zip", "phone", "stateprovince",
    "website", "show_map", "show_map_link", "geo_lat", "geo_lng",
)  # fmt: skip
ORGANIZER_COLUMNS = (
    "id", "status", "slug", "published_at", "modified_at", "name", "description", "excerpt",
    "phone", "website", "email",
)  # fmt: skip
TERM_COLUMNS = ("id", "taxonomy", "name", "slug", "description", "parent_id")
POST_TRANSLATION_COLUMNS = ("language", "name", "description", "excerpt")
EVENT_TRANSLATION_COLUMNS = ("event_id", "language", "title", "description", "excerpt")
TERM_TRANSLATION_COLUMNS = ("term_id", "language", "name", "description")
IMAGE_COLUMNS = ("id", "url", "extension", "width", "height", "created_at")
SEEDED_TABLES = (
    "images", "terms", "term_translations", "venues", "venue_translations", "organizers",
    "organizer_translations", "events", "event_translations", "event_terms",
    "event_organizers", "occurrences",
)  # fmt: skip
HIDDEN_COLUMN = EVENT_COLUMNS.index("hide_from_listings")
OCCURRENCE_COLUMNS = (
    "id", "series_id", "content_id", "original_start", "start_at", "end_at", "start_local",
    "end_local", "listed", "published_at", "status", "author_id", "hide_from_listings",
)  # fmt: skip
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


@dataclass(frozen=True, slots=True)
class SeedCounts:
    events: int = 10_000
    venues: int = 200
    organizers: int = 300
    categories: int = 20
    tags: int = 50
    # A demo: every record translated, events within the default list window (from today
    # to three months ahead), so that a first look at the API finds them all.
    demo: bool = False

    def shares(self, shares: tuple[float, ...]) -> tuple[float, ...]:
        """Translated shares per other language: all of them in a demo."""
        return tuple(1.0 for _ in shares) if self.demo else shares


DEMO = SeedCounts(events=50, venues=8, organizers=6, categories=6, tags=12, demo=True)
DEMO_DAYS = (0, 90)
DEMO_RANDOM_SEED = 2026  # the same demo texts every time (the README's examples find them)


@dataclass(slots=True)
class SeedReport:
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SEEDED_TABLES, 0))
    seconds: float = 0.0
    vacuum_seconds: float = 0.0
    # Why nothing was inserted (a demo into a calendar that has records already).
    skipped: str = ""

    def summary(self) -> str:
        if self.skipped:
            return self.skipped
        shown = ", ".join(f"{count} {table}" for table, count in self.rows.items())
        return (
            f"inserted {shown} in {self.seconds:.1f} s "
            f"(+ {self.vacuum_seconds:.1f} s vacuum/analyse)"
        )


def libpq_url(url: str) -> str:
    """The URL for asyncpg itself (plain `postgresql://`), from any accepted form."""
    parts = urlsplit(asyncpg_url(url))
    return urlunsplit(parts._replace(scheme="postgresql"))


def _weighted(pairs: Sequence[tuple[Any, float]]) -> tuple[list[Any], list[float]]:
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
        raws, self.cost_weights = _weighted(COSTS)
        for raw in raws:
            cost = parse_cost(raw)
            self.costs.append((cost.display, json.dumps(cost.details())))


@dataclass(slots=True)
class EventRows:
    events: list[tuple[Any, ...]] = field(default_factory=list)
    translations: list[tuple[Any, ...]] = field(default_factory=list)
    terms: list[tuple[int, int]] = field(default_factory=list)
    organizers: list[tuple[int, int, int]] = field(default_factory=list)
    # A series' occurrences: (series ID, original start, start_at, end_at, start_local,
    # end_local, listed, published_at), the first one first (it takes the series' ID).
    occurrences: list[tuple[Any, ...]] = field(default_factory=list)
    singles: int = 0  # events whose occurrence the trigger makes


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


def _series_rule(rng: random.Random, start_local: datetime, zone: ZoneInfo) -> SeriesRule:
    values, cumulative = _weighted([((f, e), w) for f, e, w in SERIES_RULES])
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
    values, cumulative = _weighted(pairs)
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
        title=titles[i], city=city.name[i], line=LINES[line][i], more=LINES[more][i]
    )
    return titles[i], description, LINES[line][i]


def event_chunk(
    plan: Plan, rng: random.Random, series_rng: random.Random, ids: Sequence[int]
) -> EventRows:
    """Rows for the events with these IDs and for their translations, relations and (of
    series) occurrences; `series_rng` draws which events are series, and their rules."""
    rows = EventRows()
    lang = plan.language
    statuses, status_weights = _weighted(STATUSES)
    zone_indexes = range(len(plan.zones))
    for event_id in ids:
        adjective, genre, kind = (
            rng.randrange(len(EVENT_ADJECTIVES)),
            rng.randrange(len(EVENT_GENRES)),
            rng.randrange(len(EVENT_KINDS)),
        )
        key = (adjective, genre, kind)
        titles = [
            f"{EVENT_ADJECTIVES[adjective][i]} {EVENT_GENRES[genre][i]} {EVENT_KINDS[kind][i]}"
            for i in range(len(LANGUAGES))
        ]
        base_slug = plan.slugs.get(key)
        if base_slug is None:
            base_slug = plan.slugs[key] = make_slug(titles[lang])
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
            rule = _series_rule(series_rng, start_local, zone)
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
        if rule is None:
            rows.singles += 1
        else:
            status, hidden = rows.events[-1][1], rows.events[-1][HIDDEN_COLUMN]
            event = (event_id, start_local, end_local, zone, rule, status, hidden, published)
            _series_occurrences(rows, plan, event)
        for other, share in zip(plan.others, plan.translated, strict=True):
            if rng.random() < share:
                texts = _event_texts(other, titles, city, line, more)
                rows.translations.append((event_id, LANGUAGES[other], *texts))
        organizers = _pick_count(rng, ORGANIZERS_PER_EVENT, len(plan.organizers))
        for position, organizer_id in enumerate(rng.sample(plan.organizers, organizers)):
            rows.organizers.append((event_id, organizer_id, position))
        categories = _pick_count(rng, CATEGORIES_PER_EVENT, len(plan.categories))
        tags = _pick_count(rng, TAGS_PER_EVENT, len(plan.tags))
        for term_id in (*rng.sample(plan.categories, categories), *rng.sample(plan.tags, tags)):
            rows.terms.append((event_id, term_id))
    return rows


class Seeder:
    """One seeding run on one connection, inside one transaction."""

    def __init__(
        self,
        conn: Any,
        counts: SeedCounts,
        *,
        site_timezone: str,
        default_language: str,
        rng: random.Random,
        progress: Callable[[str], None],
        series_rng: random.Random | None = None,
        now: datetime | None = None,
        horizon_days: int = 730,
        max_occurrences: int = 1000,
    ) -> None:
        self.conn = conn
        self.counts = counts
        self.rng = rng
        self.series_rng = series_rng or random.Random()
        self.horizon_days = horizon_days
        self.max_occurrences = max_occurrences
        self.progress = progress
        self.report = SeedReport()
        self.language = LANGUAGES.index(default_language)
        self.others = tuple(i for i in range(len(LANGUAGES)) if i != self.language)
        self.site_timezone = site_timezone
        self.now = now or datetime.now(UTC).replace(microsecond=0)
        self.run = f"{self.now:%Y%m%d%H%M%S}-{secrets.token_hex(3)}"

    async def copy(self, table: str, columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
        if rows:
            await self.conn.copy_records_to_table(table, records=rows, columns=list(columns))
            self.report.rows[table] += len(rows)

    async def ids(self, sequence_sql: str, n: int) -> list[int]:
        if n <= 0:
            return []
        value = await self.conn.fetchval(
            f"SELECT array_agg(nextval({sequence_sql})) FROM generate_series(1, $1)", n
        )
        return list(value)

    async def post_ids(self, n: int) -> list[int]:
        return await self.ids("'post_id_seq'", n)

    def published(self) -> tuple[datetime, datetime]:
        published = self.now - timedelta(seconds=self.rng.randint(86400, 3 * 365 * 86400))
        return published, published + (self.now - published) * self.rng.random() ** 3

    def post_status(self) -> str:
        return "publish" if self.rng.random() < 0.95 else "draft"

    async def images(self) -> list[int]:
        n = IMAGES_PER_RUN if self.counts.events else 0
        ids = await self.ids("pg_get_serial_sequence('images', 'id')", n)
        rows = [
            (image_id, f"https://images.example.org/seed/{self.run}/{number}.jpg", "jpg", 1200, 800, self.now)
            for number, image_id in enumerate(ids, 1)
        ]  # fmt: skip
        await self.copy("images", IMAGE_COLUMNS, rows)
        return ids

    async def terms(self, taxonomy: str, vocabulary: tuple[Text3, ...], n: int) -> list[int]:
        """`n` new terms with names not taken yet; categories partly nested, all translated."""
        taken = await self.conn.fetch(
            "SELECT slug, lower(name) AS name FROM terms WHERE taxonomy = $1", taxonomy
        )
        slugs = {row["slug"] for row in taken}
        names = {row["name"] for row in taken}
        ids = await self.ids("pg_get_serial_sequence('terms', 'id')", n)
        rows: list[tuple[Any, ...]] = []
        translations: list[tuple[Any, ...]] = []
        candidates = count()
        roots: list[int] = []
        for position, term_id in enumerate(ids):
            while True:
                number = next(candidates)
                word = vocabulary[number % len(vocabulary)]
                cycle = number // len(vocabulary)
                names3 = [w if cycle == 0 else f"{w} {cycle + 1}" for w in word]
                name = names3[self.language]
                slug = make_slug(name)
                if slug not in slugs and name.lower() not in names:
                    break
            slugs.add(slug)
            names.add(name.lower())
            category = taxonomy == CATEGORY
            # Categories: the first three in five are top-level, the others children of one.
            parent = self.rng.choice(roots) if category and roots and position % 5 >= 3 else None
            if category and parent is None:
                roots.append(term_id)
            texts = [CATEGORY_TEXT[i].format(name=names3[i]) if category else "" for i in range(3)]
            rows.append((term_id, taxonomy, name, slug, texts[self.language], parent))
            for other, share in zip(self.others, self.counts.shares(TAG_TRANSLATED), strict=True):
                if category or self.rng.random() < share:
                    translations.append(
                        (term_id, LANGUAGES[other], names3[other], texts[other] or None)
                    )
        # Parents before children: one COPY keeps the self-reference satisfied in order.
        await self.copy("terms", TERM_COLUMNS, rows)
        await self.copy("term_translations", TERM_TRANSLATION_COLUMNS, translations)
        return ids

    async def venues(self) -> list[tuple[int, City]]:
        ids = await self.post_ids(self.counts.venues)
        venues: list[tuple[int, City]] = []
        rows: list[tuple[Any, ...]] = []
        translations: list[tuple[Any, ...]] = []
        for venue_id in ids:
            city = self.rng.choice(CITIES)
            kind = self.rng.choice(VENUE_KINDS)
            seats = self.rng.choice((40, 80, 120, 250, 500, 1200))
            names = [PLACE_NAME[i].format(city=city.name[i], kind=kind[i]) for i in range(3)]
            texts = [VENUE_TEXT[i].format(city=city.name[i], seats=seats) for i in range(3)]
            published, modified = self.published()
            slug = f"{make_slug(names[self.language])}-{venue_id}"
            lang = self.language
            rows.append(
                (
                    venue_id, self.post_status(), slug, published, modified, names[lang],
                    texts[lang], "", f"{self.rng.choice(STREETS)} {self.rng.randint(1, 120)}",
                    city.name[lang], city.country[lang], "", city.state, city.zip,
                    f"{city.phone} {self.rng.randint(100000, 999999)}", city.state,
                    f"https://venue-{venue_id}.example.org" if self.rng.random() < 0.7 else "",
                    self.rng.random() < 0.5, self.rng.random() < 0.5,
                    round(city.lat + self.rng.uniform(-0.05, 0.05), 6),
                    round(city.lng + self.rng.uniform(-0.05, 0.05), 6),
                )
            )  # fmt: skip
            for other, share in zip(self.others, self.counts.shares(VENUE_TRANSLATED), strict=True):
                if self.rng.random() < share:
                    translations.append(
                        (venue_id, LANGUAGES[other], names[other], texts[other], None)
                    )
            venues.append((venue_id, city))
        await self.copy("venues", VENUE_COLUMNS, rows)
        await self.copy("venue_translations", ("venue_id", *POST_TRANSLATION_COLUMNS), translations)
        return venues

    async def organizers(self) -> list[int]:
        ids = await self.post_ids(self.counts.organizers)
        rows: list[tuple[Any, ...]] = []
        translations: list[tuple[Any, ...]] = []
        for organizer_id in ids:
            city = self.rng.choice(CITIES)
            kind = self.rng.choice(ORGANIZER_KINDS)
            year = self.rng.randint(1950, 2020)
            names = [PLACE_NAME[i].format(city=city.name[i], kind=kind[i]) for i in range(3)]
            texts = [ORGANIZER_TEXT[i].format(city=city.name[i], year=year) for i in range(3)]
            published, modified = self.published()
            slug = f"{make_slug(names[self.language])}-{organizer_id}"
            rows.append(
                (
                    organizer_id, self.post_status(), slug, published, modified,
                    names[self.language], texts[self.language], "",
                    f"{city.phone} {self.rng.randint(100000, 999999)}",
                    f"https://organizer-{organizer_id}.example.org",
                    f"info@organizer-{organizer_id}.example.org",
                )
            )  # fmt: skip
            for other, share in zip(
                self.others, self.counts.shares(ORGANIZER_TRANSLATED), strict=True
            ):
                if self.rng.random() < share:
                    translations.append(
                        (organizer_id, LANGUAGES[other], names[other], texts[other], None)
                    )
        await self.copy("organizers", ORGANIZER_COLUMNS, rows)
        await self.copy(
            "organizer_translations", ("organizer_id", *POST_TRANSLATION_COLUMNS), translations
        )
        return ids

    def plan(
        self,
        venues: list[tuple[int, City]],
        organizers: list[int],
        categories: list[int],
        tags: list[int],
        images: list[int],
    ) -> Plan:
        site = (self.site_timezone, ZoneInfo(self.site_timezone))
        extra = [(name, ZoneInfo(name)) for name in OTHER_ZONES if name != self.site_timezone]
        zones = [site, *extra]
        weights = [1 - EXTRA_ZONE_SHARE] + [EXTRA_ZONE_SHARE / len(extra)] * len(extra)
        _, cumulative = _weighted(list(zip(zones, weights, strict=True)))
        return Plan(
            language=self.language,
            others=self.others,
            now=self.now,
            today=self.now.astimezone(site[1]).date(),
            zones=zones,
            zone_weights=cumulative,
            venues=venues,
            organizers=organizers,
            categories=categories,
            tags=tags,
            images=images,
            days=DEMO_DAYS if self.counts.demo else (-365, 730),
            translated=self.counts.shares(EVENT_TRANSLATED),
            # The demo's events stay what the README shows: single events.
            recurring=0.0 if self.counts.demo else RECURRING_SHARE,
            horizon_days=self.horizon_days,
            max_occurrences=self.max_occurrences,
        )

    async def events(self, plan: Plan) -> None:
        total = self.counts.events
        starts = list(range(0, total, CHUNK))
        if not starts:
            return

        async def generate(start: int) -> "asyncio.Future[EventRows]":
            # IDs first (the connection serves one operation at a time), then the rows in a
            # thread, so that the next chunk is generated while the current one is copied.
            ids = await self.post_ids(min(CHUNK, total - start))
            return asyncio.ensure_future(
                asyncio.to_thread(event_chunk, plan, self.rng, self.series_rng, ids)
            )

        pending = await generate(starts[0])
        for index, start in enumerate(starts):
            rows = await pending
            if index + 1 < len(starts):
                pending = await generate(starts[index + 1])
            await self.copy("events", EVENT_COLUMNS, rows.events)
            await self.copy("event_translations", EVENT_TRANSLATION_COLUMNS, rows.translations)
            await self.copy("event_terms", ("event_id", "term_id"), rows.terms)
            await self.copy(
                "event_organizers", ("event_id", "organizer_id", "position"), rows.organizers
            )
            await self.occurrences(rows)
            # Statistics after each chunk (docs/design.md#bulk-loads): the triggers' statements
            # join the tables growing here, and the next chunk's foreign keys are checked by
            # plans made for the tables' real size (of an empty table: a scan per row).
            await self.conn.execute(analyze_statement("events", "occurrences", "change_log"))
            done = start + len(rows.events)
            if total >= 5 * CHUNK and (done % (5 * CHUNK) == 0 or done == total):
                self.progress(f"  {done} / {total} events")

    async def occurrences(self, rows: EventRows) -> None:
        """The series' occurrences of a chunk: the first of each takes the series' ID (its
        start is the series' own), the others are drawn from `post_id_seq`."""
        self.report.rows["occurrences"] += rows.singles  # made by the trigger
        firsts = {row[0] for row in rows.occurrences}
        ids = iter(await self.post_ids(len(rows.occurrences) - len(firsts)))
        records: list[tuple[Any, ...]] = []
        previous = None
        for row in rows.occurrences:
            series_id = row[0]
            occurrence_id = series_id if series_id != previous else next(ids)
            previous = series_id
            records.append((occurrence_id, series_id, *row))
        await self.copy("occurrences", OCCURRENCE_COLUMNS, records)

    async def run_all(self) -> None:
        images = await self.images()
        categories = await self.terms(CATEGORY, CATEGORIES, self.counts.categories)
        tags = await self.terms(TAG, TAGS, self.counts.tags)
        venues = await self.venues()
        organizers = await self.organizers()
        await self.events(self.plan(venues, organizers, categories, tags, images))


# Seeding the demo twice would double it: it fills an empty calendar only (the tutorial can
# be run again), and says what it found otherwise.
DEMO_FOUND = (
    "the calendar has records already ({found}); the demo fills an empty one only "
    "(`almanac seed --events N` appends generated events to any)"
)


async def _records_present(conn: asyncpg.Connection) -> str:
    """What a demo would land on: 'N events, M venues' of what exists, or ''."""
    counts = await conn.fetchrow(
        "SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM venues) AS "
        "venues, (SELECT count(*) FROM organizers) AS organizers"
    )
    assert counts is not None
    return ", ".join(f"{number} {table}" for table, number in counts.items() if number)


async def seed(
    url: str,
    counts: SeedCounts,
    *,
    site_timezone: str = "UTC",
    default_language: str = "en",
    random_seed: int | None = None,
    progress: Callable[[str], None] = lambda _: None,
    horizon_days: int = 730,
    max_occurrences: int = 1000,
    now: datetime | None = None,
) -> SeedReport:
    """Insert the records in one transaction, then vacuum and analyse the tables."""
    started = time.perf_counter()
    conn = await asyncpg.connect(
        libpq_url(url),
        server_settings={"application_name": "almanac-seed", "statement_timeout": "0"},
    )
    try:
        if counts.demo:
            found = await _records_present(conn)
            if found:
                return SeedReport(skipped=f"{DEMO_FOUND.format(found=found)}: nothing changed")
        seeder = Seeder(
            conn,
            counts,
            site_timezone=site_timezone,
            default_language=default_language,
            rng=random.Random(random_seed),
            progress=progress,
            series_rng=random.Random(None if random_seed is None else f"series-{random_seed}"),
            now=now,
            horizon_days=horizon_days,
            max_occurrences=max_occurrences,
        )
        async with conn.transaction():
            await seeder.run_all()
        report = seeder.report
        report.seconds = time.perf_counter() - started
        vacuum_started = time.perf_counter()
        # Bulk-loaded rows are not yet all-visible: vacuum so that index-only scans work.
        await conn.execute(f"VACUUM (ANALYZE) {', '.join(SEEDED_TABLES)}")
        report.vacuum_seconds = time.perf_counter() - vacuum_started
        return report
    finally:
        await conn.close()
