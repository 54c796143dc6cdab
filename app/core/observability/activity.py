"""What this process is serving: requests in flight and when the last one ended, counted by
an edge step (app/core/observability/in_flight.py) and read by background work that should yield to
requests (the webhook deliveries, app/webhooks/worker.py).

Per process, like the work it describes: a worker's deliveries compete for the CPU with
that worker's requests (the other worker's requests are the operating system's business).
"""

import asyncio


class RequestActivity:
    def __init__(self) -> None:
        self.in_flight = 0
        self.last_end = float("-inf")  # the event loop's clock (monotonic)

    def started(self) -> None:
        self.in_flight += 1

    def ended(self) -> None:
        self.in_flight -= 1
        self.last_end = asyncio.get_running_loop().time()

    async def quiet(self, window: float, deadline: float) -> bool:
        """Wait until no request has been in flight for `window` seconds, or until
        `deadline` (the event loop's clock); whether it got quiet. Polls every `window`
        at most: a few timer wake-ups per second, nothing while the process is idle."""
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            calm_at = now + window if self.in_flight else self.last_end + window
            if now >= calm_at:
                return True
            if now >= deadline:
                return False
            await asyncio.sleep(min(calm_at, deadline) - now)
