"""The `almanac` command: serve, migrate, users, seed, maintain, media, import."""

import argparse
import asyncio
import errno
import logging
import logging.config
import os
import shutil
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from app.core.edge.caching import after_write
from app.core.edge.i18n import translate
from app.core.edge.urls import NAMESPACE
from app.core.infra.database import (
    make_engine,
    make_sessionmaker,
    printable_url,
    resolve_database_url,
)
from app.core.infra.embedded import pgdata_dir
from app.core.infra.logs import logging_config
from app.core.infra.metrics import prepare_multiprocess_dir
from app.core.infra.migrate import head_revision, upgrade
from app.core.infra.settings import get_settings
from app.core.rules.permissions import Role
from app.events.horizon import extend_horizon
from app.events.occurrences import Horizon
from app.importer.arguments import add_arguments as add_import_arguments
from app.seed.seeder import DEMO, DEMO_RANDOM_SEED, SeedCounts, seed
from app.users.service import Accounts, UserError, UserExists

T = TypeVar("T")
log = logging.getLogger(__name__)


def _database_url() -> str:
    """The configured URL, or the embedded server's (started now if needed)."""
    return resolve_database_url(get_settings())


def _with_accounts(action: Callable[[Accounts], Awaitable[T]]) -> T:
    """Run `action` in one transaction, committed when it succeeds."""

    async def run() -> T:
        settings = get_settings()
        engine = make_engine(_database_url(), settings)
        try:
            async with make_sessionmaker(engine)() as session:
                async with session.begin():
                    result = await action(Accounts(session, settings.app_password_pepper))
                # Running servers cache signed-in callers per data version: a removed user
                # or password must be refused at once (see app.core.edge.caching).
                await after_write(session)
                return result
        finally:
            await engine.dispose()

    return asyncio.run(run())


def cmd_migrate(_: argparse.Namespace) -> int:
    upgrade(_database_url())
    print("migrations applied")
    return 0


def _where_the_database_is(url: str) -> str:
    settings = get_settings()
    if settings.database_url:
        return f"database: {printable_url(url)}"
    where = f"database: embedded PostgreSQL, data in {pgdata_dir(settings.almanac_data_dir)}"
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        where += (
            " (run as root: PostgreSQL runs as the system user pgserver, and the directories"
            " above the data are opened to all users; see the README)"
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


def _address_taken(host: str, port: int) -> str | None:
    """Why `host:port` cannot be listened on (bound and released at once, as uvicorn binds
    it), or None. Checked before the database starts and before "listening" is printed; a
    process taking the port in the instant between is left to uvicorn's own error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # uvicorn's choice
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return (
                f"port {port} on {host} is in use (another almanac?); choose another with "
                "--port (make run PORT=8001)"
            )
        return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def _stop_on_sigterm() -> None:
    """SIGTERM (docker stop, systemd, process managers) stops the server as Ctrl-C does.

    uvicorn shuts down gracefully on either, then raises the signal again; SIGTERM's default
    action would end the process there, before the exit hooks run, and the embedded
    PostgreSQL this process started would keep running. As KeyboardInterrupt it returns from
    uvicorn like Ctrl-C, and the hooks stop it (unless another process still uses it)."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)


def cmd_serve(args: argparse.Namespace) -> int:
    taken = _address_taken(args.host, args.port)
    if taken:
        print(f"error: {taken}", file=sys.stderr)
        return 1
    _stop_on_sigterm()
    try:
        return _serve(args)
    except KeyboardInterrupt:  # a signal before uvicorn took over
        return 0


def _serve(args: argparse.Namespace) -> int:
    url = _database_url()
    upgrade(url)
    settings = get_settings()
    if settings.log_format == "json":
        # Every line of a JSON log is a JSON object, these too.
        logging.config.dictConfig(logging_config(settings.log_format, settings.log_level))
    for line in _start_up_lines(url, args.host, args.port):
        if settings.log_format == "json":
            log.info(line)
        else:
            print(line, flush=True)
    # Workers are separate processes: hand them the resolved URL so they join the same
    # (possibly embedded) server instead of starting their own.
    os.environ["DATABASE_URL"] = url
    get_settings.cache_clear()
    settings = get_settings()
    # Before any worker starts: they find the metrics directory in their environment.
    metrics_dir = prepare_multiprocess_dir() if settings.metrics_enabled else None
    try:
        _run_uvicorn(args)
    finally:
        if metrics_dir is not None and metrics_dir[1]:
            shutil.rmtree(metrics_dir[0], ignore_errors=True)
    return 0


# Seconds a worker has to answer the supervisor's ping, at start-up too: a spawned worker
# imports the whole app before it can answer, which on a busy machine takes more than
# uvicorn's default 5 s (the supervisor would kill and respawn it, again and again).
WORKER_HEALTHCHECK_SECONDS = 60


def _run_uvicorn(args: argparse.Namespace) -> None:
    import inspect

    import uvicorn

    settings = get_settings()
    options: dict[str, Any] = {}
    if "timeout_worker_healthcheck" in inspect.signature(uvicorn.Config).parameters:
        options["timeout_worker_healthcheck"] = WORKER_HEALTHCHECK_SECONDS
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        proxy_headers=False,  # the edge step app.core.edge.middleware.trusted_proxy handles X-Forwarded-*
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
        http="app.core.infra.header_deadline:HeaderDeadlineProtocol",
        **options,
    )


