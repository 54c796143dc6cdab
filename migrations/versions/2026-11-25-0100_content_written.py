"""The version triggers also note, for the transaction, that it wrote a content table

Every table whose changes the API can show has a `<table>_version` trigger that draws a
data version (the content tables); the others (desk sessions, the failed-login throttle,
webhooks, the change log, imports) have none. The trigger now also sets the transaction-local
setting `almanac.content_written`, so that the app can ask, before a commit, whether the
transaction wrote content at all (app/core/database/engine.py `session_scope`): a desk sign-in
then draws no version after its commit and empties no cache. The setting ends with the
transaction (committed or not), so a pooled connection carries nothing into the next one.

Revision ID: 2c0e1f2a3b4d
Revises: 28a0c1d2e3f4
Create Date: 2026-11-25 01:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "2c0e1f2a3b4d"
down_revision: str | None = "28a0c1d2e3f4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        "CREATE OR REPLACE FUNCTION bump_events_version() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN PERFORM nextval('events_version_seq'); "
        "PERFORM set_config('almanac.content_written', 'on', true); RETURN NULL; END $$"
    )


def downgrade() -> None:
    op.execute(
        "CREATE OR REPLACE FUNCTION bump_events_version() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN PERFORM nextval('events_version_seq'); RETURN NULL; END $$"
    )
