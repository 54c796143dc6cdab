"""Reading a request's raw parameters the way the reference does: a JSON body, a form body
or a query string (precedence in that order), lists as JSON arrays, repeated keys
(`a[]=1&a[]=2`, `a=1&a=2`) or comma-separated strings. Cached per request."""

from collections.abc import Sequence
from typing import Any, TypeVar
from urllib.parse import parse_qsl

import orjson
from fastapi import Request
from pydantic import (
    BaseModel,
)
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException

from app.core.errors import ApiError, note
from app.core.web.errors import JSON_BODY_READ_AS_KEY
from app.http.coercion import MAX_LIST_ITEMS
from app.http.ignored import note_sent

RAW_PARAMS_STATE_KEY = "raw_params"
MAX_JSON_DEPTH = 32
# Parameters of one request (query string and body, each): PHP's max_input_vars, which no
# client of the reference exceeds. A key repeated (`a=1&a=2`, `a[]=`) makes one list, no
# longer than a list parameter takes.
MAX_FIELDS = 1000
MAX_REPEATS = MAX_LIST_ITEMS

# The types a JSON body is most often sent with by mistake (curl -d, no type, plain text).
READ_AS_FORM = ("application/x-www-form-urlencoded", "", "text/plain")

RawParams = dict[str, Any]
M = TypeVar("M", bound=BaseModel)


def _add(target: RawParams, key: str, value: Any) -> None:
    """Collect form/query pairs: `a[]` and repeated keys become lists (appended in place: a
    copy per repeat made 100,000 pairs take half a minute)."""
    is_list = key.endswith("[]")
    if "[" in key and key.endswith("]"):
        key = key[: key.index("[")]
        is_list = True
    if key in target:
        current = target[key]
        if isinstance(current, list):
            if len(current) >= MAX_REPEATS:
                raise _too_many("too_many_repeats", MAX_REPEATS, name=key)
            current.append(value)
        else:
            target[key] = [current, value]
    else:
        target[key] = [value] if is_list else value


def _too_many(key: str, limit: int, **values: object) -> ApiError:
    return ApiError(
        400, "rest_too_many_params", key, values={"max": limit, **values}, data={"max": limit}
    )


def _pairs(pairs: Sequence[tuple[str, Any]]) -> RawParams:
    if len(pairs) > MAX_FIELDS:
        raise _too_many("rest_too_many_params", MAX_FIELDS)
    params: RawParams = {}
    for key, value in pairs:
        _add(params, key, value)
    return params


def _depth(value: Any, limit: int) -> int:
    """Nesting depth of a decoded JSON value, stopping once `limit` is passed."""
    if limit < 0 or not isinstance(value, dict | list):
        return 0
    children = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(child, limit - 1) for child in children), default=0)


JSON_KINDS = {list: "array", str: "string", bool: "boolean", int: "number", float: "number"}


def _json_object(body: bytes) -> RawParams:
    """A JSON body's parameters; the 400 says whether its syntax is broken (and where) or
    it is well-formed JSON of another shape than an object."""
    try:
        decoded = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        values = {"error": exc.msg, "line": exc.lineno, "column": exc.colno}
        raise ApiError(400, "rest_invalid_json", "json_syntax", values=values) from exc
    if not isinstance(decoded, dict):
        kind = note(f"json_{JSON_KINDS.get(type(decoded), 'null')}")  # named in the language
        raise ApiError(400, "rest_invalid_json", "json_not_object", values={"kind": kind})
    if len(decoded) > MAX_FIELDS:
        raise _too_many("rest_too_many_params", MAX_FIELDS)
    if _depth(decoded, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise ApiError(400, "rest_invalid_json", "json_too_deep", values={"max": MAX_JSON_DEPTH})
    return decoded


async def _body_params(request: Request) -> RawParams:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return {}
    body = await request.body()
    if not body.strip():
        return {}
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "application/json" or content_type.endswith("+json"):
        return _json_object(body)
    if body.lstrip()[:1] in (b"{", b"["):
        # JSON by the look of it, read by another type (curl's -d sends a form type). Read
        # as a form (or not at all), its fields would be ignored and the write answer 200
        # having changed nothing: a 400 saying why, on every method. Other types: a
        # missing parameter's 400 says so (app/core/web/errors.py).
        request.scope.setdefault("state", {})[JSON_BODY_READ_AS_KEY] = content_type
        if content_type in READ_AS_FORM:
            shown: object = content_type or ("no_content_type", {})
            values = {"content_type": shown}
            raise ApiError(400, "rest_invalid_body", "json_read_as_form_body", values=values)
    if content_type == "application/x-www-form-urlencoded":
        try:
            text = body.decode()
        except UnicodeDecodeError as exc:
            raise ApiError(400, "rest_invalid_json", "form_not_utf8") from exc
        try:
            # Counted before any pair is split out: a body of 250,000 pairs costs no more.
            pairs = parse_qsl(text, keep_blank_values=True, max_num_fields=MAX_FIELDS)
        except ValueError as exc:
            raise _too_many("rest_too_many_params", MAX_FIELDS) from exc
        return _pairs(pairs)
    if content_type == "multipart/form-data":
        try:
            form = await request.form(max_fields=MAX_FIELDS)
        except (HTTPException, MultiPartException) as exc:
            # Starlette answers a malformed body (no boundary, broken parts) with a bare
            # HTTPException; it is a bad body like any other, unless it has too many fields
            # (Starlette's words for its max_fields).
            if str(getattr(exc, "detail", exc)).startswith("Too many fields"):
                raise _too_many("rest_too_many_params", MAX_FIELDS) from exc
            raise ApiError(400, "rest_invalid_body") from exc
        try:
            # Uploaded files are no parameters (images are given by URL or ID).
            return _pairs([(k, v) for k, v in form.multi_items() if isinstance(v, str)])
        finally:
            await form.close()
    return {}


class UnreadableBody(dict[str, Any]):
    """The query parameters of a request whose body could not be read. The body's error is
    raised when a handler parses its parameters, which it does after checking the caller:
    an anonymous write is a 401 whatever its payload (docs/design.md#errors)."""

    def __init__(self, params: RawParams, error: ApiError) -> None:
        super().__init__(params)
        self.error = error


async def raw_params(request: Request) -> RawParams:
    """Query, then form, then JSON body, merged with the later ones winning; cached per request."""
    cached: RawParams | None = request.scope.get("state", {}).get(RAW_PARAMS_STATE_KEY)
    if cached is not None:
        return cached
    params: RawParams = {}
    try:
        params = _pairs(request.query_params.multi_items())
        body = await _body_params(request)
        note_sent(body)
        params.update(body)
    except ApiError as exc:
        if exc.status == 413:  # too large to keep reading: refused at once
            raise
        params = UnreadableBody(params, exc)
    request.state.raw_params = params
    return params
