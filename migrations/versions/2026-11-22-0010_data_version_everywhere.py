"""Draw a new data version on changes to venues, organizers and images too

The version now also guards cached responses (app/response_cache.py), which embed venues,
organizers and images in events.

Revision ID: a1b2c3d4e5f6
Revises: 9e4f2a6b8c51
Create Date: 2026-11-22 00:10:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "a1b2c3d4e5f6"
down_revision: str | None = "9e4f2a6b8c51"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = (
    "venues",
    "venue_translations",
    "organizers",
    "organizer_translations",
    "images",
    "term_translations",
)


def upgrade() -> None:
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION bump_events_version()"
        )


def downgrade() -> None:
    for table in TABLES:
        op.execute(f"DROP TRIGGER {table}_version ON {table}")
