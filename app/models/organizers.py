from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, PostMixin, slug_prefix_index


class Organizer(PostMixin, Base):
    __tablename__ = "organizers"
    __table_args__ = (slug_prefix_index("organizers"),)

    name: Mapped[str] = mapped_column(String(500))
    phone: Mapped[str] = mapped_column(String(100), default="")
    website: Mapped[str] = mapped_column(Text, default="")
    email: Mapped[str] = mapped_column(String(320), default="")


class OrganizerTranslation(Base):
    __tablename__ = "organizer_translations"

    organizer_id: Mapped[int] = mapped_column(
        ForeignKey("organizers.id", ondelete="CASCADE"), primary_key=True
    )
    language: Mapped[str] = mapped_column(String(5), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(500))
    description: Mapped[str | None] = mapped_column(Text)
    excerpt: Mapped[str | None] = mapped_column(Text)
