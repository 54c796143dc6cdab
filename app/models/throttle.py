"""State of the failed-login throttle (app/core/security/ratelimit.py), shared by every process."""

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base


class LoginFailure(Base):
    """One failed sign-in from a client address; rows older than the window are deleted."""

    __tablename__ = "login_failures"
    __table_args__ = (
        Index("login_failures_client", "client", "failed_at"),
        Index("login_failures_failed_at", "failed_at"),
        {"prefixes": ["UNLOGGED"]},
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    client: Mapped[str] = mapped_column(String(64))
    failed_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=text("clock_timestamp()")
    )
