"""The importer's memory of a source site: which local record each source record became

`import_mappings` maps (source site, kind, source ID) to the local ID, with the source's
modification time and a digest of what was imported, so that a second run updates only what
changed, adds what is new and never duplicates. Every row is written in the transaction of its
record, so an interrupted run leaves exactly the records it finished, and the next run
continues from there. `import_runs` records each run (started, finished or not, its counts):
a run that never finished is reported as continued by the next one.

Revision ID: e15a0b1c2d3e
Revises: e16a0b1c2d3e
Create Date: 2026-11-23 03:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "e15a0b1c2d3e"
down_revision: str | None = "e16a0b1c2d3e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "import_mappings",
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("source_id", sa.BigInteger(), nullable=False),
        sa.Column("local_id", sa.BigInteger(), nullable=False),
        sa.Column("source_modified", sa.DateTime(timezone=True), nullable=True),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("source", "kind", "source_id", name="import_mappings_pkey"),
    )
    op.create_table(
        "import_runs",
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column(
            "counts",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id", name="import_runs_pkey"),
    )
    op.create_index("import_runs_source_idx", "import_runs", ["source", "started_at"])


def downgrade() -> None:
    op.drop_index("import_runs_source_idx", table_name="import_runs")
    op.drop_table("import_runs")
    op.drop_table("import_mappings")
