"""Recurring events: series, occurrences and overrides

`events.recurrence` holds a series' RFC 5545 lines; `occurrences` holds one row per date of
every event, so the list reads dates from one indexed table (app/events/occurrences.py). An
override is an `events` row of its own (`series_id` names its series, `overrides` the
fields it changed), shown by one occurrence.

Triggers keep every writer right, not only the API's: an inserted single event gets its
one occurrence (with the event's ID), a single event's new dates move it, an override's
dates move its occurrence, and a series' status, listing flag and publication date are
copied to its occurrences (`listed`, `published_at`: the list's partial index). The
change log (migration e17a0b1c2d3e) logs every occurrence whose row changed and, for a
logged event, every occurrence showing it, so the changes feed reports occurrences.

Revision ID: e18a0b1c2d3e
Revises: e17a0b1c2d3e
Create Date: 2026-11-23 04:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "e18a0b1c2d3e"
down_revision: str | None = "e17a0b1c2d3e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LISTED = "({r}.status = 'publish' AND {r}.hide_from_listings = false)"
# What the list's visibility reads, copied from the series: filtered without the events.
COPIED = ("published_at", "status", "author_id", "hide_from_listings")
DATES = ("start_at", "end_at", "start_local", "end_local")

# A single event inserted by any writer gets its occurrence (a series' are materialised by
# the application, which inserts the event as a single one first).
ON_INSERT = f"""
INSERT INTO occurrences (id, series_id, content_id, original_start, {", ".join(DATES)},
                         listed, {", ".join(COPIED)})
SELECT n.id, n.id, n.id, n.start_at, {", ".join(f"n.{d}" for d in DATES)},
       {LISTED.format(r="n")}, {", ".join(f"n.{c}" for c in COPIED)}
FROM new_rows AS n WHERE n.series_id IS NULL AND n.recurrence IS NULL;
"""

# A row trigger, and only when a column occurrences copy changed (WHEN is checked without
# calling the function): most updates (texts, the search words a translation rewrites,
# revisions) touch none, and each that does is a few index lookups by the row's ID, whatever
# the planner believes of the tables' sizes.
FOLLOWED = (*COPIED, *DATES)
ON_UPDATE_WHEN = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in FOLLOWED)
NEW_DATES = ", ".join(f"NEW.{d}" for d in DATES)
ON_UPDATE = f"""
IF NEW.series_id IS NULL THEN
  UPDATE occurrences SET listed = {LISTED.format(r="NEW")},
         {", ".join(f"{c} = NEW.{c}" for c in COPIED)}
  WHERE series_id = NEW.id
    AND ({", ".join(COPIED)}) IS DISTINCT FROM ({", ".join(f"NEW.{c}" for c in COPIED)});
  IF NEW.recurrence IS NULL THEN
    UPDATE occurrences SET original_start = NEW.start_at,
           {", ".join(f"{d} = NEW.{d}" for d in DATES)}
    WHERE id = NEW.id AND series_id = NEW.id
      AND ({", ".join(DATES)}) IS DISTINCT FROM ({NEW_DATES});
  END IF;
ELSE
  UPDATE occurrences SET {", ".join(f"{d} = NEW.{d}" for d in DATES)}
  WHERE content_id = NEW.id AND ({", ".join(DATES)}) IS DISTINCT FROM ({NEW_DATES});
END IF;
"""

# Every logged event shows in the occurrences whose content it is: log them too (the rows
# this adds name occurrences, which show no other occurrence: the recursion stops there).
# A statement trigger fires for an INSERT of no rows too: IF stops the recursion. Only series
# and overrides show in occurrences of other IDs, so single events (nearly every row of a bulk
# insert) are left out by their primary key before occurrences are looked at.
#
# Transition tables have no statistics, and a table created in the same transaction looks
# empty to the planner, which then joins a bulk insert row by row against a full scan
# (quadratic: minutes for 100k events). Each logged ID is therefore looked up on its own,
# through the indexes: LATERAL subqueries behind an OFFSET 0 fence (not flattened into a join
# the planner may reorder), with sequential scans off for this function.
LOG_OCCURRENCES = """
IF EXISTS (SELECT 1 FROM new_rows) THEN
INSERT INTO change_log (kind, record_id)
SELECT DISTINCT 'event', o.id
FROM (SELECT DISTINCT record_id FROM new_rows WHERE kind = 'event') AS n
CROSS JOIN LATERAL (
  SELECT e.id FROM events AS e WHERE e.id = n.record_id
    AND (e.recurrence IS NOT NULL OR e.series_id IS NOT NULL) OFFSET 0) AS s
CROSS JOIN LATERAL (
  SELECT o.id FROM occurrences AS o WHERE o.content_id = s.id AND o.id <> n.record_id
  OFFSET 0) AS o;
