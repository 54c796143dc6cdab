"""The change log the changes feed reads (app/changes): one row per record a transaction
touched, written by database triggers (see the migration `e17a0b1c2d3e`), so that every
writer is seen: the API, bulk seeding, cascades and manual SQL alike."""

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, Index, Sequence, String, text
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.types import UserDefinedType

from app.models.base import Base

CHANGE_SEQ = Sequence("change_seq", metadata=Base.metadata)


class XID8(UserDefinedType[int]):
    """PostgreSQL's 64-bit transaction ID (`pg_current_xact_id()`)."""

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return "xid8"


class Change(Base):
    """`kind`/`record_id` may have changed in transaction `xid`; `seq` is drawn at the write,
    so it does not follow commit order (the feed's tokens deal with that)."""

    __tablename__ = "change_log"
    __table_args__ = (
        Index("change_log_xid_idx", "xid"),
        Index("change_log_changed_at_idx", "changed_at"),
    )

    seq: Mapped[int] = mapped_column(
        BigInteger, CHANGE_SEQ, primary_key=True, server_default=CHANGE_SEQ.next_value()
    )
    xid: Mapped[int] = mapped_column(XID8, server_default=text("pg_current_xact_id()"))
    kind: Mapped[str] = mapped_column(String(16))  # event venue organizer category tag
    record_id: Mapped[int] = mapped_column(BigInteger)
    changed_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=text("clock_timestamp()")
    )


class ChangeHorizon(Base):
    """One row: the highest `seq` pruned from the log (tokens at or below it are expired)."""

    __tablename__ = "change_log_horizon"

    id: Mapped[int] = mapped_column(primary_key=True)
    pruned_through: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class EverPublished(Base):
    """A post (event, venue, organizer or date: one ID sequence) that was `publish` at some
    time, added by triggers (migration `5e1a2b3c4d6f`) and never removed, not even with the
    record: the changes feed tells a caller of a `delete` only when it could have seen the
    record (app/changes/service.py)."""

    __tablename__ = "ever_published"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    first_published_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=text("now()")
    )
