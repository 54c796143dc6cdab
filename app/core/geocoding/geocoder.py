"""The optional geocoding service: a Nominatim-compatible server (GEOCODER_URL), through geopy.

geopy's Nominatim client runs on its aiohttp adapter, in the event loop: the whole call sits
under one `asyncio.timeout`, and a call that runs out is cancelled with its connection. A
blocking client in a thread (asyncio.to_thread) cannot be cancelled: a slow service would
hold a thread of the default pool past the caller's deadline, and urllib's timeout bounds
each read, not the whole answer. The adapter's HTTP session is opened on the first request,
in the loop that serves it, and closed by `aclose` (the app's shutdown).

Nominatim's policy allows one request a second: `Geocoder` keeps that per process (a lock
and the monotonic clock; with several workers or instances, each keeps it on its own, so a
site of N processes may ask N times a second: a public service wants WEB_CONCURRENCY=1 or a
server of its own). A caller waits for its turn a bounded time, then hears that the service
is unavailable, as for an outage. The answers are cached by app/geo/service.py.

The URL is the operator's choice, like the database's: no check of the address it resolves
to (app/core/security/addresses.py guards the addresses that callers send).
"""

import asyncio
import logging
import math
import time
from contextlib import AsyncExitStack
from typing import Any
from urllib.parse import urlsplit

from app.core.rules.geography import Point

logger = logging.getLogger(__name__)

# Seconds: one request's whole answer; between two requests' starts (Nominatim's policy);
# the longest a caller waits for its turn behind others.
REQUEST_TIMEOUT = 5.0
REQUEST_INTERVAL = 1.0
TURN_TIMEOUT = 10.0
SEARCH_PATH = "/search"


class GeocoderUnavailable(Exception):
    """The service did not answer: down, too slow, busy, or an error instead of an answer.
    Nothing is known about the place; ask again later."""


def service_address(url: str) -> tuple[str, str]:
    """(scheme, domain with port and path) of a Nominatim URL, as geopy takes them: the path
    is where /search lives ("https://host/nominatim" or ".../nominatim/search")."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"the geocoder's URL must be http(s)://host[/path]: {url!r}")
    path = parts.path.rstrip("/")
    path = path.removesuffix(SEARCH_PATH)
    return parts.scheme, f"{parts.netloc}{path}"


class Geocoder:
    """One process's client of the service; `locate` asks it (no cache: app/geo/service.py)."""

    def __init__(
        self,
        url: str,
        user_agent: str,
        *,
        timeout: float = REQUEST_TIMEOUT,
        interval: float = REQUEST_INTERVAL,
        turn_timeout: float = TURN_TIMEOUT,
    ) -> None:
        self.scheme, self.domain = service_address(url)
        self.user_agent = user_agent
        self.timeout = timeout
        self.interval = interval
        self.turn_timeout = turn_timeout
        self._turn = asyncio.Lock()
        self._next_start = 0.0  # time.monotonic() at which the next request may start
        self._resources = AsyncExitStack()
        self._client: Any = None  # geopy's Nominatim, made in the serving loop

    async def locate(self, query: str) -> Point | None:
        """The service's point for `query`; None: the service found no such place.
        Raises GeocoderUnavailable when it gives no answer within the bounds."""
        try:
            async with asyncio.timeout(self.turn_timeout):
                await self._turn.acquire()
        except TimeoutError:
            raise GeocoderUnavailable("busy: no turn within the wait") from None
        try:
            await asyncio.sleep(max(0.0, self._next_start - time.monotonic()))
            self._next_start = time.monotonic() + self.interval
            return await self._ask(query)
        finally:
            self._turn.release()

    async def _ask(self, query: str) -> Point | None:
        # Imported where a request is made: aiohttp and geopy are a tenth of a start's imports,
        # and most processes (every command, a server without GEOCODER_URL) never ask.
        import aiohttp
        from geopy.exc import GeopyError

        try:
            async with asyncio.timeout(self.timeout):
                client = await self._nominatim()
                location = await client.geocode(query, exactly_one=True, timeout=self.timeout)
        except TimeoutError:
            raise GeocoderUnavailable("timed out") from None
        except (GeopyError, aiohttp.ClientError, ValueError, TypeError, KeyError) as error:
            # geopy's errors (HTTP statuses, connections, its timeouts) and answers that are
            # not Nominatim's JSON: the service is not answering as one.
            logger.warning("geocoder_error", extra={"error": repr(error)})
            raise GeocoderUnavailable(str(error) or type(error).__name__) from error
        if location is None:
            return None
        return _point(location.latitude, location.longitude)

    async def _nominatim(self) -> Any:
        if self._client is None:
            from geopy.adapters import AioHTTPAdapter
            from geopy.geocoders import Nominatim

            client = Nominatim(
                scheme=self.scheme,
                domain=self.domain,
                user_agent=self.user_agent,
                timeout=self.timeout,
                adapter_factory=AioHTTPAdapter,
            )
            self._client = await self._resources.enter_async_context(client)
        return self._client

    async def aclose(self) -> None:
        """Close the HTTP session, if a request opened one (the app's shutdown)."""
        await self._resources.aclose()
        self._client = None


def _point(lat: Any, lng: Any) -> Point:
    if not isinstance(lat, float) or not isinstance(lng, float):
        raise GeocoderUnavailable("an answer without coordinates")
    if not (math.isfinite(lat) and math.isfinite(lng) and abs(lat) <= 90 and abs(lng) <= 180):
        raise GeocoderUnavailable("coordinates outside the earth's")
    return Point(lat, lng)
