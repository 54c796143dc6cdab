"""The sitemap's queries: the public paths of every record a visitor can open and a search
engine should know (published, without a password; events listed, one URL per series)."""

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    Integer,
    Select,
    Text,
    bindparam,
    case,
    func,
    literal,
    literal_column,
    null,
    or_,
    select,
    true,
    union_all,
)
from sqlalchemy import cast as sql_cast
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncSession

from app.events.repository.list_query import EventListQuery, amounts_path
from app.models import (
    Event,
    Occurrence,
    Organizer,
    OrganizerTranslation,
    Term,
    TermTranslation,
    Venue,
    VenueTranslation,
    event_organizers,
    event_terms,
)
from app.models.terms import CATEGORY, TAG
from app.terms.serializer import PUBLIC_TERM_PATHS

# (path, last modification or None)
Entry = tuple[str, datetime | None]


def _posts() -> Select[Any]:
    parts: list[Any] = []
    for model, segment in ((Event, "event"), (Venue, "venue"), (Organizer, "organizer")):
        conditions = [
            model.status == "publish",
            or_(model.password.is_(None), model.password == ""),
        ]
        if model is Event:
            conditions += [Event.hide_from_listings.is_(False), Event.series_id.is_(None)]
        parts.append(
            select(
                (literal(f"/{segment}/") + model.slug + literal("/")).label("path"),
                model.modified_at.label("modified"),
            ).where(*conditions)
        )
    for taxonomy, segment in PUBLIC_TERM_PATHS.items():
        parts.append(
            select(
                (literal(f"/events/{segment}/") + Term.slug + literal("/")).label("path"),
                literal(None).label("modified"),
            ).where(Term.taxonomy == taxonomy)
        )
    return union_all(*parts).subquery().select()


async def sitemap_count(session: AsyncSession) -> int:
    query = select(func.count()).select_from(_posts().subquery())
    return int((await session.execute(query)).scalar_one())


async def sitemap_entries(session: AsyncSession, offset: int, limit: int) -> Sequence[Entry]:
    query = _posts().order_by("path").offset(offset).limit(limit)
    rows = (await session.execute(query)).all()
    return [(str(row.path), row.modified) for row in rows]


# ---- the filter bar's counts (app/pages/filter_bar.py) ---------------------------------

# (facet, key, label, parent, count): a category's, tag's, venue's or organizer's ID with its
# name (a category's parent); a weekday (1-7, Monday 1) or an hour of day's start; the
# featured and the free events (key 1).
FacetRow = tuple[str, int, str | None, int | None, int]
# A category's ancestors, at most this deep (the closure stops there, whatever the data).
CATEGORY_DEPTH = 8
ALL_DAY_HOUR = -1


def _upcoming() -> Any:
    """The next `scan` listed dates not yet ended at `now` (site wall time), in start order:
    a walk of the visitor's listing index (`listed`, its partial index) from the earliest
    start that can still be on (the longest duration before now), with each date's event's
    venue, featured, all-day and free flags."""
    now = bindparam("now", type_=DateTime())
    starts = Occurrence.start_local >= now - EventListQuery.longest_duration()
    dates = (
        select(
            Occurrence.id.label("date_id"),
            Occurrence.content_id.label("event_id"),
            Occurrence.start_local.label("start"),
        )
        .where(Occurrence.listed == true(), Occurrence.end_local > now, starts)
        .order_by(Occurrence.start_local, Occurrence.published_at, Occurrence.id)
        .limit(bindparam("scan", type_=Integer))
        .cte("upcoming_dates")
    )
    # Free: an amount of 0 or "free" (the list's `cost_max=0`, app/events/repository).
    free = func.jsonb_path_exists(
        Event.cost_details, literal_column(amounts_path(False, True)), literal({"max": 0}, JSONB)
    )
    return (
        select(dates, Event.venue_id, Event.featured, Event.all_day, free.label("free"))
        .join(Event, Event.id == dates.c.event_id)
        .cte("upcoming")
    )


def _shown(model: Any) -> list[Any]:
    """A venue or organizer a visitor may see named: published, without a password."""
    return [model.status == "publish", or_(model.password.is_(None), model.password == "")]


def _named(model: Any, translation: Any, key: Any) -> Any:
    """The record's name in the `language` parameter's language, else its default one."""
    translated = (
        select(translation.name)
        .where(key == model.id, translation.language == bindparam("language"))
        .scalar_subquery()
    )
    return func.coalesce(translated, model.name)


def _top(stmt: Select[Any]) -> Select[Any]:
    """The facet's `limit` values with the most dates first (then by key: a stable order)."""
    count = stmt.selected_columns[4]
    ordered = stmt.order_by(count.desc(), stmt.selected_columns[1])
    return ordered.limit(bindparam("limit", type_=Integer)).subquery().select()


