"""A chunk of seeded events written set-based, with the row triggers' work done by the seeder.

The triggers keep every writer's derived data right (search words, occurrences, the change
log, term counts), but per row or per statement with joins they cost most of a bulk load's
time (docs/performance.md#seeding): each event's search words computed by a row trigger,
then rewritten by the translations' trigger (a second row version and index entries), the
change log's triggers looking each logged ID up, the term counts' trigger joining the links
to all of `events`. For the seeding transaction the seeder disables those triggers by name
(`ALTER TABLE ... DISABLE TRIGGER`: a lock on the tables until the commit, no superuser,
foreign keys still checked; other writers wait for the commit, readers go on) and writes
what they would have written:

- the events once, with their search words (the texts and translations staged in temporary
  tables, the words made by the SQL of `event_search_words`, migration e12a0b1c2d3e) and the
  revision the translations' rewrite would have counted up (1 for a translated event);
- each event's occurrences from the generator (a single event's as
  `occurrences_of_new_events` makes it);
- the term counts in one UPDATE of the chunk's per-term deltas;
- the change log rows every trigger would have added, in the order they would have (copied).

tests/live/test_seed_triggers.py seeds the same data through the triggers into a second
database and compares every table.
"""

from collections import Counter
from collections.abc import Sequence
from typing import Any

from app.models import CATEGORY
from app.seed.generation import EventRows
from app.seed.tables import EVENT_COLUMNS, EVENT_TRANSLATION_COLUMNS

# (table, trigger) whose work `ChunkWriter` does for a seed's chunks. Disabled for the whole
# seeding transaction: before the events, the seed changes none of these tables but the log,
# with rows of terms, venues and organizers, which `change_log_occurrences_of_events` skips.
REPLACED_TRIGGERS = (
    ("events", "events_search_words"),
    ("events", "change_log_events_insert"),
    ("events", "occurrences_of_new_events"),
    ("event_translations", "change_log_event_translations_insert"),
    ("event_translations", "event_translations_inserted_search_words"),
    ("event_terms", "change_log_event_terms_insert"),
    ("event_terms", "event_terms_added"),
    ("event_organizers", "change_log_event_organizers_insert"),
    ("occurrences", "change_log_occurrences_insert"),
    ("change_log", "change_log_occurrences_of_events"),
    ("terms", "change_log_terms_update"),
)

STATUS = EVENT_COLUMNS.index("status")
RECURRENCE = EVENT_COLUMNS.index("recurrence")
STAGED_EVENTS = "seed_events"
STAGED_TRANSLATIONS = "seed_event_translations"


def _toggle(action: str) -> list[str]:
    """One ALTER TABLE per table, disabling or enabling its replaced triggers."""
    tables: dict[str, list[str]] = {}
    for table, trigger in REPLACED_TRIGGERS:
        tables.setdefault(table, []).append(f"{action} TRIGGER {trigger}")
    return [f"ALTER TABLE {table} {', '.join(actions)}" for table, actions in tables.items()]


def _columns(prefix: str, columns: Sequence[str]) -> str:
    return ", ".join(f"{prefix}{column}" for column in columns)


