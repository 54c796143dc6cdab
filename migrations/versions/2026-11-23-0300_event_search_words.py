"""An indexed word search for the event list

`events.search_words` holds the words of an event's title, description and excerpt as a
`tsvector`, once for each language the event can be read in, and a GIN index serves the
list's `search`. Lexemes are tagged with the language they were read in:

- `*:<word>`: the texts as stored on the event (what the default language shows, and what
  every language without a translation of the event falls back to);
- `<lang>:<word>`: the texts a request in `<lang>` shows (each field its translation, or the
  stored text where the translation leaves it empty), for every translated language;
- `<lang>:~`: the event has a translation in `<lang>` (the query uses the `*:` words only
  for events without one).

The words are made by PostgreSQL's own parser (the `simple` configuration: lower-cased, not
stemmed, markup dropped), in triggers, so that every writer (the API, the seeder, the
importer, manual SQL) keeps them exact. See app/events/search.py for the query side.

Revision ID: e12a0b1c2d3e
Revises: d7e8f9a0b1c2
Create Date: 2026-11-23 03:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "e12a0b1c2d3e"
down_revision: str | None = "d7e8f9a0b1c2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WORDS_FUNCTION = """
CREATE FUNCTION event_search_words(bigint, text, text, text)
RETURNS tsvector LANGUAGE sql STABLE AS $$
    -- $1: the event's ID; $2, $3, $4: its stored title, description and excerpt
    SELECT coalesce(array_to_tsvector(array_agg(DISTINCT word)), ''::tsvector) FROM (
        SELECT '*:' || lexeme AS word
        FROM unnest(to_tsvector('simple', concat_ws(' ', $2, $3, $4)))
        UNION ALL
        SELECT t.language || ':' || words.lexeme
        FROM event_translations t,
            unnest(to_tsvector('simple', concat_ws(' ', coalesce(t.title, $2),
                coalesce(t.description, $3), coalesce(t.excerpt, $4)))) words
        WHERE t.event_id = $1
        UNION ALL
        SELECT t.language || ':~' FROM event_translations t WHERE t.event_id = $1
    ) tagged
$$
"""

EVENT_TRIGGER_FUNCTION = """
CREATE FUNCTION events_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.search_words := event_search_words(NEW.id, NEW.title, NEW.description, NEW.excerpt);
    RETURN NEW;
END
$$
"""

# Translations change the words of their events: once per statement, so that a COPY of many
# translations updates each event once.
TRANSLATIONS_TRIGGER_FUNCTION = """
CREATE FUNCTION event_translations_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE events e
    SET search_words = event_search_words(e.id, e.title, e.description, e.excerpt)
    WHERE e.id IN (SELECT event_id FROM changed_rows);
    RETURN NULL;
END
$$
"""

TRANSLATION_EVENTS = {"inserted": "INSERT", "updated": "UPDATE", "deleted": "DELETE"}


def upgrade() -> None:
    op.execute("ALTER TABLE events ADD COLUMN search_words tsvector")
    op.execute(WORDS_FUNCTION)
    op.execute(EVENT_TRIGGER_FUNCTION)
    op.execute(TRANSLATIONS_TRIGGER_FUNCTION)
    op.execute(
        "CREATE TRIGGER events_search_words BEFORE INSERT OR UPDATE OF title, description,"
        " excerpt ON events FOR EACH ROW EXECUTE FUNCTION events_search_words()"
    )
    for name, event in TRANSLATION_EVENTS.items():
        table = "OLD" if event == "DELETE" else "NEW"
        op.execute(
            f"CREATE TRIGGER event_translations_{name}_search_words AFTER {event}"
            f" ON event_translations REFERENCING {table} TABLE AS changed_rows"
            " FOR EACH STATEMENT EXECUTE FUNCTION event_translations_search_words()"
        )
    op.execute(
        "UPDATE events SET search_words = event_search_words(id, title, description, excerpt)"
    )
    # Every row rewritten: statistics now, not when autovacuum gets to it
    # (docs/design.md#bulk-loads).
    op.execute("ANALYZE events")
    op.execute("ALTER TABLE events ALTER COLUMN search_words SET NOT NULL")
    op.execute("CREATE INDEX events_search_idx ON events USING gin (search_words)")


def downgrade() -> None:
    op.execute("DROP INDEX events_search_idx")
    for name in TRANSLATION_EVENTS:
        op.execute(f"DROP TRIGGER event_translations_{name}_search_words ON event_translations")
    op.execute("DROP TRIGGER events_search_words ON events")
    op.execute("DROP FUNCTION event_translations_search_words()")
    op.execute("DROP FUNCTION events_search_words()")
    op.execute("DROP FUNCTION event_search_words(bigint, text, text, text)")
    op.execute("ALTER TABLE events DROP COLUMN search_words")
