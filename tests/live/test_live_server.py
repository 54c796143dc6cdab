"""A real `almanac serve`: in-flight requests finish on SIGTERM, its logs hold no secrets,
oversized bodies get a clean 413, and cached responses are exact."""

import asyncio
import base64
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx
import pytest

from app.core.database.replica import NOT_A_STANDBY
from tests.factories import API
from tests.live.harness import (
    add_user,
    almanac,
    almanac_server,
    free_port,
    fresh_database,
    wait_until_refused,
    wait_until_serving,
)


@dataclass
class Server:
    base: str
    port: int
    process: asyncio.subprocess.Process
    login: str
    password: str
    url: str


@asynccontextmanager
async def _serving(database_url: str, name: str) -> AsyncIterator[Server]:
    async with fresh_database(database_url, name, migrated=True) as url:
        _, password = await add_user(url, "closer", "editor")
        port = free_port()
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "1"),
            env={**os.environ, "DATABASE_URL": url},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            await wait_until_serving(base, process)
            yield Server(base, port, process, "closer", password, url)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    """A server of the test's own, for a test that stops it or reads its whole output."""
    async with _serving(database_url, "almanac_live_test") as server:
        yield server


@pytest.fixture(scope="module")
async def shared(database_url: str) -> AsyncIterator[Server]:
    """One server for the tests that leave it running (each in dates of its own): a server
    started is seconds of the suite's time."""
    async with _serving(database_url, "almanac_live_shared") as server:
        # Its output is not read: drained, so that a full pipe never blocks its logging.
        assert server.process.stdout is not None
        drain = asyncio.create_task(server.process.stdout.read())
        yield server
    drain.cancel()


async def test_in_flight_request_finishes_on_sigterm(server: Server) -> None:
    token = base64.b64encode(f"{server.login}:{server.password}".encode()).decode()
    body = b'{"name": "Finished during shutdown"}'
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    head = (
        f"POST {API}/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Expect: 100-continue\r\n\r\n"
    ).encode()
    writer.write(head)
    await writer.drain()
    # The server asks for the body once the app reads it: the request is now in flight.
    interim = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=30)
    assert interim.startswith(b"HTTP/1.1 100 Continue"), interim
    server.process.send_signal(signal.SIGTERM)
    # Shutting down: it stops listening first, then tells every open connection to close
    # once its request is answered.
    await wait_until_refused(server.port)
    writer.write(body)
    await writer.drain()
    # A server that is shutting down closes the connection after answering: read to the end.
    response = await asyncio.wait_for(reader.read(), timeout=30)
    writer.close()
    status_line = response.split(b"\r\n", 1)[0]
    assert status_line == b"HTTP/1.1 201 Created", response[:300]
    assert b"Finished during shutdown" in response
    # A clean stop: the exit hooks ran (the embedded PostgreSQL's stop among them).
    assert await asyncio.wait_for(server.process.wait(), timeout=30) == 0
    # New connections are refused once it has stopped.
    with pytest.raises(httpx.TransportError):
        async with httpx.AsyncClient() as client:
            await client.get(f"{server.base}/")


async def test_logs_hold_no_passwords(server: Server) -> None:
    async with httpx.AsyncClient(auth=(server.login, server.password)) as client:
        created = await client.post(
            f"{server.base}{API}/events",
            json={"title": "Guarded", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00",
                  "password": "body-secret"},
        )  # fmt: skip
        assert created.status_code == 201
        event_id = created.json()["id"]
        read = await client.get(
            f"{server.base}{API}/events/{event_id}", params={"password": "query-secret"}
        )
        assert read.status_code == 200
    async with httpx.AsyncClient() as client:
        await client.get(
            f"{server.base}{API}/events/{event_id}", params={"password": "query-secret"}
        )
        await client.get(f"{server.base}{API}/tags", auth=(server.login, "wrong-secret"))
    server.process.send_signal(signal.SIGTERM)
    assert server.process.stdout is not None
    output = (await asyncio.wait_for(server.process.stdout.read(), timeout=30)).decode()
    await server.process.wait()
    assert f"/events/{event_id}?password=***" in output  # the request was logged, masked
    # One readable access line per request, under its request id, with the route template.
    access = re.compile(
        rf"INFO almanac\.access \[[0-9a-f]{{32}}\] GET {API}/events/{event_id}\?password=\*\*\* "
        rf"200 [0-9.]+ms route={API}/events/{{id}} user=[0-9]+ cache=-"
    )
    assert access.search(output), output[-2000:]
    for secret in ("query-secret", "body-secret", "wrong-secret", server.password):
        assert secret not in output


