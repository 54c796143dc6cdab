"""Webhooks: subscriptions, the fan-out position in the change log, messages, deliveries
and their attempts (app/models/webhooks.py; docs/design.md, "Webhooks")

The fan-out starts at the log's position of the migration: changes before it were made
when nobody could have subscribed.

Revision ID: f31a0b1c2d3e
Revises: f29a0b1c2d3e
Create Date: 2026-11-24 20:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "f31a0b1c2d3e"
down_revision: str | None = "f29a0b1c2d3e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(
        """
        CREATE TABLE webhook_subscriptions (
            id bigserial PRIMARY KEY,
            url text NOT NULL,
            types text[] NOT NULL DEFAULT '{*}',
            description text NOT NULL DEFAULT '',
            secret text NOT NULL,
            previous_secret text,
            previous_until timestamptz,
            active boolean NOT NULL DEFAULT true,
            disabled_reason varchar(32),
            disabled_detail text,
            disabled_at timestamptz,
            api_base text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            updated_at timestamptz NOT NULL DEFAULT now()
        )
        """
    )
    op.execute(
        "CREATE TABLE webhook_feed (id bigint PRIMARY KEY, cursor bigint NOT NULL, snapshot text NOT NULL)"
    )
    op.execute(
        """
        INSERT INTO webhook_feed (id, cursor, snapshot)
        SELECT 1, CASE WHEN is_called THEN last_value ELSE 0 END, pg_current_snapshot()::text
        FROM change_seq
        """
    )
    op.execute(
        """
        CREATE TABLE webhook_messages (
            id bigserial PRIMARY KEY,
            type varchar(32) NOT NULL,
            body text NOT NULL,
            changed_at timestamptz NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now()
        )
        """
    )
    op.execute("CREATE INDEX webhook_messages_created_at_idx ON webhook_messages (created_at)")
    op.execute(
        """
        CREATE TABLE webhook_deliveries (
            id bigserial PRIMARY KEY,
            subscription_id bigint NOT NULL
                REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
            message_id bigint NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
            type varchar(32) NOT NULL,
            kind varchar(16),
            record_id bigint,
            status varchar(16) NOT NULL DEFAULT 'pending',
            attempts integer NOT NULL DEFAULT 0,
            round_attempts integer NOT NULL DEFAULT 0,
            next_attempt_at timestamptz NOT NULL DEFAULT now(),
            last_attempt_at timestamptz,
            last_status integer,
            last_error text,
            created_at timestamptz NOT NULL DEFAULT now()
        )
        """
    )
    op.execute(
        "CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) "
        "WHERE status = 'pending'"
    )
    op.execute(
        "CREATE INDEX webhook_deliveries_record_idx ON webhook_deliveries "
        "(subscription_id, kind, record_id, id) WHERE status = 'pending'"
    )
    op.execute(
        "CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (subscription_id, id)"
    )
    op.execute("CREATE INDEX webhook_deliveries_message_idx ON webhook_deliveries (message_id)")
    op.execute("CREATE INDEX webhook_deliveries_created_at_idx ON webhook_deliveries (created_at)")
    op.execute(
        """
        CREATE TABLE webhook_attempts (
            id bigserial PRIMARY KEY,
            delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
            attempted_at timestamptz NOT NULL,
            status integer,
            error text,
            response text,
            duration_ms integer NOT NULL
        )
        """
    )
    op.execute("CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id)")


def downgrade() -> None:
    for table in ("webhook_attempts", "webhook_deliveries", "webhook_messages", "webhook_feed"):
        op.execute(f"DROP TABLE {table}")
    op.execute("DROP TABLE webhook_subscriptions")
