"""Stored answers of creates sent with an `Idempotency-Key` (app/http/idempotency.py,
migration `6f2b3c4d5e7a`)."""

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, LargeBinary, SmallInteger, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base


class IdempotencyKey(Base):
    """The answer of `user_id`'s create sent with `key`, and the digest of that request (a
    repeat with another request under the same key is refused)."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (Index("idempotency_keys_created_at_idx", "created_at"),)

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    request_digest: Mapped[bytes] = mapped_column(LargeBinary)
    status: Mapped[int] = mapped_column(SmallInteger)
    body: Mapped[bytes] = mapped_column(LargeBinary)
    location: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=text("now()")
    )
