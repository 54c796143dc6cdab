"""Request parameters the way the reference reads them.

Parameters arrive as a JSON body, a form body or a query string (precedence in that order),
lists as JSON arrays, repeated keys (`a[]=1&a[]=2`, `a=1&a=2`) or comma-separated strings,
and booleans in their WordPress forms. Each route describes its parameters with a Pydantic
model; `parse()` validates the merged parameters against it and turns every failure into the
reference's 400 errors. The same models document the parameters in OpenAPI.
"""

import re
from collections.abc import Iterable
from datetime import UTC
from functools import lru_cache
from typing import Annotated, Any, TypeVar
from urllib.parse import parse_qsl

import orjson
from fastapi import Request
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    field_validator,
)
from pydantic_core import PydanticCustomError
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException

from app.core.constants import FALSE_WORDS, MAX_ID, STATUSES, TRUE_WORDS
from app.core.dates import ZoneError, parse_when, parse_zone
from app.core.errors import (
    INVALID,
    ApiError,
    InvalidParams,
    MissingParams,
    Note,
    Problems,
    note,
)
from app.core.i18n import MESSAGES

RAW_PARAMS_STATE_KEY = "raw_params"
MAX_LIST_ITEMS = 500
MAX_JSON_DEPTH = 32

RawParams = dict[str, Any]
M = TypeVar("M", bound=BaseModel)


def _add(target: RawParams, key: str, value: Any) -> None:
    """Collect form/query pairs: `a[]` and repeated keys become lists."""
    is_list = key.endswith("[]")
    if "[" in key and key.endswith("]"):
        key = key[: key.index("[")]
        is_list = True
    if key in target:
        current = target[key]
        target[key] = [*current, value] if isinstance(current, list) else [current, value]
    else:
        target[key] = [value] if is_list else value


def _pairs(pairs: Iterable[tuple[str, Any]]) -> RawParams:
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
    if content_type == "application/x-www-form-urlencoded":
        try:
            text = body.decode()
        except UnicodeDecodeError as exc:
            raise ApiError(400, "rest_invalid_json", "form_not_utf8") from exc
        return _pairs(parse_qsl(text, keep_blank_values=True))
    if content_type == "multipart/form-data":
        try:
            form = await request.form()
        except (HTTPException, MultiPartException) as exc:
            # Starlette answers a malformed body (no boundary, broken parts) with a bare
            # HTTPException; it is a bad body like any other.
            raise ApiError(400, "rest_invalid_body") from exc
        try:
            # Uploaded files are no parameters (images are given by URL or ID).
            return _pairs((k, v) for k, v in form.multi_items() if isinstance(v, str))
        finally:
            await form.close()
    return {}


class UnreadableBody(dict[str, Any]):
    """The query parameters of a request whose body could not be read. The body's error is
    raised when a handler parses its parameters, which it does after checking the caller:
    an anonymous write is a 401 whatever its payload (docs/design.md, Errors)."""

    def __init__(self, params: RawParams, error: ApiError) -> None:
        super().__init__(params)
        self.error = error


async def raw_params(request: Request) -> RawParams:
    """Query, then form, then JSON body, merged with the later ones winning; cached per request."""
    cached: RawParams | None = request.scope.get("state", {}).get(RAW_PARAMS_STATE_KEY)
    if cached is not None:
        return cached
    params = _pairs(request.query_params.multi_items())
    try:
        params.update(await _body_params(request))
    except ApiError as exc:
        if exc.status == 413:  # too large to keep reading: refused at once
            raise
        params = UnreadableBody(params, exc)
    request.state.raw_params = params
    return params


# ---- lenient value types ------------------------------------------------------------


