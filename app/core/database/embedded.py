"""The embedded PostgreSQL (pgserver) used when no DATABASE_URL is configured.

PostgreSQL refuses to run as root: started by root, pgserver creates a system user
(`pgserver`) and runs the server as that user, owning the data directory.
"""

import fcntl
import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# pgserver logs every pg_ctl command line with its output at INFO (a dump on every normal
# stop), and platformdirs warns on every start when XDG_RUNTIME_DIR is unset (as it is for
# services and containers) although pgserver then uses a fine fallback. Neither is news to
# an operator; real failures still raise or log at WARNING.
logging.getLogger("pgserver").setLevel(logging.WARNING)
warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")

DATABASE = "almanac"
_servers: dict[Path, Any] = {}  # kept alive for the life of the process


def pgdata_dir(data_dir: Path) -> Path:
    return (data_dir / "pgdata").resolve()


@contextmanager
def _one_at_a_time(pgdata: Path) -> Iterator[None]:
    """Hold the lock file beside `pgdata` (made if missing) while the block runs.

    pgserver creates its system user and runs initdb before it takes its own lock, and a
    database is made after a look for it: processes starting at once (a test run's workers, a
    server and a command) would race (`useradd` fails; two `CREATE DATABASE`, one an error).
    The lock makes them take turns; the first one starts the server, the others join it.
    """
    pgdata.mkdir(parents=True, exist_ok=True)
    with open(pgdata.parent / f".{pgdata.name}.start-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        yield


def start_server(pgdata: Path, cleanup_mode: str = "stop") -> Any:
    """Start (or join) pgserver's server on `pgdata`, one process at a time."""
    with _one_at_a_time(pgdata):
        return _start_or_join(pgdata, cleanup_mode)


def _start_or_join(pgdata: Path, cleanup_mode: str) -> Any:
    from pgserver import get_server  # type: ignore[attr-defined]  # lazily: embedded only

    return get_server(pgdata, cleanup_mode=cleanup_mode)


def embedded_url(data_dir: Path, database: str = DATABASE) -> str:
    """Start (or join) the embedded server under `data_dir`, with `database` made if
    missing; return a URL for it."""
    pgdata = pgdata_dir(data_dir)
    with _one_at_a_time(pgdata):
        server = _servers.get(pgdata)
        if server is None:
            # cleanup_mode "stop": the server stops when the last process using it exits.
            server = _start_or_join(pgdata, "stop")
            _servers[pgdata] = server
            log.debug("embedded PostgreSQL running in %s", pgdata)
        exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
        if "1 row" not in exists:
            server.psql(f'CREATE DATABASE "{database}";')
    uri: str = server.get_uri(database)
    return uri
