"""`python -m bench.import_speed`: how long `almanac import` takes for a site of about a
thousand events, and for a second run that finds nothing changed.

The source is the tests' fake The Events Calendar site (tests/tec_source.py) called in
process, so the numbers are the importer's own work and the database's, not a network's. The
database is a fresh one (embedded, or on BENCH_DATABASE_URL's server), as for `make bench`.
"""

import argparse
import asyncio
import io
import random
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import httpx

from app.core.database.engine import make_engine, make_sessionmaker
from app.core.database.migrate import upgrade
from app.core.rules.permissions import Role
from app.core.settings import get_settings
from app.importer.client import SourceClient
from app.importer.service import Importer, ImportOptions
from app.importer.summary import PlainProgress, Summary
from app.users.service import Accounts
from bench.run import bench_database
from tests.tec_source import FakeTEC


def site(events: int, seed: int = 1) -> FakeTEC:
    rng = random.Random(seed)
    tec = FakeTEC()
    categories = [tec.add_category(f"Category {n}") for n in range(20)]
    tags = [tec.add_tag(f"tag {n}") for n in range(50)]
    venues = [tec.add_venue(f"Venue {n}", geo_lat=48.1, geo_lng=17.1) for n in range(100)]
    organizers = [tec.add_organizer(f"Organizer {n}") for n in range(150)]
    start = datetime(2026, 1, 1, 9, 0)
    for n in range(events):
        tec.add_event(
            f"Event {n} &#8211; {rng.choice(['Jazz', 'Rock', 'Chess'])}",
            start + timedelta(hours=7 * n),
            status="publish" if rng.random() < 0.9 else "draft",
            hide_from_listings=rng.random() < 0.05,
            venue=rng.choice(venues),
            organizers=rng.sample(organizers, rng.randint(0, 3)),
            categories=rng.sample(categories, rng.randint(1, 2)),
            tags=rng.sample(tags, rng.randint(0, 3)),
            description=f"<p>Event number {n}.</p>",
        )
    return tec


async def measure(url: str, events: int) -> list[tuple[str, Summary]]:
    settings = get_settings()
    engine = make_engine(url, settings)
    maker = make_sessionmaker(engine)
    async with maker() as session, session.begin():
        await Accounts(session, settings.app_password_pepper).add("boss", Role.ADMINISTRATOR)
    tec = site(events)
    runs = []
    try:
        for name in ("first run", "second run (nothing changed)"):
            transport = httpx.ASGITransport(app=tec.app())
            async with SourceClient(
                "http://tec.test", login="admin", password=tec.users["admin"], transport=transport
            ) as client:
                importer = Importer(maker, client, ImportOptions(), PlainProgress(io.StringIO()))
                runs.append((name, await importer.run()))
    finally:
        await engine.dispose()
    return runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir, bench_database(Path(workdir)) as url:
        upgrade(url)
        started = time.monotonic()
        runs = asyncio.run(measure(url, args.events))
        for name, summary in runs:
            events = summary.kinds["event"]
            print(
                f"{name}: {summary.seconds:.1f} s, {summary.requests} requests; events "
                f"{events.created} created, {events.updated} updated, "
                f"{events.unchanged} unchanged, {len(events.skipped)} skipped"
            )
        print(f"total {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
