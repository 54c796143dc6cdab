"""bench/run.py end to end, tiny: seed, serve, drive every route, print the table, clean up."""

import asyncio
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

ROOT = Path(__file__).resolve().parents[2]
ROUTES = (
    "GET /events",
    "GET /events, busted",
    "GET /events, editor",
    "GET /events?categories=",
    "GET /events?categories=",  # busted
    "GET /events near a city, busted",
    "GET /events near a city by distance, busted",
    "GET /events near=Bratislava, busted",
    "GET /events/{id}",
    "GET /events/{id}, busted",
    "GET /events/{id}, editor",
    "GET /events/by-slug/{slug}",
    "GET /venues",
    "GET /venues near a city, busted",
    "page /events/month/",
    "page /events/month/",  # busted
    "page /events/list/",
    "page /events/list/",  # busted
    "page /event/{slug}/",
    "page /event/{slug}/",  # busted
    "GET /changes, 100 events",
    "GET /changes, 100 events, editor",
    "POST /events",
    "POST /events, weekly series",
)


def bench(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), *args],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_help() -> None:
    result = bench("--help")
    assert result.returncode == 0
    for option in ("--events", "--duration", "--concurrency", "--workers", "--client"):
        assert option in result.stdout


async def test_smoke_run_with_the_python_load_generator(server_url: str) -> None:
    result = await asyncio.to_thread(
        bench,
        *("--events", "50", "--duration", "0.1", "--warmup", "0"),
        *("--concurrency", "2", "--workers", "1", "--client", "python"),
        *("--webhook-changes", "20", "--webhook-rounds", "1", "--rsvp-places", "5"),
        env={"BENCH_DATABASE_URL": server_url},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # The RSVP part: a rate of going answers, and the small ticket sold out and held.
    assert re.search(r"[\d,]+ RSVPs/s at saturation", result.stdout), result.stdout
    assert re.search(r"taken 5 of 5, going places 5: capacity held", result.stdout), result.stdout
    rows = [line for line in result.stdout.splitlines() if line.startswith("| `")]
    assert len(rows) == len(ROUTES)
    for row, route in zip(rows, ROUTES, strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        name, concurrency, rate, p50, p99, errors, statements = cells
        assert name.strip("`").startswith(route)
        assert concurrency == ("1" if "series" in route else "2")
        assert float(rate.replace(",", "")) > 0  # requests were answered
        assert errors == "0", result.stdout
        assert int(statements) >= 1

    assert re.search(
        r"GET /changes, 100 events: [\d,]+ changes/s, [\d,]+ µs per change", result.stdout
    )

    assert re.search(
        r"webhooks: [\d,]+ deliveries/s to a local receiver \([\d,]+ deliveries, 5 "
        r"subscriptions, [\d.]+ s; 0 bad signatures in the sample, 0 doubles\); [\d,]+ "
        r"deliveries per CPU-second of the server",
        result.stdout,
    )
    # The write path in interleaved rounds: a row per phase, the same statements per write
    # (the webhooks add none to the request), and the slowdown.
    phases = {
        match.group(1): match.groups()[1:]
        for match in re.finditer(
            r"\| (no subscriptions|5 paused \(fan-out only\)|5 delivered to) \| ([\d,]+) "
            r"\| [\d.]+ \| [\d.]+ \| (\d+) \|",
            result.stdout,
        )
    }
    assert set(phases) == {"no subscriptions", "5 paused (fan-out only)", "5 delivered to"}
    assert all(float(rate.replace(",", "")) > 0 for rate, _ in phases.values())
    assert len({statements for _, statements in phases.values()}) == 1, phases
    assert re.search(
        r"webhooks: POST /events with 5 subscriptions: [+-][\d.]+% slower while delivered to",
        result.stdout,
    )

    # Nothing is left behind: the server is gone and so is the database.
    served = re.search(r"serving on http://127\.0\.0\.1:(\d+)", result.stdout)
    assert served
    with socket.socket() as sock:
        assert sock.connect_ex(("127.0.0.1", int(served.group(1)))) != 0
    admin = create_async_engine(server_url)
    async with admin.connect() as conn:
        left = await conn.scalar(
            text("SELECT count(*) FROM pg_database WHERE datname LIKE 'almanac_bench_%'")
        )
    await admin.dispose()
    assert left == 0
