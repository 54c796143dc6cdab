"""`almanac serve` as an operator runs it: migrations on start, then a real uvicorn."""

import asyncio
import os
import sys
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.live import free_port, fresh_database, wait_until_serving


@pytest.fixture
async def served(database_url: str) -> AsyncIterator[str]:
    async with fresh_database(database_url, "almanac_serve_test") as url:
        port = free_port()
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "2"),
            env={**os.environ, "DATABASE_URL": url},
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            await wait_until_serving(base, process)
            yield base
        finally:
            process.terminate()
            await asyncio.wait_for(process.wait(), timeout=30)


async def test_serve_migrates_and_answers(served: str) -> None:
    async with httpx.AsyncClient() as client:
        response = await client.get(f"{served}/calendar/events/v1/categories")
    assert response.status_code == 200
    body = response.json()
    assert body["categories"] == []
    assert body["total"] == 0
    assert body["rest_url"] == f"{served}/calendar/events/v1/categories/?page=1&per_page=9"
    assert response.headers["content-language"] == "en"
