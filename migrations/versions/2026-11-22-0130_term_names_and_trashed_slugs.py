"""Term names need not be unique; trashed records carry `__trashed` in their slug

Renaming a category or tag may give it a name another term has, as in WordPress (only a
create refuses a taken name, checked by the application under a lock of that name): the
unique index on names becomes a plain one, which still finds a name under a parent.

A trashed event, venue or organizer frees its slug for other records by carrying
`<slug>__trashed`, as WordPress renames trashed posts; records trashed before this
revision get the suffix now. Generated slugs never hold `_`, so no slug is taken twice.

Revision ID: d5e6f7a8b9c0
Revises: c4d5e6f7a8b9
Create Date: 2026-11-22 01:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d5e6f7a8b9c0"
down_revision: str | None = "c4d5e6f7a8b9"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME_COLUMNS = [
    "taxonomy",
    sa.literal_column("coalesce(parent_id, 0)"),
    sa.literal_column("lower(name)"),
]
POSTS = ("events", "venues", "organizers")


def upgrade() -> None:
    op.drop_index("terms_unique_name_idx", table_name="terms")
    op.create_index("terms_name_idx", "terms", NAME_COLUMNS)
    for table in POSTS:
        op.execute(
            f"UPDATE {table} SET slug = slug || '__trashed' "
            "WHERE status = 'trash' AND slug !~ '__trashed(-[0-9]+)?$'"
        )


def downgrade() -> None:
    # Trashed slugs keep their suffix: restoring the plain one could take another record's.
    # Recreating the unique index fails while two terms under one parent share a name.
    op.drop_index("terms_name_idx", table_name="terms")
    op.create_index("terms_unique_name_idx", "terms", NAME_COLUMNS, unique=True)
