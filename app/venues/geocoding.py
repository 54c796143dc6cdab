"""Venues' full addresses through the geocoding service, never in a request's path
(docs/design.md#places).

A venue write that leaves a venue unplaced or placed from its city only (new, moved,
cleared: app/venues/placing.py) sets its `geocoded_at` to NULL and marks its session; the
after-commit hook (`after_write`) wakes the app's task, which asks the service for the
venues waiting (`locate_waiting`). The same pass, every SWEEP_SECONDS, retries those the
service could not answer (down, or the address unknown) once GEOCODER_RETRY_MINUTES have
passed since they were last asked.

Each venue is claimed and stamped as asked in a short transaction (FOR UPDATE SKIP LOCKED:
two processes or instances never ask for the same one, and none holds a lock while the
service answers), then located, then written only if a person has not typed its coordinates
nor changed its address meanwhile (app/venues/repository.py `record_found`). A write
commits and draws a new data version, as a request's write does (the changes feed logs the
venue and its events: database triggers). The task yields to requests, as the webhooks'
deliveries do (app/webhooks/worker.py): before each venue it waits while its process has a
request in flight, up to GEOCODING_MAX_DEFERRAL seconds.
"""

import asyncio
import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

from app.core.caching.cache import after_write as draw_version
from app.core.database.engine import Session, SessionMaker
from app.core.geocoding.geocoder import Geocoder, GeocoderUnavailable
from app.core.observability.activity import RequestActivity
from app.core.tasks import cancel, repeat
from app.geo import gazetteer
from app.geo.service import locate_venue
from app.venues.placing import GEOCODING_WANTED
from app.venues.repository import (
    Address,
    claim_geocodable,
    count_geocodable,
    count_unplaced,
    count_without_coordinates,
    record_found,
    without_coordinates,
)

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60.0  # how often the task looks for venues to retry
BATCH = 10  # venues claimed at a time (the service answers about one a second)
QUIET_SECONDS = 0.05  # a process without a request this long is quiet enough to ask in
GEOCODING_MAX_DEFERRAL = 5.0  # the longest a venue waits for requests to let up
MAX_BACKOFF_SECONDS = 300.0  # the longest wait after the database failed a pass


@dataclass
class Located:
    """What one pass did: venues placed, by precision; asked but not placed better (not
    found, or changed meanwhile); not asked because the service was down."""

    found: Counter[str] = field(default_factory=Counter)
    unplaced: int = 0
    unavailable: int = 0

    @property
    def asked(self) -> int:
        return sum(self.found.values()) + self.unplaced + self.unavailable


async def locate_waiting(
    maker: SessionMaker,
    geocoder: Geocoder,
    *,
    asked_before: datetime,
    limit: int = BATCH,
    quiet: "Quiet | None" = None,
) -> Located:
    """Claim up to `limit` venues never asked or last asked before `asked_before`, ask the
    service for each, write what it found. The service down: the rest of the claim waits
    for the next retry (their stamps say they were asked)."""
    async with maker() as session, session.begin():
        claimed = await claim_geocodable(session, limit, asked_before)
    located = Located()
    for index, address in enumerate(claimed):
        if quiet is not None:
            await quiet()
        try:
            precision = await _locate(maker, geocoder, address)
        except GeocoderUnavailable:
            located.unavailable += len(claimed) - index
            break
        if precision is None:
            located.unplaced += 1
        else:
            located.found[precision] += 1
    return located


async def _locate(maker: SessionMaker, geocoder: Geocoder, address: Address) -> str | None:
    """The precision the venue was placed at, or None."""
    async with maker() as session:
        async with session.begin():
            fix = await locate_venue(session, geocoder, **address.parts())
            written = fix is not None and await record_found(session, address, fix)
        if not written:
            return None
        await draw_version(session)
    assert fix is not None
    return fix.precision


class Quiet:
    """Waits while this process serves requests: until it has had none for QUIET_SECONDS,
    or GEOCODING_MAX_DEFERRAL seconds at most."""

    def __init__(self, activity: RequestActivity | None) -> None:
        self.activity = activity

    async def __call__(self) -> None:
        if self.activity is None:
            return
        deadline = asyncio.get_running_loop().time() + GEOCODING_MAX_DEFERRAL
        await self.activity.quiet(QUIET_SECONDS, deadline)


