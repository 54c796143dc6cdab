"""The change log of the changes feed, written by triggers

Every statement that changes what a record's GET shows adds one row per touched record to
`change_log`: (seq, the writing transaction's ID, kind, record ID, time). Triggers rather
than the write paths, so that no writer is missed (bulk seeding, cascades, manual SQL) and
so that the records whose *embedded* objects change are logged too: an event embeds its
venue, organizers, categories, tags and image, so a venue rename logs the venue and every
event linked to it, a term rename every event carrying the term. A term's stored count is
the one embedded field that does not log its events (it changes with every publication in
the term: see docs/design.md#changes-feed).

Statement-level triggers with transition tables: a bulk insert of a million events writes
its log rows in one INSERT ... SELECT, not a million trigger calls.

Revision ID: e17a0b1c2d3e
Revises: e14a0b1c2d3e
Create Date: 2026-11-23 03:10:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "e17a0b1c2d3e"
down_revision: str | None = "e14a0b1c2d3e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TERM_KIND = "CASE WHEN {t}.taxonomy = 'tribe_events_cat' THEN 'category' ELSE 'tag' END"
# Events embedding a changed venue / organizer / term (`ids`: a query of their IDs).
EVENTS_OF = {
    "venue": "SELECT 'event', e.id FROM events AS e WHERE e.venue_id IN ({ids})",
    "organizer": "SELECT 'event', l.event_id FROM event_organizers AS l "
    "WHERE l.organizer_id IN ({ids})",
    "term": "SELECT 'event', l.event_id FROM event_terms AS l WHERE l.term_id IN ({ids})",
}
# Term columns an event embeds (its stored count excepted, see the docstring).
EMBEDDED_TERM_COLUMNS = ("name", "slug", "description", "parent_id", "taxonomy")
IMAGE_COLUMNS = ("url", "extension", "width", "height")


def _posts(kind: str, rows: str, key: str = "id") -> str:
    return f"SELECT '{kind}', {key} FROM {rows}"


def _with_events(kind: str, rows: str, key: str = "id") -> str:
    """The records and the events embedding them."""
    ids = f"SELECT {key} FROM {rows}"
    return f"{_posts(kind, rows, key)} UNION ALL {EVENTS_OF[kind].format(ids=ids)}"


def _terms(rows: str, key: str = "id") -> str:
    if key == "id":
        return f"SELECT {TERM_KIND.format(t='r')}, r.id FROM {rows} AS r"
    # Translations: the term's kind comes from the term (gone when the term is deleted,
    # which logs the term itself).
    return (
        f"SELECT {TERM_KIND.format(t='t')}, t.id FROM {rows} AS r JOIN terms AS t ON t.id = r.{key}"
    )


def _changed(columns: tuple[str, ...]) -> str:
    """Changed rows of an UPDATE: those whose `columns` differ."""
    differ = " OR ".join(f"o.{c} IS DISTINCT FROM n.{c}" for c in columns)
    return f"(SELECT n.* FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id WHERE {differ}) AS c"


def _image_users(ids: str) -> str:
    """Posts showing a changed image, and the events embedding such a venue or organizer."""
    return " UNION ALL ".join(
        [
            f"SELECT 'event', id FROM events WHERE image_id IN ({ids})",
            f"SELECT 'venue', id FROM venues WHERE image_id IN ({ids})",
            f"SELECT 'organizer', id FROM organizers WHERE image_id IN ({ids})",
            EVENTS_OF["venue"].format(ids=f"SELECT id FROM venues WHERE image_id IN ({ids})"),
            EVENTS_OF["organizer"].format(
                ids=f"SELECT id FROM organizers WHERE image_id IN ({ids})"
            ),
        ]
    )


# (table, operation) -> the (kind, record_id) rows to log.
LOGGED: dict[tuple[str, str], str] = {}
for op_name, rows in (("INSERT", "new_rows"), ("UPDATE", "new_rows"), ("DELETE", "old_rows")):
    LOGGED["events", op_name] = _posts("event", rows)
    for table, key in (
        ("event_translations", "event_id"),
        ("event_terms", "event_id"),
        ("event_organizers", "event_id"),
    ):
        LOGGED[table, op_name] = _posts("event", rows, key)
    LOGGED["venue_translations", op_name] = _with_events("venue", rows, "venue_id")
    LOGGED["organizer_translations", op_name] = _with_events("organizer", rows, "organizer_id")
    LOGGED["term_translations", op_name] = f"{_terms(rows, 'term_id')} UNION ALL " + EVENTS_OF[
        "term"
    ].format(ids=f"SELECT term_id FROM {rows}")
for kind in ("venue", "organizer"):
    table = f"{kind}s"
    LOGGED[table, "INSERT"] = _posts(kind, "new_rows")
    LOGGED[table, "UPDATE"] = _with_events(kind, "new_rows")  # every column is embedded
    LOGGED[table, "DELETE"] = _posts(kind, "old_rows")  # the FK cascades log the events
LOGGED["terms", "INSERT"] = _terms("new_rows")
LOGGED["terms", "UPDATE"] = f"{_terms('new_rows')} UNION ALL " + EVENTS_OF["term"].format(
    ids=f"SELECT c.id FROM {_changed(EMBEDDED_TERM_COLUMNS)}"
)
LOGGED["terms", "DELETE"] = _terms("old_rows")
LOGGED["images", "UPDATE"] = _image_users(f"SELECT c.id FROM {_changed(IMAGE_COLUMNS)}")


def _name(table: str, op_name: str) -> str:
    return f"change_log_{table}_{op_name.lower()}"


def upgrade() -> None:
    op.execute("CREATE SEQUENCE change_seq")
    op.execute(
        """
        CREATE TABLE change_log (
            seq bigint PRIMARY KEY DEFAULT nextval('change_seq'),
            xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
            kind varchar(16) NOT NULL,
            record_id bigint NOT NULL,
            changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
        )
        """
    )
    op.execute("CREATE INDEX change_log_xid_idx ON change_log (xid)")
    op.execute("CREATE INDEX change_log_changed_at_idx ON change_log (changed_at)")
    op.execute(
        "CREATE TABLE change_log_horizon (id bigint PRIMARY KEY, "
        "pruned_through bigint NOT NULL DEFAULT 0)"
    )
    op.execute("INSERT INTO change_log_horizon (id, pruned_through) VALUES (1, 0)")
    for (table, op_name), logged in LOGGED.items():
        name = _name(table, op_name)
        rows = "OLD TABLE AS old_rows" if op_name == "DELETE" else "NEW TABLE AS new_rows"
        if op_name == "UPDATE":
            rows = "OLD TABLE AS old_rows NEW TABLE AS new_rows"
        op.execute(
            f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"INSERT INTO change_log (kind, record_id) "
            f"SELECT DISTINCT kind, id FROM ({logged}) AS logged (kind, id); "
            "RETURN NULL; END $$"
        )
        op.execute(
            f"CREATE TRIGGER {name} AFTER {op_name} ON {table} REFERENCING {rows} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {name}()"
        )


def downgrade() -> None:
    for table, op_name in LOGGED:
        name = _name(table, op_name)
        op.execute(f"DROP TRIGGER {name} ON {table}")
        op.execute(f"DROP FUNCTION {name}()")
    op.execute("DROP TABLE change_log_horizon")
    op.execute("DROP TABLE change_log")
    op.execute("DROP SEQUENCE change_seq")
