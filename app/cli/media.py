"""`almanac media`: the media library's files."""

import asyncio
from typing import Annotated, Any

import typer

from app.cli.common import database_url, option
from app.core.database.engine import make_engine, make_sessionmaker
from app.core.database.migrate import upgrade
from app.core.settings import get_settings

media = typer.Typer(
    name="media",
    help="The media library's files.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)


@media.command()
def prune(
    grace_minutes: Annotated[
        int,
        option(
            min=0,
            metavar="MINUTES",
            help="keep files younger than this: an upload may be committing them (default: 60)",
        ),
    ] = 60,
    dry_run: Annotated[
        bool, option("--dry-run", help="list, remove nothing (default: off: remove)")
    ] = False,
) -> None:
    """Remove stored files that no image names."""
    from app.media.prune import prune as prune_files
    from app.media.repository import MediaRepository
    from app.media.storage import LocalStorage

    settings = get_settings()
    url = database_url()
    upgrade(url)
    storage = LocalStorage(settings.media_root)

    async def run() -> Any:
        engine = make_engine(url, settings)
        try:
            async with make_sessionmaker(engine)() as session:
                return await prune_files(
                    MediaRepository(session),
                    storage,
                    grace_seconds=grace_minutes * 60,
                    dry_run=dry_run,
                )
        finally:
            await engine.dispose()

    pruned = asyncio.run(run())
    verb = "would remove" if dry_run else "removed"
    for name in pruned.removed:
        print(f"{verb} {name}")
    print(
        f"media in {settings.media_root}: {verb} {len(pruned.removed)} file(s) no image names, "
        f"kept {pruned.kept}; {pruned.leftovers} partial write(s) removed"
    )
