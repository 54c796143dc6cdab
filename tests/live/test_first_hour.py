"""What a new user meets in the first hour, with the real command and server: the start-up
lines (and nothing alarming on start or stop), the users commands, the demo data, and a
response cache that never answers one language with another."""

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import psutil
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from tests.factories import API
from tests.live.harness import add_user, almanac, free_port, fresh_database, wait_until_serving

HEAD_LINE = "migrations: at head "


async def _serve(env: dict[str, str], port: int) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "app.cli", "serve", "--port", str(port)),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def _stop(process: asyncio.subprocess.Process, stop: signal.Signals = signal.SIGINT) -> str:
    """Ctrl-C, as in a terminal running `make run` (or `stop`); everything the server
    printed. Within uvicorn's graceful timeout (30 s) and a little."""
    process.send_signal(stop)
    output, _ = await asyncio.wait_for(process.communicate(), timeout=40)
    return output.decode()


async def test_start_up_lines_with_a_configured_database(database_url: str) -> None:
    async with fresh_database(database_url, "almanac_start_up", migrated=True) as url:
        with_password = make_url(url).set(password="s3cret-pw").render_as_string(False)
        port = free_port()
        # The password is wrong for this server (it trusts local connections), but shown it
        # must never be.
        process = await _serve({**os.environ, "DATABASE_URL": with_password}, port)
        await wait_until_serving(f"http://127.0.0.1:{port}", process)
        output = await _stop(process)
    assert "s3cret-pw" not in output
    masked = make_url(with_password).render_as_string(hide_password=True)
    assert f"database: {masked}\n" in output
    assert "***" in masked
    assert HEAD_LINE in output
    base = f"http://127.0.0.1:{port}"
    assert f"listening on {base}/ (API {base}{API}, docs {base}{API}/doc in a browser)" in output


async def test_a_stop_says_stopped_once_and_nothing_about_pools(database_url: str) -> None:
    """Ctrl-C and SIGTERM: one "stopped" line, no connection pool statistics (SQLAlchemy's
    "Pool disposed ... Current Overflow: -10" read as trouble), with two workers too."""
    async with fresh_database(database_url, "almanac_stop_lines", migrated=True) as url:
        for stop, workers in ((signal.SIGINT, "1"), (signal.SIGTERM, "2")):
            port = free_port()
            process = await asyncio.create_subprocess_exec(
                *(sys.executable, "-m", "app.cli", "serve", "--port", str(port)),
                *("--workers", workers),
                env={**os.environ, "DATABASE_URL": url},
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            base = f"http://127.0.0.1:{port}"
            await wait_until_serving(base, process)
            async with httpx.AsyncClient() as client:  # the pools hold connections
                assert (await client.get(f"{base}{API}/events")).status_code == 200
            output = await _stop(process, stop)
            assert process.returncode == 0, output
            lines = output.splitlines()
            assert lines.count("stopped") == 1, output
            assert lines[-1] == "stopped", output
            assert "Overflow" not in output, output
            assert "Pool " not in output, output


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """A data directory the embedded server's own system user can reach (not pytest's
    tmp dir, which is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="almanac-first-hour-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _postmaster(pgdata: Path) -> int | None:
    """The embedded PostgreSQL's process ID while it runs."""
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return None
    pid = int(pid_file.read_text().split()[0])
    return pid if psutil.pid_exists(pid) else None


def _stopped(pid: int) -> bool:
    """Whether the process has ended: it removes its PID file just before it exits (`pg_ctl
    stop -w` waits for that), and its new parent may take a moment to reap it."""
    try:
        process = psutil.Process(pid)
        process.wait(timeout=10)
    except psutil.NoSuchProcess:
        return True
    except psutil.TimeoutExpired:
        return process.status() == psutil.STATUS_ZOMBIE
    return True


async def test_embedded_postgres_stops_with_the_server_and_quietly(data_dir: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "XDG_RUNTIME_DIR")}
    env["ALMANAC_DATA_DIR"] = str(data_dir)
    pgdata = data_dir.resolve() / "pgdata"  # noqa: ASYNC240 (a path, no I/O worth a thread)
    try:
        # SIGTERM (docker stop, systemd), after another command joined the server and left.
        port = free_port()
        process = await _serve(env, port)
        base = f"http://127.0.0.1:{port}"
        await wait_until_serving(base, process, seconds=180)
        postmaster = _postmaster(pgdata)
        assert postmaster is not None
        joined = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "app.cli", "users", "list"), env=env
        )
        assert await joined.wait() == 0
        async with httpx.AsyncClient() as client:  # the second process did not stop it
            assert (await client.get(f"{base}{API}/events")).status_code == 200
        output = await _stop(process, signal.SIGTERM)
        assert process.returncode == 0, output
        assert _stopped(postmaster), output
        # Ctrl-C, on a server that starts again from the same data: quiet, and stopped too.
        process = await _serve(env, port)
        await wait_until_serving(base, process, seconds=180)
        postmaster = _postmaster(pgdata)
        output = await _stop(process)
        assert process.returncode == 0, output
        assert postmaster is not None
        assert _stopped(postmaster), output
        assert f"database: embedded PostgreSQL, data in {pgdata}" in output
        assert HEAD_LINE in output
        assert "RuntimeDirWarning" not in output
        assert "XDG_RUNTIME_DIR" not in output
        assert "pg_ctl" not in output
        assert "Finished server process" in output  # it did stop, normally
    finally:  # a failed test leaves no server behind
        leftover = _postmaster(pgdata)
        if leftover is not None:
            os.kill(leftover, signal.SIGTERM)