def cmd_users_add(args: argparse.Namespace) -> int:
    role = Role(args.role or Role.SUBSCRIBER.value)
    try:
        user, password = _with_accounts(lambda a: a.add(args.login, role))
    except UserExists as exists:
        # On standard output, where `PASSWORD=$(almanac users add ... | tail -n 1)` looks:
        # a re-run tutorial then shows why, instead of an empty password and a 401.
        print(f"{exists}: nothing changed, its passwords still work")
        print(f"for a new application password: almanac users password {exists.login}")
        return 1
    # The role's rights in the words a 403 uses (app/core/edge/i18n.py).
    rights = translate(f"rights_{role.value}", "en")
    print(f"created user {user.login} (id {user.id}, role {user.role}): {rights}")
    if args.role is None:
        roles = ", ".join(r.value for r in Role)
        print(f"no --role given: {user.login} is a subscriber (roles: {roles})")
    print("application password (shown once):")
    print(password)
    return 0


def cmd_users_password(args: argparse.Namespace) -> int:
    password = _with_accounts(lambda a: a.new_password(args.login))
    print(f"new application password for {args.login} (shown once):")
    print(password)
    return 0


def _read_account_password() -> str | None:
    """Asked twice on a terminal; else one line of standard input (a script's pipe)."""
    if sys.stdin.isatty():
        import getpass

        first = getpass.getpass("account password: ")
        if getpass.getpass("again: ") != first:
            print("the two passwords differ: nothing changed", file=sys.stderr)
            return None
        return first
    return sys.stdin.readline().rstrip("\r\n")


def cmd_users_set_password(args: argparse.Namespace) -> int:
    password = _read_account_password()
    if password is None:
        return 1
    _with_accounts(lambda a: a.set_account_password(args.login, password))
    print(f"account password set for {args.login}: sign in at /desk/ (desk sessions ended)")
    return 0


def cmd_users_list(_: argparse.Namespace) -> int:
    async def rows(accounts: Accounts) -> list[tuple[int, str, str]]:
        return [(u.id, u.login, u.role) for u in await accounts.list()]

    users = _with_accounts(rows)
    width = max((len(login) for _, login, _ in users), default=5)
    print(f"{'ID':>6}  {'LOGIN':<{width}}  ROLE")
    for user_id, login, role in users:
        print(f"{user_id:>6}  {login:<{width}}  {role}")
    if not users:
        print("(no users: add one with `almanac users add LOGIN --role editor`)")
    return 0


def cmd_users_remove(args: argparse.Namespace) -> int:
    _with_accounts(lambda a: a.remove(args.login))
    print(f"removed user {args.login}")
    return 0


