"""The harness of the tests that run the real `almanac` command and server (subprocesses),
private databases, free ports and static sites; other tests use it too.

Tests run in parallel (pytest-xdist): whatever they create outside their own process - a
database, a listening port - must not be what another worker creates at the same time.
"""

import asyncio
import functools
import os
import random
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

POLL = 0.05  # seconds between two looks at a condition being waited for


def per_worker(name: str) -> str:
    """`name`, made unique to this xdist worker (`name_gw0`); unchanged without xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"{name}_{worker}" if worker else name


def _ephemeral_ports() -> tuple[int, int]:
    """The range the kernel takes the local ports of outgoing connections from."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


_handed_out: set[int] = set()


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on, for a server about to start.

    Below the ephemeral range, so that no outgoing connection (of this or a parallel worker)
    takes it before the server binds it; random, so that parallel workers rarely try the same
    one; never the same one twice in this process.
    """
    low, _ = _ephemeral_ports()
    choose = random.SystemRandom()
    for _ in range(200):
        port = choose.randrange(10000, low) if low > 11000 else 0
        if port in _handed_out:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            port = sock.getsockname()[1]
        if port not in _handed_out:
            _handed_out.add(port)
            return port
    raise AssertionError("no free port found")


_migrated_template: str | None = None


async def _template(database_url: str) -> str:
    """A database of this worker with every migration applied and nothing else, made once:
    the template that `fresh_database(..., migrated=True)` copies (a copy takes a fraction of a
    second; migrating takes seconds, and a server starts on a migrated database sooner)."""
    global _migrated_template
    if _migrated_template is None:
        from app.core.database.migrate import upgrade  # the app only where it is needed

        name = per_worker("almanac_template")
        admin = create_async_engine(database_url, isolation_level="AUTOCOMMIT")
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
        await admin.dispose()
        url = make_url(database_url).set(database=name).render_as_string(hide_password=False)
        await asyncio.to_thread(upgrade, url)
        _migrated_template = name
    return _migrated_template


@asynccontextmanager
async def fresh_database(
    database_url: str, name: str, *, migrated: bool = False
) -> AsyncIterator[str]:
    """A new database next to the test database (named `name`, suffixed with the xdist
    worker): empty, or `migrated` (a copy of a database with every migration applied);
    dropped afterwards."""
    name = per_worker(name)
    template = f' TEMPLATE "{await _template(database_url)}"' if migrated else ""
    admin = create_async_engine(database_url, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await conn.execute(text(f'CREATE DATABASE "{name}"{template}'))
    try:
        yield make_url(database_url).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()


@asynccontextmanager
async def accounts_of(url: str) -> AsyncIterator[Any]:
    """The `Accounts` service (app/users/service.py) over the database `url`, in one
    transaction committed at the end: users made in this process as `almanac users add`
    makes them (tests/live/test_first_hour.py runs the command itself)."""
    from sqlalchemy.ext.asyncio import AsyncSession

    from app.core.settings import get_settings
    from app.users.service import Accounts

    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            session = AsyncSession(bind=connection, expire_on_commit=False)
            yield Accounts(session, get_settings().app_password_pepper)
            await session.flush()
    finally:
        await engine.dispose()


async def add_user(url: str, login: str, role: str) -> tuple[int, str]:
    """A user of `role` in the database `url`; its ID and application password."""
    from app.core.rules.permissions import Role

    async with accounts_of(url) as accounts:
        user, password = await accounts.add(login, Role(role))
    return user.id, password


async def almanac(url: str, *args: str) -> str:
    """Run an `almanac` command against `url`; its standard output (it must succeed)."""
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "app.cli", *args),
        env={**os.environ, "DATABASE_URL": url},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode == 0, err.decode()
    return out.decode()


async def wait_until_serving(
    base: str, process: asyncio.subprocess.Process | None = None, seconds: float = 60
) -> None:
    """Until something answers HTTP at `base`; fails at once if `process` (the server) exits."""
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient() as client:
        while True:
            try:
                await client.get(f"{base}/")
                return
            except httpx.TransportError:
                if process is not None and process.returncode is not None:
                    raise AssertionError(
                        f"the server for {base} exited with {process.returncode}"
                    ) from None
                if time.monotonic() > deadline:
                    raise AssertionError(f"nothing answers at {base}") from None
                await asyncio.sleep(POLL)


async def wait_until_listening(
    port: int, process: asyncio.subprocess.Process | None = None, seconds: float = 30
) -> None:
    """Until 127.0.0.1:`port` accepts connections; fails at once if `process` exits."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if process is not None and process.returncode is not None:
                raise AssertionError(f"the server for port {port} exited") from None
            if time.monotonic() > deadline:
                raise AssertionError(f"nothing listens on port {port}") from None
            await asyncio.sleep(POLL)
            continue
        writer.close()
        await writer.wait_closed()
        return


async def wait_until_refused(port: int, seconds: float = 30) -> None:
    """Until 127.0.0.1:`port` refuses new connections (a server that stops listening)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            return
        writer.close()
        await writer.wait_closed()
        if time.monotonic() > deadline:
            raise AssertionError(f"port {port} still accepts connections")
        await asyncio.sleep(POLL)


@contextmanager
def private_postgres(name: str) -> Iterator[Any]:
    """An embedded PostgreSQL of the caller's own (pgserver), so that it can be stopped and
    started again (`stop_postgres`, `server.ensure_postgres_running()`); removed afterwards."""
    from app.core.database.embedded import start_server

    base = Path(tempfile.gettempdir()) / f"almanac-{name}-{os.getpid()}"
    base.mkdir(mode=0o755, exist_ok=True)
    base.chmod(0o755)
    server = start_server(base / "pgdata")
    try:
        yield server
    finally:
        server.cleanup()
        shutil.rmtree(base, ignore_errors=True)


def stop_postgres(server: Any) -> None:
    from pgserver._commands import pg_ctl

    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)


@asynccontextmanager
async def almanac_server(url: str, workers: int = 1, **env: str) -> AsyncIterator[str]:
    """`almanac serve` on a free port for the database `url`, with extra environment `env`;
    yields its base URL, then stops it (SIGTERM, as a container stop does)."""
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", str(workers)),
        env={**os.environ, "DATABASE_URL": url, "LOG_LEVEL": "warning", **env},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        await wait_until_serving(base, process)
        yield base
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), timeout=30)
            except TimeoutError:
                process.kill()
                await process.wait()


class _QuietFiles(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def served_directory(root: Path) -> Iterator[str]:
    """A plain static server of `root` on a free local port, as another site (one that
    embeds the calendar, or sends a cross-site form): its origin."""
    port = free_port()
    server = ThreadingHTTPServer(
        ("127.0.0.1", port), functools.partial(_QuietFiles, directory=str(root))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.shutdown()
        server.server_close()
