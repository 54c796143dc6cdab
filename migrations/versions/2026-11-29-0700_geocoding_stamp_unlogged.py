"""A venue's geocoding stamp is not a change of the venue

`geocoded_at` (when the geocoding service was last asked for the venue's address) is in no
body: a sweep that asks again and finds nothing new stamps it, and that must not log the
venue and its events in the changes feed (nor send webhooks) as if they had changed. The
venues' UPDATE trigger logs the rows whose other columns differ.

Revision ID: 9c5e6f7a8b0d
Revises: 8b4d5e6f7a9c
Create Date: 2026-11-29 07:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "9c5e6f7a8b0d"
down_revision: str | None = "8b4d5e6f7a9c"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

EVENTS_OF = "SELECT 'event', e.id FROM events AS e WHERE e.venue_id IN (SELECT id FROM {rows})"


def _logged(rows: str) -> str:
    return (
        "CREATE OR REPLACE FUNCTION change_log_venues_update() RETURNS trigger LANGUAGE plpgsql "
        "AS $$ BEGIN INSERT INTO change_log (kind, record_id) SELECT DISTINCT kind, id FROM ("
        f"SELECT 'venue', id FROM {rows} UNION ALL {EVENTS_OF.format(rows=rows)}"
        ") AS logged (kind, id); RETURN NULL; END $$"
    )


CHANGED = (
    "(SELECT n.* FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id"
    " WHERE to_jsonb(n) - 'geocoded_at' IS DISTINCT FROM to_jsonb(o) - 'geocoded_at') AS c"
)


def upgrade() -> None:
    op.execute(_logged(CHANGED))


def downgrade() -> None:
    op.execute(_logged("new_rows"))