class VenueGeocoding:
    """The app's geocoding task (one per process, started by the lifespan when a geocoding
    service is configured) and the after-commit hook that wakes it."""

    def __init__(
        self,
        geocoder: Geocoder | None,
        retry_minutes: float,
        activity: RequestActivity | None = None,
    ) -> None:
        self.geocoder = geocoder
        self.retry = timedelta(minutes=retry_minutes)
        self.quiet = Quiet(activity)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def after_write(self, session: Session) -> None:
        """The after-commit hook: a venue waits for the service (app/venues/placing.py)."""
        if session.info.pop(GEOCODING_WANTED, False) and self.geocoder is not None:
            self._wake.set()

    def start(self, maker: SessionMaker) -> None:
        if self.geocoder is None or self._task is not None:
            return
        self._task = asyncio.create_task(self._run(maker), name="almanac-geocoding")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel(task)

    async def sweep(self, maker: SessionMaker) -> Located:
        """One pass: the venues waiting, and those whose retry is due."""
        assert self.geocoder is not None
        asked_before = datetime.now(UTC) - self.retry
        return await locate_waiting(
            maker, self.geocoder, asked_before=asked_before, quiet=self.quiet
        )

    async def _run(self, maker: SessionMaker) -> None:
        async def step() -> bool:
            located = await self.sweep(maker)
            return located.asked > 0 and not located.unavailable

        await repeat(
            step,
            self._wake,
            SWEEP_SECONDS,
            lambda failures: min(SWEEP_SECONDS * failures, MAX_BACKOFF_SECONDS),
            lambda: log.exception("geocoding: a pass failed; retrying with backoff"),
        )


# ---- `almanac geocode` ----------------------------------------------------------------

CITY_BATCH = 500  # venues the gazetteer's pass reads at a time


class Advance(Protocol):
    """A progress display: a stage with its total, then each venue done."""

    def start(self, stage: str, total: int) -> None: ...
    def advance(self, stage: str) -> None: ...


async def place_by_city(maker: SessionMaker, progress: Advance) -> int:
    """Place every venue without coordinates that has a city the gazetteer knows (`city`);
    how many it placed. Venues a write placed meanwhile are left to that write."""
    await gazetteer.ready()
    async with maker() as session:
        progress.start("city", await count_without_coordinates(session))
    placed, after = 0, 0
    while True:
        async with maker() as session:
            async with session.begin():
                batch = await without_coordinates(session, after, CITY_BATCH)
                for address in batch:
                    fix = gazetteer.address_fix(
                        address.city, address.country, address.state, address.stateprovince
                    )
                    if fix is not None and await record_found(session, address, fix):
                        placed += 1
                    progress.advance("city")
            if not batch:
                break
            after = batch[-1].venue_id
            await draw_version(session)
    return placed


async def place_by_address(
    maker: SessionMaker, geocoder: Geocoder, progress: Advance, asked_before: datetime
) -> Located:
    """Ask the geocoding service for every venue it could place better that was never
    asked or last asked before `asked_before`; stops when the service is down."""
    async with maker() as session:
        progress.start("address", await count_geocodable(session, asked_before))
    total = Located()
    while True:
        located = await locate_waiting(maker, geocoder, asked_before=asked_before)
        total.found.update(located.found)
        total.unplaced += located.unplaced
        total.unavailable += located.unavailable
        for _ in range(located.asked - located.unavailable):
            progress.advance("address")
        if located.asked == 0 or located.unavailable:
            return total


@dataclass(frozen=True)
class Remaining:
    """What is left after a run: venues without coordinates, and those the geocoding
    service could still place better (from their city only, or not at all)."""

    unplaced: int
    geocodable: int


async def remaining(maker: SessionMaker) -> Remaining:
    async with maker() as session:
        return Remaining(await count_unplaced(session), await count_geocodable(session))
