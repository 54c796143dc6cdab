"""Request ids: one per request, on its response (`X-Request-ID`), on every log line written
while it is handled, and the reference a 500 gives.

A trusted proxy's `X-Request-ID` is kept (so that the proxy's logs and ours share it), when it
looks like an id; otherwise, and from anyone else, a new one is drawn.
"""

import logging
import re
import uuid
from contextvars import ContextVar

HEADER = b"x-request-id"
STATE_KEY = "request_id"
NONE = "-"
# What proxies send: UUIDs, hex, nginx's $request_id, base64-ish tokens; nothing that could
# forge a log line or a header.
ACCEPTED = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:+/=-]{0,127}")

REQUEST_ID: ContextVar[str] = ContextVar("almanac_request_id", default=NONE)


def new_request_id() -> str:
    return uuid.uuid4().hex


def accepted(value: str | None) -> str | None:
    """The proxy's id, if it is one we pass on."""
    if not value:
        return None
    text = value.strip()
    return text if ACCEPTED.fullmatch(text) else None


def current_request_id() -> str:
    return REQUEST_ID.get()


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every record (`-` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, STATE_KEY):
            record.request_id = REQUEST_ID.get()
        return True
