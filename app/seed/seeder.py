"""`almanac seed`: realistic bulk data for benchmarks and demos; this module writes it (COPY),
the words come from vocabulary.py, the event rows from generation.py, the columns from
tables.py.

Events with venues, ordered organizers, categories (some nested), tags, images, costs, time
zones and German / Slovak translations. Rows are generated in Python and streamed with COPY
(asyncpg `copy_records_to_table`) inside one transaction; the next chunk of events is
generated in a thread while the previous one is being copied. The events' chunks are written
set-based with the per-row triggers disabled for the transaction, the seeder writing what
they would have (app/seed/bulk.py). Events, venues and organizers draw their IDs from
`post_id_seq` and their slugs end with that ID, so seeding appends to a database in use
without clashing with what is there (new terms get names not yet taken).
About a tenth of the events are series (weekly or daily, ending after a number of dates or on
a day, a few endless weekly ones): their occurrences are expanded (app/seed/generation.py) as
`SeriesStore.materialise` would (up to the horizon and the cap), and copied after the
events; the first one has the series' ID, the others IDs from `post_id_seq` (a single
event's one occurrence has the event's ID, as the database's trigger makes it). Afterwards
the tables are vacuumed and analysed so that plans and index-only scans are those of a
settled database.
"""

import asyncio
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import count
from typing import Any
from urllib.parse import urlsplit, urlunsplit
from zoneinfo import ZoneInfo

import asyncpg

from app.core.database.engine import asyncpg_url
from app.core.database.sql import analyze_statement
from app.core.rules.slugs import make_slug
from app.core.settings import Settings, get_settings
from app.i18n import LANGUAGES
from app.models import CATEGORY, TAG
from app.seed.bulk import ChunkWriter
from app.seed.demo_images import store_demo_images
from app.seed.generation import (
    EVENT_TRANSLATED,
    RECURRING_SHARE,
    EventRows,
    Plan,
    event_chunk,
    weighted,
)
from app.seed.tables import (
    IMAGE_COLUMNS,
    OCCURRENCE_COLUMNS,
    ORGANIZER_COLUMNS,
    POST_TRANSLATION_COLUMNS,
    SEEDED_TABLES,
    TERM_COLUMNS,
    TERM_TRANSLATION_COLUMNS,
    VENUE_COLUMNS,
)
from app.seed.vocabulary import (
    CATEGORIES,
    CATEGORY_TEXT,
    CITIES,
    ORGANIZER_KINDS,
    ORGANIZER_TEXT,
    PLACE_NAME,
    STREETS,
    TAGS,
    VENUE_KINDS,
    VENUE_TEXT,
    City,
    Text3,
)

CHUNK = 20_000  # events generated and copied at a time
# The first chunk is small: its foreign keys and triggers are checked by plans made for empty
# tables (a scan per row), which the statistics taken after it replace (docs/design.md#bulk-loads).
FIRST_CHUNK = 1_000
# Tables a chunk grows: analysed after the first chunk and whenever they have doubled since
# (see `events`).
GROWN_PER_CHUNK = (
    *("events", "event_translations", "event_terms", "event_organizers"),
    *("occurrences", "change_log"),
)
OTHER_ZONES = ("Europe/Berlin", "America/New_York")
EXTRA_ZONE_SHARE = 0.2  # the rest use the site time zone

# Share of records with a translation, per non-default language (events: generation.py).
VENUE_TRANSLATED = (0.5, 0.4)
UNPLACED = 10  # one venue in ten has no coordinates
ORGANIZER_TRANSLATED = (0.3, 0.3)
TAG_TRANSLATED = (0.5, 0.5)
IMAGES_PER_RUN = 20


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


