"""Engine and session: one session per request, committed before the response is sent."""

import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any, Protocol, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import orjson
from fastapi import Depends, Request
from sqlalchemy import Label, column, event, exc, func, select, table, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import AsyncAdaptedQueuePool, ConnectionPoolEntry, NullPool, QueuePool
from sqlalchemy.util import greenlet_spawn

from app.core.database.embedded import embedded_url
from app.core.rules.constants import CONTENT_WRITTEN_SETTING, VERSION_SEQUENCE
from app.core.settings import Settings

if TYPE_CHECKING:  # it imports this module
    from app.core.database.replica import ReadRouter, ReplayWatch, Route

# The session type every layer names (only this module and the repositories import SQLAlchemy).
Session = AsyncSession
SessionMaker = async_sessionmaker[AsyncSession]
# Run after a request's write has committed, in order, on its session: e.g. drawing a new data
# version (app/core/caching/cache.py) and pruning the change log (app/changes/pruning.py).
AfterCommit = Callable[[AsyncSession], Awaitable[None]]


class ReadCounter(Protocol):
    """Counts a request's reads by the server that answers them (app/core/observability/metrics.py's
    `Metrics`, which imports this module: a protocol, not an import, keeps them apart)."""

    def read(self, server: str) -> None: ...


class SessionServices(Protocol):
    """What a request's session needs of the app's services (app/core/app_services.py)."""

    @property
    def metrics(self) -> ReadCounter: ...

    @property
    def after_commit(self) -> Sequence[AfterCommit]: ...


# Failures of the database layer, for the modules that tell them apart (app/core/web/errors.py):
# any error of SQLAlchemy's, and no connection free in the pool in time.
DatabaseError = exc.SQLAlchemyError
PoolTimeout = exc.TimeoutError


def connection_invalidated(error: BaseException) -> bool:
    """Did the driver report the connection lost (the database gone, not a bad query)?"""
    return isinstance(error, exc.DBAPIError) and error.connection_invalidated


def printable_url(url: str) -> str:
    """The database URL without its password, for messages."""
    return make_url(url).render_as_string(hide_password=True)


def asyncpg_url(url: str) -> str:
    """Accept postgres://, postgresql:// and postgresql+asyncpg:// (socket form included)."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql", "postgresql+asyncpg"):
        raise ValueError(f"DATABASE_URL must be a PostgreSQL URL, got scheme {parts.scheme!r}")
    return urlunsplit(parts._replace(scheme="postgresql+asyncpg"))


def resolve_database_url(settings: Settings) -> str:
    """The configured server, or the embedded one started on demand."""
    if settings.database_url:
        return asyncpg_url(settings.database_url)
    return asyncpg_url(embedded_url(settings.almanac_data_dir))


class MeteredPool(AsyncAdaptedQueuePool):
    """The engine's pool, timing the checkouts that have to wait for a connection (no idle
    one, no overflow left): the metrics' pool waits (app/core/observability/metrics.py sets `on_wait`)."""

    on_wait: Callable[[float], None] | None = None

    def _do_get(self) -> ConnectionPoolEntry:
        # The condition under which QueuePool._do_get blocks, read from the same attributes.
        if self.on_wait is None or self.checkedin() or self._overflow < self._max_overflow:
            return super()._do_get()
        started = time.perf_counter()
        try:
            return super()._do_get()
        finally:
            self.on_wait(time.perf_counter() - started)


def _statement_options(settings: Settings) -> dict[str, Any]:
    """asyncpg's connect arguments for prepared statements. Behind PgBouncer in transaction
    mode a connection's statements may run on different server connections: no cache, and
    names that never collide (DB_PREPARED_STATEMENTS=false)."""
    if settings.db_prepared_statements:
        return {}
    return {
        "statement_cache_size": 0,
        "prepared_statement_cache_size": 0,
        "prepared_statement_name_func": lambda: f"__asyncpg_{uuid.uuid4().hex}__",
    }


def make_engine(url: str, settings: Settings, *, pooled: bool = True) -> AsyncEngine:
    """The app's engine; `pooled=False` for a background task that runs now and then: its
    connection is closed after each use instead of waiting, idle for a day, in the pool (and
    being the one a restarted database finds dead, failing a request)."""
    pooling: dict[str, Any] = (
        {
            "poolclass": MeteredPool,
            "pool_size": settings.db_pool_size,
            "max_overflow": settings.db_max_overflow,
            "pool_recycle": 1800,
            "pool_timeout": settings.db_connect_timeout,
        }
        if pooled
        else {"poolclass": NullPool}
    )
    return create_async_engine(
        asyncpg_url(url),
        **pooling,
        json_deserializer=orjson.loads,
        json_serializer=lambda value: orjson.dumps(value).decode(),
        connect_args={
            **_statement_options(settings),
            "timeout": settings.db_connect_timeout,
            "command_timeout": settings.db_statement_timeout_ms / 1000 or None,
            "server_settings": {
                "application_name": "almanac",
                "statement_timeout": str(settings.db_statement_timeout_ms),
                # JIT compilation costs more than it saves on short OLTP queries.
                "jit": "off",
            },
        },
    )


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
ROUTE_KEY = "read_route"  # the request state's Route (app/core/database/replica.py)


