"""Async Alembic environment. The URL comes from config.attributes["url"] or the settings."""

import asyncio

from alembic import context
from sqlalchemy import pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from app.core.database.engine import asyncpg_url, resolve_database_url
from app.core.settings import get_settings
from app.models import Base

# One fixed key: concurrent `almanac serve` starts queue here instead of racing.
MIGRATION_LOCK_KEY = 727_001

target_metadata = Base.metadata


def _url() -> str:
    url = context.config.attributes.get("url")
    return asyncpg_url(url) if url else resolve_database_url(get_settings())


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


async def _run_online() -> None:
    engine = create_async_engine(_url(), poolclass=pool.NullPool)
    async with engine.connect() as connection:
        await connection.execute(text(f"SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})"))
        await connection.commit()
        try:
            await connection.run_sync(_run)
        finally:
            await connection.execute(text(f"SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})"))
            await connection.commit()
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_online())