END IF;
"""
INDEXED_JOINS = {"change_log_occurrences_of_events"}

LOG_OCCURRENCE_ROWS = (
    "INSERT INTO change_log (kind, record_id) SELECT DISTINCT 'event', id FROM {rows};"
)

FUNCTIONS = {
    "occurrences_of_new_events": ("events", "INSERT", ON_INSERT),
    "change_log_occurrences_of_events": ("change_log", "INSERT", LOG_OCCURRENCES),
    "change_log_occurrences_insert": (
        "occurrences",
        "INSERT",
        LOG_OCCURRENCE_ROWS.format(rows="new_rows"),
    ),
    "change_log_occurrences_update": (
        "occurrences",
        "UPDATE",
        LOG_OCCURRENCE_ROWS.format(rows="new_rows"),
    ),
    "change_log_occurrences_delete": (
        "occurrences",
        "DELETE",
        LOG_OCCURRENCE_ROWS.format(rows="old_rows"),
    ),
}


def upgrade() -> None:
    op.execute(
        "ALTER TABLE events ADD COLUMN recurrence jsonb, ADD COLUMN dates_until timestamptz, "
        "ADD COLUMN series_id bigint REFERENCES events (id) ON DELETE CASCADE, "
        "ADD COLUMN overrides varchar(32)[] NOT NULL DEFAULT '{}'"
    )
    op.execute("CREATE INDEX events_series_idx ON events (series_id) WHERE series_id IS NOT NULL")
    op.execute(
        """
        CREATE TABLE occurrences (
            id bigint PRIMARY KEY,
            series_id bigint NOT NULL REFERENCES events (id) ON DELETE CASCADE,
            content_id bigint NOT NULL REFERENCES events (id) ON DELETE CASCADE,
            original_start timestamptz NOT NULL,
            start_at timestamptz NOT NULL,
            end_at timestamptz NOT NULL,
            start_local timestamp NOT NULL,
            end_local timestamp NOT NULL,
            listed boolean NOT NULL,
            published_at timestamptz NOT NULL,
            status varchar(20) NOT NULL,
            author_id bigint,
            hide_from_listings boolean NOT NULL
        )
        """
    )
    # Every event so far is a single one: its occurrence has its ID.
    op.execute(
        f"INSERT INTO occurrences (id, series_id, content_id, original_start, "
        f"{', '.join(DATES)}, listed, {', '.join(COPIED)}) "
        f"SELECT e.id, e.id, e.id, e.start_at, {', '.join(f'e.{d}' for d in DATES)}, "
        f"{LISTED.format(r='e')}, {', '.join(f'e.{c}' for c in COPIED)} FROM events AS e"
    )
    op.execute(
        "CREATE INDEX occurrences_listing_idx ON occurrences (start_local, published_at, id) "
        "INCLUDE (end_local) WHERE listed"
    )
    op.execute("CREATE INDEX occurrences_start_idx ON occurrences (start_local, published_at, id)")
    op.execute(
        "CREATE INDEX occurrences_listing_utc_idx ON occurrences (start_at) "
        "INCLUDE (end_at, start_local, end_local) WHERE listed"
    )
    op.execute(
        "CREATE UNIQUE INDEX occurrences_series_idx ON occurrences (series_id, original_start)"
    )
    op.execute("CREATE INDEX occurrences_content_idx ON occurrences (content_id)")
    op.execute("ANALYZE occurrences")
    op.execute(
        "CREATE FUNCTION occurrences_follow_events() RETURNS trigger LANGUAGE plpgsql AS "
        f"$$ BEGIN {ON_UPDATE} RETURN NULL; END $$"
    )
    op.execute(
        "CREATE TRIGGER occurrences_follow_events AFTER UPDATE ON events FOR EACH ROW "
        f"WHEN ({ON_UPDATE_WHEN}) EXECUTE FUNCTION occurrences_follow_events()"
    )
    for name, (table, op_name, body) in FUNCTIONS.items():
        rows = "OLD TABLE AS old_rows" if op_name == "DELETE" else "NEW TABLE AS new_rows"
        if op_name == "UPDATE":
            rows = "OLD TABLE AS old_rows NEW TABLE AS new_rows"
        settings = " SET enable_seqscan = off" if name in INDEXED_JOINS else ""
        op.execute(
            f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql{settings} AS $$ BEGIN "
            f"{body} RETURN NULL; END $$"
        )
        op.execute(
            f"CREATE TRIGGER {name} AFTER {op_name} ON {table} REFERENCING {rows} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {name}()"
        )


def downgrade() -> None:
    op.execute("DROP TRIGGER occurrences_follow_events ON events")
    op.execute("DROP FUNCTION occurrences_follow_events()")
    for name, (table, _, _) in FUNCTIONS.items():
        op.execute(f"DROP TRIGGER {name} ON {table}")
        op.execute(f"DROP FUNCTION {name}()")
    op.execute("DROP TABLE occurrences")
    op.execute("DROP INDEX events_series_idx")
    op.execute(
        "ALTER TABLE events DROP COLUMN overrides, DROP COLUMN series_id, DROP COLUMN recurrence"
    )
