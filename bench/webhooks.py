"""The webhook part of `make bench` (docs/design.md, "Webhooks"):

1. the write path (`POST /events`) with no subscription, then with five subscriptions to a
   local receiver (bench/receiver.py) being delivered to while the writes go on: the
   slowdown, in per cent;
2. deliveries per second: the five subscriptions paused, N events changed in one SQL
   statement (N change-log rows, five deliveries each), the fan-out waited for, then all
   resumed and the time taken until the receiver has every delivery.
"""

import asyncio
import base64
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

API = "/calendar/events/v1"
SUBSCRIPTIONS = 5


def group_cpu_seconds(group: int) -> float:
    """CPU time (user + system) of the processes of a process group so far (Linux /proc):
    what the server spent, whatever else the machine is busy with."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if int(fields[2]) == group:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


@dataclass
class WebhookNumbers:
    writes_without: float
    writes_with: float
    deliveries: int
    seconds: float
    bad_signatures: int
    doubles: int
    cpu_seconds: float  # the server's, while delivering

    @property
    def per_cpu_second(self) -> float:
        return self.deliveries / self.cpu_seconds if self.cpu_seconds else 0.0

    @property
    def slowdown(self) -> float:
        return 100.0 * (1 - self.writes_with / self.writes_without) if self.writes_without else 0.0

    @property
    def rate(self) -> float:
        return self.deliveries / self.seconds if self.seconds else 0.0

    def lines(self) -> list[str]:
        return [
            f"  webhooks: {self.rate:,.0f} deliveries/s to a local receiver "
            f"({self.deliveries:,} deliveries, {SUBSCRIPTIONS} subscriptions, "
            f"{self.seconds:.1f} s; {self.bad_signatures} bad signatures in the sample, "
            f"{self.doubles} doubles); {self.per_cpu_second:,.0f} deliveries per CPU-second "
            f"of the server",
            f"  webhooks: POST /events {self.writes_without:,.0f} req/s without subscriptions, "
            f"{self.writes_with:,.0f} req/s with {SUBSCRIPTIONS}: "
            f"{self.slowdown:+.1f}% slower",
        ]


def _call(method: str, url: str, auth: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Authorization", f"Basic {auth}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


@contextmanager
def receiver(port: int, log: Any) -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.receiver", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{base}/count", timeout=1).read()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the webhook receiver did not start") from None
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def _count(base: str) -> dict[str, int]:
    with urllib.request.urlopen(f"{base}/count", timeout=5) as answer:
        counted: dict[str, int] = json.loads(answer.read())
        return counted


async def _fanned_out(url: str) -> int:
    """Until the fan-out has read the whole change log: the pending deliveries."""
    connection = await asyncpg.connect(url)
    try:
        while True:
            behind = await connection.fetchval(
                "SELECT (SELECT cursor FROM webhook_feed) < "
                "(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM change_seq)"
            )
            if not behind:
                return int(
                    await connection.fetchval(
                        "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'"
                    )
                )
            await asyncio.sleep(0.05)
    finally:
        await connection.close()


async def _change_events(url: str, count: int) -> None:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(
            "UPDATE events SET title = title || '.' WHERE id IN "
            "(SELECT id FROM events WHERE status = 'publish' AND series_id IS NULL "
            "ORDER BY id LIMIT $1)",
            count,
        )
    finally:
        await connection.close()


def measure(
    *,
    database: str,
    server: str,
    admin: tuple[str, str],
    receiver_base: str,
    write: Callable[[], float],
    changes: int,
    step: Callable[[str], None],
    server_group: int,
) -> WebhookNumbers:
    """`write()` runs the write load once and returns its requests per second."""
    auth = base64.b64encode(f"{admin[0]}:{admin[1]}".encode()).decode()
    step("webhooks: the write path without subscriptions")
    without = write()
    ids = []
    for number in range(SUBSCRIPTIONS):
        made = _call("POST", f"{server}{API}/webhooks", auth, {"url": f"{receiver_base}/s{number}"})
        urllib.request.urlopen(
            urllib.request.Request(f"{receiver_base}/secret", data=made["secret"].encode()),
            timeout=5,
        ).read()
        ids.append(made["id"])
    step(f"webhooks: the write path with {SUBSCRIPTIONS} subscriptions being delivered to")
    with_subscriptions = write()
    step("webhooks: waiting for the deliveries of those writes")
    asyncio.run(_fanned_out(database))
    _drain(database)
    for subscription in ids:
        _call("PATCH", f"{server}{API}/webhooks/{subscription}", auth, {"active": False})
    step(f"webhooks: changing {changes} events while the subscriptions are paused")
    asyncio.run(_change_events(database, changes))
    pending = asyncio.run(_fanned_out(database))
    before = _count(receiver_base)["received"]
    started, cpu = time.monotonic(), group_cpu_seconds(server_group)
    for subscription in ids:
        _call("PATCH", f"{server}{API}/webhooks/{subscription}", auth, {"active": True})
    while _count(receiver_base)["received"] < before + pending:
        time.sleep(0.02)
    seconds = time.monotonic() - started
    cpu = group_cpu_seconds(server_group) - cpu
    counted = _count(receiver_base)
    return WebhookNumbers(
        without,
        with_subscriptions,
        pending,
        seconds,
        counted["bad"],
        counted["received"] - counted["unique"],
        cpu,
    )


def _drain(database: str) -> None:
    async def wait() -> None:
        connection = await asyncpg.connect(database)
        try:
            pending = "SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'pending')"
            while True:  # a poll of the database: nothing to wait on in this process
                if not await connection.fetchval(pending):
                    return
                await asyncio.sleep(0.05)
        finally:
            await connection.close()

    asyncio.run(wait())
