"""Series and their occurrences: materialising a series' dates, overriding one date,
cancelling one, and splitting a series in two (docs/design.md#recurring-events).

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
from typing import Any

from dateutil.rrule import rrule

from app.core.database.engine import Session
from app.core.rules.dates import parse_zone
from app.events.recurrence import SERIES_COMPLETE, parse_recurrence
from app.events.repository.series import OccurrenceRepository
from app.events.rule_walk import Walk
from app.http.context import RequestContext

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
    """What a series' rules mean for its stored occurrences; the statements are the
    occurrence repository's (app/events/repository/series.py)."""

    def __init__(self, session: Session, horizon: Horizon) -> None:
        self.rows = OccurrenceRepository(session)
        self.horizon = horizon

    # ---- materialising ----------------------------------------------------------------

    async def materialise(self, series_id: int, now: datetime | None = None) -> None:
        """Make the series' occurrences those of its rules (a single event: its one)."""
        row = await self.rows.series(series_id)
        if row.recurrence is None:
            await self.rows.single(series_id)
            return
        zone = parse_zone(row.timezone)
        moment = now or datetime.now(UTC)
        until = (moment + timedelta(days=self.horizon.days)).astimezone(zone).replace(tzinfo=None)
        rules = parse_recurrence(row.recurrence, row.start_local, row.timezone)
        starts, complete = rules.stored(until, self.horizon.cap)
        stored_until = SERIES_COMPLETE if complete else until.replace(tzinfo=zone).astimezone(UTC)
        await self.rows.set_dates_until(series_id, stored_until)
        wanted = {start.replace(tzinfo=zone).astimezone(UTC): start for start in starts}
        existing = await self.rows.stored(series_id)
        gone = [r for r in existing if r.original_start not in wanted]
        kept = {r.original_start: r for r in existing if r.original_start in wanted}
        await self.rows.drop(
            [r.id for r in gone], [r.content_id for r in gone if r.content_id != series_id]
        )
        new_ids = await self._new_ids(series_id, row.start_at, wanted, kept)
        rows, moved = self._rows(series_id, row, zone, wanted, kept, new_ids)
        await self.rows.upsert(rows)
        await self.rows.move_overrides(moved)

    async def _new_ids(
        self, series_id: int, own_start: datetime, wanted: dict[datetime, datetime], kept: Any
    ) -> dict[datetime, int]:
        """IDs of the dates not stored yet: the series' start takes the series' own ID
        when no occurrence holds it, the others are drawn."""
        fresh = [instant for instant in wanted if instant not in kept]
        new_ids: dict[datetime, int] = {}
        if own_start in fresh and all(r.id != series_id for r in kept.values()):
            fresh.remove(own_start)
            new_ids[own_start] = series_id
        new_ids.update(zip(fresh, await self.rows.new_ids(len(fresh)), strict=True))
        return new_ids

    @staticmethod
    def _rows(
        series_id: int,
        row: Any,
        zone: Any,
        wanted: dict[datetime, datetime],
        kept: Any,
        new_ids: dict[datetime, int],
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The occurrence rows of the wanted dates, and the overrides' new dates."""
        duration = row.end_local - row.start_local
        listed = row.status == "publish" and not row.hide_from_listings
        rows: list[dict[str, Any]] = []
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
        return rows, moved

    # ---- overrides --------------------------------------------------------------------

    async def override(self, occurrence_id: int, series_id: int) -> int:
        """The event row of the occurrence's own fields (made from the series the first
        time): its ID."""
        content = await self.rows.content_of(occurrence_id)
        if content is not None and content != series_id:
            return int(content)
        dates = await self.rows.dates_of(occurrence_id)
        copy_id = await self.rows.copy(
            series_id, slug=f"~{occurrence_id}", series=series_id, **dates
        )
        await self.rows.show_with(occurrence_id, copy_id)
        await self.follow(series_id)
        return copy_id

    async def mark_overridden(self, override_id: int, fields: Iterable[str]) -> None:
        groups = sorted({OVERRIDABLE[name] for name in fields if name in OVERRIDABLE})
        if groups:
            await self.rows.mark_overridden(override_id, groups)

    async def follow(self, series_id: int) -> None:
        """Copy the series' fields to its overrides, but those each changed itself."""
        await self.rows.follow(series_id)

    # ---- cancelling and splitting -----------------------------------------------------

    async def cancel(self, series_id: int, original_start: datetime) -> None:
        """Take one date out of the series (an EXDATE)."""
        lines = await self.rows.lines(series_id)
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
        row = await self.rows.series(series_id)
        rules = parse_recurrence(row.recurrence or [], row.start_local, row.timezone)
        return _ended(list(row.recurrence or []), before, rules.dates)

    async def split(self, series_id: int, original_start: datetime) -> int:
        """A new series from this date on (the old one ends before it); its ID. Occurrences
        and overrides from that date move to it, keeping their IDs."""
        row = await self.rows.series(series_id)
        zone = parse_zone(row.timezone)
        start = original_start.astimezone(zone).replace(tzinfo=None)
        duration = row.end_local - row.start_local
        lines = await self.rows.lines(series_id)
        rules = parse_recurrence(lines, row.start_local, row.timezone)
        rest = _following(lines, list(rules.rules), original_start)
        new_id = await self.rows.copy_with_free_slug(
            series_id, row.slug, recurrence=rest, **_dates(start, start + duration, zone)
        )
        await self.rows.move_from(series_id, new_id, original_start)
        await self._set_lines(series_id, _ended(lines, original_start, rules.dates))
        await self.materialise(series_id)
        await self.materialise(new_id)
        return new_id

    async def _set_lines(self, series_id: int, lines: list[str]) -> None:
        await self.rows.set_lines(series_id, lines)
        await self.follow(series_id)

    # ---- the horizon ------------------------------------------------------------------

    async def extend(self, now: datetime | None = None) -> int:
        """Materialise the series whose stored dates stop short of the horizon (their
        `dates_until`): the number that gained dates. Series whose every date is stored
        (a COUNT or an UNTIL met, or the cap) are not even read."""
        moment = now or datetime.now(UTC)
        candidates = await self.rows.due(moment + timedelta(days=self.horizon.days - 1))
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
            dates = Walk(rule, from_start.year)  # only the dates before from_start count
            before = sum(1 for _ in takewhile(lambda m: m.astimezone(UTC) < from_start, dates))
            if count - before <= 0:
                continue
            parts = [(k, str(count - before) if k == "COUNT" else v) for k, v in parts]
        following.append("RRULE:" + ";".join(f"{k}={v}" for k, v in parts))
    return following
