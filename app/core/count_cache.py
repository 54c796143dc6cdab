"""List totals cached per normalised filter and data version (DESIGN §10: an exact count
over a large window is too slow to repeat on every request).

The version is `events_version_seq`, read in the same statement as the page; a total is
reused only under the version it was counted at. Triggers draw a new version inside every
write, and the app draws one more after a write commits (see app.core.database.get_session).
"""

import time
from collections import OrderedDict
from collections.abc import Hashable

from sqlalchemy import Label, Select, column, func, select, table

VERSION_SEQUENCE = "events_version_seq"
MAX_ENTRIES = 4096
# Writers that are not the API (bulk seeding, manual SQL) race with readers only inside
# their transaction; the TTL bounds how long such a rare stale total can live.
TTL_SECONDS = 300.0


def version_column() -> Label[int]:
    """The current data version, as a scalar subquery to add to a query (reading a
    sequence's last value takes no lock and sees numbers drawn by uncommitted writers)."""
    sequence = table(VERSION_SEQUENCE, column("last_value"))
    return select(sequence.c.last_value).scalar_subquery().label("data_version")


def next_version() -> Select[tuple[int]]:
    """A statement drawing a new version (after a write commits)."""
    return select(func.nextval(VERSION_SEQUENCE))


class CountCache:
    def __init__(self, max_entries: int = MAX_ENTRIES, ttl: float = TTL_SECONDS) -> None:
        self.max_entries = max_entries
        self.ttl = ttl
        self._entries: OrderedDict[Hashable, tuple[int, float, int]] = OrderedDict()

    def get(self, key: Hashable, version: int) -> int | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        cached_version, expires, total = entry
        if cached_version != version or expires < time.monotonic():
            return None
        self._entries.move_to_end(key)
        return total

    def clear(self) -> None:
        self._entries.clear()

    def put(self, key: Hashable, version: int, total: int) -> None:
        self._entries[key] = (version, time.monotonic() + self.ttl, total)
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)
