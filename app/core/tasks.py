"""The process's background tasks (the horizon, the webhook deliveries, the venues' geocoding,
the mail outbox's sender, the replica's monitor): how one is stopped at shutdown, and the
loop of those that work in rounds."""

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
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


async def repeat(
    step: Callable[[], Awaitable[bool]],
    wake: asyncio.Event,
    interval: float,
    backoff: Callable[[int], float],
    failed: Callable[[], None],
) -> None:
    """A background task's loop (the venues' geocoding, the mail outbox's sender): `step`
    again and again, at once while it says there is more to do (True), else after `wake`
    is set or `interval` seconds have passed; while it fails, after `backoff(failures)`
    seconds, `failed` called (to log it) once per streak. A failure never ends the loop: the
    app serves on regardless."""
    failures = 0
    while True:
        wake.clear()
        busy = False
        try:
            busy = await step()
            failures = 0
        except Exception:
            if failures == 0:
                failed()
            failures += 1
        if failures:
            await asyncio.sleep(backoff(failures))
        elif not busy:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), interval)