async def test_commands_starting_the_embedded_server_at_once_share_it(data_dir: Path) -> None:
    """Three `almanac migrate` at the same moment on a data directory nothing has used yet:
    they take turns starting the embedded server (app/core/database/embedded.py), one creates
    it and the others join; the migrations run once; the last to exit stops it."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "XDG_RUNTIME_DIR")}
    env["ALMANAC_DATA_DIR"] = str(data_dir)
    pgdata = data_dir.resolve() / "pgdata"  # noqa: ASYNC240 (a path, no I/O worth a thread)
    processes = [
        await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "app.cli", "migrate"),
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        for _ in range(3)
    ]
    try:
        outputs = await asyncio.wait_for(
            asyncio.gather(*(process.communicate() for process in processes)), timeout=180
        )
    finally:
        leftover = _postmaster(pgdata)
    texts = [out.decode() for out, _ in outputs]
    assert [process.returncode for process in processes] == [0, 0, 0], texts
    assert all(text.rstrip().endswith("migrations applied") for text in texts), texts
    assert not any("ERROR" in text for text in texts), texts  # none raced to create the database
    assert (pgdata / "PG_VERSION").exists()
    if leftover is not None:  # stopped by the last one out (it may still be exiting)
        assert _stopped(leftover), texts


async def test_a_busy_port_is_one_line_and_exit_code_1(database_url: str) -> None:
    """The line suggests a port free now, never the one asked (the next one is taken too)."""
    with socket.socket() as taken, socket.socket() as next_one:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with contextlib.suppress(OSError):  # else someone else holds it: as good
            next_one.bind(("127.0.0.1", port + 1))
            next_one.listen()
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "app.cli", "serve", "--port", str(port)),
            env={**os.environ, "DATABASE_URL": database_url},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 1
    assert out.decode() == ""  # no "listening on", no database line
    message = err.decode()
    prefix = (
        f"error: port {port} on 127.0.0.1 is in use (another almanac?); choose another "
        "with --port (make run PORT="
    )
    assert message.startswith(prefix), message
    suggested = int(message.removeprefix(prefix).removesuffix(")\n"))
    assert suggested > port + 1
    with socket.socket() as probe:  # free indeed
        probe.bind(("127.0.0.1", suggested))


async def test_users_add_says_the_role_and_list_has_a_header(database_url: str) -> None:
    async with fresh_database(database_url, "almanac_users_cli", migrated=True) as url:
        bob = await almanac(url, "users", "add", "bob")
        assert "role subscriber" in bob
        assert "no --role given: bob is a subscriber" in bob
        assert "editor" in bob  # the roles to choose from
        alice = await almanac(url, "users", "add", "alice", "--role", "editor")
        assert "role editor" in alice
        assert "no --role given" not in alice
        lines = (await almanac(url, "users", "list")).splitlines()
    assert lines[0].split() == ["ID", "LOGIN", "ROLE"]
    assert [line.split()[1:] for line in lines[1:]] == [["bob", "subscriber"], ["alice", "editor"]]


async def test_seed_demo(database_url: str) -> None:
    async with fresh_database(database_url, "almanac_demo_seed", migrated=True) as url:
        await almanac(url, "seed", "--demo")
        # The tutorial run again: the demo is not added twice, and that is said.
        again = await almanac(url, "seed", "--demo")
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                counts = {
                    table: await conn.scalar(text(f"SELECT count(*) FROM {table}"))
                    for table in (
                        "events",
                        "event_translations",
                        "venues",
                        "venue_translations",
                        "organizers",
                        "organizer_translations",
                        "terms",
                        "term_translations",
                        "event_terms",
                    )  # fmt: skip
                }
                languages = set(
                    await conn.scalars(text("SELECT DISTINCT language FROM event_translations"))
                )
                upcoming = await conn.scalar(
                    text("SELECT count(*) FROM events WHERE start_at >= now() - interval '1 day'")
                )
        finally:
            await engine.dispose()
    assert counts["events"] == 50
    assert counts["event_translations"] == 100  # every event in German and Slovak
    assert counts["venues"] >= 5
    assert counts["venue_translations"] == 2 * counts["venues"]
    assert counts["organizers"] >= 5
    assert counts["organizer_translations"] == 2 * counts["organizers"]
    assert counts["terms"] >= 10
    assert counts["term_translations"] == 2 * counts["terms"]
    assert counts["event_terms"] >= 50
    assert languages == {"de", "sk"}
    assert upcoming == 50  # all of them in the default list window
    assert again.strip() == (
        f"the calendar has records already (50 events, {counts['venues']} venues, "
        f"{counts['organizers']} organizers); the demo fills an empty one only "
        "(`almanac seed --events N` appends generated events to any): nothing changed"
    )


@pytest.fixture
async def served(database_url: str) -> AsyncIterator[tuple[str, tuple[str, str]]]:
    async with fresh_database(database_url, "almanac_cache_languages", migrated=True) as url:
        _, password = await add_user(url, "ed", "editor")
        port = free_port()
        process = await _serve({**os.environ, "DATABASE_URL": url}, port)
        base = f"http://127.0.0.1:{port}"
        try:
            await wait_until_serving(base, process)
            yield base, ("ed", password)
        finally:
            process.kill()
            await process.wait()


async def test_the_response_cache_keeps_languages_apart(
    served: tuple[str, tuple[str, str]],
) -> None:
    base, editor = served
    async with httpx.AsyncClient(auth=editor) as writer, httpx.AsyncClient() as anonymous:
        created = await writer.post(f"{base}{API}/categories", json={"name": "Concerts"})
        url = f"{base}{API}/categories/{created.json()['id']}"
        german = await writer.post(f"{base}/de{API}/categories/{created.json()['id']}",
                                   json={"name": "Konzerte"})  # fmt: skip
        assert german.status_code == 200

        async def read(language: str | None) -> httpx.Response:
            headers = {"Accept-Language": language} if language else {}
            return await anonymous.get(url, headers=headers)

        first_de = await read("de-DE,de;q=0.9")
        first_en = await read("en")
        none = await read(None)
        again_de = await read("de")
        again_en = await read("en-GB, de;q=0.5")
    assert first_de.headers["x-almanac-cache"] == "miss"
    assert first_de.json()["name"] == "Konzerte"
    assert first_en.headers["x-almanac-cache"] == "miss"  # not the German answer
    assert first_en.json()["name"] == "Concerts"
    assert none.json()["name"] == "Concerts"
    assert (again_de.headers["x-almanac-cache"], again_de.json()["name"]) == ("hit", "Konzerte")
    assert again_de.headers["content-language"] == "de"
    assert (again_en.headers["x-almanac-cache"], again_en.json()["name"]) == ("hit", "Concerts")
    for response in (first_de, again_de, first_en, again_en):
        assert "Accept-Language" in response.headers["vary"]
