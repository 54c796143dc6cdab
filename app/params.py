"""Request parameters the way the reference reads them.

Parameters arrive as a JSON body, a form body or a query string (precedence in that order),
lists as JSON arrays, repeated keys (`a[]=1&a[]=2`, `a=1&a=2`) or comma-separated strings,
and booleans in their WordPress forms. Each route describes its parameters with a Pydantic
model; `parse()` validates the merged parameters against it and turns every failure into the
reference's 400 errors. The same models document the parameters in OpenAPI.
"""

from collections.abc import Iterable
from typing import Annotated, Any, TypeVar
from urllib.parse import parse_qsl

import orjson
from fastapi import Request
from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from app.errors import INVALID, ApiError, InvalidParams, MissingParams, Note

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


async def _body_params(request: Request) -> RawParams:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return {}
    body = await request.body()
    if not body.strip():
        return {}
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "application/json" or content_type.endswith("+json"):
        try:
            decoded = orjson.loads(body)
        except orjson.JSONDecodeError as exc:
            raise ApiError(400, "rest_invalid_json") from exc
        if not isinstance(decoded, dict) or _depth(decoded, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
            raise ApiError(400, "rest_invalid_json")
        return decoded
    if content_type == "application/x-www-form-urlencoded":
        try:
            text = body.decode()
        except UnicodeDecodeError as exc:
            raise ApiError(400, "rest_invalid_json") from exc
        return _pairs(parse_qsl(text, keep_blank_values=True))
    if content_type == "multipart/form-data":
        form = await request.form()
        return _pairs((k, v) for k, v in form.multi_items() if isinstance(v, str))
    return {}


async def raw_params(request: Request) -> RawParams:
    """Query, then form, then JSON body, merged with the later ones winning; cached per request."""
    cached: RawParams | None = request.scope.get("state", {}).get(RAW_PARAMS_STATE_KEY)
    if cached is not None:
        return cached
    params = _pairs(request.query_params.multi_items())
    params.update(await _body_params(request))
    request.state.raw_params = params
    return params


# ---- lenient value types ------------------------------------------------------------

TRUE_WORDS = frozenset({"true", "1", "yes", "on"})
FALSE_WORDS = frozenset({"false", "0", "no", "off", ""})


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


def _int(value: Any) -> Any:
    if isinstance(value, bool):
        raise PydanticCustomError("not_of_type", "integer", {"type": "integer"})
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    raise PydanticCustomError("not_of_type", "integer", {"type": "integer"})


def as_positive_int(value: Any) -> Any:
    number = _int(value)
    # Also bounded above: IDs are bigint columns, and a huge page is a mistake.
    if not 0 < number < 2**62:
        raise PydanticCustomError("invalid", "invalid")
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
        raise PydanticCustomError("invalid", "invalid")
    items = [item for item in items if item != ""]
    if len(items) > MAX_LIST_ITEMS:
        raise PydanticCustomError("too_many_items", "too many", {"max": MAX_LIST_ITEMS})
    return items


def _positive_int_list(value: Any) -> Any:
    items = [as_positive_int(item) for item in _list(value)]
    if not items:
        raise PydanticCustomError("invalid", "invalid")
    return items


def _id_or_slug_list(value: Any) -> Any:
    """Term references: IDs (numbers) or slugs/names (strings)."""
    items: list[int | str] = []
    for item in _list(value):
        if isinstance(item, bool) or not isinstance(item, int | str):
            raise PydanticCustomError("invalid", "invalid")
        if isinstance(item, str) and item.isdigit():
            item = int(item)
        items.append(item)
    if not items:
        raise PydanticCustomError("invalid", "invalid")
    return items


def _string_list(value: Any) -> Any:
    items = _list(value)
    if not items or not all(isinstance(item, str) for item in items):
        raise PydanticCustomError("invalid", "invalid")
    return items


def _non_empty_string(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise PydanticCustomError("invalid", "invalid")
    return value


def _string_or_empty(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise PydanticCustomError("invalid", "invalid")
    return value


WPBool = Annotated[bool, BeforeValidator(_bool)]
PositiveInt = Annotated[int, BeforeValidator(as_positive_int)]
PositiveIntList = Annotated[list[int], BeforeValidator(_positive_int_list)]
IdOrSlugList = Annotated[list[int | str], BeforeValidator(_id_or_slug_list)]
StringList = Annotated[list[str], BeforeValidator(_string_list)]
NonEmptyStr = Annotated[str, BeforeValidator(_non_empty_string)]
StrOrEmpty = Annotated[str, BeforeValidator(_string_or_empty)]


class Params(BaseModel):
    """Base of every parameter model: unknown parameters are ignored, as the reference does."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True, str_max_length=100_000)

    i18n_language: str | None = None

    @field_validator("*", mode="before")
    @classmethod
    def _no_nul(cls, value: Any) -> Any:
        """PostgreSQL text cannot hold NUL: a parameter carrying one is invalid (not a 500)."""
        items = value if isinstance(value, list) else [value]
        if any(isinstance(item, str) and "\x00" in item for item in items):
            raise PydanticCustomError("invalid", "invalid")
        return value


def _note(error: Any, name: str) -> Note:
    kind = error["type"]
    context = error.get("ctx") or {}
    if kind == "not_of_type":
        return ("not_of_type", {"name": name, "type": context.get("type", "string")})
    if kind in ("string_too_long", "too_long"):
        return ("too_long", {"name": name, "max": context.get("max_length", "?")})
    if kind == "too_many_items":
        return ("too_many_items", {"name": name, "max": context.get("max", MAX_LIST_ITEMS)})
    if kind == "per_page_too_large":
        return ("per_page_too_large", {"max": context.get("max")})
    return INVALID


def parse(model: type[M], raw: RawParams, **extra: Any) -> M:
    """Validate `raw` (plus `extra`, e.g. path values) against `model`, or raise the 400."""
    try:
        return model.model_validate({**raw, **extra})
    except ValidationError as exc:
        missing: list[str] = []
        notes: dict[str, Note] = {}
        for error in exc.errors():
            name = str(error["loc"][0]) if error["loc"] else "body"
            if error["type"] == "missing":
                missing.append(name)
            elif name not in notes:
                notes[name] = _note(error, name)
        if missing:
            raise MissingParams(missing) from None
        raise InvalidParams(notes) from None


def check(name: str, ok: bool, note: Note = INVALID) -> None:
    """Raise the 400 for parameter `name` unless `ok`."""
    if not ok:
        raise InvalidParams({name: note})
