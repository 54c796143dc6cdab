"""The listed dates' indexes hold the ID of the event each date shows

A category's or a tag's month grid (and its list's count) read every date of the window from
the table to find the event it shows (`content_id`) and check its terms. With `content_id` in
the INCLUDE of the two indexes a visitor's list reads (`occurrences_listing_idx`, by local
start; `occurrences_listing_utc_idx`, by instant), the term and organizer filters are checked
against the dates' index entries alone (app/events/repository/list_query.py `linked`). The
terms' index holds the event IDs after the term's (it held the term's alone): a term's
events are read from it alone, in one run of its pages (the month's counts hash them).

The new indexes are built first, under new names, in the migration's transaction: each
build takes a SHARE lock, so writes to the table wait for it while reads go on. Then the old
ones are dropped and the new renamed, which locks the tables (reads too) only from there to
the commit: the migration's last statements. Not `CREATE INDEX CONCURRENTLY`, which cannot
run in a transaction and waits for every open one, among them the `almanac serve` starts
queued on the migration lock (migrations/env.py): a deadlock. At a million events (1.8
million dates, 2.6 million term links) the three builds and the previous migration's
backfill took 13.5 s together on the 2-core machine under load (docs/performance.md), each
reading its table once; the dates' indexes grow by 8 bytes an entry (85 MB each at a million
events), the terms' index to 77 MB.

Revision ID: 3a1f2b3c4d5e
Revises: 4b2a3c4d5e6f
Create Date: 2026-11-25 05:10:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "3a1f2b3c4d5e"
down_revision: str | None = "4b2a3c4d5e6f"
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
    for name, definitions in INDEXES.items():
        op.execute(f"CREATE INDEX {name}_next ON {definitions[after]}")
    # The swap last: a dropped index's lock on its table blocks reads until the commit.
    for name in INDEXES:
        op.execute(f"DROP INDEX {name}")
        op.execute(f"ALTER INDEX {name}_next RENAME TO {name}")


def upgrade() -> None:
    _rebuild(after=True)


def downgrade() -> None:
    _rebuild(after=False)