def _category_closure() -> Any:
    """Each category with itself and each of its ancestors (at most CATEGORY_DEPTH up)."""
    category = Term.__table__.alias("category")
    closure = (
        select(
            category.c.id.label("term_id"),
            category.c.id.label("ancestor"),
            literal(0).label("depth"),
        )
        .where(category.c.taxonomy == CATEGORY)
        .cte("closure", recursive=True)
    )
    parent = Term.__table__.alias("parent_term")
    return closure.union_all(
        select(closure.c.term_id, parent.c.parent_id, closure.c.depth + 1).where(
            parent.c.id == closure.c.ancestor,
            parent.c.parent_id.is_not(None),
            closure.c.depth < CATEGORY_DEPTH,
        )
    )


@functools.cache
def _facets_statement() -> Any:
    """The choices' statement, built once (every value a bound parameter)."""
    up = _upcoming()
    no_name, no_parent = sql_cast(null(), Text), sql_cast(null(), BigInteger)
    dates = func.count()
    # Each event once with its number of dates (a series has many): its terms and
    # organizers are read once, not once a date.
    per_event = (
        select(up.c.event_id, func.count().label("dates")).group_by(up.c.event_id).cte("per_event")
    )
    term_links = (
        select(per_event.c.event_id, per_event.c.dates, event_terms.c.term_id)
        .join(event_terms, event_terms.c.event_id == per_event.c.event_id)
        .cte("term_links")
    )
    total = sql_cast(func.sum(term_links.c.dates), BigInteger)
    closure = _category_closure()
    # An event under a category and its child counts once for the parent.
    under = (
        select(term_links.c.event_id, term_links.c.dates, closure.c.ancestor)
        .join(closure, closure.c.term_id == term_links.c.term_id)
        .distinct()
        .subquery("under")
    )
    term_name = _named(Term, TermTranslation, TermTranslation.term_id)
    categories = (
        select(
            literal("category"),
            Term.id,
            term_name,
            Term.parent_id,
            sql_cast(func.sum(under.c.dates), BigInteger),
        )
        .join(Term, Term.id == under.c.ancestor)
        .group_by(Term.id)
    )
    tags = (
        select(literal("tag"), Term.id, term_name, no_parent, total)
        .join(Term, Term.id == term_links.c.term_id)
        .where(Term.taxonomy == TAG)
        .group_by(Term.id)
    )
    venue_name = _named(Venue, VenueTranslation, VenueTranslation.venue_id)
    venues = (
        select(literal("venue"), Venue.id, venue_name, no_parent, dates)
        .select_from(up)
        .join(Venue, Venue.id == up.c.venue_id)
        .where(*_shown(Venue))
        .group_by(Venue.id)
    )
    organizer_name = _named(Organizer, OrganizerTranslation, OrganizerTranslation.organizer_id)
    organizers = (
        select(
            literal("organizer"),
            Organizer.id,
            organizer_name,
            no_parent,
            sql_cast(func.sum(per_event.c.dates), BigInteger),
        )
        .select_from(per_event)
        .join(event_organizers, event_organizers.c.event_id == per_event.c.event_id)
        .join(Organizer, Organizer.id == event_organizers.c.organizer_id)
        .where(*_shown(Organizer))
        .group_by(Organizer.id)
    )
    weekday = sql_cast(func.extract("isodow", up.c.start), BigInteger)
    # An all-day date starts at no hour: ALL_DAY_HOUR (EventQuery's `all_day` part).
    clock = sql_cast(func.extract("hour", up.c.start), BigInteger)
    hour = case((up.c.all_day.is_(True), literal(ALL_DAY_HOUR, BigInteger)), else_=clock)
    weekdays = select(literal("weekday"), weekday, no_name, no_parent, dates).group_by(weekday)
    hours = select(literal("hour"), hour, no_name, no_parent, dates).group_by(hour)
    one = sql_cast(literal(1), BigInteger)
    featured = select(literal("featured"), one, no_name, no_parent, dates).where(
        up.c.featured.is_(True)
    )
    free = select(literal("free"), one, no_name, no_parent, dates).where(up.c.free.is_(True))
    parts: list[Any] = [_top(stmt) for stmt in (categories, tags, venues, organizers)]
    return union_all(*parts, weekdays, hours, featured, free)


async def upcoming_facets(
    session: AsyncSession, now: datetime, language: str, scan: int, limit: int
) -> list[FacetRow]:
    """How many of the next `scan` upcoming dates each category (its descendants' dates
    with it), tag, venue and organizer has (at most `limit` of each, those with the most
    dates), each weekday and hour of their local start (ALL_DAY_HOUR: all-day), the
    featured and the free ones: one statement, its cost bounded by `scan` whatever the size
    of the calendar."""
    values = {"now": now, "language": language, "scan": scan, "limit": limit}
    rows = (await session.execute(_facets_statement(), values)).all()
    return [(str(r[0]), int(r[1]), r[2], r[3], int(r[4])) for r in rows]
