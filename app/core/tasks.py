"""The process's background tasks (the horizon, the webhook deliveries, the venues' geocoding,
the replica's monitor): how one is stopped at shutdown."""

import asyncio
import contextlib
from typing import Any


async def cancel(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel the tasks and wait until each has ended (its `finally` run); a task's own
    cancellation is not an error of the shutdown."""
    running = [task for task in tasks if task is not None]
    for task in running:
        task.cancel()
    for task in running:
        with contextlib.suppress(asyncio.CancelledError):
            await task
