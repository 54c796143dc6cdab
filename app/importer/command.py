"""The `almanac import` command: options in, summary out (app/cli/importing.py registers it)."""

import asyncio
import os
import sys
from typing import TextIO

import httpx

from app.core.database.engine import make_engine, make_sessionmaker
from app.core.settings import Settings
from app.importer.arguments import PASSWORD_VARIABLE, ImportArguments
from app.importer.client import RetryPolicy, SourceClient
from app.importer.images import CopyLimits
from app.importer.service import Importer, ImportFailed, ImportOptions
from app.importer.summary import Progress, Summary, progress_for
from app.media.storage import LocalStorage


async def run_import(
    url: str,
    settings: Settings,
    args: ImportArguments,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    retry: RetryPolicy | None = None,
    progress: Progress | None = None,
) -> Summary:
    options = ImportOptions(
        owner=args.owner,
        dry_run=args.dry_run,
        since=args.since,
        prune=args.prune,
        language=settings.default_language,
        site_timezone=settings.site_timezone,
        copy_images=args.copy_images,
        media=LocalStorage(settings.media_root),
        copy_limits=CopyLimits(settings.max_upload_bytes, settings.max_image_pixels),
    )
    engine = make_engine(url, settings)
    shown = progress or progress_for(sys.stdout)
    try:
        async with SourceClient(
            args.source,
            login=args.user,
            password=args.password,
            transport=transport,
            retry=retry or RetryPolicy(attempts=args.attempts),
        ) as client:
            importer = Importer(make_sessionmaker(engine), client, options, shown)
            return await importer.run()
    finally:
        shown.close()
        await engine.dispose()


def cmd_import(url: str, settings: Settings, args: ImportArguments, out: TextIO) -> int:
    if args.user is not None and args.password is None:
        # Kept out of the process list and the shell history when it comes from there.
        args.password = os.environ.get(PASSWORD_VARIABLE)
    if (args.user is None) != (args.password is None):
        print(
            f"error: --user and --password (or ${PASSWORD_VARIABLE}) go together", file=sys.stderr
        )
        return 2
    try:
        summary = asyncio.run(run_import(url, settings, args))
    except ImportFailed as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: run the same command again to continue", file=sys.stderr)
        return 130
    for line in summary.lines():
        print(line, file=out)
    return summary.exit_status
