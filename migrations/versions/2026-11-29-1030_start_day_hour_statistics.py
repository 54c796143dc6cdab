"""Statistics of the dates' local weekday and hour

The list's `weekday` and `time_of_day` filters compare `EXTRACT(isodow | hour FROM
start_local)` (app/events/repository/list_query.py). Without statistics of those
expressions the planner guesses that such a filter keeps one date in a hundred and, for a
page, sorts every date of the window rather than walking the start index to its first nine
(docs/performance.md, the filters of issue 46). Statistics objects cost an ANALYZE, no write.

Revision ID: b2c3d4e5f6a7
Revises: a1f2e3d4c5b6
Create Date: 2026-11-29 10:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "b2c3d4e5f6a7"
down_revision: str | None = "a1f2e3d4c5b6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STATISTICS = {
    "occurrences_start_weekday_stats": "EXTRACT(isodow FROM start_local)",
    "occurrences_start_hour_stats": "EXTRACT(hour FROM start_local)",
}


def upgrade() -> None:
    for name, expression in STATISTICS.items():
        op.execute(f"CREATE STATISTICS {name} ON ({expression}) FROM occurrences")
    op.execute("ANALYZE occurrences")


def downgrade() -> None:
    for name in STATISTICS:
        op.execute(f"DROP STATISTICS IF EXISTS {name}")
