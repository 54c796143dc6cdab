"""The errors answered to clients, below every rule that raises them: an `ApiError` names its
status, its code (which never changes) and its message (a key of the API's catalog, rendered
in the request's language when it leaves: app/core/web/errors.py maps every failure to the
reference's envelope)."""

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from app.i18n import API_MESSAGES

# A parameter note: (message key, format values), rendered in the request language.
Note = tuple[str, dict[str, object]]


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
