"""A real `almanac serve` whose database restarts, is full or refuses connections answers
every request, the failed-login throttle's included, with a 503 and Retry-After in the error
envelope, on connections it keeps open; and serves again once the database is back."""

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import httpx
import pytest

from tests.factories import API
from tests.live.db_gate import DatabaseGate
from tests.live.harness import POLL, almanac_server, fresh_database

BAD_LOGIN = httpx.BasicAuth("nobody", "wrong password")
ROUNDS = 3  # of concurrent requests on the same kept-alive connections
CONCURRENT = 12


@pytest.fixture(scope="module")
async def gated(database_url: str) -> AsyncIterator[tuple[DatabaseGate, str]]:
    async with (
        fresh_database(database_url, "almanac_db_faults", migrated=True) as url,
        DatabaseGate(url) as gate,
        almanac_server(gate.url, DB_CONNECT_TIMEOUT="2") as base,
    ):
        yield gate, base


def requests(http: httpx.AsyncClient) -> list[Awaitable[httpx.Response]]:
    """Requests that go through the failed-login throttle (wrong credentials), and the desk's
    sign-in form (the throttle, then the account)."""
    made: list[Awaitable[httpx.Response]] = []
    for n in range(CONCURRENT):
        if n % 3 == 0:
            made.append(http.get(f"{API}/categories", auth=BAD_LOGIN))
        elif n % 3 == 1:
            made.append(http.post(f"{API}/events", json={"title": "x"}, auth=BAD_LOGIN))
        else:
            form = {"login": "nobody", "password": "wrong"}
            made.append(
                http.post("/desk/signin", data=form, headers={"Origin": str(http.base_url)})
            )
    return made


async def until_back(http: httpx.AsyncClient) -> None:
    for _ in range(400):
        response = await http.get(f"{API}/categories", auth=BAD_LOGIN)
        if response.status_code == 401:
            return
        assert response.status_code == 503, response.text
        await asyncio.sleep(POLL)
    pytest.fail("the server did not recover")


@pytest.mark.parametrize(
    "fault",
    [
        pytest.param(lambda gate: gate.fail("57P03"), id="starting-up"),
        pytest.param(lambda gate: gate.fail("53300"), id="too-many-connections"),
        pytest.param(lambda gate: gate.fail("57P01"), id="shut-down"),
        pytest.param(lambda gate: gate.refuse(), id="refused"),
    ],
)
async def test_every_request_gets_a_503_while_the_database_is_away(
    gated: tuple[DatabaseGate, str], fault: Callable[[DatabaseGate], Awaitable[None]]
) -> None:
    gate, base = gated
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        await until_back(http)  # connections to the database in the pools
        await fault(gate)
        try:
            for _ in range(ROUNDS):
                answers = await asyncio.gather(*requests(http), return_exceptions=True)
                dropped = [
                    f"{a!r} {a.request.method} {a.request.url}"
                    for a in answers
                    if isinstance(a, httpx.HTTPError)
                ]
                assert dropped == []  # every request answered, none cut off
                for answer in answers:
                    assert isinstance(answer, httpx.Response)
                    assert answer.status_code == 503, (answer.url, answer.text)
                    assert answer.headers["Retry-After"] == "5"
                    body = answer.json()
                    assert body["code"] == "rest_unavailable"
                    assert body["data"] == {"status": 503}
                    assert answer.headers.get("connection") != "close"
        finally:
            await gate.open()
        await until_back(http)
