from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, utcnow


class Image(Base):
    """An image: known by URL (never fetched by the service), or uploaded to the media
    library (app/media/), where `file` names the full-size file in the media storage and
    `sizes` the smaller copies made at upload."""

    __tablename__ = "images"

    id: Mapped[int] = mapped_column(primary_key=True)
    # An external image's address; None for an upload (its URL is built from `file`).
    url: Mapped[str | None] = mapped_column(Text, unique=True, default=None)
    extension: Mapped[str] = mapped_column(String(20), default="")
    width: Mapped[int | None] = mapped_column(Integer, default=None)
    height: Mapped[int | None] = mapped_column(Integer, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # ---- the media library (migration f29a0b1c2d3e) ----
    file: Mapped[str | None] = mapped_column(String(200), default=None, index=True)
    mime_type: Mapped[str | None] = mapped_column(String(50), default=None)
    filesize: Mapped[int | None] = mapped_column(BigInteger, default=None)
    # size name -> {width, height, mime-type, filesize, file, sources: {mime: {file, filesize}}}
    sizes: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict, server_default="{}")
    # Texts by language ({"en": ..., "de": ...}): read with a fallback to the default one.
    title: Mapped[dict[str, str]] = mapped_column(JSONB, default=dict, server_default="{}")
    alt: Mapped[dict[str, str]] = mapped_column(JSONB, default=dict, server_default="{}")
    caption: Mapped[dict[str, str]] = mapped_column(JSONB, default=dict, server_default="{}")
    author_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), default=None, index=True
    )
    # The record it was uploaded for (a contributor's draft), as WordPress's post_parent.
    post_id: Mapped[int | None] = mapped_column(BigInteger, default=None)
    # The address a copy was downloaded from (`almanac import --copy-images`): never twice.
    source_url: Mapped[str | None] = mapped_column(Text, unique=True, default=None)
    modified_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )
