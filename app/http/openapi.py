"""The OpenAPI 3.1 document and the WordPress-style namespace description, both generated
from the parameter models the routes really parse with (`app.http.params.parse`).

Routes declare their documentation with `api_doc(...)`; `document()` turns FastAPI's
generated schema into the public one: paths relative to the namespace URL (servers[0]),
the language-prefixed forms as a second server, no 422 anywhere.
"""

import copy
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from pydantic import BaseModel

from app import VERSION
from app.core.rules.constants import NAMESPACE, STATUSES
from app.core.rules.permissions import Need
from app.core.web.urls import Urls
from app.http.ignored import IGNORED_HEADER
from app.http.openapi_clients import (
    ANONYMOUS_EXTENSION,
    ROLE_EXTENSION,
    SIGNED_IN,
    declare_security,
    name_operations,
    share_bodies,
    share_schemas,
)
from app.http.params import Params
from app.http.schemas import ErrorEnvelope
from app.i18n import LANGUAGES

ERROR_TEXTS = {
    400: "Invalid or missing parameters (rest_invalid_param, rest_missing_callback_param, ...)",
    401: "Wrong credentials, or credentials needed (rest_forbidden, incorrect_password, ...)",
    403: "Not allowed for this user (rest_forbidden: the message says what the operation "
    "needs and the caller's role, data.role the role), or not accessible (*-not-accessible)",
    404: "No such record, page or route (rest-*-not-found, *-archive-page-not-found, rest_no_route)",
    405: "Method not allowed on this route (rest_no_route, with Allow)",
    410: "Already in the trash (*-is-in-trash); on /changes, a token older than the kept "
    "history (rest_sync_token_expired): download everything again",
    409: "In use: the media is shown by records (rest_media_in_use; force=true deletes it)",
    412: "If-Match does not hold: the record changed since it was read (rest_precondition_failed)",
    422: "The Idempotency-Key was used for another request within 24 hours "
    "(rest_idempotency_key_reused)",
    413: "Request body too large",
    429: "Too many failed sign-ins from this address (rest_too_many_requests, with Retry-After)",
    500: "Unexpected error (rest_internal_error)",
    503: "Database unavailable (rest_unavailable, with Retry-After)",
}
ERROR_REF = "#/components/schemas/ErrorEnvelope"
ERROR_CONTENT = {"application/json": {"schema": {"$ref": ERROR_REF}}}
ALWAYS = (400, 500, 503)  # a bad i18n_language, bugs and outages can happen anywhere
RETRY_AFTER = {
    "Retry-After": {"schema": {"type": "integer", "minimum": 1}, "description": "Seconds to wait"}
}


LANGUAGE_SCHEMA: dict[str, Any] = {"type": "string", "enum": list(LANGUAGES)}
# How app/posts/params.py documents a status: shared as one type (`share_schemas`).
POST_STATUS_SCHEMA: dict[str, Any] = {"type": "string", "enum": list(STATUSES)}


def field_schemas(model: type[Params]) -> tuple[dict[str, dict[str, Any]], set[str]]:
    """Property schemas of a parameter model (inlined, no titles) and its required names."""
    schema = model.model_json_schema(mode="validation")
    properties: dict[str, dict[str, Any]] = {}
    for name, prop in schema.get("properties", {}).items():
        prop = {k: v for k, v in prop.items() if k != "title"}
        if "anyOf" in prop and any(part.get("type") == "null" for part in prop["anyOf"]):
            parts = [part for part in prop["anyOf"] if part.get("type") != "null"]
            if len(parts) == 1:
                # The field's own description wins over its type's.
                prop = {**parts[0], **{k: v for k, v in prop.items() if k != "anyOf"}}
        default = prop.get("default")
        if isinstance(default, str) and len(default) < prop.get("minLength", 0):
            # The model's "not sent" (an empty name), not a value the parameter takes.
            del prop["default"]
        properties[name] = prop
    if "i18n_language" in properties:
        properties["i18n_language"] = {
            **LANGUAGE_SCHEMA,
            "description": "Content language (wins over a language path segment)",
        }
    return properties, set(schema.get("required", []))


# The HTTP server refuses request lines beyond 64 KiB (the bundled nginx beyond 8 KiB), so
# query values are documented much shorter than the same parameters in a body, which is
# where long texts belong.
QUERY_MAX_LENGTH = 1000
QUERY_MAX_ITEMS = 20
QUERY_ITEM_MAX_LENGTH = 200


def _query_schema(schema: Any, max_length: int = QUERY_MAX_LENGTH) -> Any:
    """`schema` with the documented limits of a query value: shorter strings, fewer items."""
    if isinstance(schema, list):
        return [_query_schema(item, max_length) for item in schema]
    if not isinstance(schema, dict):
        return schema
    capped = {
        key: _query_schema(value, QUERY_ITEM_MAX_LENGTH if key == "items" else max_length)
        for key, value in schema.items()
    }
    kinds = capped.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "string" in kinds and "enum" not in capped:
        capped["maxLength"] = min(capped.get("maxLength", max_length), max_length)
    if "array" in kinds:
        capped["maxItems"] = min(capped.get("maxItems", QUERY_MAX_ITEMS), QUERY_MAX_ITEMS)
    return capped


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """A query string cannot carry null: the value is sent, or the parameter left out."""
    schema = {k: v for k, v in schema.items() if not (k == "default" and v is None)}
    if isinstance(schema.get("type"), list):
        schema["type"] = [kind for kind in schema["type"] if kind != "null"]
    if "anyOf" in schema:
        parts = [part for part in schema.pop("anyOf") if part.get("type") != "null"]
        schema = {**schema, **parts[0]} if len(parts) == 1 else {**schema, "anyOf": parts}
    return schema


def _query_parameters(model: type[Params]) -> list[dict[str, Any]]:
    properties, required = field_schemas(model)
    parameters = []
    for name, prop in properties.items():
        prop = _without_null(_query_schema(prop))
        description = prop.pop("description", "")
        parameter: dict[str, Any] = {
            "name": name,
            "in": "query",
            "required": name in required,
            "description": description,
            "schema": prop,
        }
        if prop.get("type") == "array":
            parameter["style"] = "form"
            parameter["explode"] = True
        parameters.append(parameter)
    return parameters


def body_schema_name(model: type[Params], creating: bool) -> str:
    """The component name of a write body: `EventCreate`, `EventUpdate` (one model per
    kind of write in a generated client, not one per operation)."""
    base = model.__name__.removesuffix("Params").removesuffix("Write")
    return f"{base}{'Create' if creating else 'Update'}"


def _body(model: type[Params], required: tuple[str, ...]) -> dict[str, Any]:
    properties, _ = field_schemas(model)
    for name in required:  # a value that must be sent has no default
        properties.get(name, {}).pop("default", None)
    # The title names the component the body is moved to (`_shared_bodies`).
    schema: dict[str, Any] = {
        "title": body_schema_name(model, bool(required)),
        "type": "object",
        "properties": properties,
    }
    if required:
        schema["required"] = list(required)
    return {
        "required": bool(required),
        "content": {
            "application/json": {"schema": schema},
            "application/x-www-form-urlencoded": {"schema": schema},
        },
    }


LANGUAGE_PARAMETER = {
    "name": "i18n_language",
    "in": "query",
    "required": False,
    "description": "Content language (wins over a language path segment)",
    "schema": LANGUAGE_SCHEMA,
}


def api_doc(
    *,
    query: type[Params] | None = None,
    body: type[Params] | None = None,
    required: tuple[str, ...] = (),
    response: type[BaseModel] | None = None,
    status: int = 200,
    errors: tuple[int, ...] = (),
    paging_headers: bool = False,
    idempotent: bool = False,
    needs: Need | None = None,
    anonymous: bool = False,
) -> dict[str, Any]:
    """Keyword arguments for a route decorator documenting what the handler really parses
    (`idempotent`: a create that takes an Idempotency-Key, app/http/idempotency.py;
    `anonymous`: a write anyone may send, credentials optional as on reads).

    `needs`: the permission the handler's service requires (app/core/rules/permissions.py,
    the same constant): the operation then needs credentials (`security` without the
    optional alternative, whatever its method) and names its lowest role (`x-almanac-role`).
    """
    parameters = _query_parameters(query) if query else [dict(LANGUAGE_PARAMETER)]
    if idempotent:
        parameters.append(dict(IDEMPOTENCY_KEY))
        errors = (*errors, 422)
    extra: dict[str, Any] = {"parameters": parameters}
    if needs is not None:
        extra["security"] = copy.deepcopy(SIGNED_IN)
        extra[ROLE_EXTENSION] = needs.role.value
    if anonymous:
        extra[ANONYMOUS_EXTENSION] = True
    if body is not None:
        extra["requestBody"] = _body(body, required)
    responses: dict[int | str, dict[str, Any]] = {}
    if response is not None:
        success: dict[str, Any] = {"model": response, "description": "Success"}
        if paging_headers:
            success["headers"] = {
                name: {"schema": {"type": "integer"}, "description": text}
                for name, text in (
                    ("X-TEC-Total", "Matching records"),
                    ("X-TEC-TotalPages", "Pages"),
                    ("X-WP-Total", "Matching records"),
                    ("X-WP-TotalPages", "Pages"),
                )
            }
        if status == 201:
            success["headers"] = {
                "Location": {"schema": {"type": "string"}, "description": "URL of the new record"}
            }
        responses[status] = success
    # Where credentials are read (401), failing them too often is a 429.
    codes = {*errors, *ALWAYS, *((429,) if 401 in errors else ())}
    # Referenced, not given as a model: FastAPI builds a validator for every model response of
    # every route (each language prefix again), which made most of a process's start-up cost;
    # the envelope's schema is added to the document once (`_error_schemas`).
    for code in sorted(codes):
        responses[code] = {"description": ERROR_TEXTS[code]}
        if code in (429, 503):
            responses[code]["headers"] = copy.deepcopy(RETRY_AFTER)
        responses[code]["content"] = copy.deepcopy(ERROR_CONTENT)
    return {"openapi_extra": extra, "responses": responses}


ETAG_HEADERS = {
    "ETag": {
        "schema": {"type": "string"},
        "description": "Strong tag of the body a GET of this URL returns to this caller in "
        "this language (a digest of its bytes)",
    },
}
IGNORED_HEADERS = {
    IGNORED_HEADER: {
        "schema": {"type": "string"},
        "description": "The body's fields this write ignored (unknown to it, e.g. a typo), "
        "comma-separated in the order sent; absent when it read them all",
    },
}
READ_HEADERS = {
    **ETAG_HEADERS,
    "Cache-Control": {
        "schema": {"type": "string"},
        "description": "`public, no-cache` anonymously (shared caches may store the answer but "
        "must revalidate it), `private, no-cache` signed in",
    },
}
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "ETags of a stored copy (or *): 304 without a body when one is current",
}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "The ETag the record's GET returned (or * for any existing record): the "
    "write happens only if the record has not changed since, else 412 and nothing is written",
}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$"},
    "description": "A key of the client's choosing (1-255 printable ASCII characters), new "
    "for each create: a repeat of the same request with the same key within 24 hours answers "
    "the first one's status, body and Location (with Idempotent-Replayed: true) and creates "
    "nothing; another request with the key is 422",
}
NOT_MODIFIED = {"description": "Not modified: the stored copy named by If-None-Match is current"}


def _conditional(operations: dict[str, Any], has_key: bool) -> None:
    """Document the ETag headers, 304 on reads and If-Match/412 on record writes
    (app/core/caching/etags.py)."""
    for method, operation in operations.items():
        responses = operation.setdefault("responses", {})
        if method == "get":
            # Routes that document their own conditional GETs (the calendar feeds) keep theirs.
            names = {parameter["name"] for parameter in operation["parameters"]}
            if IF_NONE_MATCH["name"] not in names:
                operation["parameters"].append(dict(IF_NONE_MATCH))
            if "200" in responses:
                headers = responses["200"].setdefault("headers", {})
                for name, header in READ_HEADERS.items():
                    headers.setdefault(name, copy.deepcopy(header))
            responses.setdefault("304", dict(NOT_MODIFIED))
            continue
        for status in ("200", "201"):
            if status in responses:
                headers = responses[status].setdefault("headers", {})
                headers.update(copy.deepcopy(ETAG_HEADERS))
                if method != "delete":
                    headers.update(copy.deepcopy(IGNORED_HEADERS))
        if has_key:  # updates and deletes of one record
            operation["parameters"].append(dict(IF_MATCH))
            responses["412"] = {
                "description": ERROR_TEXTS[412],
                "content": copy.deepcopy(ERROR_CONTENT),
            }


def _public_operations(schema: dict[str, Any]) -> dict[str, Any]:
    """Namespace paths without the language segment, relative to the namespace URL."""
    prefix = f"/{NAMESPACE}"
    paths: dict[str, Any] = {}
    for path, item in schema.get("paths", {}).items():
        if not path.startswith(prefix):
            continue
        relative = path[len(prefix) :] or "/"
        for operation in item.values():
            names = {p.get("name") for p in operation.get("parameters", [])}
            if IDEMPOTENCY_KEY["name"] not in names:  # FastAPI's validation (never a 422)
                operation.get("responses", {}).pop("422", None)
            operation["parameters"] = [
                p
                for p in operation.get("parameters", [])
                if p.get("in") != "query" or p["name"] != "lang"
            ]
        _conditional(item, "{" in relative)
        paths[relative] = item
    return paths


