"""SQL statements per request: each route once through the ASGI app, in process.

The app is built by `app.main.create_app()` and served by httpx's ASGI transport; its session
factory is replaced by one on the benchmark database whose engine counts every statement
(`before_cursor_execute`). Each route is called twice and the second call is counted, so
connection set-up queries of the pool are left out.
"""

import asyncio
import os
from dataclasses import dataclass
from typing import Any

import httpx
from sqlalchemy import event

from bench.load import PLACEHOLDER, Spec


@dataclass(frozen=True, slots=True)
class Counted:
    statements: int
    status: int


async def _count(url: str, specs: dict[str, Spec]) -> dict[str, Counted]:
    from app.core.database.engine import get_sessionmaker, make_engine, make_sessionmaker
    from app.core.settings import get_settings
    from app.main import create_app

    engine = make_engine(url, get_settings())
    executed = 0

    def on_execute(*_: Any) -> None:
        nonlocal executed
        executed += 1

    event.listen(engine.sync_engine, "before_cursor_execute", on_execute)
    maker = make_sessionmaker(engine)
    app = create_app()
    app.dependency_overrides[get_sessionmaker] = lambda: maker
    results: dict[str, Counted] = {}
    try:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for name, spec in specs.items():
                for attempt in ("warm", "counted"):
                    body = spec.body.replace(PLACEHOLDER, f"sql-{attempt}") if spec.body else None
                    executed = 0
                    path = spec.paths[0].replace(PLACEHOLDER, f"sql-{attempt}")
                    response = await client.request(
                        spec.method, path, headers=spec.headers, content=body
                    )
                results[name] = Counted(statements=executed, status=response.status_code)
    finally:
        await engine.dispose()
    return results


def count_statements(url: str, specs: dict[str, Spec]) -> dict[str, Counted]:
    """Statements of one request per route (`url`: the benchmark database)."""
    from app.core.settings import get_settings

    saved = {name: os.environ.get(name) for name in ("DATABASE_URL", "LOG_LEVEL")}
    os.environ.update(DATABASE_URL=url, LOG_LEVEL="warning")
    get_settings.cache_clear()
    try:
        return asyncio.run(_count(url, specs))
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        get_settings.cache_clear()
