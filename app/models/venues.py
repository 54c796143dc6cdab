from datetime import datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    String,
    Text,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, PostMixin, slug_prefix_index


class Venue(PostMixin, Base):
    __tablename__ = "venues"
    __table_args__ = (
        slug_prefix_index("venues"),
        # A search near a point reads this bounding box first (docs/design.md#places).
        Index("venues_geo", "geo_lat", "geo_lng", postgresql_where=text("geo_lat IS NOT NULL")),
        CheckConstraint(
            "geo_precision IN ('exact', 'address', 'city')", name="venues_geo_precision"
        ),
        CheckConstraint("(geo_lat IS NULL) = (geo_lng IS NULL)", name="venues_geo_pair"),
    )

    name: Mapped[str] = mapped_column(String(500))
    address: Mapped[str] = mapped_column(Text, default="")
    city: Mapped[str] = mapped_column(String(200), default="")
    country: Mapped[str] = mapped_column(String(200), default="")
    province: Mapped[str] = mapped_column(String(200), default="")
    state: Mapped[str] = mapped_column(String(200), default="")
    zip: Mapped[str] = mapped_column(String(50), default="")
    phone: Mapped[str] = mapped_column(String(100), default="")
    stateprovince: Mapped[str] = mapped_column(String(200), default="")
    website: Mapped[str] = mapped_column(Text, default="")
    show_map: Mapped[bool] = mapped_column(Boolean, default=False)
    show_map_link: Mapped[bool] = mapped_column(Boolean, default=False)
    geo_lat: Mapped[float | None] = mapped_column(Float, default=None)
    geo_lng: Mapped[float | None] = mapped_column(Float, default=None)
    # How the coordinates were found: typed by a person (`exact`), the geocoding service for
    # the full address (`address`), the embedded gazetteer for the city (`city`).
    geo_precision: Mapped[str | None] = mapped_column(String(10), default=None)
    # When the geocoding service was last asked for this venue's address.
    geocoded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class VenueTranslation(Base):
    __tablename__ = "venue_translations"

    venue_id: Mapped[int] = mapped_column(
        ForeignKey("venues.id", ondelete="CASCADE"), primary_key=True
    )
    language: Mapped[str] = mapped_column(String(5), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(500))
    description: Mapped[str | None] = mapped_column(Text)
    excerpt: Mapped[str | None] = mapped_column(Text)
