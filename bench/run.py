"""Benchmark of the main routes: `make bench`, `python -m bench` or `python bench/run.py`.

1. A fresh database: on an embedded PostgreSQL (pgserver) under a temporary directory, or on
   the server of BENCH_DATABASE_URL (a database `almanac_bench_<pid>` created and dropped).
2. Migrations, `almanac seed --events N`, an editor user (`almanac users add`).
3. SQL statements per request of every route, counted in process through the ASGI app.
4. `almanac serve` with W workers on a free port of 127.0.0.1, production log level.
5. Per route: a warm-up, then load from a second process: wrk when it is on PATH (with
   bench/wrk.lua), else bench/load.py. Both stop by themselves after the duration.
6. A Markdown table: route, concurrency, req/s, p50, p99, errors (non-2xx responses and
   transport errors), SQL statements per request.

Everything started is stopped and the temporary directory removed, also on errors and on
SIGTERM / Ctrl-C.
"""

import argparse
import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as a script: bench/run.py
    sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from app.changes.repository import Token, token_key  # noqa: E402
from app.core.settings import get_settings  # noqa: E402
from app.seed.seeder import libpq_url  # noqa: E402
from app.seed.vocabulary import CITIES  # noqa: E402
from bench.load import PLACEHOLDER, Spec  # noqa: E402
from bench.rsvp import RsvpNumbers  # noqa: E402
from bench.rsvp import measure as measure_rsvp  # noqa: E402
from bench.statements import Counted, count_statements  # noqa: E402
from bench.webhooks import WebhookNumbers, measure, receiver  # noqa: E402

API = "/calendar/events/v1"
WRK_SCRIPT = ROOT / "bench" / "wrk.lua"
EVENTS_PER_VENUE = 100  # 10,000 venues at a million events
SAMPLE_EVENTS = 200  # single-event routes cycle through this many published events
# A list near a place: one of the seed's cities (its venues lie within ~5 km of the centre),
# within the default radius (GEOFENCE_RADIUS, 25 km).
NEAR_CITY = next(city for city in CITIES if city.name[0] == "Bratislava")
NEAR = f"geoloc_lat={NEAR_CITY.lat}&geoloc_lng={NEAR_CITY.lng}&geoloc_radius=25"


class BenchError(Exception):
    pass


_started = time.perf_counter()


def step(message: str) -> None:
    print(f"[{time.perf_counter() - _started:6.1f}s] {message}", flush=True)


def _terminate(signum: int, _: FrameType | None) -> None:
    raise SystemExit(128 + signum)  # unwinds through every `finally`: nothing is left behind


# -- database -----------------------------------------------------------------------------


def _with_database(server_url: str, name: str) -> str:
    return make_url(server_url).set(database=name).render_as_string(hide_password=False)


async def _execute(url: str, *statements: str) -> None:
    conn = await asyncpg.connect(libpq_url(url))
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


@contextlib.contextmanager
def bench_database(workdir: Path) -> Iterator[str]:
    """A new, empty database; dropped afterwards (with its embedded server, if any)."""
    name = f"almanac_bench_{os.getpid()}"
    configured = os.environ.get("BENCH_DATABASE_URL")
    server: Any = None
    if configured:
        server_url = configured
        step(f"using the PostgreSQL server of BENCH_DATABASE_URL, database {name}")
    else:
        from app.core.database.embedded import start_server

        step(f"starting an embedded PostgreSQL under {workdir}")
        server = start_server(workdir / "pgdata", cleanup_mode="delete")
        server_url = server.get_uri("postgres")
    try:
        drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
        asyncio.run(_execute(server_url, drop, f'CREATE DATABASE "{name}"'))
        try:
            yield _with_database(server_url, name)
        finally:
            with contextlib.suppress(Exception):
                asyncio.run(_execute(server_url, drop))
    finally:
        if server is not None:
            server.cleanup()


# -- commands -----------------------------------------------------------------------------


