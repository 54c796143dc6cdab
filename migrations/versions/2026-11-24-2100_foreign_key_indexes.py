"""An index for every foreign key

Deleting an image checks the events, venues and organizers that show it; without an index on
`image_id` each check scans the whole table. Every other foreign key already leads an index
(tests/api/test_bulk_load_plans.py checks all of them). Partial: most records have no image.

Revision ID: 32a0b1c2d3e4
Revises: 24a0b1c2d3e4
Create Date: 2026-11-24 21:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "32a0b1c2d3e4"
down_revision: str | None = "24a0b1c2d3e4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("events", "venues", "organizers")


def upgrade() -> None:
    for table in TABLES:
        op.execute(
            f"CREATE INDEX {table}_image_idx ON {table} (image_id) WHERE image_id IS NOT NULL"
        )


def downgrade() -> None:
    for table in TABLES:
        op.execute(f"DROP INDEX {table}_image_idx")
