from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, TSVECTOR
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, PostMixin, slug_prefix_index

event_terms = Table(
    "event_terms",
    Base.metadata,
    Column("event_id", ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
    Column("term_id", ForeignKey("terms.id", ondelete="CASCADE"), primary_key=True),
    # A term's events from the index alone (migration 3a1f2b3c4d5e).
    Index("event_terms_term_id_idx", "term_id", "event_id"),
)

event_organizers = Table(
    "event_organizers",
    Base.metadata,
    Column("event_id", ForeignKey("events.id", ondelete="CASCADE"), primary_key=True),
    Column(
        "organizer_id",
        ForeignKey("organizers.id", ondelete="CASCADE"),
        primary_key=True,
        index=True,
    ),
    Column("position", Integer, nullable=False, default=0),
)

# How many listed dates have each first and last local day (an end at midnight is on the
# day before): the month grid's counts of its inner days. Kept by statement triggers on
# `occurrences` (migration 4b2a3c4d5e6f), never written by the app.
listed_spans = Table(
    "listed_spans",
    Base.metadata,
    Column("first_day", Date, primary_key=True),
    Column("last_day", Date, primary_key=True),
    Column("dates", BigInteger, nullable=False),
)


class Event(PostMixin, Base):
    """An event; `start_at`/`end_at` are instants, `*_local` the wall time in `timezone`."""

    __tablename__ = "events"
    __table_args__ = (
        # The public list: published, listed events in start order; `end_local` is included
        # so that the window's count is an index-only scan.
        Index(
            "events_listing_idx",
            "start_local",
            "published_at",
            "id",
            postgresql_include=["end_local"],
            postgresql_where=text("status = 'publish' AND hide_from_listings = false"),
        ),
        Index("events_start_idx", "start_local", "published_at", "id"),
        # The same list compared by instants (a UTC site, or TIMEZONE_MODE=site): its count.
        Index(
            "events_listing_utc_idx",
            "start_at",
            postgresql_include=["end_at", "start_local", "end_local", "content_id"],
            postgresql_where=text("status = 'publish' AND hide_from_listings = false"),
        ),
        slug_prefix_index("events"),
        # The list's `search` (app/events/search.py).
        Index("events_search_idx", "search_words", postgresql_using="gin"),
        Index("events_series_idx", "series_id", postgresql_where=text("series_id IS NOT NULL")),
    )

    title: Mapped[str] = mapped_column(String(500))
    start_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    end_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    start_local: Mapped[datetime] = mapped_column(DateTime(timezone=False))
    end_local: Mapped[datetime] = mapped_column(DateTime(timezone=False))
    timezone: Mapped[str] = mapped_column(String(64))
    timezone_abbr: Mapped[str] = mapped_column(String(64))
    all_day: Mapped[bool] = mapped_column(Boolean, default=False)
    cost: Mapped[str] = mapped_column(Text, default="")
    cost_details: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    website: Mapped[str | None] = mapped_column(Text, default=None)
    show_map: Mapped[bool] = mapped_column(Boolean, default=False)
    show_map_link: Mapped[bool] = mapped_column(Boolean, default=False)
    hide_from_listings: Mapped[bool] = mapped_column(Boolean, default=False)
    sticky: Mapped[bool] = mapped_column(Boolean, default=False)
    featured: Mapped[bool] = mapped_column(Boolean, default=False)
    # Made by a trigger from the texts in every language (migration e12a0b1c2d3e); never
    # written by the application.
    search_words: Mapped[Any] = mapped_column(TSVECTOR)
    venue_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("venues.id", ondelete="SET NULL"), index=True
    )
    parent_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("events.id", ondelete="SET NULL"), index=True
    )
    # Counted up by a trigger on every change of the row (the feeds' iCalendar SEQUENCE).
    revision: Mapped[int] = mapped_column(Integer, server_default="0")
    # A series: its RFC 5545 lines (app/events/recurrence.py); None for a single event.
    recurrence: Mapped[list[str] | None] = mapped_column(JSONB(none_as_null=True), default=None)
    # A series: its dates are stored up to this instant (the horizon when it was last
    # materialised); SERIES_COMPLETE when it has no later date. None: not known yet.
    dates_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # An override (one occurrence changed on its own, app/events/occurrences.py): the series
    # it belongs to, and the fields it changed (the others follow the series).
    series_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("events.id", ondelete="CASCADE"), default=None
    )
    overrides: Mapped[list[str]] = mapped_column(
        ARRAY(String(32)), default=list, server_default="{}"
    )


class EventTranslation(Base):
    __tablename__ = "event_translations"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
    )
    language: Mapped[str] = mapped_column(String(5), primary_key=True)
    title: Mapped[str | None] = mapped_column(String(500))
    description: Mapped[str | None] = mapped_column(Text)
    excerpt: Mapped[str | None] = mapped_column(Text)


class Occurrence(Base):
    """One date of an event: a single event has one (with the event's ID), a series one per
    date of its rules up to the horizon (app/events/occurrences.py). `content_id` is the
    event row whose fields it shows: the series, or its override. `listed` and
    `published_at` copy the series' (by trigger, migration e18a0b1c2d3e) so that the list's
    window, order and count are read from this table's indexes alone."""

    __tablename__ = "occurrences"
    __table_args__ = (
        Index(
            "occurrences_listing_idx",
            "start_local",
            "published_at",
            "id",
            # The event it shows: a category's dates found from the index alone.
            postgresql_include=["end_local", "content_id"],
            postgresql_where=text("listed"),
        ),
        Index("occurrences_start_idx", "start_local", "published_at", "id"),
        Index(
            "occurrences_listing_utc_idx",
            "start_at",
            postgresql_include=["end_at", "start_local", "end_local", "content_id"],
            postgresql_where=text("listed"),
        ),
        Index("occurrences_series_idx", "series_id", "original_start", unique=True),
        Index("occurrences_content_idx", "content_id"),
        # The longest duration, read from the index's last entry: a lower bound on the
        # start of the events that end after a moment (app/events/repository/list_query.py).
        Index("occurrences_duration_idx", text("(end_local - start_local)")),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    series_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("events.id", ondelete="CASCADE"))
    content_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("events.id", ondelete="CASCADE"))
    # The date the rules gave it (an override may move it): what keeps its ID across edits.
    original_start: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    start_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    end_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    start_local: Mapped[datetime] = mapped_column(DateTime(timezone=False))
    end_local: Mapped[datetime] = mapped_column(DateTime(timezone=False))
    listed: Mapped[bool] = mapped_column(Boolean)
    # The series' (by trigger): what the list's visibility reads, without the events.
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(20))
    author_id: Mapped[int | None] = mapped_column(BigInteger, default=None)
    hide_from_listings: Mapped[bool] = mapped_column(Boolean)
