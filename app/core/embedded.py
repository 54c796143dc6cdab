"""The embedded PostgreSQL (pgserver) used when no DATABASE_URL is configured."""

import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

DATABASE = "almanac"
_servers: dict[Path, Any] = {}  # kept alive for the life of the process


def embedded_url(data_dir: Path, database: str = DATABASE) -> str:
    """Start (or join) the embedded server under `data_dir`; return a URL for `database`."""
    from pgserver import get_server  # type: ignore[attr-defined]  # lazily: embedded only

    pgdata = (data_dir / "pgdata").resolve()
    server = _servers.get(pgdata)
    if server is None:
        pgdata.mkdir(parents=True, exist_ok=True)
        # cleanup_mode "stop": the server stops when the last process using it exits.
        server = get_server(pgdata, cleanup_mode="stop")
        _servers[pgdata] = server
        log.info("embedded PostgreSQL running in %s", pgdata)
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "1 row" not in exists:
        server.psql(f'CREATE DATABASE "{database}";')
    uri: str = server.get_uri(database)
    return uri