def almanac(url: str, *args: str, timeout: float = 600) -> str:
    """Run `python -m app.cli ARGS` on the benchmark database; its stdout."""
    result = subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        env={**os.environ, "DATABASE_URL": url},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if result.returncode != 0:
        raise BenchError(f"almanac {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """`almanac serve` in its own process group, stopped (group and all) on exit."""

    def __init__(self, url: str, workers: int, log_path: Path) -> None:
        self.url = url
        self.workers = workers
        self.log_path = log_path
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> "Server":
        command = [
            *(sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1"),
            *("--port", str(self.port), "--workers", str(self.workers)),
        ]
        # Receivers on 127.0.0.1 for the webhook part (bench/webhooks.py).
        env = {
            **os.environ,
            "DATABASE_URL": self.url,
            "LOG_LEVEL": "warning",
            "WEBHOOKS_ALLOW_PRIVATE": "true",
            # Every RSVP of the load comes from 127.0.0.1 (bench/rsvp.py): the throttle per
            # address must not be what answers.
            "RSVP_LIMIT": "1000000000",
        }
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def _wait_ready(self, timeout: float = 90) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(f"the server exited at start:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.base}{API}/categories", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        raise BenchError(f"the server did not answer within {timeout:.0f} s:\n{self.log_tail()}")

    def log_tail(self) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-30:])

    @property
    def group(self) -> int:
        """The server's process group (start_new_session: its own): its workers too."""
        assert self.process is not None
        return self.process.pid

    def stop(self) -> None:
        process = self.process
        if process is None:
            return
        group = process.pid  # start_new_session: the group is ours alone
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(group, signal.SIGKILL)
                process.wait()
        with contextlib.suppress(ProcessLookupError):  # a worker the master left behind
            os.killpg(group, signal.SIGKILL)
        self.process = None


# -- what to request ----------------------------------------------------------------------


@dataclass(slots=True)
class Targets:
    """Records of the seeded database the routes ask for."""

    events: list[tuple[int, str]]
    category: tuple[int, str] | None
    word: str
    venue_id: int | None
    organizer_ids: list[int] = field(default_factory=list)
    tag_ids: list[int] = field(default_factory=list)
    feed_token: str = ""  # a changes-feed token just before the seeded events
    occurrences: int = 0  # dates of events (a series has one per date): the list's rows


# Creating a series is measured for its latency: one request at a time (target < 100 ms).
SERIES_ROUTE = "POST /events, weekly series of 104 dates"
SEQUENTIAL = {SERIES_ROUTE}
# The changes feed is measured on a page of this many changes (seeded events): its cost per
# change is the answer's cost divided by it.
FEED_PAGE = 100


async def _targets(url: str) -> Targets:
    conn = await asyncpg.connect(libpq_url(url))
    try:
        occurrences = await conn.fetchval("SELECT count(*) FROM occurrences")
        events = await conn.fetch(
            "SELECT id, slug FROM events WHERE status = 'publish' AND password IS NULL"
            " ORDER BY random() LIMIT $1",
            SAMPLE_EVENTS,
        )
        if not events:
            raise BenchError("the seeded database has no published event")
        # The category with the most upcoming events, and the commonest title word in it.
        category = await conn.fetchrow(
            "SELECT t.id, t.slug FROM terms t"
            " JOIN event_terms et ON et.term_id = t.id JOIN events e ON e.id = et.event_id"
            " WHERE t.taxonomy = 'tribe_events_cat' AND e.status = 'publish'"
            " AND e.start_local >= current_date - 1"
            " GROUP BY t.id, t.slug ORDER BY count(*) DESC, t.id LIMIT 1"
        )
        in_category = (
            "JOIN event_terms et ON et.event_id = e.id AND et.term_id = $1" if category else ""
        )
        word = await conn.fetchval(
            "SELECT w FROM (SELECT e.title FROM events e "
            + in_category
            + " WHERE e.status = 'publish' AND e.start_local >= current_date - 1 LIMIT 5000) s,"
            " regexp_split_to_table(lower(s.title), '[^[:alpha:]]+') AS w"
            " WHERE length(w) >= 4 GROUP BY w ORDER BY count(*) DESC, w LIMIT 1",
            *([category["id"]] if category else []),
        )
        venue_id = await conn.fetchval(
            "SELECT id FROM venues WHERE status = 'publish' ORDER BY id LIMIT 1"
        )
        organizers = await conn.fetch(
            "SELECT id FROM organizers WHERE status = 'publish' ORDER BY id LIMIT 2"
        )
        tags = await conn.fetch("SELECT id FROM terms WHERE taxonomy = 'post_tag' LIMIT 2")
        # The seed's events were logged in one statement: a token whose cursor is just before
        # them answers the same FEED_PAGE events, each as a full event body, every time.
        cursor = await conn.fetchval(
            "SELECT coalesce(min(seq), 1) - 1 FROM change_log WHERE kind = 'event'"
        )
        snapshot = await conn.fetchval("SELECT pg_current_snapshot()::text")
        return Targets(
            events=[(row["id"], row["slug"]) for row in events],
            category=(category["id"], category["slug"]) if category else None,
            word=word or "event",
            venue_id=venue_id,
            organizer_ids=[row["id"] for row in organizers],
            tag_ids=[row["id"] for row in tags],
            occurrences=occurrences,
            feed_token=Token(cursor, snapshot).encode(
                token_key(get_settings().app_password_pepper)
            ),
        )
    finally:
        await conn.close()


def route_specs(targets: Targets, login: str, password: str) -> dict[str, Spec]:
    """The measured routes, by the label shown in the table."""
    credentials = base64.b64encode(f"{login}:{password}".encode()).decode()
    day = date.today() + timedelta(days=30)
    created: dict[str, Any] = {
        "title": f"Bench {targets.word} event {PLACEHOLDER}",
        "description": "<p>Created by the benchmark.</p>",
        "start_date": f"{day} 19:00:00",
        "end_date": f"{day} 21:30:00",
        "status": "publish",
        "cost": "$15",
        "categories": [targets.category[0]] if targets.category else [],
        "tags": targets.tag_ids,
        "organizer": targets.organizer_ids,
    }
    if targets.venue_id is not None:
        created["venue"] = targets.venue_id
    query = f"search={quote(targets.word)}"
    if targets.category:
        query = f"categories={quote(targets.category[1])}&{query}"
    editor = {"Authorization": f"Basic {credentials}"}
    # `_=<n>` differs on every request, as jQuery's `cache: false` sends it: every request
    # misses the response cache.
    bust = f"_={PLACEHOLDER}"
    singles = [f"{API}/events/{i}" for i, _ in targets.events]
    feed = f"{API}/changes?since={targets.feed_token}&per_page={FEED_PAGE}"
    pages = [f"/event/{quote(slug)}/" for _, slug in targets.events]
    month = (date.today() + timedelta(days=31)).strftime("%Y-%m")  # a whole month ahead
    return {
        "GET /events": Spec("GET", [f"{API}/events"]),
        "GET /events, busted": Spec("GET", [f"{API}/events?{bust}"]),
        "GET /events, editor": Spec("GET", [f"{API}/events"], headers=editor),
        f"GET /events?{query}": Spec("GET", [f"{API}/events?{query}"]),
        f"GET /events?{query}, busted": Spec("GET", [f"{API}/events?{query}&{bust}"]),
        "GET /events near a city, busted": Spec("GET", [f"{API}/events?{NEAR}&{bust}"]),
        "GET /events near a city by distance, busted": Spec(
            "GET", [f"{API}/events?{NEAR}&orderby=distance&{bust}"]
        ),
        # The same circle around the city named (the gazetteer finds it in memory).
        "GET /events near=Bratislava, busted": Spec(
            "GET", [f"{API}/events?near=Bratislava&orderby=distance&{bust}"]
        ),
        "GET /events/{id}": Spec("GET", singles),
        "GET /events/{id}, busted": Spec("GET", [f"{path}?{bust}" for path in singles]),
        "GET /events/{id}, editor": Spec("GET", singles, headers=editor),
        "GET /events/by-slug/{slug}": Spec(
            "GET", [f"{API}/events/by-slug/{quote(slug)}" for _, slug in targets.events]
        ),
        "GET /venues": Spec("GET", [f"{API}/venues"]),
        "GET /venues near a city, busted": Spec("GET", [f"{API}/venues?{NEAR}&{bust}"]),
        # The public pages (app/pages): cached, and missing the cache on every request.
        "page /events/month/": Spec("GET", [f"/events/month/{month}/"]),
        "page /events/month/, busted": Spec("GET", [f"/events/month/{month}/?{bust}"]),
        "page /events/list/": Spec("GET", ["/events/list/"]),
        "page /events/list/, busted": Spec("GET", [f"/events/list/?{bust}"]),
        "page /event/{slug}/": Spec("GET", pages),
        "page /event/{slug}/, busted": Spec("GET", [f"{path}?{bust}" for path in pages]),
        f"GET /changes, {FEED_PAGE} events": Spec("GET", [feed]),
        f"GET /changes, {FEED_PAGE} events, editor": Spec("GET", [feed], headers=editor),
        "POST /events": Spec(
            "POST",
            [f"{API}/events"],
            headers={**editor, "Content-Type": "application/json"},
            body=json.dumps(created),
        ),
        # Two years of weeks: the series, its 104 occurrences (materialised in the request).
        SERIES_ROUTE: Spec(
            "POST",
            [f"{API}/events"],
            headers={**editor, "Content-Type": "application/json"},
            body=json.dumps({**created, "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=104"]}),
        ),
    }


