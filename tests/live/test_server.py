"""`almanac serve` as an operator runs it: migrations on start, then a real uvicorn."""

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.live.harness import almanac_server, fresh_database


@pytest.fixture
async def served(database_url: str) -> AsyncIterator[str]:
    async with (
        fresh_database(database_url, "almanac_serve_test", migrated=True) as url,
        almanac_server(url, workers=2) as base,
    ):
        yield base


async def test_serve_migrates_and_answers(served: str) -> None:
    async with httpx.AsyncClient() as client:
        response = await client.get(f"{served}/calendar/events/v1/categories")
    assert response.status_code == 200
    body = response.json()
    assert body["categories"] == []
    assert body["total"] == 0
    assert body["rest_url"] == f"{served}/calendar/events/v1/categories/?page=1&per_page=9"
    assert response.headers["content-language"] == "en"
