from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, slug_prefix_index

CATEGORY = "tribe_events_cat"
TAG = "post_tag"


class Term(Base):
    """A category or tag; `name`/`description` hold the default-language text."""

    __tablename__ = "terms"
    __table_args__ = (
        UniqueConstraint("taxonomy", "slug", name="terms_taxonomy_slug_key"),
        CheckConstraint(f"taxonomy IN ('{CATEGORY}', '{TAG}')", name="taxonomy"),
        # Finds a name under a parent (a create's `term_exists`); names need not be unique.
        Index("terms_name_idx", "taxonomy", text("coalesce(parent_id, 0)"), text("lower(name)")),
        slug_prefix_index("terms", "taxonomy"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    taxonomy: Mapped[str] = mapped_column(String(32), index=True)
    name: Mapped[str] = mapped_column(String(200))
    slug: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    parent_id: Mapped[int | None] = mapped_column(
        ForeignKey("terms.id", ondelete="SET NULL"), index=True
    )
    # Published events using the term, kept current by database triggers (see migrations).
    published_count: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class TermTranslation(Base):
    __tablename__ = "term_translations"

    term_id: Mapped[int] = mapped_column(
        ForeignKey("terms.id", ondelete="CASCADE"), primary_key=True
    )
    language: Mapped[str] = mapped_column(String(5), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(Text)
