"""The sitemap's queries: the public paths of every record a visitor can open and a search
engine should know (published, without a password; events listed, one URL per series)."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, literal, or_, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Event, Organizer, Term, Venue
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