# -- load ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    non2xx: int
    transport: int

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def errors(self) -> int:
        return self.non2xx + self.transport


class LoadClient:
    """Drives one route for a while from a second process: wrk, or bench/load.py."""

    def __init__(self, kind: str, workdir: Path, concurrency: int) -> None:
        self.kind = kind
        self.workdir = workdir
        self.wrk_threads = min(2, concurrency)

    @classmethod
    def choose(cls, wanted: str, workdir: Path, concurrency: int) -> "LoadClient":
        if wanted == "wrk" or (wanted == "auto" and shutil.which("wrk")):
            if not shutil.which("wrk"):
                raise BenchError("--client wrk: wrk is not on PATH (apt-get install wrk)")
            return cls("wrk", workdir, concurrency)
        return cls("python", workdir, concurrency)

    def describe(self) -> str:
        if self.kind == "wrk":
            found = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False)
            words = (found.stdout + found.stderr).split()  # "wrk 4.1.0 [epoll] Copyright ..."
            version = words[1] if len(words) > 1 else "?"
            return f"wrk {version}, {self.wrk_threads} threads (bench/wrk.lua)"
        return "bench/load.py (asyncio, keep-alive)"

    def run(self, base: str, spec: Spec, concurrency: int, duration: float) -> Result:
        if self.kind == "wrk":
            command = self._wrk_command(base, spec, concurrency, duration)
        else:
            spec_file = self.workdir / "spec.json"
            spec_file.write_text(spec.to_json())
            command = [
                *(sys.executable, "-m", "bench.load", "--url", base, "--spec", str(spec_file)),
                *("--concurrency", str(concurrency), "--duration", str(duration)),
            ]
        finished = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=duration + 60, check=False
        )
        for line in reversed(finished.stdout.splitlines()):
            if line.startswith("RESULT "):
                return Result(**json.loads(line.removeprefix("RESULT ")))
        raise BenchError(f"{command[0]} failed:\n{finished.stdout}{finished.stderr}")

    def _wrk_command(self, base: str, spec: Spec, concurrency: int, duration: float) -> list[str]:
        paths = self.workdir / "paths.txt"
        paths.write_text("\n".join(spec.paths) + "\n")
        body = self.workdir / "body.json"
        body.write_text(spec.body or "")
        headers = [
            part for name, value in spec.headers.items() for part in ("-H", f"{name}: {value}")
        ]
        return [
            *("wrk", f"-t{min(self.wrk_threads, concurrency)}", f"-c{concurrency}"),
            *(f"-d{max(1, round(duration))}s", "--timeout", "10s", "-s", str(WRK_SCRIPT)),
            *headers,
            base,
            *("--", str(paths), spec.method, str(body) if spec.body else ""),
        ]