async def get_sessionmaker(request: Request) -> async_sessionmaker[AsyncSession]:
    """Writes get a transaction on the primary. Reads run without a transaction (no
    BEGIN/COMMIT round trips), on the server the read router picks when a replica is
    configured (app/core/database/replica.py), else on the primary."""
    state = request.state
    if request.method not in SAFE_METHODS:
        return cast(async_sessionmaker[AsyncSession], state.sessionmaker)
    router: ReadRouter | None = getattr(state, "read_router", None)
    if router is None:
        return cast(async_sessionmaker[AsyncSession], state.read_sessionmaker)
    route = await router.route_request(request.scope)
    setattr(state, ROUTE_KEY, route)
    name = "replica_sessionmaker" if route.server == "replica" else "read_sessionmaker"
    return cast(async_sessionmaker[AsyncSession], getattr(state, name))


def read_engine(engine: AsyncEngine, settings: Settings) -> AsyncEngine:
    """`engine` for reads: in autocommit (unless behind a transaction pooler: see
    `PinnedReader`)."""
    if not settings.db_prepared_statements:
        return engine
    return engine.execution_options(isolation_level="AUTOCOMMIT")


async def release_idle(engine: AsyncEngine) -> None:
    """Close the pooled connections nobody uses (to a server that went away: the next
    checkout connects again instead of failing a request); the pool stays in place."""
    await greenlet_spawn(engine.sync_engine.pool.dispose)


MakerDep = Annotated[async_sessionmaker[AsyncSession], Depends(get_sessionmaker)]


@asynccontextmanager
async def session_scope(
    request: Request, maker: async_sessionmaker[AsyncSession], services: SessionServices
) -> AsyncIterator[AsyncSession]:
    """The one session of a request: committed when the handler succeeds (and, after a
    write, the app's after-commit hooks run), rolled back when it fails. A replica's
    session carries the data version its reads may be filed under (`read_version`)."""
    route: Route | None = getattr(request.state, ROUTE_KEY, None)
    if request.method in SAFE_METHODS:
        services.metrics.read("primary" if route is None else route.server)
    watch = None if route is None else route.watch
    async with maker(info={} if watch is None else {REPLAY_WATCH: watch}) as session:
        try:
            yield session
        except Exception:
            await session.rollback()
            raise
        if session.info.get(NOT_CONTENT) and request.method not in SAFE_METHODS:
            session.info[CONTENT_WRITTEN] = await wrote_content(session)
        await session.commit()
        if request.method not in SAFE_METHODS:
            for hook in services.after_commit:
                await hook(session)
            position = session.info.get(WRITTEN_POSITION)
            if position is not None and getattr(request.state, "read_router", None) is not None:
                setattr(request.state, WRITTEN_POSITION, position)  # read-your-writes


class _StatelessConnection(asyncpg.Connection):  # type: ignore[misc]
    """A connection that only ever runs one read outside a transaction: nothing to reset when
    it goes back to the pool (asyncpg's default reset is a statement of its own each time,
    as costly as the read)."""

    def get_reset_query(self) -> str:
        return ""


def raw_dsn(url: str) -> str:
    """The URL as asyncpg's own connect functions take it."""
    return urlunsplit(urlsplit(asyncpg_url(url))._replace(scheme="postgresql"))