def cmd_seed(args: argparse.Namespace) -> int:
    settings = get_settings()
    url = _database_url()
    upgrade(url)
    counts = (
        DEMO
        if args.demo
        else SeedCounts(
            events=args.events,
            venues=args.venues,
            organizers=args.organizers,
            categories=args.categories,
            tags=args.tags,
        )
    )
    if not args.demo:
        print(
            f"seeding {counts.events} events, {counts.venues} venues, {counts.organizers} "
            f"organizers, {counts.categories} categories and {counts.tags} tags "
            "(see `almanac seed --help` for other counts, or --demo)",
            flush=True,
        )
    report = asyncio.run(
        seed(
            url,
            counts,
            site_timezone=settings.site_timezone,
            default_language=settings.default_language,
            random_seed=DEMO_RANDOM_SEED
            if args.demo and args.random_seed is None
            else args.random_seed,
            progress=lambda line: print(line, flush=True),
            horizon_days=settings.recurrence_horizon_days,
            max_occurrences=settings.recurrence_max_occurrences,
        )
    )
    print(report.summary())
    return 0


def cmd_maintain(args: argparse.Namespace) -> int:
    settings = get_settings()
    url = _database_url()
    upgrade(url)
    horizon = Horizon(settings.recurrence_horizon_days, settings.recurrence_max_occurrences)

    async def run() -> int | None:
        engine = make_engine(url, settings)
        try:
            return await extend_horizon(make_sessionmaker(engine), horizon, args.now)
        finally:
            await engine.dispose()

    done = asyncio.run(run())
    if done is None:
        print("recurrence horizon: another process is extending it; nothing done")
    else:
        print(f"recurrence horizon ({horizon.days} days): extended {done} series")
    return 0


def cmd_media_prune(args: argparse.Namespace) -> int:
    from app.media.prune import prune
    from app.media.repository import MediaRepository
    from app.media.storage import LocalStorage

    settings = get_settings()
    url = _database_url()
    upgrade(url)
    storage = LocalStorage(settings.media_root)

    async def run() -> Any:
        engine = make_engine(url, settings)
        try:
            async with make_sessionmaker(engine)() as session:
                return await prune(
                    MediaRepository(session),
                    storage,
                    grace_seconds=args.grace_minutes * 60,
                    dry_run=args.dry_run,
                )
        finally:
            await engine.dispose()

    pruned = asyncio.run(run())
    verb = "would remove" if args.dry_run else "removed"
    for name in pruned.removed:
        print(f"{verb} {name}")
    print(
        f"media in {settings.media_root}: {verb} {len(pruned.removed)} file(s) no image names, "
        f"kept {pruned.kept}; {pruned.leftovers} partial write(s) removed"
    )
    return 0


def _moment(value: str) -> datetime:
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def cmd_import(args: argparse.Namespace) -> int:
    from app.importer.command import cmd_import as run  # loaded for this command only

    url = _database_url()
    upgrade(url)
    return run(url, get_settings(), args, sys.stdout)


