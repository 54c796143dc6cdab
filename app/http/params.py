"""Parameter models and their errors: the base of every route's parameter model, and the one
mapping of a failed validation to the reference's 400s (`parse`, `check`).

Each route describes its parameters with a Pydantic model over the raw parameters
(app/http/raw_params.py) and the lenient value types (app/http/coercion.py); `parse()`
validates the merged parameters against it and turns every failure into the reference's 400
errors. The same models document the parameters in OpenAPI.
"""

import re
from functools import cache
from typing import Any, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
)
from pydantic_core import PydanticCustomError

from app.core.errors import ApiError, InvalidParams, MissingParams, Note, Problems, validation_note
from app.core.web.refusals import Refusals
from app.http.ignored import note_read
from app.http.raw_params import RawParams, UnreadableBody
from app.i18n import API_MESSAGES

M = TypeVar("M", bound=BaseModel)


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
            raise PydanticCustomError("invalid", "a value of another kind was expected") from None


_QUOTED = re.compile(r"'([^']*)'")


def _note(error: Any, name: str) -> Note:
    """Why a parameter failed its model, as a message of the catalogue (app/i18n/locale/api.pot):
    the custom error types above are message keys, their context the message's values."""
    kind = error["type"]
    context = dict(error.get("ctx") or {})
    if kind == "literal_error":  # Literal[...] choices: Pydantic's "'a', 'b' or 'c'"
        choices = ", ".join(_QUOTED.findall(str(context.get("expected", ""))))
        return ("not_one_of", {"name": name, "choices": choices})
    if kind in ("string_too_long", "too_long"):
        return ("too_long", {"name": name, "max": context.get("max_length", "?")})
    if API_MESSAGES.has(kind):
        return (kind, {"name": name, **context})
    return validation_note(error, name)


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


@cache
def _names(model: type[BaseModel]) -> set[str]:
    """The parameters `model` reads: its fields, by name and alias."""
    fields = model.model_fields
    return {*fields, *(info.alias for info in fields.values() if info.alias)}


def parse(model: type[M], raw: RawParams, problems: Problems | None = None, **extra: Any) -> M:
    """Validate `raw` (plus `extra`, e.g. path values) against `model`, or raise the 400.

    With `problems`, invalid parameters are recorded there instead and the model is built
    without them (their defaults), so that the later checks of the request can add theirs
    before one 400 names every invalid parameter (`problems.raise_any()`).
    """
    if isinstance(raw, UnreadableBody):
        raise raw.error
    note_read(_names(model))
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
    except ValidationError as exc:  # a rule across fields: nothing sensible to go on with
        for name, why in _errors(exc)[1].items():
            problems.add(name, why)  # named too (a page past the depth bound)
        raise InvalidParams(problems.notes) from None


def parse_later(model: type[M], raw: RawParams) -> tuple[M, Refusals]:
    """`parse` at a door whose service checks the caller and the record first
    (app/core/web/refusals.py): the model of what could be read, and the refusals the
    service raises when it reads the parameters."""
    problems = Problems()
    try:
        params = parse(model, raw, problems)
    except ApiError as error:  # a body not read at all, a missing or cross-field one
        required = {name: None for name, info in model.model_fields.items() if info.is_required()}
        return model.model_construct(**required), Refusals(error=error)
    return params, Refusals(dict(problems.notes))


def refused_values(model: type[BaseModel], values: dict[str, Any]) -> dict[str, Note]:
    """The notes `model` gives typed values (a command the desk built, which no door read):
    the limits of a write (lengths, non-empty names, zones) have one declaration, the
    model's, whoever sends the values. Values of `None` are not sent."""
    sent = {name: value for name, value in values.items() if value is not None}
    try:
        model.model_validate(sent)
    except ValidationError as exc:
        return _errors(exc)[1]
    return {}


def check(name: str, ok: bool, note: Note) -> None:
    """Raise the 400 for parameter `name` unless `ok`."""
    if not ok:
        raise InvalidParams({name: note})
