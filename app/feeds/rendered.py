"""Serialised VEVENTs, kept per worker and reused while nothing they show has changed.

Building a VEVENT with icalendar costs about a millisecond; the key, a digest of every input
of the VEVENT (the record's fields it shows, the body parts it renders, the language, the
host, the coordinates), costs a few microseconds. A changed event, venue, organizer, term or
translation changes an input and so the key: nothing stale can be reused, and outdated entries
simply age out.
"""

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import orjson

MAX_EVENTS = 50_000
RECORD_FIELDS = (
    "id", "revision", "status", "published_at", "modified_at", "start_at", "end_at",
    "start_local", "end_local", "timezone", "all_day",
)  # fmt: skip
BODY_FIELDS = ("title", "description", "url", "venue", "organizer", "categories", "image")


def event_key(record: Any, body: dict[str, Any], context: tuple[Any, ...]) -> bytes:
    """A digest of everything a VEVENT is made of (`context`: what is not in the event)."""
    values = [getattr(record, name) for name in RECORD_FIELDS]
    values.append(bool(record.password))
    values.extend(body[name] for name in BODY_FIELDS)
    values.extend(context)
    return hashlib.blake2b(orjson.dumps(values), digest_size=16).digest()


class RenderedEvents:
    """A bounded LRU of serialised VEVENTs; feeds are built in worker threads, hence the lock."""

    def __init__(self, max_entries: int = MAX_EVENTS) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[bytes, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_build(self, key: bytes, build: Callable[[], bytes]) -> bytes:
        with self._lock:
            cached = self._entries.get(key)
            if cached is not None:
                self._entries.move_to_end(key)
                return cached
        built = build()
        with self._lock:
            self._entries[key] = built
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return built

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


RENDERED = RenderedEvents()
