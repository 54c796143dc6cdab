"""The one mapping from failures to HTTP: every error leaves in the reference envelope
`{"code", "message", "data": {"status", ...}}`, with its message in the request language."""

import logging
import socket
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import asyncpg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import Message

from app.core.edge.app_services import services_of
from app.core.edge.pipeline import Exchange, Handler
from app.core.edge.request_id import NONE as NO_REQUEST_ID
from app.core.edge.request_id import STATE_KEY as REQUEST_ID_KEY
from app.core.edge.request_id import current_request_id, new_request_id
from app.core.edge.responses import json_response
from app.core.infra.database import DatabaseError, PoolTimeout, connection_invalidated
from app.i18n import API_MESSAGES, language_of

log = logging.getLogger("almanac.errors")

# A parameter note: (message key, format values), rendered in the request language.
Note = tuple[str, dict[str, object]]

RETRY_AFTER_SECONDS = "5"


class ApiError(Exception):
    """An error answered to the client. `key` names the message; `code` never changes."""

    def __init__(
        self,
        status: int,
        code: str,
        key: str | None = None,
        *,
        values: Mapping[str, object] | None = None,
        data: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.key = key or code
        self.values = dict(values or {})
        self.data = dict(data or {})
        self.headers = dict(headers or {})

    def body(self, language: str) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": API_MESSAGES.text(self.key, language, **self.values),
            "data": {"status": self.status, **self.data},
        }


class InvalidParams(ApiError):
    """400 rest_invalid_param naming each bad parameter, as WordPress reports it."""

    def __init__(self, notes: Mapping[str, Note], details: Mapping[str, Any] | None = None):
        super().__init__(400, "rest_invalid_param", values={"names": ", ".join(notes)})
        self.notes = dict(notes)
        self.details = dict(details or {})

    def body(self, language: str) -> dict[str, Any]:
        body = super().body(language)
        body["data"]["params"] = {
            name: API_MESSAGES.text(key, language, **values)
            for name, (key, values) in self.notes.items()
        }
        # WordPress serialises an empty details map as a JSON array.
        body["data"]["details"] = self.details or []
        return body


def invalid(name: str, note: Note) -> InvalidParams:
    return InvalidParams({name: note})


# Pydantic's error types with a message of the catalogue: (key, format values from the error).
_TYPE_NOTES: dict[str, tuple[str, dict[str, str]]] = {
    "int_parsing": ("not_of_type", {"type": "integer"}),
    "int_type": ("not_of_type", {"type": "integer"}),
    "int_from_float": ("not_of_type", {"type": "integer"}),
    "bool_parsing": ("not_of_type", {"type": "boolean"}),
    "bool_type": ("not_of_type", {"type": "boolean"}),
    "float_parsing": ("not_a_number", {}),
    "float_type": ("not_a_number", {}),
    "string_type": ("not_text", {}),
    "list_type": ("not_a_list", {}),
}


def validation_note(error: Mapping[str, Any], name: str) -> Note:
    """Why a value failed Pydantic's validation, for an error type no parameter model gives
    a message of its own: a message of the catalogue where one fits, else Pydantic's own
    reason (in English). Never a bare "invalid": every 400 says why."""
    kind = str(error.get("type", ""))
    context = dict(error.get("ctx") or {})
    if kind in _TYPE_NOTES:
        key, values = _TYPE_NOTES[kind]
        return (key, {"name": name, **values})
    if kind == "greater_than_equal":
        return ("at_least", {"name": name, "min": context.get("ge", "?")})
    if kind == "less_than_equal":
        return ("at_most", {"name": name, "max": context.get("le", "?")})
    reason = str(error.get("msg") or "a value of another kind was expected")
    return ("invalid_value", {"name": name, "reason": reason[:1].lower() + reason[1:]})


def note(key: str, **values: object) -> Note:
    """A parameter note; a value may itself be a note (rendered in the same language)."""
    return (key, values)


