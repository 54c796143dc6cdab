"""`almanac geocode`: place the venues that have no coordinates (docs/design.md#places)."""

import asyncio
import sys
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from rich.console import Console

from app.cli.common import database_url, option
from app.core.database.engine import make_engine, make_sessionmaker
from app.core.database.migrate import upgrade
from app.core.settings import Settings, get_settings
from app.importer.summary import progress_bars

STAGES = {"city": "by city", "address": "by address"}


class Progress:
    """A bar per stage on a terminal; elsewhere (logs, pipes) a line per stage."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.bars = progress_bars(console, disable=not console.is_terminal)
        self.tasks: dict[str, Any] = {}

    def start(self, stage: str, total: int) -> None:
        if not self.console.is_terminal:
            self.console.print(f"{STAGES[stage]}: {total} venue(s) to look up")
        self.tasks[stage] = self.bars.add_task(STAGES[stage], total=total)

    def advance(self, stage: str) -> None:
        self.bars.advance(self.tasks[stage])


def geocode(
    retry: Annotated[
        bool,
        option(
            "--retry",
            help="also ask the geocoding service again for venues it could not place within "
            "GEOCODER_RETRY_MINUTES (default: off: those wait for their retry)",
        ),
    ] = False,
) -> None:
    """Place the venues that have no coordinates: from their city (the embedded gazetteer),
    then, when GEOCODER_URL is set, from their full address (which also refines those placed
    from their city). Coordinates typed by a person are never changed; a second run only
    does what the first left."""
    settings = get_settings()
    url = database_url()
    upgrade(url)
    console = Console(file=sys.stdout, highlight=False)
    lines = asyncio.run(_run(url, settings, retry, Progress(console)))
    for line in lines:
        console.print(line)


async def _run(url: str, settings: Settings, retry: bool, progress: Progress) -> list[str]:
    from app.core.geocoding.geocoder import Geocoder
    from app.venues.geocoding import place_by_address, place_by_city, remaining

    engine = make_engine(url, settings)
    address = settings.geocoder_url
    geocoder = Geocoder(address, settings.geocoder_user_agent) if address else None
    try:
        maker = make_sessionmaker(engine)
        with progress.bars:
            by_city = await place_by_city(maker, progress)
            by_address = None
            if geocoder is not None:
                wait = timedelta(minutes=0 if retry else settings.geocoder_retry_minutes)
                asked_before = datetime.now(UTC) - wait
                by_address = await place_by_address(maker, geocoder, progress, asked_before)
        left = await remaining(maker)
    finally:
        if geocoder is not None:
            await geocoder.aclose()
        await engine.dispose()
    lines = [f"placed from their city (gazetteer): {by_city}"]
    if by_address is None:
        lines.append("placed from their address: none asked (GEOCODER_URL is not set)")
    else:
        lines.append(f"placed from their address (geocoding service): {by_address.found['address']}")  # fmt: skip
        lines.append(f"not placed better by the geocoding service: {by_address.unplaced}")
        if by_address.unavailable:
            lines.append(
                f"the geocoding service is unavailable: {by_address.unavailable} venue(s) "
                "left for a later run or the server's retry"
            )
    lines.append(
        f"left: {left.unplaced} venue(s) without coordinates, {left.geocodable} the "
        "geocoding service could still place better"
    )
    return lines
