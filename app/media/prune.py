"""`almanac media prune`: remove stored files that no row names.

They are what a crash between writing an upload's files and committing its row leaves
behind (app/media/uploads.py). Files younger than the grace period are kept: they may
belong to an upload whose row is not committed yet.
"""

import asyncio
from dataclasses import dataclass

from app.media.repository import MediaRepository
from app.media.storage import MediaStorage

GRACE_SECONDS = 3600.0


@dataclass(frozen=True, slots=True)
class Pruned:
    removed: list[str]
    kept: int
    leftovers: int  # partial writes removed


async def prune(
    repo: MediaRepository,
    storage: MediaStorage,
    *,
    grace_seconds: float = GRACE_SECONDS,
    dry_run: bool = False,
) -> Pruned:
    named = await repo.all_named()
    candidates = await asyncio.to_thread(lambda: list(storage.names(grace_seconds)))
    orphans = [name for name in candidates if name not in named]
    leftovers = 0
    if not dry_run:
        for name in orphans:
            await asyncio.to_thread(storage.delete, name)
        leftovers = await asyncio.to_thread(storage.remove_leftovers, grace_seconds)
    return Pruned(removed=orphans, kept=len(candidates) - len(orphans), leftovers=leftovers)
