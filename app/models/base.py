"""Declarative base, naming convention and the columns every post-like record shares."""

from datetime import UTC, datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, MetaData, Sequence, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column

PG_NAMES = {
    "ix": "%(column_0_label)s_idx",
    "uq": "%(table_name)s_%(column_0_name)s_key",
    "ck": "%(table_name)s_%(constraint_name)s_check",
    "fk": "%(table_name)s_%(column_0_name)s_fkey",
    "pk": "%(table_name)s_pkey",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=PG_NAMES)
    type_annotation_map = {int: BigInteger}


# Events, venues and organizers share one ID space, as WordPress posts do, so an ID names
# exactly one record and "that ID is a venue, not an event" can be told apart from "unknown".
POST_ID_SEQ = Sequence("post_id_seq", metadata=Base.metadata)


def slug_prefix_index(table: str, *leading: str) -> Index:
    """An index serving `slug LIKE 'base-%'` (the btree on slug cannot, under a non-C
    collation): finding a free `-N` suffix must not scan the table."""
    return Index(
        f"{table}_slug_pattern_idx", *leading, "slug", postgresql_ops={"slug": "text_pattern_ops"}
    )


class PostMixin:
    """Columns of post-like records (events, venues, organizers)."""

    id: Mapped[int] = mapped_column(
        BigInteger, POST_ID_SEQ, primary_key=True, server_default=POST_ID_SEQ.next_value()
    )
    status: Mapped[str] = mapped_column(String(20), default="publish")
    slug: Mapped[str] = mapped_column(String(200), unique=True)
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    modified_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )
    password: Mapped[str | None] = mapped_column(String(255), default=None)
    description: Mapped[str] = mapped_column(Text, default="")
    excerpt: Mapped[str] = mapped_column(Text, default="")

    @declared_attr
    def author_id(cls) -> Mapped[int | None]:
        return mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)

    @declared_attr
    def image_id(cls) -> Mapped[int | None]:
        return mapped_column(ForeignKey("images.id", ondelete="SET NULL"))