def unknown_ids(name: str, kind: str, ids: Sequence[object]) -> Note:
    """`name`: no `kind` (venue, organizer, category, tag, event) with these IDs."""
    return note("unknown_ids", name=name, kind=note(f"kind_{kind}"), ids=", ".join(map(str, ids)))


class Problems:
    """The invalid parameters of one request, gathered across its steps (the parameter
    model, then the checks that need the database), so that one 400 names them all."""

    def __init__(self) -> None:
        self.notes: dict[str, Note] = {}

    def add(self, name: str, why: Note) -> None:
        self.notes.setdefault(name, why)  # the first reason found for a parameter stands

    @contextmanager
    def gather(self) -> Iterator[None]:
        """Run a step; its 400 `rest_invalid_param` is kept instead of raised."""
        try:
            yield
        except InvalidParams as exc:
            for name, why in exc.notes.items():
                self.add(name, why)

    def __contains__(self, name: str) -> bool:
        return name in self.notes

    def raise_any(self) -> None:
        if self.notes:
            raise InvalidParams(self.notes)


class MissingParams(ApiError):
    def __init__(self, names: Sequence[str]):
        super().__init__(
            400,
            "rest_missing_callback_param",
            values={"names": ", ".join(names)},
            data={"params": list(names)},
        )
        self.names = list(names)

    def read_as_form(self, content_type: str) -> "MissingParams":
        """The same error, saying that the body looked like JSON but was read by its
        Content-Type (curl's -d sends a form type): the likely reason for the missing ones."""
        hinted = MissingParams(self.names)
        hinted.key = "json_read_as_form"
        shown: object = content_type or ("no_content_type", {})
        hinted.values["content_type"] = shown
        return hinted


class NotFound(ApiError):
    """404 for a record of `kind` (`rest-<kind>-not-found`)."""

    def __init__(self, kind: str, record_id: object):
        code = f"rest-{kind}-not-found"
        super().__init__(404, code, values={"id": record_id})


class PageNotFound(ApiError):
    """A page past the end: the reference's code and words, then how many pages there are
    (in the message and as `data.total_pages`, with `data.total`)."""

    def __init__(self, kind: str, *, total: int, pages: int, per_page: int):
        code = f"{kind}-archive-page-not-found"
        super().__init__(
            404,
            code,
            "pages_of",
            values={"message": (code, {}), "pages": pages, "per_page": per_page},
            data={"total": total, "total_pages": pages},
        )


def forbidden(login: str | None, role: str = "", need: str | None = None) -> ApiError:
    """rest_forbidden: 401 for anonymous callers (what is missing: signing in), 403 for
    signed-in ones, naming what the operation needs (`need`, a message key) and the
    caller's role, else what the role may do (WordPress's codes)."""
    if login is None:
        return ApiError(401, "rest_forbidden", "sign_in_needed")
    if need is not None:
        return ApiError(
            403,
            "rest_forbidden",
            "forbidden_needs",
            values={"need": (need, {}), "login": login, "role": (f"role_{role}", {})},
            data={"role": role},
        )
    return ApiError(
        403,
        "rest_forbidden",
        "forbidden_for_role",
        values={"login": login, "rights": (f"rights_{role}", {})},
        data={"role": role},
    )


def cannot_set_status(status: str) -> ApiError:
    """403 rest_cannot_publish: a status the caller's role may not give a record (a
    contributor's `private` or `trash`), WordPress's code for a status beyond the role."""
    return ApiError(403, "rest_cannot_publish", "cannot_set_status", values={"status": status})


def payload_too_large() -> ApiError:
    return ApiError(413, "rest_payload_too_large")


def no_route() -> ApiError:
    return ApiError(404, "rest_no_route")


def precondition_failed() -> ApiError:
    """412: the record changed since the client read it (its `If-Match` no longer holds)."""
    return ApiError(412, "rest_precondition_failed")


def sync_token_expired() -> ApiError:
    """410: a changes-feed token older than the kept history; download everything again."""
    return ApiError(410, "rest_sync_token_expired")


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
    # The request's id (app/core/edge/access.py): in the message, on the response and on the log
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
