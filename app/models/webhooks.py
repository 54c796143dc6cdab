"""Webhooks (app/webhooks): subscriptions, the messages made from the change log, one
delivery per message and subscription, and a row per attempt (the delivery log). The
migration `f31a0b1c2d3e` creates them; docs/design.md, "Webhooks", explains the flow."""

from datetime import datetime

from sqlalchemy import (
    ARRAY,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base

NOW = text("now()")


class WebhookSubscription(Base):
    """Where to push which changes. `active` false: paused by an administrator, or disabled
    by the deliveries (`disabled_reason` says which); deliveries keep queueing either way."""

    __tablename__ = "webhook_subscriptions"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    url: Mapped[str] = mapped_column(Text)
    types: Mapped[list[str]] = mapped_column(ARRAY(Text), server_default=text("'{*}'"))
    description: Mapped[str] = mapped_column(Text, server_default="")
    secret: Mapped[str] = mapped_column(Text)
    # After a rotation, the old secret signs beside the new one until `previous_until`.
    previous_secret: Mapped[str | None] = mapped_column(Text)
    previous_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    active: Mapped[bool] = mapped_column(Boolean, server_default=text("true"))
    disabled_reason: Mapped[str | None] = mapped_column(String(32))
    disabled_detail: Mapped[str | None] = mapped_column(Text)
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The API's public base when it was created: the links inside the records it receives.
    api_base: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)


class WebhookFeed(Base):
    """One row: the position in the change log up to which messages have been made (a
    changes-feed token's two parts, app/changes/repository.py)."""

    __tablename__ = "webhook_feed"

    id: Mapped[int] = mapped_column(primary_key=True)
    cursor: Mapped[int] = mapped_column(BigInteger)
    snapshot: Mapped[str] = mapped_column(Text)


class WebhookMessage(Base):
    """A body to send, made once: its bytes (and so its signatures' input) never change,
    and its ID is the `webhook-id` of every delivery of it."""

    __tablename__ = "webhook_messages"
    __table_args__ = (Index("webhook_messages_created_at_idx", "created_at"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    type: Mapped[str] = mapped_column(String(32))
    body: Mapped[str] = mapped_column(Text)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)


class WebhookDelivery(Base):
    """One message to one subscription. `kind`/`record_id` order the deliveries of a record
    (null for a ping); `round_attempts` counts the attempts of the current retry schedule
    (a manual retry starts a new one), `attempts` all of them."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        Index(
            "webhook_deliveries_due_idx",
            "next_attempt_at",
            postgresql_where=text("status = 'pending'"),
        ),
        Index(
            "webhook_deliveries_record_idx",
            "subscription_id",
            "kind",
            "record_id",
            "id",
            postgresql_where=text("status = 'pending'"),
        ),
        Index("webhook_deliveries_log_idx", "subscription_id", "id"),
        Index("webhook_deliveries_message_idx", "message_id"),
        Index("webhook_deliveries_created_at_idx", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    subscription_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("webhook_subscriptions.id", ondelete="CASCADE")
    )
    message_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("webhook_messages.id", ondelete="CASCADE")
    )
    type: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str | None] = mapped_column(String(16))
    record_id: Mapped[int | None] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), server_default="pending")
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    round_attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)
    last_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_status: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=NOW)


class WebhookAttempt(Base):
    """One attempt of a delivery: the delivery log's entries."""

    __tablename__ = "webhook_attempts"
    __table_args__ = (Index("webhook_attempts_delivery_idx", "delivery_id", "id"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    delivery_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("webhook_deliveries.id", ondelete="CASCADE")
    )
    attempted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[int | None] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    response: Mapped[str | None] = mapped_column(Text)
    duration_ms: Mapped[int] = mapped_column(Integer)
