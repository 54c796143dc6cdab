"""The seeder's set-based chunks (app/seed/bulk.py) write exactly what the triggers would.

The same generated data (same random seeds, moment and run name) is seeded twice: through the
seeder as it runs, with the replaced triggers disabled, into one database, and through the
triggers (every row copied as it is generated, each trigger doing its own work, as the seeder
did before) into another. Every seeded table, the term counts and the change log (what it
logs in each transaction, its sequence numbers and times aside) must be the same.
"""

import asyncio
import json
import random
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest

from app.core.database.migrate import upgrade
from app.seed import seeder as seeder_module
from app.seed.bulk import RECURRENCE
from app.seed.generation import EventRows
from app.seed.seeder import SeedCounts, Seeder, libpq_url
from app.seed.tables import EVENT_COLUMNS, EVENT_TRANSLATION_COLUMNS, OCCURRENCE_COLUMNS
from tests.live.harness import fresh_database

NOW = datetime(2026, 11, 25, 1, 0, 3, tzinfo=UTC)
COUNTS = SeedCounts(events=300, venues=6, organizers=6, categories=5, tags=6)
# Ordered by key: the rows of every table the seed writes, and the terms' stored counts.
TABLES = {
    "images": "id",
    "terms": "id",
    "term_translations": "term_id, language",
    "venues": "id",
    "venue_translations": "venue_id, language",
    "organizers": "id",
    "organizer_translations": "organizer_id, language",
    "events": "id",
    "event_translations": "event_id, language",
    "event_terms": "event_id, term_id",
    "event_organizers": "event_id, organizer_id",
    "occurrences": "id",
}
# Columns whose default is the time of the writing transaction (not the seed's moment).
WRITTEN_AT = {"images": "modified_at"}


class TriggerSeeder(Seeder):
    """The seeder's chunks written the old way: rows copied, the triggers deriving the rest."""

    async def begin_events(self) -> None:
        pass

    async def end_events(self) -> None:
        pass

    async def write_chunk(self, rows: EventRows) -> None:
        await self.copy("events", EVENT_COLUMNS, rows.events)
        await self.copy("event_translations", EVENT_TRANSLATION_COLUMNS, rows.translations)
        await self.copy("event_terms", ("event_id", "term_id"), rows.terms)
        await self.copy(
            "event_organizers", ("event_id", "organizer_id", "position"), rows.organizers
        )
        # A single event's occurrence is the trigger's; the series' are copied.
        singles = {row[0] for row in rows.events if row[RECURRENCE] is None}
        records = await self.occurrence_records(rows)
        series = [record for record in records if record[1] not in singles]
        await self.copy("occurrences", OCCURRENCE_COLUMNS, series)


async def seed_with(url: str, kind: type[Seeder], random_seed: int) -> None:
    conn = await asyncpg.connect(libpq_url(url))
    try:
        seeder = kind(
            conn,
            COUNTS,
            site_timezone="Europe/Berlin",
            default_language="en",
            rng=random.Random(random_seed),
            progress=lambda _: None,
            series_rng=random.Random(f"series-{random_seed}"),
            now=NOW,
        )
        seeder.run = f"run-{random_seed}"  # the images' URLs: otherwise a random name
        async with conn.transaction():
            await seeder.run_all()
    finally:
        await conn.close()


async def contents(url: str) -> dict[str, Any]:
    """Every table's rows (as JSON), and the change log's rows counted per transaction."""
    conn = await asyncpg.connect(libpq_url(url))
    try:
        found: dict[str, Any] = {}
        for table, key in TABLES.items():
            rows = await conn.fetch(f"SELECT to_jsonb(t) AS row FROM {table} AS t ORDER BY {key}")
            found[table] = [json.loads(row["row"]) for row in rows]
            for row in found[table]:
                row.pop(WRITTEN_AT.get(table, ""), None)
        log = await conn.fetch("SELECT xid::text AS xid, kind, record_id FROM change_log")
        per_transaction: dict[str, Counter[tuple[str, int]]] = {}
        for row in log:
            per_transaction.setdefault(row["xid"], Counter())[row["kind"], row["record_id"]] += 1
        found["change_log"] = [per_transaction[xid] for xid in sorted(per_transaction, key=int)]
        return found
    finally:
        await conn.close()


@pytest.fixture
async def two_databases(database_url: str) -> AsyncIterator[tuple[str, str]]:
    async with (
        fresh_database(database_url, "almanac_seed_bulk") as bulk,
        fresh_database(database_url, "almanac_seed_triggers") as triggers,
    ):
        for url in (bulk, triggers):
            await asyncio.to_thread(upgrade, url)
        yield bulk, triggers


async def test_set_based_chunks_write_what_the_triggers_write(
    two_databases: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Several chunks: the counts and the log add up across them.
    monkeypatch.setattr(seeder_module, "FIRST_CHUNK", 60)
    monkeypatch.setattr(seeder_module, "CHUNK", 100)
    bulk, triggers = two_databases
    for random_seed in (3, 4):  # the second run appends to the first one's records
        await seed_with(bulk, Seeder, random_seed)
        await seed_with(triggers, TriggerSeeder, random_seed)
    expected = await contents(triggers)
    found = await contents(bulk)

    events = expected["events"]
    assert len(events) == 2 * COUNTS.events
    # The data exercises every derived kind: series, translations, published and not.
    assert sum(event["recurrence"] is not None for event in events) >= 20
    assert len(expected["occurrences"]) > len(events) + 40
    assert {event["revision"] for event in events} == {0, 1}  # translated ones rewritten
    assert any(":~" in event["search_words"] for event in events)
    assert all(term["published_count"] > 0 for term in expected["terms"])
    assert len(expected["change_log"]) == 2  # one transaction per run
    for table in (*TABLES, "change_log"):
        assert found[table] == expected[table], table
    # The replaced triggers are on again after the seed.
    conn = await asyncpg.connect(libpq_url(bulk))
    try:
        disabled = await conn.fetchval(
            "SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'"
        )
    finally:
        await conn.close()
    assert disabled == 0
