"""Index for counting the event list by UTC instants

A UTC site, or TIMEZONE_MODE=site, compares the list's dates with the events' instants
(`start_at`/`end_at`) instead of their local times. The page still walks
`events_listing_idx` in `start_local` order (the query adds the local-time range its UTC
bounds imply); the count needs the instants: without this index it read the whole table.
The included columns make the count an index-only scan, as `events_listing_idx` does for
local times.

Revision ID: c4d5e6f7a8b9
Revises: b7c8d9e0f1a2
Create Date: 2026-11-22 01:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c4d5e6f7a8b9"
down_revision: str | None = "b7c8d9e0f1a2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "events_listing_utc_idx",
        "events",
        ["start_at"],
        postgresql_include=["end_at", "start_local", "end_local"],
        postgresql_where=sa.text("status = 'publish' AND hide_from_listings = false"),
    )


def downgrade() -> None:
    op.drop_index("events_listing_utc_idx", table_name="events")
