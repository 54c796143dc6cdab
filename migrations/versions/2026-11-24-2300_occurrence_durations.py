"""The longest occurrence, from an index

A list bounded by `ends_after` (the public pages' upcoming list, a month grid: events not yet
ended by a moment) had no bound on the start: it walked the start-time index from the first
event ever, filtering out every past one (at a million events, a third of the table per
request). The longest duration bounds the start too: an event that ends after T started
after T minus the longest duration. An index on the duration answers that maximum from its
last entry.

Revision ID: 28a0c1d2e3f4
Revises: 30a0b1c2d3e4
Create Date: 2026-11-24 23:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "28a0c1d2e3f4"
down_revision: str | None = "30a0b1c2d3e4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("CREATE INDEX occurrences_duration_idx ON occurrences ((end_local - start_local))")


def downgrade() -> None:
    op.execute("DROP INDEX occurrences_duration_idx")
