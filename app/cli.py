"""The `almanac` command: serve, migrate, users, seed."""

import argparse
import asyncio
import os
import shutil
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from app.core.caching import after_write
from app.core.database import make_engine, make_sessionmaker, resolve_database_url
from app.core.logs import logging_config
from app.core.metrics import prepare_multiprocess_dir
from app.core.migrate import upgrade
from app.core.permissions import Role
from app.core.settings import get_settings
from app.seed.seeder import SeedCounts, seed
from app.users.service import Accounts, UserError

T = TypeVar("T")


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
                # or password must be refused at once (see app.core.caching).
                await after_write(session)
                return result
        finally:
            await engine.dispose()

    return asyncio.run(run())


def cmd_migrate(_: argparse.Namespace) -> int:
    upgrade(_database_url())
    print("migrations applied")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    url = _database_url()
    upgrade(url)
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
WORKER_HEALTHCHECK_SECONDS = 30


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
        proxy_headers=False,  # app.core.middleware.TrustedProxyMiddleware handles X-Forwarded-*
        server_header=False,
        log_level=settings.log_level,
        # Every worker logs as configured; one access line per request comes from the app.
        log_config=logging_config(settings.log_format, settings.log_level),
        access_log=False,
        timeout_graceful_shutdown=30,
        loop="auto",
        http="auto",
        **options,
    )


def cmd_users_add(args: argparse.Namespace) -> int:
    user, password = _with_accounts(lambda a: a.add(args.login, Role(args.role)))
    print(f"created user {user.login} (id {user.id}, role {user.role})")
    print("application password (shown once):")
    print(password)
    return 0


def cmd_users_password(args: argparse.Namespace) -> int:
    password = _with_accounts(lambda a: a.new_password(args.login))
    print(f"new application password for {args.login} (shown once):")
    print(password)
    return 0


def cmd_users_list(_: argparse.Namespace) -> int:
    async def rows(accounts: Accounts) -> list[tuple[int, str, str]]:
        return [(u.id, u.login, u.role) for u in await accounts.list()]

    for user_id, login, role in _with_accounts(rows):
        print(f"{user_id}\t{login}\t{role}")
    return 0


def cmd_users_remove(args: argparse.Namespace) -> int:
    _with_accounts(lambda a: a.remove(args.login))
    print(f"removed user {args.login}")
    return 0


def cmd_seed(args: argparse.Namespace) -> int:
    settings = get_settings()
    url = _database_url()
    upgrade(url)
    counts = SeedCounts(
        events=args.events,
        venues=args.venues,
        organizers=args.organizers,
        categories=args.categories,
        tags=args.tags,
    )
    report = asyncio.run(
        seed(
            url,
            counts,
            site_timezone=settings.site_timezone,
            default_language=settings.default_language,
            random_seed=args.random_seed,
            progress=lambda line: print(line, flush=True),
        )
    )
    print(report.summary())
    return 0


def _count(value: str) -> int:
    number = int(value)
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="almanac", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="apply migrations, then serve HTTP")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(func=cmd_serve)

    migrate = commands.add_parser("migrate", help="apply database migrations")
    migrate.set_defaults(func=cmd_migrate)

    users = commands.add_parser("users", help="manage users").add_subparsers(
        dest="users_command", required=True
    )
    add = users.add_parser("add", help="create a user; prints an application password last")
    add.add_argument("login")
    add.add_argument("--role", choices=[r.value for r in Role], default=Role.SUBSCRIBER.value)
    add.set_defaults(func=cmd_users_add)
    password = users.add_parser("password", help="issue another application password")
    password.add_argument("login")
    password.set_defaults(func=cmd_users_password)
    users.add_parser("list", help="list users").set_defaults(func=cmd_users_list)
    remove = users.add_parser("remove", help="delete a user")
    remove.add_argument("login")
    remove.set_defaults(func=cmd_users_remove)

    defaults = SeedCounts()
    seeding = commands.add_parser(
        "seed", help="append realistic generated events, venues, organizers and terms"
    )
    seeding.add_argument("--events", type=_count, default=defaults.events)
    seeding.add_argument("--venues", type=_count, default=defaults.venues)
    seeding.add_argument("--organizers", type=_count, default=defaults.organizers)
    seeding.add_argument("--categories", type=_count, default=defaults.categories)
    seeding.add_argument("--tags", type=_count, default=defaults.tags)
    seeding.add_argument(
        "--random-seed", type=int, default=None, help="repeatable data (IDs still differ)"
    )
    seeding.set_defaults(func=cmd_seed)
    return parser


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
