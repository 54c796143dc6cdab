"""Bulk loads stay linear: foreign keys are checked through indexes, whatever the planner
believed of a table's size when a connection first checked them (docs/design.md#bulk-loads).

PostgreSQL checks each inserted row's foreign key with a plan it keeps per connection. Made
while the referenced table looked empty (statistics of an empty table, a few rows on disk), that plan
scans the table; a bulk load then scans the whole table once per row (quadratic: the test
suite's 33-minute stall). Fresh statistics invalidate the kept plan.
"""

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import refresh_statistics

# A parent and a child table like `events` and `occurrences`, new in the test's transaction:
# nothing earlier (rolled-back rows on disk, another test's statistics) changes their plans.
TABLES = """
CREATE TABLE bulk_parents (id bigint PRIMARY KEY, title text NOT NULL);
CREATE TABLE bulk_children (id bigint PRIMARY KEY,
    parent_id bigint NOT NULL REFERENCES bulk_parents (id) ON DELETE CASCADE);
CREATE INDEX bulk_children_parent_idx ON bulk_children (parent_id);
"""


async def load(db: AsyncSession, first: int, count: int) -> int:
    """Insert `count` parents and a child of each, in two statements (as the seeder copies
    events, then their occurrences); the sequential scans of the parents it took."""

    async def seq_scans() -> int:
        scans = await db.execute(
            text("SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'bulk_parents'")
        )
        return int(scans.scalar_one())

    numbers = {"first": first, "last": first + count - 1}
    before = await seq_scans()
    await db.execute(
        text(
            "INSERT INTO bulk_parents SELECT n, 'Bulk ' || n "
            "FROM generate_series(CAST(:first AS bigint), CAST(:last AS bigint)) AS n"
        ),
        numbers,
    )
    await db.execute(
        text(
            "INSERT INTO bulk_children SELECT n, n FROM generate_series(CAST(:first AS bigint), CAST(:last AS bigint)) AS n"
        ),
        numbers,
    )
    return await seq_scans() - before


async def test_foreign_keys_are_checked_through_the_index_after_a_bulk_load(
    db: AsyncSession,
) -> None:
    for statement in TABLES.split(";")[:-1]:
        await db.execute(text(statement))
    # The stall, made on purpose: statistics of an empty table, then a few single inserts
    # (the connection keeps a plan that scans the one page there is).
    await refresh_statistics(db, "bulk_parents", "bulk_children")
    for number in range(1, 9):
        await load(db, number, 1)
    stale = await load(db, 100, 2000)
    assert stale >= 2000  # the whole table scanned once per row checked
    # What the seeder and the importer do after each batch.
    await refresh_statistics(db, "bulk_parents", "bulk_children")
    assert await load(db, 10_000, 2000) == 0


async def test_every_foreign_key_has_an_index_on_its_columns(db: AsyncSession) -> None:
    """Deleting a row checks (or cascades to) the rows that reference it: through an index
    whose first columns are the foreign key's, never by scanning the referencing table."""
    unindexed = await db.execute(
        text(
            """
            SELECT c.conrelid::regclass || ' (' || c.conname || ')'
            FROM pg_constraint AS c
            WHERE c.contype = 'f' AND NOT EXISTS (
                SELECT 1 FROM pg_index AS i
                WHERE i.indrelid = c.conrelid
                  AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
                  AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey)
            ORDER BY 1
            """
        )
    )
    missing = list(unindexed.scalars())
    assert missing == [], missing