# `event_search_words(id, title, description, excerpt)` (migration e12a0b1c2d3e) of every
# staged event at once, over the staged translations (the function reads
# `event_translations`, empty for these IDs yet): the stored texts' words tagged `*:`, and of
# each translation its words tagged with its language and `<lang>:~`. `array_to_tsvector`
# sorts and drops repeated words, as the function's DISTINCT does.
_WORDS = "tsvector_to_array(to_tsvector('simple', concat_ws(' ', {}, {}, {})))"
_OWN_WORDS = _WORDS.format("s.title", "s.description", "s.excerpt")
_TRANSLATED_WORDS = _WORDS.format(
    "coalesce(t.title, s.title)", "coalesce(t.description, s.description)",
    "coalesce(t.excerpt, s.excerpt)",
)  # fmt: skip
INSERT_EVENTS = f"""
INSERT INTO events ({_columns("", EVENT_COLUMNS)}, search_words, revision)
SELECT {_columns("s.", EVENT_COLUMNS)},
    array_to_tsvector(ARRAY(SELECT '*:' || w FROM unnest({_OWN_WORDS}) AS w))
        || coalesce(translated.words, ''::tsvector),
    -- The translations' rewrite of the words counted the revision up (events_revision).
    CASE WHEN translated.event_id IS NULL THEN 0 ELSE 1 END
FROM {STAGED_EVENTS} AS s LEFT JOIN (
    SELECT t.event_id, array_to_tsvector(array_agg(tagged.word)) AS words
    FROM {STAGED_TRANSLATIONS} AS t JOIN {STAGED_EVENTS} AS s ON s.id = t.event_id,
        LATERAL (
            SELECT t.language || ':~'
            UNION ALL SELECT t.language || ':' || w FROM unnest({_TRANSLATED_WORDS}) AS w
        ) AS tagged (word)
    GROUP BY t.event_id
) AS translated ON translated.event_id = s.id
"""
INSERT_TRANSLATIONS = (
    f"INSERT INTO event_translations ({_columns('', EVENT_TRANSLATION_COLUMNS)}) "
    f"SELECT {_columns('', EVENT_TRANSLATION_COLUMNS)} FROM {STAGED_TRANSLATIONS}"
)
# As `term_counts_links_added`: each term's published links, terms without any untouched.
COUNT_TERMS = """
UPDATE terms AS t SET published_count = t.published_count + d.n
FROM unnest($1::bigint[], $2::bigint[]) AS d (term_id, n) WHERE t.id = d.term_id
RETURNING t.id, t.taxonomy
"""


def _distinct(ids: Any) -> list[tuple[str, int]]:
    return [("event", record_id) for record_id in dict.fromkeys(ids)]


class ChunkWriter:
    """Writes chunks of events on `conn` inside the seeding transaction (see the module)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def begin(self) -> None:
        for statement in _toggle("DISABLE"):
            await self.conn.execute(statement)
        for table, source, columns in (
            (STAGED_EVENTS, "events", EVENT_COLUMNS),
            (STAGED_TRANSLATIONS, "event_translations", EVENT_TRANSLATION_COLUMNS),
        ):
            await self.conn.execute(
                f"CREATE TEMPORARY TABLE {table} ON COMMIT DROP AS "
                f"SELECT {_columns('', columns)} FROM {source} WITH NO DATA"
            )

    async def end(self) -> None:
        for statement in _toggle("ENABLE"):
            await self.conn.execute(statement)

    async def events(self, rows: EventRows) -> None:
        """The events and their translations, each event written once."""
        await self.conn.execute(f"TRUNCATE {STAGED_EVENTS}, {STAGED_TRANSLATIONS}")
        await self.conn.copy_records_to_table(
            STAGED_EVENTS, records=rows.events, columns=list(EVENT_COLUMNS)
        )
        await self.conn.copy_records_to_table(
            STAGED_TRANSLATIONS, records=rows.translations, columns=list(EVENT_TRANSLATION_COLUMNS)
        )
        await self.conn.execute(INSERT_EVENTS)
        await self.conn.execute(INSERT_TRANSLATIONS)

    async def derived(self, rows: EventRows, occurrences: list[tuple[Any, ...]]) -> None:
        """After the chunk's rows: the term counts, then the change log rows the triggers
        would have written (`occurrences`: the copied rows, their IDs first)."""
        published = {row[0] for row in rows.events if row[STATUS] == "publish"}
        deltas = sorted(Counter(term for event, term in rows.terms if event in published).items())
        counted = await self.conn.fetch(
            COUNT_TERMS, [term for term, _ in deltas], [n for _, n in deltas]
        )
        single = {row[0] for row in rows.events if row[RECURRENCE] is None}
        log = [
            *_distinct(row[0] for row in rows.events),  # the events' insert
            *_distinct(row[0] for row in occurrences if row[1] in single),  # single's dates
            *_distinct(row[0] for row in rows.translations),  # the translations' insert
            *_distinct(row[0] for row in rows.translations),  # their rewrite of the words
            *_distinct(row[0] for row in rows.terms),
            *((("category" if row["taxonomy"] == CATEGORY else "tag"), row["id"]) for row in counted),
            *_distinct(row[0] for row in rows.organizers),
            *_distinct(row[0] for row in occurrences if row[1] not in single),  # series' dates
            # The series' other dates, as the occurrences of a logged series.
            *_distinct(row[0] for row in occurrences if row[1] not in single and row[0] != row[1]),
        ]  # fmt: skip
        await self.conn.copy_records_to_table(
            "change_log", records=log, columns=["kind", "record_id"]
        )