def _bool(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    raise PydanticCustomError("not_of_type", "boolean", {"type": "boolean"})


_DECIMAL = re.compile(r"-?[0-9]{1,30}")


def decimal(text: str) -> int | None:
    """The integer a string of ASCII digits spells (spaces around allowed), else None.

    Not `str.isdigit()`: that also accepts digits `int()` refuses (superscripts, `²`) and
    strings of any length.
    """
    text = text.strip()
    return int(text) if _DECIMAL.fullmatch(text) else None


def _int(value: Any) -> Any:
    if isinstance(value, bool):
        raise PydanticCustomError("not_of_type", "integer", {"type": "integer"})
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    number = decimal(value) if isinstance(value, str) else None
    if number is None:
        raise PydanticCustomError("not_of_type", "integer", {"type": "integer"})
    return number


def as_positive_int(value: Any) -> Any:
    number = _int(value)
    # Also bounded above: IDs are bigint columns.
    if not 0 < number <= MAX_ID:
        raise PydanticCustomError("invalid_id", "not an ID", {"max": MAX_ID})
    return number


def _page_number(value: Any) -> Any:
    number = _int(value)
    if number < 1:
        raise PydanticCustomError("at_least", "too small", {"min": 1})
    if number > MAX_ID:  # a huge page is a mistake too
        raise PydanticCustomError("between", "out of range", {"min": 1, "max": MAX_ID})
    return number


def _list(value: Any) -> Any:
    if isinstance(value, str):
        items: list[Any] = [part.strip() for part in value.split(",")]
    elif isinstance(value, list):
        items = []
        for item in value:
            items.extend(_list(item) if isinstance(item, str) and "," in item else [item])
    elif isinstance(value, int) and not isinstance(value, bool):
        items = [value]
    else:
        raise PydanticCustomError("not_a_list", "not a list")
    items = [item for item in items if item != ""]
    if len(items) > MAX_LIST_ITEMS:
        raise PydanticCustomError("too_many_items", "too many", {"max": MAX_LIST_ITEMS})
    return items


def _positive_int_list(value: Any) -> Any:
    items = [as_positive_int(item) for item in _list(value)]
    if not items:
        raise PydanticCustomError("not_empty", "empty")
    return items


def _id_or_slug_list(value: Any) -> Any:
    """Term references: IDs (numbers) or slugs/names (strings)."""
    items: list[int | str] = []
    for item in _list(value):
        if isinstance(item, bool) or not isinstance(item, int | str):
            raise PydanticCustomError("not_a_list", "not a list of IDs or slugs")
        if isinstance(item, str) and item.isascii() and item.isdigit():
            item = decimal(item) or 0  # too long to be an ID: refused below, as 0 is
        items.append(as_positive_int(item) if isinstance(item, int) else item)
    if not items:
        raise PydanticCustomError("not_empty", "empty")
    return items


def _string_list(value: Any) -> Any:
    items = _list(value)
    if not items:
        raise PydanticCustomError("not_empty", "empty")
    if not all(isinstance(item, str) for item in items):
        raise PydanticCustomError("not_text", "not texts")
    return items


def _non_empty_string(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise PydanticCustomError("not_text", "not a text")
    if not value.strip():
        raise PydanticCustomError("not_empty", "empty")
    return value


def _string_or_empty(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise PydanticCustomError("not_text", "not a text")
    return value


# What the lenient types accept, for the OpenAPI document (docs/design.md, Requests).
BOOLEAN_WORDS = ["true", "false", "1", "0", "yes", "no", "on", "off"]


def _any_case(word: str) -> str:
    """A pattern for `word` in any letter case (JSON Schema patterns have no flags)."""
    return "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in word)


# One branch per JSON type, the boolean first (the form to send): generators type such a
# union (`bool | int | str`), not an enum that mixes types, and need no enum class for it.
BOOLEAN_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "boolean"},
        {"type": "integer", "minimum": 0, "maximum": 1},
        {
            "type": "string",
            "pattern": rf"^\s*({'|'.join(_any_case(word) for word in BOOLEAN_WORDS)})?\s*$",
            "description": f"{', '.join(BOOLEAN_WORDS)} in any letter case; empty is false",
        },
    ]
}
ID_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": MAX_ID}
ID_CSV = r"[1-9][0-9]{0,17}"


def list_schema(items: dict[str, Any], csv_pattern: str | None = None) -> dict[str, Any]:
    """A list parameter: an array, or the same items as one comma-separated string."""
    csv: dict[str, Any] = {"type": "string", "description": "Comma-separated"}
    if csv_pattern is not None:
        csv["pattern"] = rf"^ *{csv_pattern}( *, *{csv_pattern})* *$"
    else:
        csv["minLength"] = 1
        csv["pattern"] = r"[^\s,]"
    return {"anyOf": [{"type": "array", "items": items, "minItems": 1}, csv]}


def lowercase(value: Any) -> Any:
    """For case-insensitive choices (`order=DESC`): compare in lower case."""
    return value.lower() if isinstance(value, str) else value


