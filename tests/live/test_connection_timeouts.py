"""A real `almanac serve` closes the connections that send no complete request in time: a
request whose headers trickle in, a connection that sends nothing, and a kept-alive one that
sends nothing more after its response (HTTP_HEADER_TIMEOUT, HTTP_KEEPALIVE_TIMEOUT)."""

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from tests.live.harness import almanac_server, fresh_database

HEADER_TIMEOUT = 1.0
KEEPALIVE_TIMEOUT = 1
# Closed within the timeouts and a margin for a busy machine; without them the connections
# stayed open for ever (and idle ones between requests for uvicorn's default 5 s).
BOUND = 4.0


@pytest.fixture(scope="module")
async def port(database_url: str) -> AsyncIterator[int]:
    async with (
        fresh_database(database_url, "almanac_timeouts", migrated=True) as url,
        almanac_server(
            url,
            HTTP_HEADER_TIMEOUT=str(HEADER_TIMEOUT),
            HTTP_KEEPALIVE_TIMEOUT=str(KEEPALIVE_TIMEOUT),
        ) as base,
    ):
        yield int(base.rsplit(":", 1)[1])


async def closed_after(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> float:
    """Seconds until the server closes the connection (reading whatever it sends first)."""
    started = time.monotonic()
    try:
        while await asyncio.wait_for(reader.read(65536), BOUND):
            pass
    except TimeoutError:
        pytest.fail(f"the connection is still open after {BOUND} s")
    except ConnectionResetError:
        pass
    finally:
        writer.close()
    return time.monotonic() - started


async def response_head(reader: asyncio.StreamReader) -> bytes:
    """One response's status line and headers, its body read past."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), BOUND)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )
    await asyncio.wait_for(reader.readexactly(length), BOUND)
    return head


async def test_trickled_headers_are_cut_off(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    started = time.monotonic()

    async def trickle() -> None:
        for n in range(3000):  # a header line now and then: each arrives before a timeout
            writer.write(b"X-Slow-%d: 1\r\n" % n)
            await writer.drain()
            await asyncio.sleep(0.1)

    trickling = asyncio.create_task(trickle())
    try:
        elapsed = await closed_after(reader, writer)
    finally:
        trickling.cancel()
        await asyncio.gather(trickling, return_exceptions=True)
    assert HEADER_TIMEOUT * 0.9 <= time.monotonic() - started < BOUND, elapsed


async def test_a_partial_header_line_then_silence_is_closed(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Half")
    await writer.drain()
    assert await closed_after(reader, writer) < BOUND


async def test_a_connection_that_sends_nothing_is_closed(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    assert await closed_after(reader, writer) < BOUND


async def test_an_idle_kept_alive_connection_is_closed(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    # Headers that take a while, within the deadline, are answered.
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    await writer.drain()
    await asyncio.sleep(HEADER_TIMEOUT / 2)
    writer.write(b"\r\n")
    head = await response_head(reader)
    assert head.startswith(b"HTTP/1.1 200"), head
    assert b"connection: close" not in head.lower()  # kept alive
    # The next request on the connection has a deadline of its own.
    await asyncio.sleep(HEADER_TIMEOUT / 2)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert (await response_head(reader)).startswith(b"HTTP/1.1 200")
    # Then nothing: closed after HTTP_KEEPALIVE_TIMEOUT.
    assert await closed_after(reader, writer) < BOUND
