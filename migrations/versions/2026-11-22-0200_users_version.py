"""Draw a new data version on changes to users and application passwords

Signed-in callers are cached per application password and validated against the data
version (app/users/auth.py), so removing a user or a password must change it.

Revision ID: d7e8f9a0b1c2
Revises: d5e6f7a8b9c0
Create Date: 2026-11-22 02:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "d7e8f9a0b1c2"
down_revision: str | None = "d5e6f7a8b9c0"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("users", "app_passwords")


def upgrade() -> None:
    for table in TABLES:
        op.execute(
            f"CREATE TRIGGER {table}_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE "
            f"ON {table} FOR EACH STATEMENT EXECUTE FUNCTION bump_events_version()"
        )


def downgrade() -> None:
    for table in TABLES:
        op.execute(f"DROP TRIGGER {table}_version ON {table}")
