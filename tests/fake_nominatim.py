"""A Nominatim-compatible geocoding service for the tests: a real HTTP server (aiohttp.web)
on 127.0.0.1 and a free port, in the test's event loop, answering `GET /search?q=...&format=
json` as Nominatim does (a JSON list of places with `lat`/`lon` as strings; [] for a place
it does not know).

    async with FakeNominatim({"main street 1, springfield": (39.8, -89.6)}) as service:
        geocoder = Geocoder(service.url, "almanac-tests")
        ...
        assert service.queries == ["main street 1, springfield"]

`status` makes it answer every search with that status (503: an outage), `delay` makes it
wait that many seconds before answering (a slow service), `stop()` takes it off the port
(a service that is down). `requests` records every search: its arrival on the monotonic
clock, its query and its User-Agent. Places are keyed by the query as the geocoder sends it
(app/geo/service.py's normalised_query: trimmed, casefolded, spaces collapsed).
"""

import asyncio
import time
from dataclasses import dataclass, field
from types import TracebackType

from aiohttp import web

from tests.live.harness import free_port


@dataclass(frozen=True, slots=True)
class Search:
    at: float  # time.monotonic() on arrival
    query: str
    user_agent: str


@dataclass
class FakeNominatim:
    # Query -> (lat, lon); a string is sent as it is (an answer no geocoder can read).
    places: dict[str, tuple[float | str, float | str]] = field(default_factory=dict)
    status: int = 200
    delay: float = 0.0
    port: int = field(default_factory=free_port)
    path: str = ""  # where /search lives, as on a server under a prefix ("/nominatim")
    requests: list[Search] = field(default_factory=list)
    _runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.path}"

    @property
    def queries(self) -> list[str]:
        return [search.query for search in self.requests]

    async def _search(self, request: web.Request) -> web.Response:
        query = request.query.get("q", "")
        self.requests.append(Search(time.monotonic(), query, request.headers["User-Agent"]))
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.status != 200:
            return web.Response(status=self.status, text="Service Unavailable")
        assert request.query.get("format") == "json"
        found = self.places.get(query)
        if found is None:
            return web.json_response([])
        lat, lon = found
        place = {"place_id": 1, "lat": str(lat), "lon": str(lon), "display_name": query}
        return web.json_response([place])

    async def start(self) -> "FakeNominatim":
        app = web.Application()
        app.router.add_get(f"{self.path}/search", self._search)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        return self

    async def stop(self) -> None:
        """Off the port: requests are refused from now on."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "FakeNominatim":
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()
