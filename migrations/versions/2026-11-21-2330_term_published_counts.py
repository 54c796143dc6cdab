"""Stored term counts: published events per term, kept by triggers

Reading a term's `count` used to count its published events on every request, a scan
that grows with the events table. Like WordPress's term_taxonomy.count, the number is now
stored and kept current by triggers on event_terms and events, so that every write path
(the API, bulk seeding, cascades) keeps it right. Term rows are locked in ID order before
they change, and with FOR NO KEY UPDATE, which does not conflict with the KEY SHARE locks
that inserting event_terms takes on them: concurrent writers cannot deadlock on them.

Revision ID: 7c2d4e9f1a30
Revises: 5b1e0c7d2a10
Create Date: 2026-11-21 23:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7c2d4e9f1a30"
down_revision: str | None = "5b1e0c7d2a10"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Apply per-term deltas (a query yielding term_id, n) after locking the rows in ID order.
APPLY = """
    PERFORM 1 FROM terms WHERE id IN (SELECT term_id FROM ({deltas}) AS d WHERE n <> 0)
        ORDER BY id FOR NO KEY UPDATE;
    UPDATE terms AS t SET published_count = t.published_count + d.n
        FROM ({deltas}) AS d WHERE t.id = d.term_id AND d.n <> 0;
    RETURN NULL;
"""

DELTAS = {
    "term_counts_links_added": """
        SELECT r.term_id, count(*) AS n FROM new_rows AS r
        JOIN events AS e ON e.id = r.event_id AND e.status = 'publish' GROUP BY r.term_id
    """,
    "term_counts_links_removed": """
        SELECT r.term_id, -count(*) AS n FROM old_rows AS r
        JOIN events AS e ON e.id = r.event_id AND e.status = 'publish' GROUP BY r.term_id
    """,
    "term_counts_status_changed": """
        SELECT et.term_id, sum((n.status = 'publish')::int - (o.status = 'publish')::int) AS n
        FROM old_rows AS o JOIN new_rows AS n ON n.id = o.id
        JOIN event_terms AS et ON et.event_id = n.id
        WHERE (o.status = 'publish') <> (n.status = 'publish')
        GROUP BY et.term_id
    """,
}
FUNCTIONS = {name: APPLY.format(deltas=deltas) for name, deltas in DELTAS.items()}

# Before the rows go: the cascade removes an event's links after the event itself, when
# the links trigger can no longer see that the event was published.
EVENT_DELETED = """
    IF OLD.status = 'publish' THEN
        PERFORM 1 FROM terms WHERE id IN (SELECT term_id FROM event_terms WHERE event_id = OLD.id)
            ORDER BY id FOR NO KEY UPDATE;
        UPDATE terms SET published_count = published_count - 1
            WHERE id IN (SELECT term_id FROM event_terms WHERE event_id = OLD.id);
    END IF;
    RETURN OLD;
"""

TRIGGERS = [
    "CREATE TRIGGER event_terms_added AFTER INSERT ON event_terms "
    "REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION term_counts_links_added()",
    "CREATE TRIGGER event_terms_removed AFTER DELETE ON event_terms "
    "REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION term_counts_links_removed()",
    "CREATE TRIGGER events_status_changed AFTER UPDATE ON events "
    "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION term_counts_status_changed()",
    "CREATE TRIGGER events_deleted BEFORE DELETE ON events "
    "FOR EACH ROW EXECUTE FUNCTION term_counts_event_deleted()",
]


def upgrade() -> None:
    op.add_column(
        "terms",
        sa.Column("published_count", sa.BigInteger(), nullable=False, server_default="0"),
    )
    for name, body in FUNCTIONS.items():
        op.execute(
            f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {body} END $$"
        )
    op.execute(
        "CREATE FUNCTION term_counts_event_deleted() RETURNS trigger LANGUAGE plpgsql "
        f"AS $$ BEGIN {EVENT_DELETED} END $$"
    )
    for trigger in TRIGGERS:
        op.execute(trigger)
    op.execute(
        """
        UPDATE terms AS t SET published_count = c.n FROM (
            SELECT et.term_id, count(*) AS n FROM event_terms AS et
            JOIN events AS e ON e.id = et.event_id AND e.status = 'publish'
            GROUP BY et.term_id
        ) AS c WHERE t.id = c.term_id
        """
    )
    # Statistics right after the backfill (docs/design.md#bulk-loads).
    op.execute("ANALYZE terms")


def downgrade() -> None:
    for table, trigger in (
        ("event_terms", "event_terms_added"),
        ("event_terms", "event_terms_removed"),
        ("events", "events_status_changed"),
        ("events", "events_deleted"),
    ):
        op.execute(f"DROP TRIGGER {trigger} ON {table}")
    for name in (*FUNCTIONS, "term_counts_event_deleted"):
        op.execute(f"DROP FUNCTION {name}()")
    op.drop_column("terms", "published_count")