WPBool = Annotated[bool, BeforeValidator(_bool), WithJsonSchema(BOOLEAN_SCHEMA)]
PositiveInt = Annotated[int, BeforeValidator(as_positive_int), WithJsonSchema(ID_SCHEMA)]
PositiveIntList = Annotated[
    list[int],
    BeforeValidator(_positive_int_list),
    WithJsonSchema(list_schema(ID_SCHEMA, ID_CSV)),
]
IdOrSlugList = Annotated[
    list[int | str],
    BeforeValidator(_id_or_slug_list),
    WithJsonSchema(
        list_schema(
            {"anyOf": [ID_SCHEMA, {"type": "string", "minLength": 1, "pattern": r"[^\s,]"}]}
        )
    ),
]
StringList = Annotated[
    list[str],
    BeforeValidator(_string_list),
    WithJsonSchema(list_schema({"type": "string", "minLength": 1, "pattern": r"[^\s,]"})),
]
# An http(s) URL or nothing, as documented (the handlers check the value).
WEBSITE_PATTERN = r"^(\s*https?://[^\s/?#@:\[\]][^\s\[\]]*\s*)?$"


def _status(value: Any) -> Any:
    """One of the post statuses, in any letter case (`Publish` is `publish`)."""
    if isinstance(value, str) and value.strip().lower() in STATUSES:
        return value.strip().lower()
    raise PydanticCustomError("not_one_of", "not a status", {"choices": ", ".join(STATUSES)})


def _statuses(value: Any) -> Any:
    return [_status(item) for item in _string_list(value)]


STATUS_SCHEMA: dict[str, Any] = {"type": "string", "enum": list(STATUSES)}
Status = Annotated[str, BeforeValidator(_status), WithJsonSchema(STATUS_SCHEMA)]
StatusList = Annotated[
    list[str],
    BeforeValidator(_statuses),
    WithJsonSchema(list_schema(STATUS_SCHEMA, f"({'|'.join(STATUSES)})")),
]
NonEmptyStr = Annotated[
    str,
    BeforeValidator(_non_empty_string),
    Field(json_schema_extra={"minLength": 1, "pattern": r"\S"}),
]
StrOrEmpty = Annotated[str, BeforeValidator(_string_or_empty)]

# Parameters their handlers read in several shapes (typed `Any`), with the forms documented.
DATE_SCHEMA: dict[str, Any] = {
    "type": ["string", "integer"],
    "description": "Y-m-d H:i:s, Y-m-d, ISO 8601 (offset honoured), a Unix timestamp, "
    "or a relative form such as 'tomorrow 9am' or '+5 days'",
}


@lru_cache(maxsize=1024)
def _readable_date(value: str | int | float) -> bool:
    """Can this value be read as a date at all (whatever the zone and the time)? Cached:
    relative forms go through dateparser, and the handler parses the value once more."""
    try:
        parse_when(value, UTC)
    except ValueError:
        return False
    return True


def _date(value: Any) -> Any:
    """A date parameter stays as sent (the handler reads it in the right zone and at the
    right time), but one that is no date is refused here, with the other parameters."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise PydanticCustomError("bad_date", "not a date")
    if not _readable_date(value):
        raise PydanticCustomError("bad_date", "not a date")
    return value


def _zone(value: Any) -> Any:
    """An IANA zone or UTC±H[:MM] (empty: the default zone), kept as sent."""
    value = _string_or_empty(value)
    if value.strip():
        try:
            parse_zone(value.strip())
        except ZoneError:
            raise PydanticCustomError("bad_timezone", "not a time zone") from None
    return value


DateInput = Annotated[Any, BeforeValidator(_date), WithJsonSchema(DATE_SCHEMA)]
ZoneInput = Annotated[str, BeforeValidator(_zone)]
ImageInput = Annotated[
    Any,
    WithJsonSchema(
        {"type": ["integer", "string", "null"], "description": "Image ID or http(s) URL"}
    ),
]
CostInput = Annotated[
    Any,
    WithJsonSchema(
        {
            "anyOf": [
                {"type": ["string", "number", "null"]},
                {"type": "array", "items": {"type": ["string", "number"]}},
            ]
        }
    ),
]
TermRefs = Annotated[
    Any,
    WithJsonSchema(
        {
            "anyOf": [
                ID_SCHEMA,
                {"type": ["string", "null"]},
                {"type": "array", "items": {"anyOf": [ID_SCHEMA, {"type": "string"}]}},
            ]
        }
    ),
]


def _has_nul(value: Any) -> bool:
    """A NUL anywhere in a value, nested objects and lists included (inline venues)."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    if isinstance(value, dict):
        return any(_has_nul(key) or _has_nul(item) for key, item in value.items())
    return False


