"""One access-log line and one metrics observation per request, tagged with its request id.

`AccessLog` is the outermost step of the edge pipeline (app/core/asgi/pipeline.py): it gives
the request its id (a trusted proxy's `X-Request-ID`, or a new one), puts it on the response
and, through a context variable, on every log line written meanwhile; when the response is done it writes the
access line (id, method, path with secrets masked, route template, status, duration, user id,
cache hit or miss) and counts the request.

`route_template` runs after the proxy and trailing-slash steps (it sees the path the router
sees) and before the response cache (it sees cache hits, which never reach the router): it names the route the request is for, remembered per path.
"""

import logging
import re
import time
from collections.abc import Iterator
from typing import Any

import fastapi.routing
from starlette.types import Message, Scope

from app.core.asgi.pipeline import Exchange, Handler, Step
from app.core.asgi.scopes import header
from app.core.observability.logs import mask_secrets
from app.core.observability.metrics import Metrics
from app.core.observability.request_id import (
    HEADER,
    REQUEST_ID,
    STATE_KEY,
    accepted,
    new_request_id,
)
from app.core.web.middleware import TrustedPeers

ACCESS = logging.getLogger("almanac.access")
ROUTE_KEY = "almanac.route"
USER_KEY = "user"  # where app.users.auth keeps the caller in the request state
CACHE_HEADER = b"x-almanac-cache"
UNMATCHED = "unmatched"
MAX_REMEMBERED_PATHS = 4096


class RouteTemplates:
    """The template of the route a path belongs to (`/calendar/events/v1/events/{id}`).

    Routes are looked at in the router's order and only as far as a path needs: FastAPI
    builds an included route's context (its path with the prefixes, its dependencies) when
    it is first reached, about 0.3 ms each, and all of them at once cost a new worker's first
    request 0.1-0.2 s of CPU that the router itself spends only for paths as far down."""

    def __init__(self, app: Any) -> None:
        self.app = app  # the FastAPI app: routes may be added after the edge is built
        self._patterns: list[tuple[re.Pattern[str], str]] = []
        self._unseen: Iterator[Any] = iter(())
        self._route_count = -1
        self._known: dict[tuple[str, str], str] = {}

    def of(self, scope: Scope) -> str:
        key = (scope.get("root_path", ""), scope.get("path", ""))
        template = self._known.get(key)
        if template is None:
            template = self._match(*key)
            if len(self._known) >= MAX_REMEMBERED_PATHS:
                self._known.clear()
            self._known[key] = template
        return template

    def _match(self, root_path: str, path: str) -> str:
        if root_path and path.startswith(root_path):
            path = path[len(root_path) :]
        for pattern, template in self._routes():
            if pattern.match(path):
                return template
        return UNMATCHED

    def _routes(self) -> Iterator[tuple[re.Pattern[str], str]]:
        """(pattern, template) of every route, in the router's order, with the prefixes of
        included routers (FastAPI's route contexts carry them; plain routes their own): those
        looked at before, then the next ones, each kept once looked at."""
        routes = self.app.routes
        if len(routes) != self._route_count:
            contexts = getattr(fastapi.routing, "iter_route_contexts", None)
            self._unseen = iter(contexts(routes) if contexts is not None else routes)
            self._patterns, self._route_count = [], len(routes)
            self._known.clear()
        yield from self._patterns
        for route in self._unseen:
            pattern = getattr(route, "path_regex", None)
            template = getattr(route, "path_format", None) or getattr(route, "path", None)
            if pattern is not None and template:
                self._patterns.append((pattern, str(template)))
                yield pattern, str(template)


def route_template(templates: RouteTemplates) -> Step:
    """Name the route the request is for: after the proxy and trailing-slash steps (the path
    the router sees), before the response cache (whose hits never reach the router)."""

    async def step(exchange: Exchange, inner: Handler) -> None:
        exchange.state[ROUTE_KEY] = templates.of(exchange.scope)
        await inner(exchange)

    return step


class AccessLog:
    """The outermost step: the request id, the access line and the request's metrics."""

    def __init__(self, peers: TrustedPeers, metrics: Metrics) -> None:
        self.peers = peers
        self.metrics = metrics

    def _request_id(self, scope: Scope) -> str:
        if self.peers.peer(scope):
            sent = header(scope, HEADER)
            proxied = accepted(sent)
            if proxied:
                return proxied
        return new_request_id()

    async def __call__(self, exchange: Exchange, inner: Handler) -> None:
        started = time.perf_counter()
        scope = exchange.scope  # as it came: the steps inside work on a copy
        state = exchange.state
        request_id = state[STATE_KEY] = self._request_id(scope)
        # Not reset afterwards: a 500 answered outside the pipeline still logs the id, and
        # the server runs every request in a task (a context) of its own.
        REQUEST_ID.set(request_id)
        outcome: dict[str, Any] = {"status": 500, "cache": "-"}  # 500: failed before answering

        def add_id(message: Message) -> Message:
            headers = list(message.get("headers", []))
            names = {k.lower() for k, _ in headers}
            if HEADER not in names:
                headers.append((HEADER, request_id.encode()))
                message = {**message, "headers": headers}
            outcome["status"] = message["status"]
            cache = next((v for k, v in headers if k.lower() == CACHE_HEADER), None)
            outcome["cache"] = cache.decode() if cache else "-"
            return message

        exchange.on_start(add_id)  # the first registered: it runs last, on the final headers
        try:
            await inner(exchange)
        finally:
            self._done(scope, state, int(outcome["status"]), str(outcome["cache"]), started)

    def _done(
        self, scope: Scope, state: dict[str, Any], status: int, cache: str, started: float
    ) -> None:
        seconds = time.perf_counter() - started
        route = state.get(ROUTE_KEY, UNMATCHED)
        method = scope["method"]
        self.metrics.request(route, method, status, seconds)
        if cache in ("hit", "miss"):
            self.metrics.cache_lookup("response", cache == "hit")
        if not ACCESS.isEnabledFor(logging.INFO):  # LOG_LEVEL=warning: no line to build
            return
        user = state.get(USER_KEY)
        user_id = getattr(user, "id", None)
        query = scope.get("query_string", b"").decode("latin-1")
        path = mask_secrets(scope.get("path", "") + (f"?{query}" if query else ""))
        ACCESS.info(
            "%s %s %d %.1fms route=%s user=%s cache=%s",
            method,
            path,
            status,
            seconds * 1000,
            route,
            user_id if user_id is not None else "-",
            cache,
            extra={
                "method": method,
                "path": path,
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 2),
                "user_id": user_id,
                "cache": cache,
            },
        )
