"""Idempotency keys of creates: a retried POST answers the first one's response

A client whose connection was cut after it sent a create cannot tell whether the record was
made; retrying made a duplicate. With an `Idempotency-Key` header the create stores its
answer (status, body, Location) under (user, key) in its own transaction, so a failed
create leaves no key, and a repeat within 24 hours answers the stored response instead of
creating again (app/http/idempotency.py). The key is the primary key: a concurrent repeat
waits on the first one's uncommitted row, then reads it. `created_at` is indexed for the
pruning, which goes with the change log's (app/changes/pruning.py).

Revision ID: 6f2b3c4d5e7a
Revises: 5e1a2b3c4d6f
Create Date: 2026-11-28 15:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "6f2b3c4d5e7a"
down_revision: str | None = "5e1a2b3c4d6f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE idempotency_keys (
            user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            key varchar(255) NOT NULL,
            request_digest bytea NOT NULL,
            status smallint NOT NULL,
            body bytea NOT NULL,
            location text,
            created_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (user_id, key)
        )
        """
    )
    op.execute("CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at)")


def downgrade() -> None:
    op.execute("DROP TABLE idempotency_keys")
