"""`almanac serve` and `almanac migrate`."""

import contextlib
import errno
import logging
import logging.config
import os
import shutil
import signal
import socket
import sys
from typing import Annotated, Any

import typer

from app.cli.common import database_url, option
from app.core.database.embedded import pgdata_dir
from app.core.database.engine import printable_url
from app.core.database.migrate import head_revision, upgrade
from app.core.observability.logs import logging_config
from app.core.observability.metrics import prepare_multiprocess_dir
from app.core.rules.constants import NAMESPACE
from app.core.settings import get_settings

log = logging.getLogger(__name__)

# Seconds a worker has to answer the supervisor's ping, at start-up too: a spawned worker
# imports the whole app before it can answer, which on a busy machine takes more than
# uvicorn's default 5 s (the supervisor would kill and respawn it, again and again).
WORKER_HEALTHCHECK_SECONDS = 60

# How many ports after a busy one are tried for a free one to suggest.
PORTS_TRIED = 100


def migrate() -> None:
    """Apply every database migration not applied yet (serve, seed, maintain and import do
    it too). Safe to run from several processes at once."""
    upgrade(database_url())
    print("migrations applied")


def _where_the_database_is(url: str) -> str:
    settings = get_settings()
    if settings.database_url:
        return f"database: {printable_url(url)}"
    where = f"database: embedded PostgreSQL, data in {pgdata_dir(settings.almanac_data_dir)}"
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        where += (
            " (run as root: PostgreSQL runs as the system user pgserver, and the directories"
            " above the data are opened to all users; see docs/operations.md)"
        )
    return where


def _start_up_lines(url: str, host: str, port: int) -> list[str]:
    shown_host = f"[{host}]" if ":" in host else host
    base = f"http://{shown_host}:{port}"
    return [
        _where_the_database_is(url),
        f"migrations: at head {head_revision()}",
        f"listening on {base}/ (API {base}/{NAMESPACE}, docs {base}/{NAMESPACE}/doc in a browser)",
    ]


def _bind_error(host: str, port: int) -> OSError | None:
    """Why `host:port` cannot be listened on (bound and released at once, as uvicorn binds
    it), or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # uvicorn's choice
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        return exc
    return None


def free_port_after(host: str, port: int) -> int | None:
    """The first port after `port` that `host` can listen on now, to suggest (a guess: it
    may be taken before the person uses it)."""
    for candidate in range(port + 1, min(port + PORTS_TRIED, 65535) + 1):
        if _bind_error(host, candidate) is None:
            return candidate
    return None


def _address_taken(host: str, port: int) -> str | None:
    """Why the server cannot listen on `host:port`, or None. Checked before the database
    starts and before "listening" is printed; a process taking the port in the instant
    between is left to uvicorn's own error."""
    exc = _bind_error(host, port)
    if exc is None:
        return None
    if exc.errno == errno.EADDRINUSE:
        free = free_port_after(host, port)
        advice = (
            f"choose another with --port (make run PORT={free})"
            if free is not None
            else "choose another with --port"
        )
        return f"port {port} on {host} is in use (another almanac?); {advice}"
    return f"cannot listen on {host}:{port}: {exc.strerror or exc}"


def _stop_on_sigterm() -> None:
    """SIGTERM (docker stop, systemd, process managers) stops the server as Ctrl-C does.

    uvicorn shuts down gracefully on either, then raises the signal again; SIGTERM's default
    action would end the process there, before the exit hooks run, and the embedded
    PostgreSQL this process started would keep running. As KeyboardInterrupt it returns from
    uvicorn like Ctrl-C, and the hooks stop it (unless another process still uses it)."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)


def serve(
    host: Annotated[
        str,
        option(
            metavar="ADDRESS",
            help="address to listen on; 0.0.0.0 for every interface (default: 127.0.0.1)",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        option(min=1, max=65535, metavar="NUMBER", help="TCP port to listen on (default: 8000)"),
    ] = 8000,
    workers: Annotated[
        int, option(min=1, metavar="N", help="worker processes; about one per core (default: 1)")
    ] = 1,
) -> None:
    """Apply the database migrations, then serve the API over HTTP until SIGTERM or Ctrl-C
    (which stop the embedded PostgreSQL too, if this process started it)."""
    taken = _address_taken(host, port)
    if taken:
        print(f"error: {taken}", file=sys.stderr)
        raise typer.Exit(1)
    _stop_on_sigterm()
    with contextlib.suppress(KeyboardInterrupt):  # a signal before uvicorn took over
        _serve(host, port, workers)
    # Once, from the process the person started: the workers' and uvicorn's own lines are
    # for the log, this one says it is over.
    _say("stopped")


def _say(line: str) -> None:
    if get_settings().log_format == "json":
        log.info(line)  # every line of a JSON log is a JSON object
    else:
        print(line, flush=True)


def _serve(host: str, port: int, workers: int) -> None:
    url = database_url()
    upgrade(url)
    settings = get_settings()
    if settings.log_format == "json":
        # Every line of a JSON log is a JSON object, these too.
        logging.config.dictConfig(logging_config(settings.log_format, settings.log_level))
    for line in _start_up_lines(url, host, port):
        _say(line)
    # Workers are separate processes: hand them the resolved URL so they join the same
    # (possibly embedded) server instead of starting their own.
    os.environ["DATABASE_URL"] = url
    get_settings.cache_clear()
    settings = get_settings()
    # Before any worker starts: they find the metrics directory in their environment.
    metrics_dir = prepare_multiprocess_dir() if settings.metrics_enabled else None
    try:
        _run_uvicorn(host, port, workers)
    finally:
        if metrics_dir is not None and metrics_dir[1]:
            shutil.rmtree(metrics_dir[0], ignore_errors=True)


def _run_uvicorn(host: str, port: int, workers: int) -> None:
    import inspect

    import uvicorn

    settings = get_settings()
    options: dict[str, Any] = {}
    if "timeout_worker_healthcheck" in inspect.signature(uvicorn.Config).parameters:
        options["timeout_worker_healthcheck"] = WORKER_HEALTHCHECK_SECONDS
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        proxy_headers=False,  # the edge step app.core.web.middleware.trusted_proxy handles X-Forwarded-*
        server_header=False,
        log_level=settings.log_level,
        # Every worker logs as configured; one access line per request comes from the app.
        log_config=logging_config(settings.log_format, settings.log_level),
        access_log=False,
        timeout_graceful_shutdown=30,
        # Connections that send no complete request in time are closed (a slow-header or idle
        # client held its socket for ever): uvicorn's keep-alive timeout between requests, and
        # a deadline for each request's headers, which uvicorn lacks.
        timeout_keep_alive=settings.http_keepalive_timeout,
        loop="auto",
        http="app.core.web.header_deadline:HeaderDeadlineProtocol",
        **options,
    )
