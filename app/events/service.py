"""Writes of events that know series: an update or delete on one date of a series changes
that date (an override, a cancelled date), the dates from it on (a split), or the series,
by the request's `scope` (docs/design.md#recurring-events). Single events, and the routes'
reads, are the shared post behaviour (app/posts/service.py)."""

from dataclasses import replace
from datetime import date, datetime

from app.core.errors import ApiError, InvalidParams, invalid, note
from app.core.rules.dates import parse_zone
from app.core.rules.permissions import poster
from app.core.web.refusals import Refusals, Refused
from app.events.commands import EventRemoval, EventWrite, Scope
from app.events.kind import EVENTS, event_repository
from app.events.occurrences import OVERRIDABLE, series_store
from app.events.records import EventRecord
from app.http.context import RequestContext
from app.posts.commands import PLAIN_READ, TO_TRASH, ReadRequest, Removal
from app.posts.service import Key, PostService, Written

# Parameters a write may send whatever it changes.
ALWAYS_ACCEPTED = {"scope", "i18n_language"}


class EventService(PostService[EventRecord]):
    def __init__(self, ctx: RequestContext) -> None:
        super().__init__(EVENTS, ctx)
        self.events = event_repository(ctx)  # the store, with the reads only events have
        self.series = series_store(ctx)

    def _scope(self, record: EventRecord, asked: Scope | Refused | None, refused: Refusals) -> str:
        """What a write on `record` changes: `all` for a single event and by default on a
        series' own ID, else `this` by default."""
        if refused.error is not None:  # a body not read at all: before anything it says
            raise refused.error
        if isinstance(asked, Refused):
            raise invalid("scope", asked.note)
        if record.recurrence is None:
            return "all"
        if asked is None:
            return "all" if record.id == record.series_id else "this"
        return asked

    async def update(self, key: Key, command: EventWrite) -> Written[EventRecord]:
        user = poster(self.ctx.user)
        record = await self._for_writing(key, "edit")
        scope = self._scope(record, command.scope, command.refused)
        writer = self.kind.writer(self.ctx, user)
        if scope == "this":
            _only_overridable(command)
            content_id = await self.series.override(record.id, record.series_id)
            await writer.update(_with_content(record, content_id), command)
            return self.answer(await self.by_id(record.id))
        series_id = record.series_id
        if scope == "following" and record.original_start != await self._series_start(record):
            assert record.original_start is not None
            series_id = await self.series.split(record.series_id, record.original_start)
        series = await self._series(series_id)
        before = self.bodies.one(series)
        await writer.update(series, _shifted(command, record, series))
        written = await self._trash_slug(await self._series(series_id))
        series = await self.settled(series, before, written)
        # The date written, or the series when the change moved that date away.
        same = record.id != record.series_id and series_id == record.series_id
        shown = await self.store.get(record.id) if same else None
        return self.answer(shown or await self.by_id(series.id))

    async def remove(
        self, key: Key, removal: Removal | EventRemoval = TO_TRASH
    ) -> Written[EventRecord]:
        record = await self._for_writing(key, "delete")
        asked = removal.scope if isinstance(removal, EventRemoval) else None
        scope = self._scope(record, asked, removal.refused)
        if scope == "all" or record.original_start == await self._series_start(record):
            answer = await super().remove(record.series_id, Removal(removal.force, removal.refused))
            if record.recurrence is not None:
                await self.series.follow(record.series_id)  # its overrides are trashed too
            return answer
        assert record.original_start is not None
        removal.refused.raise_any()
        if removal.force or scope == "this":
            await self.series.cancel(record.series_id, record.original_start)
        else:
            await self.series.end_before(record.series_id, record.original_start)
        return Written(record, None)

    async def readable_on(
        self, slug: str, day: date, request: ReadRequest = PLAIN_READ
    ) -> tuple[EventRecord, str | None]:
        """The series' date on `day`, if the caller may read it, and the password sent."""
        series = await self.by_slug(slug)
        record = await self.events.occurrence_on(series.series_id, day)
        if record is None:
            values = {"slug": slug, "day": day.isoformat()}
            raise ApiError(404, "rest-event-not-found", "occurrence_not_found", values=values)
        request.refused.raise_any()
        password = request.password
        await self.check_guess(record, password)
        self._check_readable(record, password)
        return record, password

    # ---- pieces -----------------------------------------------------------------------

    async def _series(self, series_id: int) -> EventRecord:
        series = await self.events.get_row(series_id)
        assert series is not None  # locked by _for_writing
        return series

    async def _series_start(self, record: EventRecord) -> datetime | None:
        series = await self._series(record.series_id)
        return series.start_at


def _only_overridable(command: EventWrite) -> None:
    """One date changes its texts, dates, venue, organizers or cost; the rest is the
    series'."""
    refused = [
        name for name in command.sent() if name not in OVERRIDABLE and name not in ALWAYS_ACCEPTED
    ]
    if refused:
        raise InvalidParams({name: note("series_field", name=name) for name in refused})


def _shifted(command: EventWrite, record: EventRecord, series: EventRecord) -> EventWrite:
    """The write's dates, when sent for a later date of the series, moved by the same
    amount onto the series' own start and end (Google Calendar's "all events")."""
    if record.id == series.id or record.start_local == series.start_local:
        return command
    return command.shifted(series.start_local - record.start_local, parse_zone(series.timezone))


def _with_content(record: EventRecord, content_id: int) -> EventRecord:
    return replace(record, content_id=content_id)