class Params(BaseModel):
    """Base of every parameter model: unknown parameters are ignored, as the reference does."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True, str_max_length=100_000)

    i18n_language: str | None = None

    @field_validator("*", mode="wrap")
    @classmethod
    def _robust(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        """Whatever a client sends is a valid value or a 400, never a 500.

        PostgreSQL text cannot hold NUL, so a parameter carrying one is invalid. A value of
        an unexpected shape (a list from a repeated key, an object where a scalar belongs)
        may make a lenient converter raise TypeError rather than ValueError; that value is
        just as invalid.
        """
        if _has_nul(value):
            raise PydanticCustomError("nul_character", "NUL")
        try:
            return handler(value)
        except (TypeError, ArithmeticError, RecursionError):
            raise PydanticCustomError("invalid", "invalid") from None


_QUOTED = re.compile(r"'([^']*)'")


def _note(error: Any, name: str) -> Note:
    """Why a parameter failed its model, as a message of the catalogue (app/core/i18n.py):
    the custom error types above are message keys, their context the message's values."""
    kind = error["type"]
    context = dict(error.get("ctx") or {})
    if kind == "literal_error":  # Literal[...] choices: Pydantic's "'a', 'b' or 'c'"
        choices = ", ".join(_QUOTED.findall(str(context.get("expected", ""))))
        return ("not_one_of", {"name": name, "choices": choices})
    if kind in ("string_too_long", "too_long"):
        return ("too_long", {"name": name, "max": context.get("max_length", "?")})
    if kind in MESSAGES:
        return (kind, {"name": name, **context})
    return INVALID


def _errors(exc: ValidationError) -> tuple[list[str], dict[str, Note]]:
    """(missing parameters, notes of the invalid ones) of a failed validation."""
    missing: list[str] = []
    notes: dict[str, Note] = {}
    for error in exc.errors():
        name = str(error["loc"][0]) if error["loc"] else "body"
        if error["type"] == "missing":
            missing.append(name)
        elif name not in notes:
            notes[name] = _note(error, name)
    return missing, notes


def parse(model: type[M], raw: RawParams, problems: Problems | None = None, **extra: Any) -> M:
    """Validate `raw` (plus `extra`, e.g. path values) against `model`, or raise the 400.

    With `problems`, invalid parameters are recorded there instead and the model is built
    without them (their defaults), so that the later checks of the request can add theirs
    before one 400 names every invalid parameter (`problems.raise_any()`).
    """
    if isinstance(raw, UnreadableBody):
        raise raw.error
    values = {**raw, **extra}
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        missing, notes = _errors(exc)
    if missing:
        raise MissingParams(missing) from None
    if problems is None:
        raise InvalidParams(notes) from None
    for name, why in notes.items():
        problems.add(name, why)
    try:
        return model.model_validate({k: v for k, v in values.items() if k not in notes})
    except ValidationError:  # a rule across fields: nothing sensible to go on with
        raise InvalidParams(problems.notes) from None


def check(name: str, ok: bool, note: Note = INVALID) -> None:
    """Raise the 400 for parameter `name` unless `ok`."""
    if not ok:
        raise InvalidParams({name: note})


# ---- paging --------------------------------------------------------------------------

DEFAULT_PER_PAGE = 9
MAX_PER_PAGE = 100


def _per_page(value: Any) -> Any:
    number = _int(value)
    if not 0 < number <= MAX_PER_PAGE:
        raise PydanticCustomError("per_page_too_large", "too large", {"max": MAX_PER_PAGE})
    return number


PerPage = Annotated[
    int,
    BeforeValidator(_per_page),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE}),
]


PageNumber = Annotated[int, BeforeValidator(_page_number), WithJsonSchema(ID_SCHEMA)]


class PageParams(Params):
    page: PageNumber = Field(1, description="Page of the list to return")
    per_page: PerPage = Field(DEFAULT_PER_PAGE, description=f"Items per page, 1 to {MAX_PER_PAGE}")
