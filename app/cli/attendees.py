"""`almanac attendees`: a person's data by their email address: `export` prints everything
kept about it as JSON, `forget` erases it (the right to be forgotten;
docs/design.md#tickets-and-rsvp)."""

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

import typer

from app.cli.common import database_url
from app.core.caching.cache import after_write
from app.core.database.engine import Session, make_engine, make_sessionmaker
from app.core.database.migrate import upgrade
from app.core.settings import Settings, get_settings
from app.core.web.urls import Urls
from app.http.context import RequestContext

T = TypeVar("T")

attendees = typer.Typer(
    name="attendees",
    help="An attendee's personal data, by email address: export it, or forget it.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

Email = Annotated[
    str,
    typer.Argument(
        help="the email address (any case matches)", metavar="EMAIL", show_default=False
    ),
]


def command_context(session: Session, settings: Settings) -> RequestContext:
    """A request's context for a command on the server: no caller, the default language,
    the public URLs of PUBLIC_SITE_URL (the links in messages to the attendees it moves up
    from a waitlist)."""
    site = (settings.public_site_url or "http://localhost:8000").rstrip("/")
    urls = Urls(
        origin=site, root_path=settings.root_path.rstrip("/"), language_prefix="", site=site
    )
    return RequestContext({}, settings.default_language, None, session, urls, settings)


def in_transaction(action: Callable[[RequestContext], Awaitable[T]]) -> T:
    """Run `action` in one transaction, committed when it succeeds."""

    settings = get_settings()
    url = database_url()
    upgrade(url)  # before the loop: the migrations run one of their own

    async def run() -> T:
        engine = make_engine(url, settings)
        try:
            async with make_sessionmaker(engine)() as session:
                async with session.begin():
                    result = await action(command_context(session, settings))
                # Running servers cache per data version: the event's figures changed.
                await after_write(session)
                return result
        finally:
            await engine.dispose()

    return asyncio.run(run())


@attendees.command(short_help="Print everything kept about an email address, as JSON.")
def export(email: Email) -> None:
    """Print as JSON every attendee with this address (their answers, tickets, check-ins)
    and every message to it (subjects, kinds, dates and states, without their bodies)."""
    from app.attendees.privacy import export as exported

    body = in_transaction(lambda ctx: exported(ctx, email))
    print(json.dumps(body, ensure_ascii=False, indent=2))


@attendees.command(
    short_help="Erase everything about an email address (the right to be forgotten)."
)
def forget(email: Email) -> None:
    """Erase the address everywhere: its answers are cancelled (places given back, the
    waitlist moved up; no message to the address), then its attendees and every message to
    it are deleted. Prints the counts. `almanac attendees export` first keeps a copy."""
    from app.attendees.privacy import forget as forgotten

    done = in_transaction(lambda ctx: forgotten(ctx, email))
    print(f"answers cancelled: {done.cancelled}")
    print(f"attendees deleted: {done.attendees}")
    print(f"messages deleted: {done.messages}")
