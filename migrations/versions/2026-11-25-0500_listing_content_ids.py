"""The listed dates' indexes hold the ID of the event each date shows

A category's or a tag's month grid (and its list's count) read every date of the window from
the table to find the event it shows (`content_id`) and check its terms. With `content_id` in
the INCLUDE of the two indexes a visitor's list reads (`occurrences_listing_idx`, by local
start; `occurrences_listing_utc_idx`, by instant), the term and organizer filters are checked
against the dates' index entries alone (app/events/repository/list_query.py `linked`). The
terms' index holds the event IDs after the term's (it held the term's alone): a term's
events are read from it alone, in one run of its pages (the month's counts hash them).

Each index is rebuilt without blocking writes: `CREATE INDEX CONCURRENTLY` under a new name,
the old one dropped `CONCURRENTLY`, the new one renamed (outside the migration's
transaction: each step commits by itself). An interrupted run leaves at most the new index
under its temporary name, which a second run drops and builds again. At a million events
(about 1.76 million dates) each build reads the table once and sorts its listed dates: a few
seconds each on a 2-core machine (docs/performance.md), while reads and writes go on; the
indexes grow by 8 bytes an entry.

Revision ID: 3a1f2b3c4d5e
Revises: 2c0e1f2a3b4d
Create Date: 2026-11-25 05:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "3a1f2b3c4d5e"
down_revision: str | None = "2c0e1f2a3b4d"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# name: (its definition before, after)
INDEXES = {
    "occurrences_listing_idx": (
        "occurrences (start_local, published_at, id) INCLUDE (end_local) WHERE listed",
        "occurrences (start_local, published_at, id) INCLUDE (end_local, content_id) WHERE listed",
    ),
    "occurrences_listing_utc_idx": (
        "occurrences (start_at) INCLUDE (end_at, start_local, end_local) WHERE listed",
        "occurrences (start_at) INCLUDE (end_at, start_local, end_local, content_id) WHERE listed",
    ),
    "event_terms_term_id_idx": ("event_terms (term_id)", "event_terms (term_id, event_id)"),
}


def _rebuild(after: bool) -> None:
    with op.get_context().autocommit_block():
        for name, definitions in INDEXES.items():
            op.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}_next")
            op.execute(f"CREATE INDEX CONCURRENTLY {name}_next ON {definitions[after]}")
            op.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
            op.execute(f"ALTER INDEX {name}_next RENAME TO {name}")


def upgrade() -> None:
    _rebuild(after=True)


def downgrade() -> None:
    _rebuild(after=False)
