"""A version number of the event data, for caching list totals

Any change to what an event list can match (events, their translations, links and terms)
draws a new number from `events_version_seq`. The app caches list totals per version;
it also draws a number after each write commits, so a total counted from a snapshot taken
before a commit is never served under a version read after it.

Revision ID: 9e4f2a6b8c51
Revises: 7c2d4e9f1a30
Create Date: 2026-11-21 23:50:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "9e4f2a6b8c51"
down_revision: str | None = "7c2d4e9f1a30"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("events", "event_translations", "event_terms", "event_organizers", "terms")


def upgrade() -> None:
    op.execute("CREATE SEQUENCE events_version_seq")
    op.execute(
        "CREATE FUNCTION bump_events_version() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN PERFORM nextval('events_version_seq'); RETURN NULL; END $$"
    )
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION bump_events_version()"
        )


def downgrade() -> None:
    for table in TABLES:
        op.execute(f"DROP TRIGGER {table}_version ON {table}")
    op.execute("DROP FUNCTION bump_events_version()")
    op.execute("DROP SEQUENCE events_version_seq")
