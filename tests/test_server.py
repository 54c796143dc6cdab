"""`almanac serve` as an operator runs it: migrations on start, then a real uvicorn."""

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
async def served(database_url: str) -> AsyncIterator[str]:
    admin = create_async_engine(database_url, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text("DROP DATABASE IF EXISTS almanac_serve_test WITH (FORCE)"))
        await conn.execute(text("CREATE DATABASE almanac_serve_test"))
    url = make_url(database_url).set(database="almanac_serve_test").render_as_string(False)
    port = _free_port()
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "2"),
        env={**os.environ, "DATABASE_URL": url},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient() as client:
            for _ in range(300):
                try:
                    await client.get(f"{base}/")
                    break
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
        yield base
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), timeout=30)
        async with admin.connect() as conn:
            await conn.execute(text("DROP DATABASE IF EXISTS almanac_serve_test WITH (FORCE)"))
        await admin.dispose()


async def test_serve_migrates_and_answers(served: str) -> None:
    async with httpx.AsyncClient() as client:
        response = await client.get(f"{served}/calendar/events/v1/categories")
    assert response.status_code == 200
    body = response.json()
    assert body["categories"] == []
    assert body["total"] == 0
    assert body["rest_url"] == f"{served}/calendar/events/v1/categories/?page=1&per_page=9"
    assert response.headers["content-language"] == "en"
