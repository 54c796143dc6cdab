"""Failed-login throttling: per client address, a sliding window, kept in each worker.

A client that fails to authenticate `limit` times within `window` seconds gets 429 until
the oldest failure leaves the window. The state is per process (each worker counts for
itself), which bounds guessing to `limit × workers` attempts per window per address.
"""

import time
from collections import deque

MAX_TRACKED_CLIENTS = 10_000


class FailedLogins:
    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, client: str, now: float) -> deque[float]:
        failures = self._failures.get(client)
        if failures is None:
            return deque()
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        if not failures:
            del self._failures[client]
        return failures

    def retry_after(self, client: str) -> int:
        """Seconds this client must wait before trying again (0: it may try now)."""
        now = time.monotonic()
        failures = self._recent(client, now)
        if len(failures) < self.limit:
            return 0
        return max(1, int(failures[0] + self.window - now) + 1)

    def record(self, client: str) -> None:
        if len(self._failures) >= MAX_TRACKED_CLIENTS:
            self._prune()
        self._failures.setdefault(client, deque()).append(time.monotonic())

    def clear(self) -> None:
        self._failures.clear()

    def _prune(self) -> None:
        now = time.monotonic()
        for client in list(self._failures):
            self._recent(client, now)
        if len(self._failures) >= MAX_TRACKED_CLIENTS:  # still full: forget the oldest
            oldest = sorted(self._failures, key=lambda c: self._failures[c][-1])
            for client in oldest[: len(oldest) // 2]:
                del self._failures[client]