def chunk_starts(total: int) -> list[int]:
    """Where each chunk of `total` events starts: a small first one, then CHUNK at a time."""
    if total <= FIRST_CHUNK:
        return [0] if total > 0 else []
    return [0, *range(FIRST_CHUNK, total, CHUNK)]


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
        images: list[int] | None = None,
    ) -> None:
        self.conn = conn
        # The media library's images to use (the demo's, demo_images.py), else stand-ins.
        self.stored_images = images
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
        self.writer = ChunkWriter(conn)
        self.started = time.perf_counter()

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
        if self.stored_images:
            # IMAGES_PER_RUN entries whatever their number: the events' random draws, and
            # so the demo's texts, stay the same.
            return [self.stored_images[n % len(self.stored_images)] for n in range(IMAGES_PER_RUN)]
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
            texts = [VENUE_TEXT[i].format(where=city.where[i], seats=seats) for i in range(3)]
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
                    *self.place(venue_id, city),
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

    def place(self, venue_id: int, city: City) -> tuple[float | None, float | None, str | None]:
        """A venue's coordinates and their precision: within ~5 km of its city's centre, as
        a geocoded address; one venue in UNPLACED has none (its address was not found)."""
        lat = round(city.lat + self.rng.uniform(-0.05, 0.05), 6)
        lng = round(city.lng + self.rng.uniform(-0.05, 0.05), 6)
        if venue_id % UNPLACED == 0:  # not drawn: the demo's texts stay what they were
            return None, None, None
        return lat, lng, "address"

    async def organizers(self) -> list[int]:
        ids = await self.post_ids(self.counts.organizers)
        rows: list[tuple[Any, ...]] = []
        translations: list[tuple[Any, ...]] = []
        for organizer_id in ids:
            city = self.rng.choice(CITIES)
            kind = self.rng.choice(ORGANIZER_KINDS)
            year = self.rng.randint(1950, 2020)
            names = [PLACE_NAME[i].format(city=city.name[i], kind=kind[i]) for i in range(3)]
            texts = [ORGANIZER_TEXT[i].format(where=city.where[i], year=year) for i in range(3)]
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
        _, cumulative = weighted(list(zip(zones, weights, strict=True)))
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
        starts = chunk_starts(total)
        if not starts:
            return
        ends = [*starts[1:], total]

        async def generate(index: int) -> "asyncio.Future[EventRows]":
            # IDs first (the connection serves one operation at a time), then the rows in a
            # thread, so that the next chunk is generated while the current one is copied.
            ids = await self.post_ids(ends[index] - starts[index])
            return asyncio.ensure_future(
                asyncio.to_thread(event_chunk, plan, self.rng, self.series_rng, ids)
            )

        pending = await generate(0)
        analysed = 0  # events loaded when statistics were last taken
        for index, start in enumerate(starts):
            rows = await pending
            if index + 1 < len(starts):
                pending = await generate(index + 1)
            await self.write_chunk(rows)
            done = start + len(rows.events)
            # Statistics after the first chunk (docs/design.md#bulk-loads): the next chunks'
            # foreign keys are then checked by plans made for a table of rows, through its
            # index (of an empty table: a scan per row). No statement of a chunk joins the
            # growing tables (bulk.py), so they are analysed again only when they have
            # doubled: a few times in a whole load, not 50 times (about 1 s of CPU each).
            if done >= 2 * analysed:
                await self.conn.execute(analyze_statement(*GROWN_PER_CHUNK))
                analysed = done
            step = done - FIRST_CHUNK  # progress every 5 full chunks, and at the end
            if total >= 5 * CHUNK and (done == total or (step > 0 and step % (5 * CHUNK) == 0)):
                seconds = time.perf_counter() - self.started
                self.progress(f"  {done} / {total} events, {seconds:.0f} s")

    async def begin_events(self) -> None:
        """First in the transaction: disabling the triggers locks their tables against other
        writers until the commit (reads go on), taken before the seed holds anything else."""
        await self.writer.begin()

    async def end_events(self) -> None:
        await self.writer.end()

    async def write_chunk(self, rows: EventRows) -> None:
        """A chunk's rows, with what the disabled triggers would have derived (bulk.py)."""
        await self.writer.events(rows)
        self.report.rows["events"] += len(rows.events)
        self.report.rows["event_translations"] += len(rows.translations)
        await self.copy("event_terms", ("event_id", "term_id"), rows.terms)
        await self.copy(
            "event_organizers", ("event_id", "organizer_id", "position"), rows.organizers
        )
        occurrences = await self.occurrence_records(rows)
        await self.copy("occurrences", OCCURRENCE_COLUMNS, occurrences)
        await self.writer.derived(rows, occurrences)

    async def occurrence_records(self, rows: EventRows) -> list[tuple[Any, ...]]:
        """The chunk's occurrences with their IDs: the first of each event takes the event's
        ID (a series' first start is the series' own), the others are drawn from
        `post_id_seq`."""
        firsts = {row[0] for row in rows.occurrences}
        ids = iter(await self.post_ids(len(rows.occurrences) - len(firsts)))
        records: list[tuple[Any, ...]] = []
        previous = None
        for row in rows.occurrences:
            series_id = row[0]
            occurrence_id = series_id if series_id != previous else next(ids)
            previous = series_id
            records.append((occurrence_id, series_id, *row))
        return records

    async def run_all(self) -> None:
        await self.begin_events()
        images = await self.images()
        categories = await self.terms(CATEGORY, CATEGORIES, self.counts.categories)
        tags = await self.terms(TAG, TAGS, self.counts.tags)
        venues = await self.venues()
        organizers = await self.organizers()
        await self.events(self.plan(venues, organizers, categories, tags, images))
        await self.end_events()


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
    settings: Settings | None = None,
    stored_images: bool = False,
) -> SeedReport:
    """Insert the records in one transaction, then vacuum and analyse the tables. A demo's
    images are real ones, stored in the media library (of `settings`, else the
    environment's) before."""
    started = time.perf_counter()
    conn = await asyncpg.connect(
        libpq_url(url),
        # No JIT: each chunk's statements are planned for far more rows than they read
        # (the staged tables have no statistics) and compiling them costs more than it saves.
        server_settings={
            "application_name": "almanac-seed",
            "statement_timeout": "0",
            "jit": "off",
        },
    )
    try:
        images: list[int] | None = None
        if counts.demo:
            found = await _records_present(conn)
            if found:
                return SeedReport(skipped=f"{DEMO_FOUND.format(found=found)}: nothing changed")
        # The demo's pictures, for generated events too when asked (`make lighthouse`).
        if counts.demo or stored_images:
            images = await store_demo_images(url, settings or get_settings())
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
            images=images,
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
