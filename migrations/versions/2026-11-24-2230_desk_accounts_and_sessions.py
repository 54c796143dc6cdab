"""The desk's account passwords and sessions (app/users/passwords.py, app/users/sessions.py)

An account password (argon2) signs a person in to the desk; application passwords stay the
API's. A desk session is a row, so it can be listed and ended; only a SHA-256 of the cookie's
random token is stored. No data-version trigger on the sessions: they change nothing the API
shows (the users table's own trigger covers a new account password).

Revision ID: 30a0b1c2d3e4
Revises: f31a0b1c2d3e
Create Date: 2026-11-24 22:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "30a0b1c2d3e4"
down_revision: str | None = "f31a0b1c2d3e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER TABLE users ADD COLUMN account_password text")
    op.execute(
        """
        CREATE TABLE desk_sessions (
            id bigserial PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            token_hash varchar(64) NOT NULL,
            csrf_token varchar(64) NOT NULL,
            user_agent varchar(300) NOT NULL DEFAULT '',
            created_at timestamptz NOT NULL DEFAULT now(),
            last_seen_at timestamptz NOT NULL DEFAULT now(),
            CONSTRAINT desk_sessions_token_hash_key UNIQUE (token_hash)
        )
        """
    )
    op.execute("CREATE INDEX desk_sessions_user_id_idx ON desk_sessions (user_id)")


def downgrade() -> None:
    op.execute("DROP TABLE desk_sessions")
    op.execute("ALTER TABLE users DROP COLUMN account_password")
