"""A real PostgreSQL for the tests: embedded (pgserver) unless TEST_DATABASE_URL is set.

The schema is built by the real migrations once per run. Each test runs inside one
connection's transaction that is rolled back afterwards; every request still gets its own
session, working in SAVEPOINTs, so the app's real commit/rollback code runs.

Under pytest-xdist every worker has a database of its own (`almanac_test_gw0`, ...; see
tests/live.py `per_worker`), all on one embedded server that the workers of a run share: the
first to start it starts it, the last to finish stops it (pgserver counts its users).
"""

import asyncio
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.core.app_services import app_services
from app.core.database.embedded import start_server
from app.core.database.engine import asyncpg_url, get_sessionmaker
from app.core.database.migrate import upgrade
from app.core.settings import get_settings
from app.main import create_app
from tests.desk_support import DeskUserFactory, make_desk_user
from tests.factories import Auth, AuthFor, asgi_client, make_auth
from tests.live.harness import per_worker

# The desk's browser-test harness (its fixtures: desk_site, desk_browser).
pytest_plugins = ["tests.live.desk_harness"]

TEST_DATABASE = per_worker("almanac_test")
# The files that take longest (real servers and commands), longest first: they run first, so
# that under xdist (--dist loadfile: a file per worker at a time) the long ones start early
# and the many short ones fill in around them instead of one long file running last.
SLOW_FILES = (
    "test_fuzz.py",
    "test_live_server.py",
    "test_sync_live.py",
    "test_bench.py",
    "test_first_hour.py",
    "test_replica.py",
    "test_instances.py",
    "test_rsvp_race_live.py",
    "test_webhooks_live.py",
    "test_desk_editor_browser.py",
    "test_pages_browser.py",
    "test_docs_page.py",
    "test_desk_records_browser.py",
    "test_cli.py",
    "test_desk_browser_base.py",
    "test_desk_events_browser.py",
    "test_cache_survives_signin_live.py",
    "test_clients.py",
    "test_proxy_nginx.py",
    "test_import_cli.py",
    "test_pgbouncer.py",
    # The fast run's longest files (tests/api): 100k-event plans, the import's sources.
    "test_event_list_queries.py",
    "test_timezone_mode.py",
    "test_venues.py",
    "test_import.py",
    "test_media.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: position for position, name in enumerate(SLOW_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: else as collected


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """A PostgreSQL server: TEST_DATABASE_URL, or an embedded one for this run."""
    configured = os.environ.get("TEST_DATABASE_URL")
    if configured:
        yield asyncpg_url(configured)
        return
    # Not under pytest's tmp dir: that one is private to root and the embedded server
    # runs as its own system user. One directory per run, shared by its xdist workers.
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or str(os.getpid())
    base = Path(tempfile.gettempdir()) / f"almanac-tests-{run}"
    base.mkdir(mode=0o755, exist_ok=True)
    base.chmod(0o755)
    pgdata = base / "pgdata"
    server = start_server(pgdata)  # the workers take turns: the first starts it
    # A throwaway server: nothing in it must survive a crash, so commits need not wait for
    # the disk (the live tests' servers commit thousands of times and copy databases).
    server.psql(
        "ALTER SYSTEM SET fsync = off; ALTER SYSTEM SET synchronous_commit = off; "
        "ALTER SYSTEM SET full_page_writes = off; SELECT pg_reload_conf();"
    )
    try:
        yield asyncpg_url(server.get_uri("postgres"))
    finally:
        server.cleanup()  # stops the server if this was its last user
        if not (pgdata / "postmaster.pid").exists():
            shutil.rmtree(base, ignore_errors=True)


async def _recreate(server: str, database: str) -> None:
    admin = create_async_engine(server, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
        await conn.execute(text(f'CREATE DATABASE "{database}"'))
    await admin.dispose()


@pytest.fixture(scope="session")
async def database_url(server_url: str) -> str:
    url = make_url(server_url).set(database=TEST_DATABASE).render_as_string(hide_password=False)
    await _recreate(server_url, TEST_DATABASE)
    await asyncio.to_thread(upgrade, url)
    return url


@pytest.fixture(scope="session")
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_async_engine(database_url)
    yield engine
    await engine.dispose()


@pytest.fixture
async def maker(engine: AsyncEngine) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    async with engine.connect() as conn:
        outer = await conn.begin()
        yield async_sessionmaker(
            bind=conn, expire_on_commit=False, join_transaction_mode="create_savepoint"
        )
        await outer.rollback()


@pytest.fixture(scope="session")
async def app(database_url: str) -> AsyncIterator[FastAPI]:
    """The app without its lifespan: requests get the test's session maker (`client`); the
    failed-login throttle, which commits outside the request's transaction, gets the test
    database's URL for a pool of its own."""
    get_settings.cache_clear()
    # Uploads of the media library go to a directory of this run, not the working tree.
    media = Path(tempfile.mkdtemp(prefix="almanac-test-media-"))
    settings = {"database_url": database_url, "media_dir": media}
    app = create_app(get_settings().model_copy(update=settings))
    yield app
    await app_services(app).failed_logins.close()
    shutil.rmtree(media, ignore_errors=True)


@pytest.fixture
async def client(
    app: FastAPI, maker: async_sessionmaker[AsyncSession]
) -> AsyncIterator[AsyncClient]:
    app.dependency_overrides[get_sessionmaker] = lambda: maker
    # Every test starts with no throttled clients and no cached totals (a test's rolled-back
    # writes draw no new data version, so totals from an earlier test could look current).
    await app_services(app).failed_logins.clear()
    app_services(app).event_totals.clear()
    async with asgi_client(app) as c:
        yield c
    app.dependency_overrides.clear()
    # The throttle's rows are committed (outside the test's transaction): leave none behind
    # for tests that do not use this fixture.
    await app_services(app).failed_logins.clear()


@pytest.fixture
async def db(maker: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    async with maker() as session:
        yield session


@pytest.fixture
def auth(db: AsyncSession) -> Auth:
    """`await auth("editor")` creates a user of that role and returns its credentials."""
    return lambda role: make_auth(db, role)


@pytest.fixture
async def editor(auth: Auth) -> AuthFor:
    """A new editor's credentials."""
    return await auth("editor")


@pytest.fixture
async def admin(auth: Auth) -> AuthFor:
    """A new administrator's credentials."""
    return await auth("administrator")


@pytest.fixture
def desk_user(db: AsyncSession) -> DeskUserFactory:
    """`await desk_user("editor")`: a user of that role with an account password (the desk's;
    tests/desk_support.py signs in with it)."""
    return lambda role: make_desk_user(db, role)


@pytest.fixture
def statements(engine: AsyncEngine) -> Iterator[list[str]]:
    """The SQL of every statement the test's requests run, in order (the test's SAVEPOINTs
    included: they stand in for the request's transaction)."""
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    yield seen
    event.remove(engine.sync_engine, "before_cursor_execute", record)
