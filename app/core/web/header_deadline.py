"""uvicorn's HTTP protocol with a deadline for a request's headers.

uvicorn times out nothing before a request's headers are complete: a connection that sends
nothing, or a header line now and then, held its socket (and a place in the worker's
connection set) for ever; 3,000 slowly trickled headers and 100 idle sockets stayed open.
nginx closes such connections after `client_header_timeout`; a deployment without a proxy
gets the same here. From the moment a connection is made, and from the first byte of each
later request on it, the headers must be complete within HTTP_HEADER_TIMEOUT seconds, however
they are trickled; else the connection is closed. The wait between requests is uvicorn's own
keep-alive timeout (HTTP_KEEPALIVE_TIMEOUT, app/cli/serve.py), which it arms after each response.
"""

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.core.settings import get_settings


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """`almanac serve`'s protocol (uvicorn's `http` option names it by import path, which
    every worker process imports for itself)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = get_settings().http_header_timeout
        self.header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()  # the next request on a kept-alive connection: its own deadline

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        # Armed once per request: later header bytes never move the deadline.
        if self.header_deadline is None:
            self.header_deadline = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self.header_deadline is not None:
            self.header_deadline.cancel()
            self.header_deadline = None

    def _expired(self) -> None:
        self.header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()
