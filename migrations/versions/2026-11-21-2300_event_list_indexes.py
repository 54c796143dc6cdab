"""Indexes for the event list window query

Revision ID: 5b1e0c7d2a10
Revises: 1c29b4aab53d
Create Date: 2026-11-21 23:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5b1e0c7d2a10"
down_revision: str | None = "1c29b4aab53d"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "events_listing_idx",
        "events",
        ["start_local", "published_at", "id"],
        postgresql_include=["end_local"],
        postgresql_where=sa.text("status = 'publish' AND hide_from_listings = false"),
    )
    op.create_index("events_start_idx", "events", ["start_local", "published_at", "id"])


def downgrade() -> None:
    op.drop_index("events_start_idx", table_name="events")
    op.drop_index("events_listing_idx", table_name="events")
