"""The webhook part of `make bench` (docs/design.md, "Webhooks"):

1. the write path (`POST /events`) in interleaved rounds of three phases, back to back: no
   subscriptions; five paused ones (the fan-out queues their deliveries, nothing is sent);
   five to a local receiver (bench/receiver.py, at nice 19) being delivered to while the
   writes go on. Per phase: req/s and p50, the SQL statements of one write (counted in
   process), and per write the CPU of the server, of PostgreSQL and of the receiver and the
   rows written by every transaction (the webhook tasks' too): what the slowdown is made of;
2. deliveries per second: the five subscriptions paused, N events changed in one SQL
   statement (N change-log rows, five deliveries each), the fan-out waited for, then all
   resumed and the time taken until the receiver has every delivery.
"""

import asyncio
import base64
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import asyncpg

API = "/calendar/events/v1"
SUBSCRIPTIONS = 5


PHASES = ("none", "paused", "delivering")
PHASE_LABELS = {
    "none": "no subscriptions",
    "paused": f"{SUBSCRIPTIONS} paused (fan-out only)",
    "delivering": f"{SUBSCRIPTIONS} delivered to",
}


class LoadResult(Protocol):
    """What a run of the write load reports (bench/run.py's Result)."""

    @property
    def requests(self) -> int: ...
    @property
    def rate(self) -> float: ...
    @property
    def p50_ms(self) -> float: ...


@dataclass
class PhaseRun:
    """One run of the write load in one phase, and what it cost per write."""

    rate: float
    p50_ms: float
    alone_p50_ms: float  # p50 of writes sent one at a time (the machine not saturated)
    server_ms: float  # CPU of `almanac serve` (requests and webhook tasks) per write
    database_ms: float  # CPU of the PostgreSQL processes per write (0: not measurable)
    receiver_ms: float  # CPU of the receiver per write
    rows: float  # rows inserted, updated or deleted per write (all transactions)
    backlog: int  # deliveries still pending when the load stopped


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