class PinnedReader:
    """The raw pool's reads, each in a transaction of its own.

    asyncpg prepares a statement and then executes it in two exchanges; outside a
    transaction a pooler in transaction mode (PgBouncer before 1.21) may send them to two
    server connections, the second of which does not know the statement. Inside a
    transaction both go to one. Used with DB_PREPARED_STATEMENTS=false only (it costs the
    BEGIN and COMMIT); the engine's read sessions then run in transactions for the same
    reason (`read_engine`)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def _run(self, method: str, query: str, *args: Any, **options: Any) -> Any:
        async with self.pool.acquire() as connection, connection.transaction():
            return await getattr(connection, method)(query, *args, **options)

    async def fetchval(self, query: str, *args: Any, **options: Any) -> Any:
        return await self._run("fetchval", query, *args, **options)

    async def fetchrow(self, query: str, *args: Any, **options: Any) -> Any:
        return await self._run("fetchrow", query, *args, **options)

    async def fetch(self, query: str, *args: Any, **options: Any) -> Any:
        return await self._run("fetch", query, *args, **options)

    async def execute(self, query: str, *args: Any, **options: Any) -> Any:
        return await self._run("execute", query, *args, **options)

    async def close(self) -> None:
        await self.pool.close()


async def version_pool(url: str, settings: Settings, *, min_size: int = 1) -> Any:
    """A few raw connections for the one-row reads that validate cached responses and
    cached callers, for the failed-login throttle and for readiness (of the primary); for
    the replica's replay position (`min_size=0`: a replica that is down at start-up does not
    stop the app, its reads go to the primary)."""
    pool = await _raw_pool(url, settings, min_size)
    return pool if settings.db_prepared_statements else PinnedReader(pool)


async def _raw_pool(url: str, settings: Settings, min_size: int) -> asyncpg.Pool:
    return await asyncpg.create_pool(
        raw_dsn(url),
        min_size=min_size,
        max_size=2,
        timeout=settings.db_connect_timeout,
        command_timeout=5,
        connection_class=_StatelessConnection,
        statement_cache_size=100 if settings.db_prepared_statements else 0,
    )


# ---- the data version (app/core/caching/cache.py) ---------------------------------------


def version_column() -> Label[int]:
    """The current data version, as a scalar subquery to add to a query (reading a
    sequence's last value takes no lock and sees numbers drawn by uncommitted writers)."""
    sequence = table(VERSION_SEQUENCE, column("last_value"))
    return select(sequence.c.last_value).scalar_subquery().label("data_version")


# A session's `info` keys: a replica session's ReplayWatch (app/core/database/replica.py), and
# the primary's WAL position after the session's write committed; `not_content`'s mark, and
# whether the database then said the transaction wrote content.
REPLAY_WATCH = "replay_watch"
WRITTEN_POSITION = "written_position"
NOT_CONTENT = "not_content"
CONTENT_WRITTEN = "content_written"


def not_content(session: AsyncSession) -> None:
    """Say that `session`'s writes are not content (desk sessions, sign-ins): nothing a
    cached response can show. Only a hint, so that it cannot hide a real change: before the
    commit the database is asked whether the transaction wrote a content table anyway (the
    tables with a version trigger, which notes it: see the migration
    2026-11-25-0100_content_written), and the version is drawn if it did. Writes that are
    not marked draw as before, without the question (no extra round trip for them)."""
    session.info[NOT_CONTENT] = True


async def wrote_content(session: AsyncSession) -> bool:
    """Whether the session's open transaction wrote a content table (a version trigger
    fired in it); False without a transaction (the question then opens an empty one)."""
    noted = select(func.current_setting(CONTENT_WRITTEN_SETTING, True))
    return bool(await session.scalar(noted) == "on")


def content_unchanged(session: AsyncSession) -> bool:
    """True only when the session's committed write was marked `not_content` and the
    database said it wrote no content table: no data version needs drawing for it."""
    return session.info.get(CONTENT_WRITTEN) is False


async def draw_data_version(session: AsyncSession) -> None:
    """Draw a new data version, committed at once; the primary's WAL position, at or past
    the write's commit, is kept in the session's info (read-your-writes)."""
    drawn = select(func.nextval(VERSION_SEQUENCE), func.pg_current_wal_lsn())
    position = (await session.execute(drawn)).one()[1]
    session.info[WRITTEN_POSITION] = lsn_number(position)
    await session.commit()


def lsn_number(value: object) -> int:
    """asyncpg hands `pg_lsn` over as a number, other drivers as text (`16/B374D848`)."""
    if isinstance(value, int):
        return value
    high, _, low = str(value).partition("/")
    return (int(high, 16) << 32) | int(low, 16)


def replay_column() -> Label[Any]:
    """The standby's replay position as the statement runs (NULL on a primary), to add to a
    query whose result may be cached: at or past the one of the statement's snapshot."""
    return func.pg_last_wal_replay_lsn().label("replay_position")


async def read_version(
    session: AsyncSession, found: int | None, replayed: object = None
) -> Hashable | None:
    """What to file the result of `session`'s last statement under (None: nothing): on the
    primary `found`, the version read in the statement's own snapshot; on a replica the
    replay position, when it did not move during the statement (`replayed`, read by the
    statement itself, else asked for now). A sequence's `last_value` on a standby is what
    the primary last logged, up to 32 numbers ahead: no version."""
    watch: ReplayWatch | None = session.info.get(REPLAY_WATCH)
    if watch is None:
        return found
    return await watch.label(None if replayed is None else lsn_number(replayed))


# ---- readiness and metrics --------------------------------------------------------------

REVISIONS_SQL = "SELECT version_num FROM alembic_version"


async def applied_revisions(session: AsyncSession) -> set[str]:
    """The schema's applied Alembic revisions."""
    return set((await session.execute(text(REVISIONS_SQL))).scalars())


def observe_pool(
    pool: Any, in_use: Callable[[int], None], waited: Callable[[float], None]
) -> int | None:
    """Tell `in_use` the connections in use after every checkout and checkin, and `waited`
    each wait for a connection (MeteredPool); the pool's capacity, None for a pool that
    keeps no connections (NullPool)."""
    if not isinstance(pool, QueuePool):
        return None
    checked_out = pool.checkedout

    def on_checkout(*_: object) -> None:
        in_use(checked_out())

    def on_checkin(*_: object) -> None:
        # Fired before the connection is back in the pool: it still counts as out.
        in_use(max(0, checked_out() - 1))

    event.listen(pool, "checkout", on_checkout)
    event.listen(pool, "checkin", on_checkin)
    if isinstance(pool, MeteredPool):
        pool.on_wait = waited
    return pool.size() + max(0, pool._max_overflow)