# -- the run ------------------------------------------------------------------------------


def table(rows: Sequence[tuple[str, int, Result, Counted | None]]) -> str:
    lines = [
        "| Route | Concurrency | req/s | p50 ms | p99 ms | Errors | SQL/request |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, concurrency, result, counted in rows:
        statements = str(counted.statements) if counted else "?"
        lines.append(
            f"| `{name}` | {concurrency} | {result.rate:,.0f} | {result.p50_ms:.1f} "
            f"| {result.p99_ms:.1f} | {result.errors} | {statements} |"
        )
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Seed a fresh database, serve it and measure the main routes.",
    )
    parser.add_argument("--events", type=int, default=10_000, help="events to seed (10000)")
    parser.add_argument(
        "--venues",
        type=int,
        default=0,
        help=f"venues to seed (default: one per {EVENTS_PER_VENUE} events, at least 200)",
    )
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per route (10)")
    parser.add_argument("--warmup", type=float, default=2.0, help="warm-up seconds per route")
    parser.add_argument("--concurrency", type=int, default=16, help="connections (16)")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes (2)")
    parser.add_argument(
        "--routes",
        default="",
        help="only the routes whose label contains one of these comma-separated texts",
    )
    parser.add_argument(
        "--client",
        choices=("auto", "wrk", "python"),
        default="auto",
        help="load generator: wrk if on PATH (auto), or bench/load.py",
    )
    parser.add_argument(
        "--webhook-changes",
        type=int,
        default=2000,
        help="events changed at once for the webhook delivery rate (2000; 0: no webhook part)",
    )
    parser.add_argument(
        "--rsvp",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="measure RSVPs per second at saturation and the capacity held (bench/rsvp.py)",
    )
    parser.add_argument(
        "--rsvp-places",
        type=int,
        default=50,
        help="the capacity of the ticket the RSVP part sells out (50)",
    )
    parser.add_argument(
        "--webhook-rounds",
        type=int,
        default=3,
        help="interleaved rounds of POST /events without, with paused and with delivered "
        "webhook subscriptions (3)",
    )
    args = parser.parse_args(argv)
    if args.concurrency < 1 or args.workers < 1 or args.duration <= 0 or args.events < 1:
        parser.error("--events, --concurrency and --workers must be >= 1, --duration > 0")
    if args.webhook_rounds < 1:
        parser.error("--webhook-rounds must be >= 1")
    if args.rsvp_places < 1:
        parser.error("--rsvp-places must be >= 1")
    return args