def _whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` (to `high`), refused with the range."""
    shown = f"from {low} to {high}" if high is not None else f"{low} or more"

    def convert(value: str) -> int:
        number = int(value)
        if number < low or (high is not None and number > high):
            raise argparse.ArgumentTypeError(f"must be {shown}")
        return number

    convert.__name__ = "whole number"  # argparse's "invalid whole number value: 'x'"
    return convert


_port, _positive, _count = _whole(1, 65535), _whole(1), _whole(0)


LOGIN_HELP = "the user's login (1-60 characters, no spaces or ':'; any case matches)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="almanac", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser(
        "serve",
        help="apply migrations, then serve HTTP",
        description="Apply the database migrations, then serve the API over HTTP until "
        "SIGTERM or Ctrl-C (which stop the embedded PostgreSQL too, if this process started "
        "it).",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on; 0.0.0.0 for every interface (default: %(default)s)",
    )
    serve.add_argument(
        "--port", type=_port, default=8000, help="TCP port to listen on (default: %(default)s)"
    )
    serve.add_argument(
        "--workers",
        type=_positive,
        default=1,
        help="worker processes; about one per core (default: %(default)s)",
    )
    serve.set_defaults(func=cmd_serve)

    migrate = commands.add_parser(
        "migrate",
        help="apply database migrations",
        description="Apply every database migration not applied yet (serve, seed, maintain "
        "and import do it too). Safe to run from several processes at once.",
    )
    migrate.set_defaults(func=cmd_migrate)

    users = commands.add_parser("users", help="manage users").add_subparsers(
        dest="users_command", required=True
    )
    add = users.add_parser(
        "add",
        help="create a user; prints an application password last",
        description="Create a user and print an application password as the last line. A "
        "login that exists already is left as it is: that is said on standard output, with "
        "exit code 1 (`users password LOGIN` issues another password).",
    )
    add.add_argument("login", help=LOGIN_HELP)
    add.add_argument(
        "--role",
        choices=[r.value for r in Role],
        default=None,
        help="what the user may do (default: subscriber, who can only read)",
    )
    add.set_defaults(func=cmd_users_add)
    password = users.add_parser("password", help="issue another application password")
    password.add_argument("login", help=LOGIN_HELP)
    password.set_defaults(func=cmd_users_password)
    set_password = users.add_parser(
        "set-password",
        help="set the account password the desk signs in with",
        description="Set the user's account password, for the desk (/desk/): asked twice on a "
        "terminal, else read as one line from standard input. At least 8 characters; stored "
        "as an argon2 hash. The API does not take it (it takes application passwords), and "
        "the user's desk sessions end.",
    )
    set_password.add_argument("login", help=LOGIN_HELP)
    set_password.set_defaults(func=cmd_users_set_password)
    users.add_parser("list", help="list users").set_defaults(func=cmd_users_list)
    remove = users.add_parser("remove", help="delete a user")
    remove.add_argument("login", help=LOGIN_HELP)
    remove.set_defaults(func=cmd_users_remove)

    defaults = SeedCounts()
    seeding = commands.add_parser(
        "seed",
        help="append realistic generated events, venues, organizers and terms",
        description=f"Append generated records (by default {defaults.events} events with "
        "their venues, organizers and terms), or the small --demo. Categories and tags are taken from a "
        "vocabulary; names already there are skipped.",
    )
    for name, what in (
        ("events", "events to append, one in ten of them a recurring series"),
        ("venues", "venues to append"),
        ("organizers", "organizers to append"),
        ("categories", "event categories to add (at most the vocabulary's)"),
        ("tags", "event tags to add (at most the vocabulary's)"),
    ):
        seeding.add_argument(
            f"--{name}",
            type=_count,
            default=getattr(defaults, name),
            help=f"{what} (default: %(default)s)",
        )
    seeding.add_argument(
        "--demo",
        action="store_true",
        help=f"a small demo instead: {DEMO.events} upcoming events with venues, organizers, "
        "terms and German and Slovak translations (the counts are ignored); into an empty "
        "calendar only, so a second run changes nothing (default: off)",
    )
    seeding.add_argument(
        "--random-seed",
        type=int,
        default=None,
        help="repeatable data (IDs still differ) (default: random; the demo's is fixed)",
    )
    seeding.set_defaults(func=cmd_seed)

    maintain = commands.add_parser(
        "maintain",
        help="store the dates of recurring events up to the horizon (the app does it daily)",
        description="Store the dates of every recurring event up to the horizon "
        "(RECURRENCE_HORIZON_DAYS ahead). A running server does it daily; run it from cron "
        "when no server runs.",
    )
    maintain.add_argument("--now", type=_moment, default=None, help=argparse.SUPPRESS)
    maintain.set_defaults(func=cmd_maintain)

    media = commands.add_parser("media", help="the media library's files").add_subparsers(
        dest="media_command", required=True
    )
    pruning = media.add_parser("prune", help="remove stored files that no image names")
    pruning.add_argument(
        "--grace-minutes",
        type=_count,
        default=60,
        help="keep files younger than this: an upload may be committing them "
        "(default: %(default)s)",
    )
    pruning.add_argument(
        "--dry-run", action="store_true", help="list, remove nothing (default: off: remove)"
    )
    pruning.set_defaults(func=cmd_media_prune)

    importing = commands.add_parser(
        "import", help="bring a The Events Calendar site over, through its REST API"
    )
    add_import_arguments(importing)
    importing.set_defaults(func=cmd_import)
    _describe(parser)
    return parser


def _describe(parser: argparse.ArgumentParser) -> None:
    """A command's own `--help` starts with its one-line help when it has no longer
    description (argparse shows that line only in the list of commands)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, command in action.choices.items():
                short = helps.get(name)
                if not command.description and short:
                    command.description = f"{short[0].upper()}{short[1:]}."
                _describe(command)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.func(args)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return result


if __name__ == "__main__":
    sys.exit(main())
