"""Engine and session: one session per request, committed before the response is sent."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, cast
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import orjson
from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.core.caching import after_write
from app.core.changelog import ChangePruner
from app.core.embedded import embedded_url
from app.core.settings import Settings


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


def make_engine(url: str, settings: Settings) -> AsyncEngine:
    return create_async_engine(
        asyncpg_url(url),
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        pool_recycle=1800,
        pool_timeout=settings.db_connect_timeout,
        json_deserializer=orjson.loads,
        json_serializer=lambda value: orjson.dumps(value).decode(),
        connect_args={
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


async def get_sessionmaker(request: Request) -> async_sessionmaker[AsyncSession]:
    """Reads run without a transaction (no BEGIN/COMMIT round trips), on the read replica
    when one is configured; writes get a transaction on the primary."""
    name = "read_sessionmaker" if request.method in SAFE_METHODS else "sessionmaker"
    return cast(async_sessionmaker[AsyncSession], getattr(request.state, name))


def read_engine(engine: AsyncEngine, settings: Settings) -> AsyncEngine:
    """The engine for reads: the replica's when DATABASE_READ_URL is set, in autocommit."""
    base = (
        make_engine(asyncpg_url(settings.database_read_url), settings)
        if settings.database_read_url
        else engine
    )
    return base.execution_options(isolation_level="AUTOCOMMIT")


MakerDep = Annotated[async_sessionmaker[AsyncSession], Depends(get_sessionmaker)]


@asynccontextmanager
async def session_scope(
    request: Request, maker: async_sessionmaker[AsyncSession]
) -> AsyncIterator[AsyncSession]:
    """The one session of a request: committed when the handler succeeds (and a new data
    version drawn after a write), rolled back when it fails."""
    async with maker() as session:
        try:
            yield session
        except Exception:
            await session.rollback()
            raise
        await session.commit()
        if request.method not in SAFE_METHODS:
            await after_write(session)
            pruner: ChangePruner | None = getattr(request.app.state, "change_pruner", None)
            if pruner is not None:
                await pruner.after_write(session)


class _StatelessConnection(asyncpg.Connection):  # type: ignore[misc]
    """A connection that only ever runs one read outside a transaction: nothing to reset when
    it goes back to the pool (asyncpg's default reset is a statement of its own each time,
    as costly as the read)."""

    def get_reset_query(self) -> str:
        return ""


async def version_pool(url: str, settings: Settings) -> asyncpg.Pool:
    """A few raw connections for the one-row reads that validate cached responses and
    cached callers."""
    dsn = urlunsplit(urlsplit(asyncpg_url(url))._replace(scheme="postgresql"))
    return await asyncpg.create_pool(
        dsn,
        min_size=1,
        max_size=2,
        timeout=settings.db_connect_timeout,
        command_timeout=5,
        connection_class=_StatelessConnection,
    )
