"""The load generator used when `wrk` is not installed: `python -m bench.load --spec FILE`.

A lean HTTP/1.1 keep-alive client on asyncio streams (an httpx client would cost more CPU
per request than the server it measures). `concurrency` connections each send one request
after the other until the duration is over; requests still in flight then finish, bounded by
the per-request timeout, so the process always stops by itself. It prints one line,
`RESULT {json}`, with the same keys as bench/wrk.lua.
"""

import argparse
import asyncio
import contextlib
import json
import math
import secrets
import sys
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

PLACEHOLDER = "__N__"  # replaced in paths and bodies by a number unique to the request


@dataclass(frozen=True, slots=True)
class Spec:
    """What to send: method, paths (used in turn), headers and an optional body template."""

    method: str
    paths: list[str]
    headers: dict[str, str] = field(default_factory=dict)
    body: str | None = None

    def to_json(self) -> str:
        return json.dumps(
            {"method": self.method, "paths": self.paths, "headers": self.headers, "body": self.body}
        )

    @classmethod
    def load(cls, path: str) -> "Spec":
        with open(path, encoding="utf-8") as file:
            data: dict[str, Any] = json.load(file)
        return cls(
            method=data["method"],
            paths=list(data["paths"]),
            headers=dict(data.get("headers", {})),
            body=data.get("body"),
        )


@dataclass(slots=True)
class Stats:
    latencies: list[float] = field(default_factory=list)  # seconds, of 2xx and non-2xx
    non2xx: int = 0
    transport: int = 0  # refused or broken connections, timeouts


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile of ascending values (0 for none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


class Connection:
    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        return self.reader, self.writer

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    async def exchange(self, request: bytes) -> tuple[int, bool]:
        """Send one request, read the whole response: (status, connection reusable)."""
        reader, writer = await self.open()
        writer.write(request)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        version, status_text = lines[0].split(" ", 2)[:2]
        status = int(status_text)
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if ":" in line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        keep_alive = headers.get("connection", "").lower() != "close" and version == "HTTP/1.1"
        if status in (204, 304) or 100 <= status < 200:
            return status, keep_alive
        if "chunked" in headers.get("transfer-encoding", "").lower():
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                await reader.readexactly(size + 2)
                if size == 0:
                    break
        elif "content-length" in headers:
            await reader.readexactly(int(headers["content-length"]))
        else:
            await reader.read()  # delimited by the end of the connection
            keep_alive = False
        return status, keep_alive


def build_request(spec: Spec, host: str, path: str, number: str) -> bytes:
    path = path.replace(PLACEHOLDER, number)
    lines = [f"{spec.method} {path} HTTP/1.1", f"Host: {host}", "User-Agent: almanac-bench"]
    lines += [f"{name}: {value}" for name, value in spec.headers.items()]
    body = b""
    if spec.body is not None:
        body = spec.body.replace(PLACEHOLDER, number).encode()
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


@dataclass(slots=True)
class Load:
    spec: Spec
    url: str
    concurrency: int
    duration: float
    request_timeout: float
    stats: Stats = field(default_factory=Stats)
    # Numbers differ between runs too (the warm-up must not repeat the measured run's URLs).
    run_id: str = field(default_factory=lambda: secrets.token_hex(4))

    async def worker(self, index: int, deadline: float) -> None:
        parts = urlsplit(self.url)
        connection = Connection(parts.hostname or "127.0.0.1", parts.port or 80)
        spec, stats = self.spec, self.stats
        sent = 0
        try:
            while time.perf_counter() < deadline:
                path = spec.paths[(index + sent * self.concurrency) % len(spec.paths)]
                request = build_request(spec, parts.netloc, path, f"{self.run_id}-{index}-{sent}")
                sent += 1
                started = time.perf_counter()
                try:
                    async with asyncio.timeout(self.request_timeout):
                        status, keep_alive = await connection.exchange(request)
                except (
                    TimeoutError,
                    OSError,
                    EOFError,
                    asyncio.IncompleteReadError,
                    asyncio.LimitOverrunError,
                    ValueError,
                ):
                    stats.transport += 1
                    await connection.close()
                    await asyncio.sleep(0.01)  # a refused connection must not spin
                    continue
                stats.latencies.append(time.perf_counter() - started)
                if not 200 <= status < 300:
                    stats.non2xx += 1
                if not keep_alive:
                    await connection.close()
        finally:
            await connection.close()

    async def run(self) -> dict[str, Any]:
        started = time.perf_counter()
        deadline = started + self.duration
        await asyncio.gather(*(self.worker(i, deadline) for i in range(self.concurrency)))
        elapsed = time.perf_counter() - started
        latencies = sorted(self.stats.latencies)
        return {
            "requests": len(latencies),
            "seconds": elapsed,
            "p50_ms": percentile(latencies, 50) * 1000,
            "p99_ms": percentile(latencies, 99) * 1000,
            "non2xx": self.stats.non2xx,
            "transport": self.stats.transport,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__)
    parser.add_argument("--url", required=True, help="base URL, e.g. http://127.0.0.1:8000")
    parser.add_argument("--spec", required=True, help="JSON file: method, paths, headers, body")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per request")
    args = parser.parse_args(argv)
    load = Load(
        spec=Spec.load(args.spec),
        url=args.url,
        concurrency=args.concurrency,
        duration=args.duration,
        request_timeout=args.timeout,
    )
    result = asyncio.run(load.run())
    print("RESULT " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
