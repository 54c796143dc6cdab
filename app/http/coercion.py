"""The lenient value types of parameters: booleans in their WordPress forms, numbers and lists
as text, dates and zones checked but kept as sent; each with the JSON schema that documents it
(docs/design.md#requests)."""

import re
from datetime import UTC
from functools import lru_cache
from typing import Annotated, Any

from pydantic import (
    BeforeValidator,
    Field,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from app.core.rules.constants import FALSE_WORDS, MAX_ID, TRUE_WORDS
from app.core.rules.dates import ZoneError, parse_when, parse_zone

MAX_LIST_ITEMS = 500


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


def lenient_int(value: Any) -> Any:
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
    number = lenient_int(value)
    # Also bounded above: IDs are bigint columns.
    if not 0 < number <= MAX_ID:
        raise PydanticCustomError("invalid_id", "not an ID", {"max": MAX_ID})
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


def string_list(value: Any) -> Any:
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


# What the lenient types accept, for the OpenAPI document (docs/design.md#requests).
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
    BeforeValidator(string_list),
    WithJsonSchema(list_schema({"type": "string", "minLength": 1, "pattern": r"[^\s,]"})),
]
# An http(s) URL or nothing, as documented (the handlers check the value).
WEBSITE_PATTERN = r"^(\s*https?://[^\s/?#@:\[\]][^\s\[\]]*\s*)?$"


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
