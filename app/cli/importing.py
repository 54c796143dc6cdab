"""`almanac import`: a The Events Calendar site brought over through its REST API."""

import sys
from datetime import datetime
from typing import Annotated

import typer

from app.cli.common import database_url, option
from app.core.database.migrate import upgrade
from app.core.settings import get_settings
from app.importer.arguments import (
    DEFAULT_ATTEMPTS,
    MAX_ATTEMPTS,
    PASSWORD_VARIABLE,
    ImportArguments,
    since_date,
)


def _since(value: str) -> datetime:
    try:
        return since_date(value)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


def import_command(
    source: Annotated[
        str,
        typer.Argument(
            help="the site's URL, or its …/wp-json/tribe/events/v1 base URL",
            metavar="URL",
            show_default=False,
        ),
    ],
    user: Annotated[
        str | None,
        option(
            metavar="LOGIN",
            help="login on the source, with --password, sent to the source's own scheme, "
            "host and port only (default: none: what anonymous visitors see)",
        ),
    ] = None,
    password: Annotated[
        str | None,
        option(
            "--password",  # named: a metavar spelling the option's name would rename it
            metavar="PASSWORD",
            help="a WordPress application password of --user "
            f"(default: the environment variable ${PASSWORD_VARIABLE})",
        ),
    ] = None,
    owner: Annotated[
        str | None,
        option(
            metavar="LOGIN", help="local user owning the records (default: first administrator)"
        ),
    ] = None,
    dry_run: Annotated[
        bool, option("--dry-run", help="read and decide, write nothing (default: off)")
    ] = False,
    since: Annotated[
        datetime | None,
        option(
            parser=_since,
            metavar="DATE",
            help="only records modified since this date, UTC (default: all records)",
        ),
    ] = None,
    prune: Annotated[
        bool,
        option(
            "--prune", help="trash local records gone from the source (default: off: they stay)"
        ),
    ] = False,
    copy_images: Annotated[
        bool,
        option(
            "--copy-images",
            help="download the records' images into the media library, once, and show the "
            "copies; only from the source itself or public addresses (default: off: images "
            "stay links to the source)",
        ),
    ] = False,
    attempts: Annotated[
        int,
        option(
            min=1,
            max=MAX_ATTEMPTS,
            metavar="N",
            help="tries per request to the source before giving up; timeouts, connection "
            f"errors, 429 and 5xx are tried again with growing waits (default: "
            f"{DEFAULT_ATTEMPTS})",
        ),
    ] = DEFAULT_ATTEMPTS,
) -> None:
    """Bring a The Events Calendar site over, through its REST API."""
    from app.importer.command import cmd_import  # loaded for this command only

    arguments = ImportArguments(
        source=source,
        user=user,
        password=password,
        owner=owner,
        dry_run=dry_run,
        since=since,
        prune=prune,
        copy_images=copy_images,
        attempts=attempts,
    )
    url = database_url()
    upgrade(url)
    status = cmd_import(url, get_settings(), arguments, sys.stdout)
    if status:
        raise typer.Exit(status)
