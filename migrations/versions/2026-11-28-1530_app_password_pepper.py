"""A fingerprint of the pepper each application password was issued under

Application passwords are stored as HMACs keyed with APP_PASSWORD_PEPPER: when the pepper
changes, every password stops verifying and the clients get a plain 401. Each password now
keeps 16 bits of a keyed digest of its pepper (app/users/auth.py, `pepper_fingerprint`), so
that a failed sign-in can tell the log (never the response) that the pepper changed since
the passwords were issued. 16 bits tell a changed pepper apart but are no use for testing
guesses of the pepper against a stolen database. Passwords issued before have none (NULL):
nothing is said about them.

Revision ID: 7a3c4d5e6f8b
Revises: 6f2b3c4d5e7a
Create Date: 2026-11-28 15:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "7a3c4d5e6f8b"
down_revision: str | None = "6f2b3c4d5e7a"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER TABLE app_passwords ADD COLUMN pepper_fingerprint varchar(4)")


def downgrade() -> None:
    op.execute("ALTER TABLE app_passwords DROP COLUMN pepper_fingerprint")
