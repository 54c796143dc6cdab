"""An event revision, counted up by every change of the event row

Calendar feeds (app/feeds) give each event an iCalendar SEQUENCE that must grow with every
change; a trigger counts it up on every UPDATE that changes the row, whoever writes it (the
API's writers, trashing, slug renames, a venue deleted under the event).

Revision ID: e16a0b1c2d3e
Revises: e12a0b1c2d3e
Create Date: 2026-11-23 03:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e16a0b1c2d3e"
down_revision: str | None = "e12a0b1c2d3e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("events", sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "CREATE FUNCTION bump_event_revision() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN NEW.revision := OLD.revision + 1; RETURN NEW; END $$"
    )
    # WHEN: an UPDATE that leaves the row as it was is no change.
    op.execute(
        "CREATE TRIGGER events_revision BEFORE UPDATE ON events FOR EACH ROW "
        "WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION bump_event_revision()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER events_revision ON events")
    op.execute("DROP FUNCTION bump_event_revision()")
    op.drop_column("events", "revision")
