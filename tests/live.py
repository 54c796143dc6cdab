"""Helpers for tests that run the real `almanac` command and server (subprocesses)."""

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@asynccontextmanager
async def fresh_database(database_url: str, name: str) -> AsyncIterator[str]:
    """A new, empty database next to the test database; dropped afterwards."""
    admin = create_async_engine(database_url, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(database_url).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()


async def almanac(url: str, *args: str) -> str:
    """Run an `almanac` command against `url`; its standard output (it must succeed)."""
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "app.cli", *args),
        env={**os.environ, "DATABASE_URL": url},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    return out.decode()


async def wait_until_serving(base: str) -> None:
    async with httpx.AsyncClient() as client:
        for _ in range(300):
            try:
                await client.get(f"{base}/")
                return
            except httpx.TransportError:
                await asyncio.sleep(0.1)
    raise AssertionError(f"nothing answers at {base}")