async def _fails() -> None:
    """The endpoint of the one route `_error_schemas` documents (never served)."""


def _error_schemas() -> dict[str, Any]:
    """The error envelope's schema and the ones it refers to, as FastAPI writes a model
    response's (the document of a single route that answers it)."""
    route = APIRoute("/", _fails, responses={400: {"model": ErrorEnvelope}})
    schemas: dict[str, Any] = get_openapi(title="", version="", routes=[route])["components"][
        "schemas"
    ]
    return schemas


def base_document(app: FastAPI) -> dict[str, Any]:
    """The document without servers (those depend on the request); cached on the app, where
    FastAPI keeps the document it would make (it makes none: `openapi_url=None`)."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    generated = get_openapi(
        title="almanac",
        version=VERSION,
        openapi_version="3.1.0",
        summary=app.summary,
        description=(
            "Events calendar API compatible with The Events Calendar REST API (tribe/events/v1). "
            "Paths are relative to the namespace URL (servers[0]); the same routes are served "
            "under a language segment (servers[1]). Errors always use the envelope "
            "{code, message, data: {status}}. Every GET answers with a strong ETag (send it "
            "back as If-None-Match: 304 while nothing changed) and Cache-Control; updates and "
            "deletes honour If-Match (412 rest_precondition_failed when the record changed, "
            "nothing written) and answer the record's new ETag. GET /changes is the sync feed: "
            "without `since`, a token to start from after a full download; with it, the "
            "records changed since, as upserts (the body a GET returns to the caller) or "
            "deletes (gone or no longer visible to the caller), a new token and has_more; "
            "410 rest_sync_token_expired for a token older than the kept history. "
            "Recurring events: an event with `recurrence` (RFC 5545 RRULE/RDATE/EXDATE lines, "
            "run in the event's time zone) is a series; each of its dates is an occurrence "
            "with an ID of its own, listed by GET /events (with `series_id` and the series' "
            "`recurrence`; single events carry neither), read by GET /events/{id} or "
            "/events/by-slug/{slug}/{YYYY-MM-DD}, and kept while its original start belongs "
            "to the series. A write or delete on a date takes `scope`: `this` (an override of "
            "that date's texts, dates, venue, organizers or cost, which survives series edits; "
            "a delete cancels the date), `following` (splits the series there) or `all` (the "
            "series; the default on the series' own ID). `post_parent=<series>` lists a "
            "series' dates, `hide_subsequent_recurrences=true` only the first of each. "
            "Webhooks (administrators): POST /webhooks subscribes a receiver URL to changes "
            "(`types`: event.upsert, venue.delete, event.*, *, ...) and answers its signing "
            "secret once; each change is POSTed as the changes feed's entry for an anonymous "
            "caller, {type, timestamp, data: {kind, id, action, modified_utc, record}}, signed "
            "per the Standard Webhooks specification (webhook-id, webhook-timestamp, "
            "webhook-signature), at least once and in order per record, retried with backoff "
            "for about three days; a 410 or the end of the retries disables the subscription. "
            "GET /webhooks/{id}/deliveries is the delivery log."
        ),
        routes=app.routes,
    )
    paths = generated["paths"] = _public_operations(generated)
    components = generated.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    schemas.update(_error_schemas())
    components["schemas"] = schemas = dict(sorted(schemas.items()))  # as FastAPI orders them
    share_bodies(paths, components)
    named = {"Language": LANGUAGE_SCHEMA, "PostStatus": POST_STATUS_SCHEMA}
    generated["paths"] = paths = share_schemas(paths, named)
    components["schemas"] = {**share_schemas(schemas, named), **named}
    declare_security(generated)
    name_operations(paths)
    app.openapi_schema = generated
    return generated


def document(app: FastAPI, urls: Urls) -> dict[str, Any]:
    doc = copy.deepcopy(base_document(app))
    root = f"{urls.origin}{urls.root_path}"
    doc["servers"] = [
        {"url": urls.namespace, "description": "This namespace"},
        {
            "url": f"{root}/{{language}}/{NAMESPACE}",
            "description": "The namespace in a given content language",
            "variables": {"language": {"enum": list(LANGUAGES), "default": "en"}},
        },
    ]
    return doc
