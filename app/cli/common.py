"""What every command shares: the database it works on, one transaction of user changes,
and how a command's option is written (its help says its default, as before)."""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import typer

from app.core.caching.cache import after_write
from app.core.database.engine import make_engine, make_sessionmaker, resolve_database_url
from app.core.settings import get_settings
from app.users.service import Accounts

T = TypeVar("T")

LOGIN_HELP = "the user's login (1-60 characters, no spaces or ':'; any case matches)"


def option(*names: str, help: str, **more: Any) -> Any:
    """An option whose help text says its default in words ("(default: off: remove)"):
    Typer's own `[default: False]` would say it twice, and less clearly."""
    return typer.Option(*names, help=help, show_default=False, **more)


def database_url() -> str:
    """The configured URL, or the embedded server's (started now if needed)."""
    return resolve_database_url(get_settings())


def with_accounts(action: Callable[[Accounts], Awaitable[T]]) -> T:
    """Run `action` in one transaction, committed when it succeeds."""

    async def run() -> T:
        settings = get_settings()
        engine = make_engine(database_url(), settings)
        try:
            async with make_sessionmaker(engine)() as session:
                async with session.begin():
                    result = await action(Accounts(session, settings.app_password_pepper))
                # Running servers cache signed-in callers per data version: a removed user
                # or password must be refused at once (see app.core.caching.cache).
                await after_write(session)
                return result
        finally:
            await engine.dispose()

    return asyncio.run(run())
