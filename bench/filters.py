"""`python -m bench.filters`: a month's list (its first page, its count) and its month grid,
plain and under each filter of the list (the price, the days of the week, the time of day,
a category), as EXPLAIN ANALYZE times them on an existing database (DATABASE_URL, e.g. one
`almanac seed --events 1000000` filled): the median execution time of each statement over
`--runs`, in ms. The statements are the app's own (`prepare`, `DayQuery`), with a
visitor's visibility; the month is the one after next, the grid its six weeks' 35 days as
the month page asks them (docs/performance.md, the filters of issue 46)."""

import argparse
import asyncio
import re
import statistics
from datetime import date, datetime, time, timedelta, tzinfo
from decimal import Decimal
from typing import Any

from sqlalchemy import Select, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.engine import make_engine, make_sessionmaker
from app.core.settings import get_settings
from app.core.web.urls import Urls
from app.events.listing import prepare
from app.events.query import EventQuery
from app.events.repository.day_query import DayQuery
from app.http.context import RequestContext

CASES: dict[str, dict[str, Any]] = {
    "plain": {},
    "weekday=6,7": {"weekdays": (6, 7)},
    "time_of_day=evening": {"times_of_day": ("evening",)},
    "time_of_day=night,all_day": {"times_of_day": ("night", "all_day")},
    "cost_max=0": {"cost_max": Decimal(0)},
    "cost_min=10&cost_max=30": {"cost_min": Decimal(10), "cost_max": Decimal(30)},
    "categories=<category>": {"categories": None},  # the category of --category
}


async def _median(db: AsyncSession, stmt: Select[Any], runs: int) -> float:
    compiled = stmt.compile(dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True})
    times = []
    for _ in range(runs):
        rows = [row[0] for row in await db.execute(text(f"EXPLAIN (ANALYZE) {compiled}"))]
        found = re.search(r"Execution Time: ([\d.]+)", rows[-1])
        times.append(float(found.group(1)) if found else float("nan"))
    return statistics.median(times)


def _midnight(day: date, zone: tzinfo) -> datetime:
    return datetime.combine(day, time.min).replace(tzinfo=zone)


async def measure(runs: int, category: str) -> None:
    settings = get_settings()
    engine = make_engine(settings.database_url, settings)
    zone = settings.site_zone
    first = (date.today().replace(day=1) + timedelta(days=40)).replace(day=1)
    last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    grid_first = first - timedelta(days=first.weekday())
    grid_last = grid_first + timedelta(days=34)
    print(f"month {first} to {last}, grid {grid_first} to {grid_last}, {runs} runs, median ms")
    print("| filter | list: page | list: count | month grid |")
    print("|---|---:|---:|---:|")
    try:
        async with make_sessionmaker(engine)() as db:
            ctx = RequestContext({}, "en", None, db, Urls("http://b", "", "", "http://b"), settings)
            for name, asked in CASES.items():
                if "categories" in asked:
                    asked = {"categories": (category,)}
                month = EventQuery(
                    start_date=_midnight(first, zone), end_date=_midnight(last, zone), **asked
                )
                listed = (await prepare(ctx, month)).query
                page = await _median(db, listed.page_statement(0, 9), runs)
                count = await _median(db, listed.count_statement(), runs)
                # The grid as the month page asks it: the window around its days, five a day.
                around = EventQuery(
                    ends_after=_midnight(grid_first, zone),
                    starts_before=_midnight(grid_last + timedelta(days=1), zone),
                    **asked,
                )
                days = DayQuery((await prepare(ctx, around)).query, grid_first, grid_last, 5)
                grid = await _median(db, days.statement(), runs)
                print(f"| {name} | {page:.1f} | {count:.1f} | {grid:.1f} |", flush=True)
    finally:
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each statement (5)")
    parser.add_argument("--category", default="kids", help="a category's slug (kids)")
    args = parser.parse_args()
    asyncio.run(measure(args.runs, args.category))


if __name__ == "__main__":
    main()
