"""The event list's plans, as the plan tests read them: the EXPLAIN ANALYZE of an anonymous
list's page and count (printed: run the test with -s to read them)."""

import re

from sqlalchemy import text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.settings import get_settings
from app.core.web.urls import Urls
from app.events.listing import prepare
from app.events.query import EventQuery
from app.events.repository.events import EventRepository
from app.events.repository.list_query import EventListQuery
from app.http.context import RequestContext


async def list_plans(db: AsyncSession, query: EventQuery) -> dict[str, str]:
    """The plans of the anonymous list's first page and its count under `query`."""
    urls = Urls("http://test", "", "", "http://test")
    anonymous = RequestContext({}, "en", None, db, urls, get_settings())
    prepared = await prepare(anonymous, query)
    listed = EventListQuery(EventRepository(db, "en", "en"), prepared.filters)
    statements = {"page": listed.page_statement(0, 9), "count": listed.count_statement()}
    plans = {}
    for name, stmt in statements.items():
        compiled = stmt.compile(
            dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}
        )
        rows = await db.execute(text(f"EXPLAIN (ANALYZE, COSTS OFF) {compiled}"))
        plans[name] = "\n".join(r[0] for r in rows)
        print(f"-- {name}, {query}\n{plans[name]}")  # noqa: T201
    return plans


def dates_scan(plan: str) -> str:
    """How a plan reads the dates: its first node on `occurrences`, without its figures
    (nor whether the planner split it among workers)."""
    line = next(line for line in plan.splitlines() if re.search(r"on occurrences\b", line))
    return line.split("(")[0].strip().replace("Parallel ", "")
