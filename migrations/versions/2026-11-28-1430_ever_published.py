"""The IDs of the posts that were ever published, for the changes feed's deletes

The changes feed tells a caller who may no longer read a record that it is gone (a
`delete`). For a record that was never public, that `delete` told anonymous callers (and the
webhooks, which describe changes as one) that an unpublished record exists, and its ID: a
new draft's first save showed up as a deletion. The log keeps no status history and its
older rows are pruned while a token is still valid, so "no log row before the token" does
not prove "never seen". This table does: a post's ID (events, venues, organizers and dates
share `post_id_seq`, so the ID alone names it) is added by the first write that makes the
row `publish`, and is never removed, not even with the record, so a published record that
is deleted later is still known to have been public.

Statement triggers with transition tables, like the change log's, so that every writer adds
the rows (the API, the importer, `almanac seed`'s set-based chunks, manual SQL) at one
statement per write. Updates add only rows whose status became `publish`, so an edit of a
published record costs a join of its old and new rows and no write. The rows of the posts
published now are filled in here.

Revision ID: 5e1a2b3c4d6f
Revises: 3a1f2b3c4d5e
Create Date: 2026-11-28 14:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "5e1a2b3c4d6f"
down_revision: str | None = "3a1f2b3c4d5e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("events", "venues", "organizers", "occurrences")
ADDED = {
    "INSERT": ("NEW TABLE AS new_rows", "SELECT id FROM new_rows WHERE status = 'publish'"),
    "UPDATE": (
        "OLD TABLE AS old_rows NEW TABLE AS new_rows",
        "SELECT n.id FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id "
        "WHERE n.status = 'publish' AND o.status <> 'publish'",
    ),
}


def _name(table: str, op_name: str) -> str:
    return f"ever_published_{table}_{op_name.lower()}"


def upgrade() -> None:
    op.execute(
        "CREATE TABLE ever_published (id bigint PRIMARY KEY, "
        "first_published_at timestamptz NOT NULL DEFAULT now())"
    )
    for table in TABLES:
        # The publication date (a date's is its series'): the best guess at when it was.
        op.execute(
            f"INSERT INTO ever_published (id, first_published_at) "
            f"SELECT id, least(published_at, now()) FROM {table} WHERE status = 'publish' "
            "ON CONFLICT DO NOTHING"
        )
        for op_name, (rows, published) in ADDED.items():
            name = _name(table, op_name)
            op.execute(
                f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"INSERT INTO ever_published (id) {published} ON CONFLICT DO NOTHING; "
                "RETURN NULL; END $$"
            )
            op.execute(
                f"CREATE TRIGGER {name} AFTER {op_name} ON {table} REFERENCING {rows} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {name}()"
            )


def downgrade() -> None:
    for table in TABLES:
        for op_name in ADDED:
            name = _name(table, op_name)
            op.execute(f"DROP TRIGGER {name} ON {table}")
            op.execute(f"DROP FUNCTION {name}()")
    op.execute("DROP TABLE ever_published")
