"""A real PgBouncer in transaction mode between a real `almanac serve` (two workers) and
PostgreSQL: with DB_PREPARED_STATEMENTS=false every route works, again and again, although
consecutive transactions of one client connection run on different server connections.

PgBouncer comes from Debian's package (`make system-deps` installs it).
"""

import asyncio
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import make_url

from tests.factories import API
from tests.live.harness import almanac, free_port, fresh_database, wait_until_listening
from tests.live.test_instances import serving

POOL_SIZE = 3  # server connections PgBouncer keeps: fewer than the app's clients


def _pgbouncer() -> str:
    found = shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin:/usr/bin")
    assert found, "pgbouncer is not installed: run `make system-deps`"
    return found


@pytest.fixture
def workdir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="almanac-pgbouncer-"))
    path.chmod(0o777)  # PgBouncer refuses to run as root: it drops to another user
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
async def bounced(database_url: str, workdir: Path) -> AsyncIterator[tuple[str, str]]:
    """(a URL through PgBouncer, the direct URL) of a fresh database."""
    async with fresh_database(database_url, "almanac_bouncer") as direct:
        url = make_url(direct)
        socket_dir = url.query.get("host")
        host = url.host or str(socket_dir)
        password = f" password={url.password}" if url.password else ""
        port = free_port()
        (workdir / "pgbouncer.ini").write_text(
            f"""
[databases]
almanac = host={host} port={url.port or 5432} dbname={url.database} user={url.username}{password}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = any
pool_mode = transaction
default_pool_size = {POOL_SIZE}
max_client_conn = 200
; what asyncpg sends at connect: not PgBouncer's to forward in transaction mode
ignore_startup_parameters = extra_float_digits,statement_timeout,jit
logfile = {workdir / "pgbouncer.log"}
pidfile = {workdir / "pgbouncer.pid"}
"""
        )
        command = [_pgbouncer(), str(workdir / "pgbouncer.ini")]
        if os.geteuid() == 0:
            # The embedded server's socket is reachable by its own user only.
            owner = await asyncio.to_thread(Path(str(socket_dir)).owner) if socket_dir else "nobody"
            command[1:1] = ["-u", owner]
        process = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
        )
        try:
            await wait_until_listening(port, process)
            yield f"postgresql://{url.username}@127.0.0.1:{port}/almanac", direct
        finally:
            if process.returncode is None:
                process.terminate()
            await asyncio.wait_for(process.wait(), timeout=30)


async def test_the_app_behind_pgbouncer_in_transaction_mode(
    bounced: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    through, direct = bounced
    # Migrations straight to PostgreSQL (docs/operations.md); then everything through PgBouncer.
    await almanac(direct, "migrate")
    password = (await almanac(direct, "users", "add", "bounced", "--role", "editor")).splitlines()
    editor = ("bounced", password[-1])
    monkeypatch.setenv("DB_PREPARED_STATEMENTS", "false")
    async with serving(through, 2) as instance, httpx.AsyncClient(timeout=30) as http:
        base = f"{instance.base}{API}"
        assert (await http.get(f"{instance.base}/readyz")).status_code == 200
        created = []
        for n in range(8):  # more transactions than PgBouncer has server connections
            response = await http.post(
                f"{base}/events",
                auth=editor,
                json={"title": f"Bounced {n}", "start_date": f"2033-01-0{n + 1} 10:00",
                      "end_date": f"2033-01-0{n + 1} 11:00", "categories": ["Pooled"]},
            )  # fmt: skip
            assert response.status_code == 201, response.text
            created.append(response.json()["id"])
        window = {"start_date": "2033-01-01", "end_date": "2033-01-31", "per_page": 3}
        reads = await asyncio.gather(
            *(http.get(f"{base}/events", params={**window, "_": n}) for n in range(20)),
            *(http.get(f"{base}/events/{event_id}") for event_id in created),
            *(http.get(f"{base}/categories", auth=editor) for _ in range(6)),
        )
        errors = [line for line in instance.lines() if line["level"] == "ERROR"]
        assert [r.status_code for r in reads] == [200] * len(reads), [
            e.get("exc_info") for e in errors[:1]
        ]
        assert {r.json()["total"] for r in reads[:20]} == {8}
        wrong = await http.get(f"{base}/tags", auth=("bounced", "wrong"))
        assert wrong.status_code == 401