async def test_oversized_body_gets_a_clean_413(shared: Server) -> None:
    big = b'{"name": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    async with httpx.AsyncClient(auth=(shared.login, shared.password)) as client:
        for _ in range(3):
            response = await client.post(
                f"{shared.base}{API}/tags",
                content=big,
                headers={"Content-Type": "application/json"},
            )
            assert response.status_code == 413
            assert response.json()["code"] == "rest_payload_too_large"


async def test_cached_responses_follow_every_change(shared: Server) -> None:
    editor = (shared.login, shared.password)
    events = f"{shared.base}{API}/events"
    async with httpx.AsyncClient() as anonymous, httpx.AsyncClient(auth=editor) as writer:
        venue = (await writer.post(f"{shared.base}{API}/venues", json={"venue": "Old hall"})).json()
        created = await writer.post(
            events,
            json={"title": "Cached", "start_date": "2030-01-01 10:00", "end_date": "2030-01-01 11:00",
                  "venue": venue["id"]},
        )  # fmt: skip
        event_url = f"{events}/{created.json()['id']}"
        params = {"start_date": "2029-12-01", "end_date": "2030-02-01"}
        first = await anonymous.get(events, params=params)
        second = await anonymous.get(events, params=params)
        assert first.headers["x-almanac-cache"] == "miss"
        assert second.headers["x-almanac-cache"] == "hit"
        assert second.content == first.content
        assert second.headers["content-language"] == "en"
        assert (await anonymous.get(event_url)).headers["x-almanac-cache"] == "miss"
        assert (await anonymous.get(event_url)).headers["x-almanac-cache"] == "hit"
        # A change to an embedded venue is a change to the event.
        await writer.post(f"{shared.base}{API}/venues/{venue['id']}", json={"venue": "New hall"})
        fresh = await anonymous.get(event_url)
        assert fresh.headers["x-almanac-cache"] == "miss"
        assert fresh.json()["venue"]["venue"] == "New hall"
        await writer.post(
            events,
            json={
                "title": "Second",
                "start_date": "2030-01-02 10:00",
                "end_date": "2030-01-02 11:00",
            },
        )
        listed = await anonymous.get(events, params=params)
        assert listed.headers["x-almanac-cache"] == "miss"
        assert listed.json()["total"] == 2
        await writer.delete(event_url)
        assert (await anonymous.get(event_url)).status_code == 403
        assert (await anonymous.get(events, params=params)).json()["total"] == 1
        # Not cached: signed-in callers, times relative to now, other languages share nothing.
        signed_in = await writer.get(events, params=params)
        assert "x-almanac-cache" not in signed_in.headers
        relative = await anonymous.get(events, params={"start_date": "now", "end_date": "+3 years"})
        assert "x-almanac-cache" not in relative.headers
        busted = await anonymous.get(events, params={**params, "_": "1700000000000"})
        assert "x-almanac-cache" not in busted.headers  # unique by design: never stored
        assert busted.json()["total"] == 1
        german = await anonymous.get(f"{shared.base}/de{API}/events", params=params)
        assert german.headers["x-almanac-cache"] == "miss"
        assert german.headers["content-language"] == "de"
        other_host = await anonymous.get(events, params=params, headers={"Host": "public.example"})
        assert other_host.headers["x-almanac-cache"] == "miss"
        assert other_host.json()["rest_url"].startswith("http://public.example/")


