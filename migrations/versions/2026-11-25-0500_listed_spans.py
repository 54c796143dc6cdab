"""How many listed dates begin and end on each pair of local days, kept by triggers

A month grid counts each day's events ("+N more"): at a million events about 48,000 listed
dates of a grid, read from an index on every uncached request (docs/performance.md). The
dates grouped by their first and last local day (`first_day`, the start's date; `last_day`,
the date just before the end, as the grid lays them out) are a few hundred groups a month;
`listed_spans` stores them, so that the plain month reads its inner days' counts from a few
hundred rows (app/events/repository/day_query.py). Statement triggers on `occurrences` keep
it right for every writer (the API, imports, seeding, cascades): one grouped upsert of each
statement's changes, its rows in key order so that concurrent writers lock them in the same
order (as the term counts do, migration 7c2d4e9f1a30). Writers that add dates to the same
pair of days wait on each other's commit for that row.

The backfill reads the listed dates once (at a million events, 1.5 million: a few seconds)
and writes a few thousand rows; the triggers' creation makes writes to `occurrences` wait
for the commit, reads go on.

Revision ID: 4b2a3c4d5e6f
Revises: 2c0e1f2a3b4d
Create Date: 2026-11-25 05:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "4b2a3c4d5e6f"
down_revision: str | None = "2c0e1f2a3b4d"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A date's first and last local day: an end at midnight is on the day before.
SPAN = "{r}.start_local::date, ({r}.end_local - interval '1 microsecond')::date"
ADDED = f"SELECT {SPAN.format(r='r')}, 1 FROM new_rows AS r WHERE r.listed"
REMOVED = f"SELECT {SPAN.format(r='r')}, -1 FROM old_rows AS r WHERE r.listed"
APPLY = """
    INSERT INTO listed_spans AS s (first_day, last_day, dates)
    SELECT d.first_day, d.last_day, sum(d.n) FROM ({deltas}) AS d (first_day, last_day, n)
    GROUP BY d.first_day, d.last_day HAVING sum(d.n) <> 0 ORDER BY d.first_day, d.last_day
    ON CONFLICT (first_day, last_day) DO UPDATE SET dates = s.dates + excluded.dates;
    RETURN NULL;
"""
FUNCTIONS = {
    "listed_spans_added": APPLY.format(deltas=ADDED),
    "listed_spans_removed": APPLY.format(deltas=REMOVED),
    "listed_spans_changed": APPLY.format(deltas=f"{ADDED} UNION ALL {REMOVED}"),
}
TRIGGERS = {
    "listed_spans_added": "AFTER INSERT ON occurrences REFERENCING NEW TABLE AS new_rows",
    "listed_spans_removed": "AFTER DELETE ON occurrences REFERENCING OLD TABLE AS old_rows",
    "listed_spans_changed": "AFTER UPDATE ON occurrences "
    "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows",
}


def upgrade() -> None:
    op.execute(
        "CREATE TABLE listed_spans (first_day date NOT NULL, last_day date NOT NULL, "
        "dates bigint NOT NULL, PRIMARY KEY (first_day, last_day))"
    )
    for name, body in FUNCTIONS.items():
        op.execute(
            f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {body} END $$"
        )
        op.execute(
            f"CREATE TRIGGER {name} {TRIGGERS[name]} FOR EACH STATEMENT EXECUTE FUNCTION {name}()"
        )
    # A truncated table has no dates left (no statement trigger sees its rows go).
    op.execute(
        "CREATE FUNCTION listed_spans_truncated() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN DELETE FROM listed_spans; RETURN NULL; END $$"
    )
    op.execute(
        "CREATE TRIGGER listed_spans_truncated AFTER TRUNCATE ON occurrences "
        "FOR EACH STATEMENT EXECUTE FUNCTION listed_spans_truncated()"
    )
    op.execute(
        f"INSERT INTO listed_spans (first_day, last_day, dates) SELECT {SPAN.format(r='o')}, "
        "count(*) FROM occurrences AS o WHERE o.listed GROUP BY 1, 2"
    )
    op.execute("ANALYZE listed_spans")


def downgrade() -> None:
    for name in (*FUNCTIONS, "listed_spans_truncated"):
        op.execute(f"DROP TRIGGER {name} ON occurrences")
        op.execute(f"DROP FUNCTION {name}()")
    op.execute("DROP TABLE listed_spans")
