"""`almanac seed` and `almanac maintain`: records generated, series' dates stored."""

import asyncio
from datetime import UTC, datetime
from typing import Annotated

from app.cli.common import database_url, option
from app.core.database.engine import make_engine, make_sessionmaker
from app.core.database.migrate import upgrade
from app.core.settings import get_settings
from app.events.horizon import extend_horizon
from app.events.occurrences import Horizon
from app.seed.seeder import DEMO, DEMO_RANDOM_SEED, SeedCounts, seed

DEFAULTS = SeedCounts()


def _count(what: str, default: int) -> object:
    return option(min=0, metavar="N", help=f"{what} (default: {default})")


def seed_command(
    events: Annotated[
        int, _count("events to append, one in ten of them a recurring series", DEFAULTS.events)
    ] = DEFAULTS.events,
    venues: Annotated[int, _count("venues to append", DEFAULTS.venues)] = DEFAULTS.venues,
    organizers: Annotated[
        int, _count("organizers to append", DEFAULTS.organizers)
    ] = DEFAULTS.organizers,
    categories: Annotated[
        int, _count("event categories to add (at most the vocabulary's)", DEFAULTS.categories)
    ] = DEFAULTS.categories,
    tags: Annotated[
        int, _count("event tags to add (at most the vocabulary's)", DEFAULTS.tags)
    ] = DEFAULTS.tags,
    demo: Annotated[
        bool,
        option(
            "--demo",
            help=f"a small demo instead: {DEMO.events} upcoming events with venues, "
            "organizers, terms and German and Slovak translations (the counts are ignored); "
            "into an empty calendar only, so a second run changes nothing (default: off)",
        ),
    ] = False,
    stored_images: Annotated[
        bool,
        option(
            "--stored-images",
            help="the generated events' pictures are real images stored in the media library "
            "(the demo's) instead of stand-in URLs of an example host (default: off)",
        ),
    ] = False,
    random_seed: Annotated[
        int | None,
        option(
            metavar="N",
            help="repeatable data (IDs still differ) (default: random; the demo's is fixed)",
        ),
    ] = None,
) -> None:
    settings = get_settings()
    url = database_url()
    upgrade(url)
    counts = (
        DEMO
        if demo
        else SeedCounts(
            events=events, venues=venues, organizers=organizers, categories=categories, tags=tags
        )
    )
    if not demo:
        print(
            f"seeding {counts.events} events, {counts.venues} venues, {counts.organizers} "
            f"organizers, {counts.categories} categories and {counts.tags} tags "
            "(see `almanac seed --help` for other counts, or --demo)",
            flush=True,
        )
    report = asyncio.run(
        seed(
            url,
            counts,
            site_timezone=settings.site_timezone,
            default_language=settings.default_language,
            random_seed=DEMO_RANDOM_SEED if demo and random_seed is None else random_seed,
            progress=lambda line: print(line, flush=True),
            horizon_days=settings.recurrence_horizon_days,
            max_occurrences=settings.recurrence_max_occurrences,
            stored_images=stored_images,
        )
    )
    print(report.summary())


# Set here, not written into the function's docstring: it names the defaults.
seed_command.__doc__ = (
    f"Append generated records (by default {DEFAULTS.events} events with their venues, "
    "organizers and terms), or the small --demo. Categories and tags are taken from a "
    "vocabulary; names already there are skipped."
)


def _moment(value: str) -> datetime:
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def maintain(
    now: Annotated[datetime | None, option(hidden=True, parser=_moment, help="(tests)")] = None,
) -> None:
    """Store the dates of every recurring event up to the horizon (RECURRENCE_HORIZON_DAYS
    ahead). A running server does it daily; run it from cron when no server runs."""
    settings = get_settings()
    url = database_url()
    upgrade(url)
    horizon = Horizon(settings.recurrence_horizon_days, settings.recurrence_max_occurrences)

    async def run() -> int | None:
        engine = make_engine(url, settings)
        try:
            return await extend_horizon(make_sessionmaker(engine), horizon, now)
        finally:
            await engine.dispose()

    done = asyncio.run(run())
    if done is None:
        print("recurrence horizon: another process is extending it; nothing done")
    else:
        print(f"recurrence horizon ({horizon.days} days): extended {done} series")
