"""The geocoding service's answers (`geocode_cache`): all of their SQL."""

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import ColumnElement, Executable, and_, delete, func, or_, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.exc import DBAPIError

from app.core.database.engine import Session
from app.core.rules.geography import Point
from app.models import GeocodeAnswer

AUTOCOMMIT = "AUTOCOMMIT"


@dataclass(frozen=True, slots=True)
class Freshness:
    """How long an answer is good for: a place found, and a "not found" (the place may be
    mapped since)."""

    found: timedelta
    not_found: timedelta


@dataclass(frozen=True, slots=True)
class CachedAnswer:
    """The service's answer for a query: a point, or None for "no such place"."""

    point: Point | None


class GeocodeCache:
    def __init__(self, session: Session) -> None:
        self.session = session

    async def answer(self, query: str, freshness: Freshness) -> CachedAnswer | None:
        """The kept answer for a normalised query, while it is fresh."""
        row = (
            await self.session.execute(
                select(GeocodeAnswer.lat, GeocodeAnswer.lng).where(
                    GeocodeAnswer.query == query, _fresh(freshness)
                )
            )
        ).first()
        if row is None:
            return None
        found = row.lat is not None and row.lng is not None
        return CachedAnswer(Point(row.lat, row.lng) if found else None)

    async def keep(self, query: str, point: Point | None) -> bool:
        """Keep the answer (replacing an older one). The caller's session may be a read's: on
        a read replica, or a transaction that must survive a failed write. So the write is
        best-effort: in a SAVEPOINT within a transaction, and False when the database
        refused it (a read-only server); the answer is then asked again next time."""
        values = {
            "query": query,
            "lat": None if point is None else point.lat,
            "lng": None if point is None else point.lng,
        }
        upsert = insert(GeocodeAnswer).values(values)
        upsert = upsert.on_conflict_do_update(
            index_elements=[GeocodeAnswer.query],
            set_={
                "lat": upsert.excluded.lat,
                "lng": upsert.excluded.lng,
                "fetched_at": func.clock_timestamp(),
            },
        )
        return await self._try(upsert)

    async def prune(self, freshness: Freshness) -> bool:
        """Delete the answers that are no longer fresh (a scan of the table: the caller
        does it now and then), so that the table keeps what a while of questions asked."""
        return await self._try(delete(GeocodeAnswer).where(~_fresh(freshness)))

    async def _try(self, statement: Executable) -> bool:
        connection = (await self.session.connection()).sync_connection
        options = connection.get_execution_options() if connection is not None else {}
        autocommit = options.get("isolation_level") == AUTOCOMMIT
        try:
            if autocommit:  # a read outside a transaction: the statement commits itself
                await self.session.execute(statement)
            else:
                async with self.session.begin_nested():
                    await self.session.execute(statement)
        except DBAPIError:
            return False
        return True


def _fresh(freshness: Freshness) -> ColumnElement[bool]:
    now = func.clock_timestamp()
    found = GeocodeAnswer.lat.is_not(None)
    return or_(
        and_(found, GeocodeAnswer.fetched_at > now - freshness.found),
        and_(~found, GeocodeAnswer.fetched_at > now - freshness.not_found),
    )