async def test_identical_misses_are_computed_once(shared: Server) -> None:
    url = f"{shared.base}{API}/events"
    params = {"start_date": "2031-01-01", "end_date": "2031-12-31"}
    async with httpx.AsyncClient(auth=(shared.login, shared.password)) as writer:
        for day in range(1, 4):
            response = await writer.post(
                url,
                json={"title": f"Popular {day}", "start_date": f"2031-03-0{day} 10:00",
                      "end_date": f"2031-03-0{day} 12:00"},
            )  # fmt: skip
            assert response.status_code == 201
    async with httpx.AsyncClient() as anonymous:
        responses = await asyncio.gather(*(anonymous.get(url, params=params) for _ in range(8)))
    assert [r.status_code for r in responses] == [200] * 8
    assert sorted(r.headers["x-almanac-cache"] for r in responses) == ["hit"] * 7 + ["miss"]
    assert len({r.content for r in responses}) == 1


async def test_a_read_url_that_is_no_standby_is_not_read_from(database_url: str) -> None:
    """DATABASE_READ_URL must name a streaming standby (its replay position is what makes
    its reads safe, app/core/replica.py): another server is reported and never read from.
    The standby itself: tests/live/test_replica.py."""
    async with (
        fresh_database(database_url, "almanac_primary_test", migrated=True) as primary,
        fresh_database(database_url, "almanac_replica_test", migrated=True) as replica,
    ):
        _, password = await add_user(primary, "writer", "editor")
        async with (
            almanac_server(primary, DATABASE_READ_URL=replica) as base,
            httpx.AsyncClient(base_url=base) as client,
        ):
            ready = await client.get("/readyz")
            assert ready.status_code == 200
            assert ready.json()["replica"] == {
                "status": "down", "lag_seconds": None, "max_lag_seconds": 10.0,
                "reads": "primary", "error": NOT_A_STANDBY,
            }  # fmt: skip
            created = await client.post(
                f"{API}/tags", json={"name": "Written"}, auth=("writer", password)
            )
            assert created.status_code == 201
            # Read on the primary (the other database has no such tag).
            listed = await client.get(f"{API}/tags", params={"hide_empty": "0"})
            assert [tag["name"] for tag in listed.json()["tags"]] == ["Written"]


async def test_signed_in_callers_follow_user_changes_at_once(shared: Server) -> None:
    """Signed-in callers are cached per data version: what they write they see at once, a
    removed user is refused at once, and their drafts never reach anybody else."""
    events = f"{shared.base}{API}/events"
    added = await almanac(shared.url, "users", "add", "cached", "--role", "author")
    credentials = ("cached", added.splitlines()[-1])
    async with httpx.AsyncClient(auth=credentials) as author, httpx.AsyncClient() as anonymous:
        assert (await author.get(events)).status_code == 200
        assert (await author.get(events)).status_code == 200  # the cached caller
        draft = await author.post(
            events,
            json={
                "title": "Mine",
                "start_date": "+1 day",
                "end_date": "+2 days",
                "status": "draft",
            },
        )
        assert draft.status_code == 201
        mine = await author.get(events, params={"status": "draft"})
        assert [event["id"] for event in mine.json()["events"]] == [draft.json()["id"]]
        assert draft.json()["id"] not in [e["id"] for e in (await anonymous.get(events)).json()["events"]]  # fmt: skip
        assert (await anonymous.get(f"{events}/{draft.json()['id']}")).status_code == 403
        await almanac(shared.url, "users", "remove", "cached", "--delete-content")
        refused = await author.get(events)
        assert refused.status_code == 401
        assert refused.json()["code"] == "incorrect_password"
        # --delete-content took the draft with its author: nobody ever reads it.
        gone = await anonymous.get(f"{events}/{draft.json()['id']}")
        assert gone.status_code == 404