def bench(args: argparse.Namespace, workdir: Path) -> None:
    client = LoadClient.choose(args.client, workdir, args.concurrency)
    load_before = os.getloadavg()[0]
    if load_before > 0.5 * (os.cpu_count() or 1):
        step(f"warning: the machine is busy (load average {load_before:.2f}): numbers will be low")
    with bench_database(workdir) as url:
        step("migrations")
        almanac(url, "migrate")
        venues = args.venues or max(200, args.events // EVENTS_PER_VENUE)
        step(f"seeding {args.events} events and {venues} venues")
        seeded = almanac(
            url, "seed", "--events", str(args.events), "--venues", str(venues), timeout=3600
        )
        step(seeded.strip().splitlines()[-1])
        password = almanac(url, "users", "add", "bench-editor", "--role", "editor")
        password = password.strip().splitlines()[-1]
        admin = almanac(url, "users", "add", "bench-admin", "--role", "administrator")
        admin = admin.strip().splitlines()[-1]
        targets = asyncio.run(_targets(url))
        step(f"{targets.occurrences} occurrences (dates of events and series)")
        specs = route_specs(targets, "bench-editor", password)
        wanted = [part.strip() for part in args.routes.split(",") if part.strip()]
        if wanted:
            specs = {k: v for k, v in specs.items() if any(part in k for part in wanted)}

        step("counting SQL statements per request (in process, through the ASGI app)")
        counted = count_statements(url, specs)
        for name, count in counted.items():
            if not 200 <= count.status < 300:
                print(f"  warning: {name} answered {count.status} in process", flush=True)

        step(f"starting almanac serve with {args.workers} workers")
        rows: list[tuple[str, int, Result, Counted | None]] = []
        hooks: WebhookNumbers | None = None
        rsvp: RsvpNumbers | None = None
        with Server(url, args.workers, workdir / "server.log") as server:
            step(f"serving on {server.base}; load from {client.describe()}")
            for name, spec in specs.items():
                concurrency = 1 if name in SEQUENTIAL else args.concurrency
                if args.warmup > 0:
                    client.run(server.base, spec, concurrency, args.warmup)
                result = client.run(server.base, spec, concurrency, args.duration)
                step(f"{name}: {result.rate:,.0f} req/s, {result.errors} errors")
                rows.append((name, concurrency, result, counted.get(name)))
            if args.rsvp:
                rsvp = measure_rsvp(
                    database=libpq_url(url),
                    server=server.base,
                    editor=("bench-editor", password),
                    run=lambda spec, seconds: client.run(
                        server.base, spec, args.concurrency, seconds
                    ),
                    concurrency=args.concurrency,
                    duration=args.duration,
                    warmup=args.warmup,
                    step=step,
                    places=args.rsvp_places,
                )
            if args.webhook_changes > 0:
                writes = route_specs(targets, "bench-editor", password)["POST /events"]

                def write(concurrency: int) -> Result:
                    concurrency = concurrency or args.concurrency
                    # One at a time: half the duration (a latency, not a rate, is wanted).
                    duration = args.duration if concurrency > 1 else args.duration / 2
                    result = client.run(server.base, writes, concurrency, duration)
                    step(
                        f"POST /events, {concurrency} at a time: {result.rate:,.0f} req/s, "
                        f"p50 {result.p50_ms:.1f} ms"
                    )
                    return result

                def write_statements() -> int:
                    return count_statements(url, {"POST /events": writes})[
                        "POST /events"
                    ].statements

                with (
                    (workdir / "receiver.log").open("wb") as log,
                    receiver(free_port(), log) as local_receiver,
                ):
                    hooks = measure(
                        database=libpq_url(url),
                        server=server.base,
                        admin=("bench-admin", admin),
                        receiver=local_receiver,
                        write=write,
                        count_statements=write_statements,
                        changes=args.webhook_changes,
                        rounds=args.webhook_rounds,
                        step=step,
                        server_group=server.group,
                    )
    print()
    print(
        f"almanac bench: {args.events} events ({targets.occurrences} occurrences), "
        f"{args.workers} workers, "
        f"{args.concurrency} connections, {args.duration:g} s per route after "
        f"{args.warmup:g} s warm-up, load from {client.describe()}, "
        f"{os.cpu_count()} CPUs, load average {load_before:.2f} before the run"
    )
    print()
    print(table(rows))
    for name, _, result, _ in rows:
        if name.startswith("GET /changes") and result.rate:
            # Throughput, not latency: what one change costs the server at full load.
            changes = result.rate * FEED_PAGE
            print(f"  {name}: {changes:,.0f} changes/s, {1e6 / changes:,.0f} µs per change")
    if rsvp is not None:
        print("\n".join(rsvp.lines()))
    if hooks is not None:
        print("\n".join(hooks.lines()))
    for name, _, result, _ in rows:
        if result.errors:
            print(
                f"  {name}: {result.non2xx} non-2xx responses, {result.transport} transport errors"
            )
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _terminate)
    workdir = Path(tempfile.mkdtemp(prefix="almanac-bench-"))
    workdir.chmod(0o755)  # the embedded server runs as its own system user
    try:
        bench(args, workdir)
    except BenchError as exc:
        print(f"bench failed: {exc}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
