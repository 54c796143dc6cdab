"""The geocoding service's answers (app/core/geocoding/geocoder.py), kept so that a place is asked once."""

from datetime import datetime

from sqlalchemy import DateTime, Float, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base


class GeocodeAnswer(Base):
    """The service's answer for one normalised query; no coordinates: the place was not found."""

    __tablename__ = "geocode_cache"

    query: Mapped[str] = mapped_column(Text, primary_key=True)
    lat: Mapped[float | None] = mapped_column(Float)
    lng: Mapped[float | None] = mapped_column(Float)
    fetched_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=text("clock_timestamp()")
    )
