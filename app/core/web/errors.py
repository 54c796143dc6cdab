"""The one mapping from failures to HTTP: every error leaves in the reference envelope
`{"code", "message", "data": {"status", ...}}`, with its message in the request language."""

import logging
import socket

import asyncpg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import Message

from app.core.app_services import services_of
from app.core.asgi.pipeline import Exchange, Handler
from app.core.database.engine import DatabaseError, PoolTimeout, connection_invalidated
from app.core.errors import (
    ApiError,
    InvalidParams,
    MissingParams,
    Note,
    no_route,
    note,
    validation_note,
)
from app.core.observability.request_id import NONE as NO_REQUEST_ID
from app.core.observability.request_id import STATE_KEY as REQUEST_ID_KEY
from app.core.observability.request_id import current_request_id, new_request_id
from app.core.web.responses import json_response
from app.i18n import language_of

log = logging.getLogger("almanac.errors")

RETRY_AFTER_SECONDS = "5"


def _error_response(request: Request, error: ApiError) -> Response:
    headers = dict(error.headers)
    language = language_of(request, services_of(request).settings.default_language)
    return json_response(error.body(language), error.status, headers)


# Set by the parameter reader (app/http/raw_params.py) when a body that looks like JSON was
# read by another Content-Type: the request's Content-Type, "" when there was none.
JSON_BODY_READ_AS_KEY = "almanac.json_body_read_as"


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    read_as = request.scope.get("state", {}).get(JSON_BODY_READ_AS_KEY)
    if isinstance(exc, MissingParams) and read_as is not None:
        exc = exc.read_as_form(read_as)
    return _error_response(request, exc)


def _split_by_encoded_slash(request: Request) -> bool:
    """Did the path match only because an encoded slash (`%2F`, e.g. in a slug) was read as a
    separator? Routing sees the decoded path; no route takes a `/` inside one segment (the
    reference's neither), so such a request has no route, whatever its method."""
    raw_path: bytes = request.scope.get("raw_path") or b""
    return b"%2f" in raw_path.lower()


async def _validation_error(request: Request, exc: Exception) -> Response:
    """FastAPI's own validation (path/query declarations) never answers 422."""
    assert isinstance(exc, RequestValidationError)
    if _split_by_encoded_slash(request):
        return _error_response(request, no_route())
    missing: list[str] = []
    notes: dict[str, Note] = {}
    for error in exc.errors():
        name = str(error["loc"][-1]) if error.get("loc") else "body"
        if error.get("type") == "missing":
            missing.append(name)
        elif error.get("type") == "string_too_long":  # a path segment (slug) too long
            limit = (error.get("ctx") or {}).get("max_length", "?")
            notes[name] = note("too_long", name=name, max=limit)
        else:
            notes[name] = validation_note(error, name)
    if missing:
        return _error_response(request, MissingParams(missing))
    return _error_response(request, InvalidParams(notes))


HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path (Starlette names only the first route's)."""
    routes = request.app.router.routes
    return [
        method
        for method in HTTP_METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] == Match.FULL for route in routes
        )
    ]


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 or (exc.status_code == 405 and _split_by_encoded_slash(request)):
        return _error_response(request, no_route())
    if exc.status_code == 405:
        headers = {"Allow": ", ".join(_allowed_methods(request))}
        return _error_response(request, ApiError(405, "rest_no_route", headers=headers))
    return _error_response(request, ApiError(exc.status_code, "rest_error", str(exc.detail)))


_UNAVAILABLE = (
    # Connecting failed: refused, reset, no socket file (embedded server), no such host.
    ConnectionError,
    FileNotFoundError,
    socket.gaierror,
    TimeoutError,
    PoolTimeout,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.ConnectionFailureError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.QueryCanceledError,
    asyncpg.exceptions.AdminShutdownError,
)


def _is_unavailable(exc: BaseException) -> bool:
    """Is this a database that cannot be reached (as opposed to a bug in a query)?"""
    if connection_invalidated(exc):
        return True
    seen: BaseException | None = exc
    for _ in range(5):  # the driver error sits a few causes down the chain
        if seen is None:
            return False
        if isinstance(seen, _UNAVAILABLE):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _unavailable() -> ApiError:
    return ApiError(503, "rest_unavailable", headers={"Retry-After": RETRY_AFTER_SECONDS})


async def _unexpected(request: Request, exc: Exception) -> Response:
    if _is_unavailable(exc):
        log.warning("database unavailable: %s: %s", type(exc).__name__, exc)
        return _error_response(request, _unavailable())
    # The request's id (app/core/web/access.py): in the message, on the response and on the log
    # line with the traceback, so that a user's report leads to it.
    request_id = request.scope.get("state", {}).get(REQUEST_ID_KEY) or current_request_id()
    if request_id == NO_REQUEST_ID:
        request_id = new_request_id()
    log.exception(
        "unhandled error, request id %s, %s %s", request_id, request.method, request.url.path
    )
    error = ApiError(
        500,
        "rest_internal_error",
        values={"request_id": request_id},
        headers={"X-Request-ID": request_id},
    )
    return _error_response(request, error)


async def answer_outages(exchange: Exchange, inner: Handler) -> None:
    """The edge step that answers a database outage raised anywhere inside it with the 503.
    The exception middleware answers only the classes registered below; any other (asyncpg's
    own errors, which the failed-login throttle's raw pool raises) and any error of an edge
    step reached the server error middleware, which answers, then re-raises, and uvicorn
    closes the connection: requests already sent on it got no answer at all."""
    send = exchange.send
    started = False

    async def watched(message: Message) -> None:
        nonlocal started
        started = started or message["type"] == "http.response.start"
        await send(message)

    exchange.send = watched
    try:
        await inner(exchange)
    except Exception as exc:
        if started or not _is_unavailable(exc):
            raise
        response = await _unexpected(Request(exchange.scope), exc)
        await response(exchange.scope, exchange.receive, send)


UNEXPECTED = (
    DatabaseError,
    PoolTimeout,
    OSError,
    TimeoutError,
    ArithmeticError,
    AssertionError,
    AttributeError,
    LookupError,
    NameError,
    RuntimeError,
    TypeError,
    ValueError,
    ImportError,
)


def register_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    # Registered per class (not only `Exception`) so that these are answered by the
    # exception middleware; what reaches the server error middleware is re-raised after
    # the 500 and costs the client its keep-alive connection.
    for cls in UNEXPECTED:
        app.add_exception_handler(cls, _unexpected)
    app.add_exception_handler(Exception, _unexpected)
