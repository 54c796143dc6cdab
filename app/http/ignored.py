"""Naming the fields a write ignored. As in the reference, a write takes the fields it knows
and ignores the others, but never silently: the answer of a write whose body sent fields no
parameter model of the request read names them in `X-Almanac-Ignored` (comma-separated,
in the order sent), and the debug log has a line saying so (docs/design.md#errors).

The edge step (`report_ignored`) opens a record per write (`Reading`); the parameter reader
(app/http/raw_params.py) notes the body's field names in it and `parse` (app/http/params.py)
the fields of each model it validates against; the step compares them when the answer
starts."""

import logging
from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass, field
from urllib.parse import quote

from starlette.types import Message

from app.core.asgi.pipeline import Exchange, Handler

log = logging.getLogger("almanac.writes")

IGNORED_HEADER = "X-Almanac-Ignored"
WRITE_METHODS = ("POST", "PUT", "PATCH")
# The header names this many at most (a body may hold a thousand fields).
MAX_NAMED = 20
SAFE = "!#$&'()*+-./:;<=>?@[]^_`{|}~"
# Sent by the desk's forms and by WordPress clients: read by the edge or meaningless here.
NEVER_REPORTED = frozenset({"_method", "_locale", "_wpnonce", "_envelope", "_fields", "_embed"})


@dataclass
class Reading:
    """The body's field names and the names the request's parameter models read."""

    sent: tuple[str, ...] = ()
    read: set[str] = field(default_factory=set)

    def ignored(self) -> list[str]:
        return [name for name in self.sent if name not in self.read and name not in NEVER_REPORTED]


_reading: ContextVar[Reading | None] = ContextVar("almanac_reading", default=None)


def note_sent(names: Iterable[str]) -> None:
    """The body's field names (the parameter reader, once per request)."""
    reading = _reading.get()
    if reading is not None:
        reading.sent = tuple(names)


def note_read(names: Iterable[str]) -> None:
    """Names a parameter model of the request reads (`parse`, each time)."""
    reading = _reading.get()
    if reading is not None:
        reading.read.update(names)


def header_value(names: list[str]) -> str:
    """The header's value: the first names, percent-encoded where not plain printable ASCII
    (a field name may hold a comma, a line break or any character), then how many more."""
    shown = [quote(name, safe=SAFE) for name in names[:MAX_NAMED]]
    if len(names) > MAX_NAMED:
        shown.append(f"... {len(names) - MAX_NAMED} more")
    return ", ".join(shown)


async def report_ignored(exchange: Exchange, inner: Handler) -> None:
    scope = exchange.scope
    if scope["type"] != "http" or scope["method"] not in WRITE_METHODS:
        await inner(exchange)
        return
    reading = Reading()

    def name_them(message: Message) -> Message:
        headers = message.get("headers", [])
        replayed = any(k.lower() == b"idempotent-replayed" for k, _ in headers)
        ignored = reading.ignored()
        if not 200 <= message["status"] < 300 or replayed or not ignored:
            return message
        listed = ", ".join(quote(name, safe=SAFE) for name in ignored)  # no line breaks
        log.debug("%s %s ignored the field(s) %s", scope["method"], scope["path"], listed)
        value = header_value(ignored).encode()
        return {**message, "headers": [*headers, (IGNORED_HEADER.lower().encode(), value)]}

    exchange.on_start(name_them)
    token = _reading.set(reading)
    try:
        await inner(exchange)
    finally:
        _reading.reset(token)
