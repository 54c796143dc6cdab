"""Series and their occurrences: materialising a series' dates, overriding one date,
cancelling one, and splitting a series in two (docs/design.md, Recurring events).

Every event has occurrences: a single event one, with the event's own ID (made by a trigger
for every writer, migration e18a0b1c2d3e), a series one per date of its rules up to the
horizon and the cap. An occurrence keeps its ID while its original start still belongs to
the series; the series' own ID goes to the occurrence at its start when no other holds it.
An override is an event row of its own (`series_id`: its series, `overrides`: the fields it
changed); the series' other fields are copied to it whenever the series changes.
"""

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import takewhile
from typing import Any, cast

from dateutil.rrule import rrule
from sqlalchemy import (
    BigInteger,
    String,
    Table,
    bindparam,
    case,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.infra.sql import taken_slugs, under_free_slug
from app.core.rules.dates import parse_zone
from app.core.rules.slugs import make_slug
from app.events.recurrence import SERIES_COMPLETE, parse_recurrence
from app.events.repository.events import SLUG_CONSTRAINT
from app.http.context import RequestContext
from app.models import Event, EventTranslation, Occurrence, event_organizers, event_terms
from app.models.base import POST_ID_SEQ

# Fields one occurrence may change on its own, by the write parameters that change them.
OVERRIDABLE = {
    "title": "title",
    "description": "description",
    "excerpt": "excerpt",
    "start_date": "dates",
    "end_date": "dates",
    "venue": "venue",
    "organizer": "organizer",
    "cost": "cost",
}
# Columns an override copies from its series unless it changed them itself (by group).
FOLLOWED = {
    "title": ("title",),
    "description": ("description",),
    "excerpt": ("excerpt",),
    "venue": ("venue_id",),
    "cost": ("cost", "cost_details"),
}
# Columns an override always copies from its series.
SERIES_OWNED = (
    "author_id",
    "status",
    "published_at",
    "modified_at",
    "password",
    "timezone",
    "timezone_abbr",
    "all_day",
    "website",
    "show_map",
    "show_map_link",
    "hide_from_listings",
    "sticky",
    "featured",
    "image_id",
    "parent_id",
    "recurrence",
)
DATE_COLUMNS = ("start_at", "end_at", "start_local", "end_local")
INSERT_CHUNK = 2000  # occurrence rows per INSERT (asyncpg takes up to 32767 parameters)


def utc_stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


@dataclass(frozen=True, slots=True)
class Horizon:
    days: int = 730
    cap: int = 1000


def series_store(ctx: RequestContext) -> "SeriesStore":
    settings = ctx.settings
    horizon = Horizon(settings.recurrence_horizon_days, settings.recurrence_max_occurrences)
    return SeriesStore(ctx.session, horizon)


class SeriesStore:
    def __init__(self, session: AsyncSession, horizon: Horizon) -> None:
        self.session = session
        self.horizon = horizon

    # ---- materialising ----------------------------------------------------------------

    async def materialise(self, series_id: int, now: datetime | None = None) -> None:
        """Make the series' occurrences those of its rules (a single event: its one)."""
        row = (
            await self.session.execute(
                select(
                    Event.start_local,
                    Event.end_local,
                    Event.start_at,
                    Event.timezone,
                    Event.recurrence,
                    Event.status,
                    Event.author_id,
                    Event.hide_from_listings,
                    Event.published_at,
                ).where(Event.id == series_id)
            )
        ).one()
        if row.recurrence is None:
            await self._single(series_id)
            return
        zone = parse_zone(row.timezone)
        moment = now or datetime.now(UTC)
        until = (moment + timedelta(days=self.horizon.days)).astimezone(zone).replace(tzinfo=None)
        rules = parse_recurrence(row.recurrence, row.start_local, row.timezone)
        starts = rules.expand(until, self.horizon.cap)
        complete = rules.complete(until, self.horizon.cap)
        stored_until = SERIES_COMPLETE if complete else until.replace(tzinfo=zone).astimezone(UTC)
        await self.session.execute(
            update(Event)
            .where(Event.id == series_id, Event.dates_until.is_distinct_from(stored_until))
            .values(dates_until=stored_until)
        )
        duration = row.end_local - row.start_local
        wanted = {start.replace(tzinfo=zone).astimezone(UTC): start for start in starts}
        existing = (
            await self.session.execute(
                select(Occurrence.id, Occurrence.original_start, Occurrence.content_id).where(
                    Occurrence.series_id == series_id
                )
            )
        ).all()
        gone = [r for r in existing if r.original_start not in wanted]
        kept = {r.original_start: r for r in existing if r.original_start in wanted}
        if gone:
            await self.session.execute(
                delete(Occurrence).where(Occurrence.id.in_([r.id for r in gone]))
            )
            overrides = [r.content_id for r in gone if r.content_id != series_id]
            if overrides:
                await self.session.execute(delete(Event).where(Event.id.in_(overrides)))
        fresh = [instant for instant in wanted if instant not in kept]
        own_id_free = all(r.id != series_id for r in kept.values())
        new_ids: dict[datetime, int] = {}
        if own_id_free and row.start_at in fresh:
            fresh.remove(row.start_at)  # the series' start takes the series' ID
            new_ids[row.start_at] = series_id
        new_ids.update(zip(fresh, await self._new_ids(len(fresh)), strict=True))
        listed = row.status == "publish" and not row.hide_from_listings
        rows = []
        moved: list[dict[str, Any]] = []
        for instant, start in wanted.items():
            dates = _dates(start, start + duration, zone)
            old = kept.get(instant)
            if old is not None and old.content_id != series_id:
                moved.append({"override": old.content_id, **dates})
                continue
            rows.append(
                {
                    "id": old.id if old is not None else new_ids[instant],
                    "series_id": series_id,
                    "content_id": series_id,
                    "original_start": instant,
                    "listed": listed,
                    "published_at": row.published_at,
                    "status": row.status,
                    "author_id": row.author_id,
                    "hide_from_listings": row.hide_from_listings,
                    **dates,
                }
            )
        await self._upsert(rows)
        await self._move_overrides(moved)

    async def _single(self, event_id: int) -> None:
        """A single event: its one occurrence, with its ID and dates (no overrides)."""
        await self.session.execute(
            delete(Occurrence).where(Occurrence.series_id == event_id, Occurrence.id != event_id)
        )
        await self.session.execute(delete(Event).where(Event.series_id == event_id))
        await self.session.execute(
            text(
                "INSERT INTO occurrences (id, series_id, content_id, original_start, start_at, "
                "end_at, start_local, end_local, listed, published_at, status, author_id, "
                "hide_from_listings) "
                "SELECT id, id, id, start_at, start_at, end_at, start_local, end_local, "
                "status = 'publish' AND hide_from_listings = false, published_at, status, "
                "author_id, hide_from_listings "
                "FROM events WHERE id = :id ON CONFLICT (id) DO UPDATE SET "
                "content_id = EXCLUDED.content_id, original_start = EXCLUDED.original_start, "
                "start_at = EXCLUDED.start_at, end_at = EXCLUDED.end_at, "
                "start_local = EXCLUDED.start_local, end_local = EXCLUDED.end_local"
            ),
            {"id": event_id},
        )

    async def _new_ids(self, count: int) -> list[int]:
        if count == 0:
            return []
        drawn = await self.session.execute(
            select(POST_ID_SEQ.next_value()).select_from(func.generate_series(1, count))
        )
        return list(drawn.scalars())

    async def _upsert(self, rows: list[dict[str, Any]]) -> None:
        """Insert new occurrences; existing ones (not overridden) take the rules' dates."""
        for first in range(0, len(rows), INSERT_CHUNK):
            stmt = pg_insert(Occurrence).values(rows[first : first + INSERT_CHUNK])
            new = stmt.excluded
            changed = func.row(*(getattr(Occurrence, c) for c in DATE_COLUMNS)).is_distinct_from(
                func.row(*(getattr(new, c) for c in DATE_COLUMNS))
            )
            await self.session.execute(
                stmt.on_conflict_do_update(
                    index_elements=[Occurrence.id],
                    set_={c: getattr(new, c) for c in DATE_COLUMNS},
                    where=changed,
                )
            )

    async def _move_overrides(self, moved: list[dict[str, Any]]) -> None:
        """Overrides that did not change their dates follow the rules' (a trigger moves
        their occurrences)."""
        for item in moved:
            await self.session.execute(
                update(Event)
                .where(Event.id == item["override"], ~Event.overrides.contains(["dates"]))
                .values({c: item[c] for c in DATE_COLUMNS})
            )

    # ---- overrides --------------------------------------------------------------------

    async def override(self, occurrence_id: int, series_id: int) -> int:
        """The event row of the occurrence's own fields (made from the series the first
        time): its ID."""
        content = await self.session.scalar(
            select(Occurrence.content_id).where(Occurrence.id == occurrence_id)
        )
        if content is not None and content != series_id:
            return int(content)
        dates = (
            await self.session.execute(
                select(*(getattr(Occurrence, c) for c in DATE_COLUMNS)).where(
                    Occurrence.id == occurrence_id
                )
            )
        ).one()
        copy_id = await self.copy(
            series_id, slug=f"~{occurrence_id}", series=series_id, **dict(dates._mapping)
        )
        await self.session.execute(
            update(Occurrence).where(Occurrence.id == occurrence_id).values(content_id=copy_id)
        )
        await self.follow(series_id)
        return copy_id

    async def mark_overridden(self, override_id: int, fields: Iterable[str]) -> None:
        groups = sorted({OVERRIDABLE[name] for name in fields if name in OVERRIDABLE})
        if groups:
            await self.session.execute(
                update(Event)
                .where(Event.id == override_id)
                .values(overrides=func.array_cat(Event.overrides, groups))
            )

    async def copy(self, source_id: int, *, slug: str, series: int | None, **values: Any) -> int:
        """A new event row with the columns of `source_id` (and its translations, terms and
        organizers), under `slug`; `values` replace columns."""
        skipped = {"id", "slug", "search_words", "revision", "series_id", "overrides"}
        columns = [c.name for c in Event.__table__.columns if c.name not in skipped]
        events = cast(Table, Event.__table__)
        copied = [
            bindparam(name, values[name], type_=events.c[name].type)
            if name in values
            else getattr(Event, name)
            for name in columns
        ]
        new_id = await self.session.scalar(
            insert(events)
            .from_select(
                [*columns, "slug", "series_id"],
                select(
                    *copied,
                    bindparam("slug", slug, type_=String),
                    bindparam("series", series, type_=BigInteger),
                ).where(Event.id == source_id),
            )
            .returning(events.c.id)
        )
        assert new_id is not None
        translations = cast(Table, EventTranslation.__table__)
        for table, key in ((translations, "event_id"), (event_terms, "event_id")):
            others = [c for c in table.c if c.name != key]
            await self.session.execute(
                insert(table).from_select(
                    [key, *(c.name for c in others)],
                    select(text(str(int(new_id))), *others).where(table.c[key] == source_id),
                )
            )
        links = event_organizers
        await self.session.execute(
            insert(links).from_select(
                ["event_id", "organizer_id", "position"],
                select(text(str(int(new_id))), links.c.organizer_id, links.c.position).where(
                    links.c.event_id == source_id
                ),
            )
        )
        return int(new_id)

    async def follow(self, series_id: int) -> None:
        """Copy the series' fields to its overrides, but those each changed itself."""
        if not await self.session.scalar(
            select(select(Event.id).where(Event.series_id == series_id).exists())
        ):
            return
        await self.session.execute(_FOLLOW_COLUMNS, {"series": series_id})
        await self.session.execute(_FOLLOW_TRANSLATIONS, {"series": series_id})
        for statement in (_UNFOLLOW_TERMS, _FOLLOW_TERMS, _UNFOLLOW_ORGANIZERS, _FOLLOW_ORGANIZERS):
            await self.session.execute(statement, {"series": series_id})

    # ---- cancelling and splitting -----------------------------------------------------

    async def cancel(self, series_id: int, original_start: datetime) -> None:
        """Take one date out of the series (an EXDATE)."""
        lines = await self._lines(series_id)
        stamp = utc_stamp(original_start)
        for index, line in enumerate(lines):
            if line.upper().startswith("EXDATE:") and line.upper().endswith("Z"):
                lines[index] = f"{line},{stamp}"
                break
        else:
            lines.append(f"EXDATE:{stamp}")
        await self._set_lines(series_id, lines)
        await self.materialise(series_id)

    async def end_before(self, series_id: int, original_start: datetime) -> None:
        """End the series before this date."""
        await self._set_lines(series_id, await self._ended(series_id, original_start))
        await self.materialise(series_id)

    async def _ended(self, series_id: int, before: datetime) -> list[str]:
        row = (
            await self.session.execute(
                select(Event.recurrence, Event.start_local, Event.timezone).where(
                    Event.id == series_id
                )
            )
        ).one()
        rules = parse_recurrence(row.recurrence or [], row.start_local, row.timezone)
        return _ended(list(row.recurrence or []), before, rules.dates)

    async def split(self, series_id: int, original_start: datetime) -> int:
        """A new series from this date on (the old one ends before it); its ID. Occurrences
        and overrides from that date move to it, keeping their IDs."""
        row = (
            await self.session.execute(
                select(Event.slug, Event.start_local, Event.end_local, Event.timezone).where(
                    Event.id == series_id
                )
            )
        ).one()
        zone = parse_zone(row.timezone)
        start = original_start.astimezone(zone).replace(tzinfo=None)
        duration = row.end_local - row.start_local
        lines = await self._lines(series_id)
        rules = parse_recurrence(lines, row.start_local, row.timezone)
        rest = _following(lines, list(rules.rules), original_start)
        new_id = await self._copy_with_free_slug(
            series_id, row.slug, recurrence=rest, **_dates(start, start + duration, zone)
        )
        await self.session.execute(
            update(Occurrence)
            .where(Occurrence.series_id == series_id, Occurrence.original_start >= original_start)
            .values(
                series_id=new_id,
                content_id=case(
                    (Occurrence.content_id == series_id, new_id), else_=Occurrence.content_id
                ),
            )
        )
        await self.session.execute(
            update(Event)
            .where(
                Event.series_id == series_id,
                Event.id.in_(select(Occurrence.content_id).where(Occurrence.series_id == new_id)),
            )
            .values(series_id=new_id)
        )
        await self._set_lines(series_id, _ended(lines, original_start, rules.dates))
        await self.materialise(series_id)
        await self.materialise(new_id)
        return new_id

    async def _copy_with_free_slug(self, source_id: int, slug: str, **values: Any) -> int:
        """A copy of the event under the first free `-N` of its slug (a concurrent writer
        taking one is met by the next, as for every slug)."""
        base = make_slug(slug)
        taken = await taken_slugs(self.session, Event.slug, base)

        async def write(candidate: str) -> int:
            return await self.copy(source_id, slug=candidate, series=None, **values)

        return await under_free_slug(self.session, write, base, taken, SLUG_CONSTRAINT)

    async def _lines(self, series_id: int) -> list[str]:
        lines = await self.session.scalar(select(Event.recurrence).where(Event.id == series_id))
        return list(lines or [])

    async def _set_lines(self, series_id: int, lines: list[str]) -> None:
        await self.session.execute(
            update(Event).where(Event.id == series_id).values(recurrence=lines or None)
        )
        await self.follow(series_id)

    # ---- the horizon ------------------------------------------------------------------

    async def extend(self, now: datetime | None = None) -> int:
        """Materialise the series whose stored dates stop short of the horizon (their
        `dates_until`): the number that gained dates. Series whose every date is stored
        (a COUNT or an UNTIL met, or the cap) are not even read."""
        moment = now or datetime.now(UTC)
        due = moment + timedelta(days=self.horizon.days - 1)
        candidates = (
            await self.session.execute(
                select(
                    Event.id,
                    Event.recurrence,
                    Event.start_local,
                    Event.timezone,
                    select(func.max(Occurrence.original_start))
                    .where(Occurrence.series_id == Event.id)
                    .scalar_subquery()
                    .label("last"),
                ).where(
                    Event.recurrence.is_not(None),
                    Event.series_id.is_(None),
                    or_(Event.dates_until.is_(None), Event.dates_until < due),
                )
            )
        ).all()
        done = 0
        for number, row in enumerate(candidates, 1):
            if number % 100 == 0:
                await asyncio.sleep(0)  # reading rules is CPU work: let other tasks run
            gains = self._more_dates(row, moment)
            await self.materialise(row.id, moment)  # also moves its dates_until on
            done += gains
        return done

    def _more_dates(self, row: Any, moment: datetime) -> bool:
        """Whether the series' rules have a date after its last stored one, in the horizon."""
        zone = parse_zone(row.timezone)
        until = (moment + timedelta(days=self.horizon.days)).astimezone(zone).replace(tzinfo=None)
        after = None if row.last is None else row.last.astimezone(zone).replace(tzinfo=None)
        rules = parse_recurrence(list(row.recurrence), row.start_local, row.timezone)
        for start in rules.starts():
            if start > until:
                return False
            if after is None or start > after:
                return True
        return False


def _dates(start: datetime, end: datetime, zone: Any) -> dict[str, datetime]:
    return {
        "start_local": start,
        "end_local": end,
        "start_at": start.replace(tzinfo=zone).astimezone(UTC),
        "end_at": end.replace(tzinfo=zone).astimezone(UTC),
    }


def _parts(rule: str) -> list[tuple[str, str]]:
    body = rule.split(":", 1)[1]
    return [(k.upper(), v) for k, _, v in (p.partition("=") for p in body.split(";") if p)]


def _ended(lines: list[str], before: datetime, dates: Iterable[datetime]) -> list[str]:
    """The lines of a series ended just before `before`: rules get an UNTIL, the RDATEs
    (`dates`, read) before it stay, in one line."""
    until = utc_stamp(before - timedelta(seconds=1))
    ended = []
    for line in lines:
        name = _name(line)
        if name == "RRULE":
            parts = [(k, v) for k, v in _parts(line) if k not in ("UNTIL", "COUNT")]
            parts.append(("UNTIL", until))
            ended.append("RRULE:" + ";".join(f"{k}={v}" for k, v in parts))
        elif name != "RDATE":
            ended.append(line)
    kept = sorted(utc_stamp(moment) for moment in dates if moment < before)
    if kept:
        ended.append("RDATE:" + ",".join(kept))
    return ended


def _name(line: str) -> str:
    return line.split(":", 1)[0].split(";", 1)[0].strip().upper()


def _following(lines: list[str], rules: list[rrule], from_start: datetime) -> list[str]:
    """The lines of the series that continues from `from_start`: COUNTs reduced by the
    dates that came before (`rules`: the RRULE lines, read)."""
    following = []
    read = iter(rules)
    for line in lines:
        if _name(line) != "RRULE":
            following.append(line)
            continue
        rule = next(read)
        parts = _parts(line)
        count = next((int(v) for k, v in parts if k == "COUNT"), None)
        if count is not None:
            before = sum(1 for _ in takewhile(lambda m: m.astimezone(UTC) < from_start, rule))
            if count - before <= 0:
                continue
            parts = [(k, str(count - before) if k == "COUNT" else v) for k, v in parts]
        following.append("RRULE:" + ";".join(f"{k}={v}" for k, v in parts))
    return following


_FOLLOW_COLUMNS = text(
    "UPDATE events AS o SET "
    + ", ".join(f"{c} = s.{c}" for c in SERIES_OWNED)
    + ", "
    + ", ".join(
        f"{c} = CASE WHEN '{group}' = ANY(o.overrides) THEN o.{c} ELSE s.{c} END"
        for group, columns in FOLLOWED.items()
        for c in columns
    )
    + " FROM events AS s WHERE s.id = :series AND o.series_id = :series"
)
_FOLLOW_TRANSLATIONS = text(
    "INSERT INTO event_translations (event_id, language, title, description, excerpt) "
    "SELECT o.id, t.language, "
    + ", ".join(
        f"CASE WHEN '{c}' = ANY(o.overrides) THEN ot.{c} ELSE t.{c} END"
        for c in ("title", "description", "excerpt")
    )
    + " FROM events AS o JOIN event_translations AS t ON t.event_id = :series "
    "LEFT JOIN event_translations AS ot ON ot.event_id = o.id AND ot.language = t.language "
    "WHERE o.series_id = :series "
    "ON CONFLICT (event_id, language) DO UPDATE SET title = EXCLUDED.title, "
    "description = EXCLUDED.description, excerpt = EXCLUDED.excerpt"
)
_UNFOLLOW_TERMS = text(
    "DELETE FROM event_terms WHERE event_id IN (SELECT id FROM events WHERE series_id = :series)"
)
_FOLLOW_TERMS = text(
    "INSERT INTO event_terms (event_id, term_id) SELECT o.id, t.term_id FROM events AS o "
    "JOIN event_terms AS t ON t.event_id = :series WHERE o.series_id = :series "
    "ON CONFLICT DO NOTHING"
)
_UNFOLLOW_ORGANIZERS = text(
    "DELETE FROM event_organizers WHERE event_id IN "
    "(SELECT id FROM events WHERE series_id = :series AND NOT 'organizer' = ANY(overrides))"
)
_FOLLOW_ORGANIZERS = text(
    "INSERT INTO event_organizers (event_id, organizer_id, position) "
    "SELECT o.id, l.organizer_id, l.position FROM events AS o "
    "JOIN event_organizers AS l ON l.event_id = :series "
    "WHERE o.series_id = :series AND NOT 'organizer' = ANY(o.overrides) "
    "ON CONFLICT DO NOTHING"
)