@dataclass
class WebhookNumbers:
    phases: dict[str, list[PhaseRun]]
    statements: dict[str, int]  # SQL statements of one POST /events, by phase
    deliveries: int
    seconds: float
    bad_signatures: int
    doubles: int
    cpu_seconds: float  # the server's, while delivering

    @property
    def per_cpu_second(self) -> float:
        return self.deliveries / self.cpu_seconds if self.cpu_seconds else 0.0

    def median(self, phase: str, field: str) -> float:
        return _median([getattr(run, field) for run in self.phases.get(phase, [])])

    def slowdown(self, phase: str) -> float:
        """How much fewer writes per second than without subscriptions, in per cent (the
        median of the rounds' own ratios: each round's phases ran back to back)."""
        ratios = [
            1 - other.rate / base.rate
            for base, other in zip(self.phases["none"], self.phases[phase], strict=False)
            if base.rate
        ]
        return 100.0 * _median(ratios)

    def latency(self, phase: str) -> float:
        """How much longer a write alone takes than without subscriptions, in per cent."""
        ratios = [
            other.alone_p50_ms / base.alone_p50_ms - 1
            for base, other in zip(self.phases["none"], self.phases[phase], strict=False)
            if base.alone_p50_ms
        ]
        return 100.0 * _median(ratios)

    @property
    def rate(self) -> float:
        return self.deliveries / self.seconds if self.seconds else 0.0

    def lines(self) -> list[str]:
        rounds = len(self.phases["none"])
        lines = [
            f"  webhooks: {self.rate:,.0f} deliveries/s to a local receiver "
            f"({self.deliveries:,} deliveries, {SUBSCRIPTIONS} subscriptions, "
            f"{self.seconds:.1f} s; {self.bad_signatures} bad signatures in the sample, "
            f"{self.doubles} doubles); {self.per_cpu_second:,.0f} deliveries per CPU-second "
            f"of the server",
            f"  webhooks: POST /events in {rounds} interleaved rounds (medians; CPU and rows "
            "per write, the receiver niced to 19):",
            "  | Subscriptions | req/s | p50 ms | p50 ms, one at a time | SQL/request "
            "| server CPU ms | PostgreSQL CPU ms | receiver CPU ms | rows written "
            "| backlog at the end |",
            "  |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for phase in PHASES:
            lines.append(
                f"  | {PHASE_LABELS[phase]} | {self.median(phase, 'rate'):,.0f} "
                f"| {self.median(phase, 'p50_ms'):.1f} | {self.median(phase, 'alone_p50_ms'):.1f} "
                f"| {self.statements.get(phase, 0)} "
                f"| {self.median(phase, 'server_ms'):.2f} "
                f"| {self.median(phase, 'database_ms'):.2f} "
                f"| {self.median(phase, 'receiver_ms'):.2f} | {self.median(phase, 'rows'):.1f} "
                f"| {self.median(phase, 'backlog'):,.0f} |"
            )
        lines.append(
            f"  webhooks: POST /events with {SUBSCRIPTIONS} subscriptions: "
            f"{self.slowdown('delivering'):+.1f}% slower while delivered to, "
            f"{self.slowdown('paused'):+.1f}% with the fan-out alone; one at a time, p50 "
            f"{self.latency('delivering'):+.1f}% while delivered to"
        )
        return lines


def _call(method: str, url: str, auth: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Authorization", f"Basic {auth}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


@dataclass(frozen=True, slots=True)
class Receiver:
    base: str
    pid: int


@contextmanager
def receiver(port: int, log: Any) -> Iterator[Receiver]:
    """bench/receiver.py at the lowest CPU priority (nice 19): a receiver on another
    machine takes nothing from the server, and one on this machine should take only what
    the server leaves (its CPU is reported apart)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.receiver", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        preexec_fn=lambda: os.nice(19),
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
        yield Receiver(base, process.pid)
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
        while True:  # a poll of the database: nothing to wait on in this process
            behind = await connection.fetchval(
                "SELECT (SELECT cursor FROM webhook_feed) < "
                "(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM change_seq)"
            )
            if not behind:
                return await _pending(connection)
            await asyncio.sleep(0.05)
    finally:
        await connection.close()


async def _pending(connection: asyncpg.Connection) -> int:
    return int(
        await connection.fetchval(
            "SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'"
        )
    )


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


class Database:
    """The benchmark database, seen from outside the server: its processes' CPU and the
    rows its transactions wrote (pg_stat_database)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.postmaster = asyncio.run(self._postmaster())

    async def _postmaster(self) -> int | None:
        """The parent of a backend (looked at while it lives: it ends with its connection)."""
        connection = await asyncpg.connect(self.url)
        try:
            backend = int(await connection.fetchval("SELECT pg_backend_pid()"))
            return await asyncio.to_thread(_parent, backend)
        finally:
            await connection.close()

    def cpu_seconds(self) -> float:
        if self.postmaster is None:
            return 0.0
        return processes_cpu_seconds(lambda pid, ppid, _: self.postmaster in (pid, ppid))

    def rows(self) -> int:
        async def read() -> int:
            connection = await asyncpg.connect(self.url)
            try:
                # Other backends report their counts when idle, at most a second late.
                await asyncio.sleep(1.2)
                return int(
                    await connection.fetchval(
                        "SELECT tup_inserted + tup_updated + tup_deleted FROM pg_stat_database "
                        "WHERE datname = current_database()"
                    )
                )
            finally:
                await connection.close()

        return asyncio.run(read())

    def pending(self) -> int:
        async def read() -> int:
            connection = await asyncpg.connect(self.url)
            try:
                return await _pending(connection)
            finally:
                await connection.close()

        return asyncio.run(read())


class Subscriptions:
    """The benchmark's subscriptions, made and removed through the API."""

    def __init__(self, server: str, auth: str, receiver_base: str) -> None:
        self.server = server
        self.auth = auth
        self.receiver_base = receiver_base
        self.ids: list[int] = []

    def make(self, count: int) -> None:
        for _ in range(count):
            number = len(self.ids)
            made = _call(
                "POST",
                f"{self.server}{API}/webhooks",
                self.auth,
                {"url": f"{self.receiver_base}/s{number}"},
            )
            urllib.request.urlopen(
                urllib.request.Request(
                    f"{self.receiver_base}/secret", data=made["secret"].encode()
                ),
                timeout=5,
            ).read()
            self.ids.append(made["id"])

    def set_active(self, active: bool) -> None:
        for subscription in self.ids:
            _call(
                "PATCH",
                f"{self.server}{API}/webhooks/{subscription}",
                self.auth,
                {"active": active},
            )

    def remove(self) -> None:
        """Delete them (and their backlogs)."""
        for subscription in self.ids:
            _call("DELETE", f"{self.server}{API}/webhooks/{subscription}", self.auth)
        self.ids = []


def _parent(pid: int) -> int | None:
    """The parent of a process (of a backend: the postmaster), if it runs on this machine;
    None for another machine's server, whose CPU is not ours to see."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return None


def processes_cpu_seconds(wanted: Callable[[int, int, int], bool]) -> float:
    """CPU time (user + system) so far of the processes `wanted(pid, ppid, pgrp)` picks
    (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if wanted(int(stat.parent.name), int(fields[1]), int(fields[2])):
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def group_cpu_seconds(group: int) -> float:
    """CPU time of the processes of a process group so far: what the server spent,
    whatever else the machine is busy with."""
    return processes_cpu_seconds(lambda _, __, pgrp: pgrp == group)


def _process_cpu_seconds(pid: int) -> float:
    return processes_cpu_seconds(lambda found, _, __: found == pid)


def _phase(
    write: Callable[[int], LoadResult],
    database: Database,
    server_group: int,
    receiver_pid: int,
) -> PhaseRun:
    rows = database.rows()
    server, db, hook = (
        group_cpu_seconds(server_group),
        database.cpu_seconds(),
        _process_cpu_seconds(receiver_pid),
    )
    result = write(0)
    backlog = database.pending()
    writes = max(result.requests, 1)
    server = group_cpu_seconds(server_group) - server
    db = database.cpu_seconds() - db
    hook = _process_cpu_seconds(receiver_pid) - hook
    rows = database.rows() - rows
    return PhaseRun(
        rate=result.rate,
        p50_ms=result.p50_ms,
        server_ms=1000 * server / writes,
        database_ms=1000 * db / writes,
        receiver_ms=1000 * hook / writes,
        rows=rows / writes,
        backlog=backlog,
        alone_p50_ms=write(1).p50_ms,
    )


def measure(
    *,
    database: str,
    server: str,
    admin: tuple[str, str],
    receiver: Receiver,
    write: Callable[[int], LoadResult],
    count_statements: Callable[[], int],
    changes: int,
    rounds: int,
    step: Callable[[str], None],
    server_group: int,
) -> WebhookNumbers:
    """`write(concurrency)` runs the write load once (0: the run's concurrency, which
    saturates the machine; 1: one write at a time); `count_statements()` counts the statements of
    one write in process (the webhook tasks do not run there: the request's own)."""
    auth = base64.b64encode(f"{admin[0]}:{admin[1]}".encode()).decode()
    db = Database(database)
    subscriptions = Subscriptions(server, auth, receiver.base)
    phases: dict[str, list[PhaseRun]] = {phase: [] for phase in PHASES}
    statements = {"none": count_statements()}
    subscriptions.make(SUBSCRIPTIONS)
    statements["paused"] = statements["delivering"] = count_statements()
    subscriptions.remove()
    for number in range(rounds):
        # Each round runs the phases back to back, in an order that rotates, so that a
        # change of the machine's other load hits every phase alike.
        order = PHASES[number % len(PHASES) :] + PHASES[: number % len(PHASES)]
        for phase in order:
            subscriptions.remove()
            if phase != "none":
                subscriptions.make(SUBSCRIPTIONS)
                subscriptions.set_active(phase == "delivering")
            step(f"webhooks, round {number + 1}/{rounds}: POST /events, {PHASE_LABELS[phase]}")
            phases[phase].append(_phase(write, db, server_group, receiver.pid))
            asyncio.run(_fanned_out(database))  # nothing of this phase is left for the next
            if phase == "delivering":
                step("webhooks: waiting for the deliveries of those writes")
                _drain(database)
    subscriptions.remove()
    subscriptions.make(SUBSCRIPTIONS)
    asyncio.run(_fanned_out(database))
    subscriptions.set_active(False)
    step(f"webhooks: changing {changes} events while the subscriptions are paused")
    asyncio.run(_change_events(database, changes))
    pending = asyncio.run(_fanned_out(database))
    if not pending:
        step("webhooks: warning: no deliveries were queued for the changed events")
    before = _count(receiver.base)["received"]
    started, cpu = time.monotonic(), group_cpu_seconds(server_group)
    subscriptions.set_active(True)
    while _count(receiver.base)["received"] < before + pending:
        time.sleep(0.02)
    seconds = time.monotonic() - started
    cpu = group_cpu_seconds(server_group) - cpu
    counted = _count(receiver.base)
    return WebhookNumbers(
        phases,
        statements,
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
