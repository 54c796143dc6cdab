"""What `almanac import` remembers of a source site (migration e15a0b1c2d3e)."""

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, Identity, Index, String, Text, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, utcnow


class ImportMapping(Base):
    """One source record and the local record it became. No foreign key: `local_id` names
    a term or a post (events, venues and organizers share one ID space), by `kind`."""

    __tablename__ = "import_mappings"

    source: Mapped[str] = mapped_column(Text, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    source_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    local_id: Mapped[int] = mapped_column(BigInteger)
    source_modified: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    digest: Mapped[str] = mapped_column(String(64))
    imported_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ImportRun(Base):
    __tablename__ = "import_runs"
    __table_args__ = (Index("import_runs_source_idx", "source", "started_at"),)

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    source: Mapped[str] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    state: Mapped[str] = mapped_column(String(20))  # running, finished, failed, superseded
    counts: Mapped[dict[str, Any]] = mapped_column(
        JSONB, default=dict, server_default=text("'{}'::jsonb")
    )
