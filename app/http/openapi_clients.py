"""What clients generated from the OpenAPI document need beyond FastAPI's output
(docs/design.md#generated-clients): write bodies as named components, the credentials each
operation takes, and operation IDs that read as names.

Each step takes the public `paths` (relative to the namespace URL) and the document's
`components`, and changes them in place.
"""

import re
from typing import Any

WRITE_METHODS = ("post", "put", "patch", "delete")
# The lowest role an operation needs (`api_doc(needs=...)`, app/http/openapi.py).
ROLE_EXTENSION = "x-almanac-role"
# A write open to anonymous callers (an RSVP, `api_doc(anonymous=True)`): credentials
# optional, as on reads.
ANONYMOUS_EXTENSION = "x-almanac-anonymous"

# Both carry an application password (`almanac users add`, docs/design.md#users-and-permissions).
SECURITY_SCHEMES = {
    "basicAuth": {
        "type": "http",
        "scheme": "basic",
        "description": "A user's login and one of their application passwords, as WordPress "
        "clients send them",
    },
    "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "An application password alone, as the bearer token",
    },
}
SIGNED_IN: list[dict[str, list[str]]] = [{"basicAuth": []}, {"bearerAuth": []}]
# Reads answer anonymous callers; credentials only widen what they see (drafts, private
# records). The empty requirement is OpenAPI's way of saying "optional".
OPTIONAL: list[dict[str, list[str]]] = [{}, *SIGNED_IN]


def share_bodies(paths: dict[str, Any], components: dict[str, Any]) -> None:
    """Move each write body into `components.schemas` under its title (`EventCreate`), so that
    a generator makes one model per kind of write instead of one per operation and type."""
    schemas = components.setdefault("schemas", {})
    for item in paths.values():
        for operation in item.values():
            content = operation.get("requestBody", {}).get("content", {})
            for media in content.values():
                schema = media["schema"]
                name = schema.get("title")
                if name is None:
                    continue
                known = schemas.setdefault(name, schema)
                if known != schema:
                    raise ValueError(f"two different request bodies are both named {name}")
                media["schema"] = {"$ref": f"#/components/schemas/{name}"}


def share_schemas(tree: Any, named: dict[str, dict[str, Any]]) -> Any:
    """`tree` with every inline copy of a `named` schema (its description aside) replaced by
    a reference: one `Language` type in a generated client, not one per operation."""
    if isinstance(tree, list):
        return [share_schemas(item, named) for item in tree]
    if not isinstance(tree, dict):
        return tree
    bare = {key: value for key, value in tree.items() if key != "description"}
    for name, schema in named.items():
        if bare == schema:
            shared = {"$ref": f"#/components/schemas/{name}"}
            return (
                {**shared, "description": tree["description"]} if "description" in tree else shared
            )
    return {key: share_schemas(value, named) for key, value in tree.items()}


def declare_security(document: dict[str, Any]) -> None:
    """Credentials are optional for the whole document (reads), required on each write but
    an anonymous one (`x-almanac-anonymous`) and on each read that needs a role (which
    `api_doc(needs=...)` already marked).

    Reads open to anonymous callers carry no `security` of their own: generators take any
    operation-level requirement, the optional one included, as "needs an authenticated
    client" (openapi-python-client).
    """
    document.setdefault("components", {})["securitySchemes"] = SECURITY_SCHEMES
    document["security"] = OPTIONAL
    for item in document["paths"].values():
        for method, operation in item.items():
            if method in WRITE_METHODS and not operation.get(ANONYMOUS_EXTENSION):
                operation["security"] = SIGNED_IN


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_NOT_A_WORD = re.compile(r"[^a-z0-9]+")


def operation_id(method: str, path: str) -> str:
    """`get_events`, `post_events`, `patch_events_by_id`, `get_events_by_slug_by_day`,
    `get_events_by_id_ics`, `get_namespace`: the method and the path, placeholders as
    `by_<name>` (the literal `by-slug` segment says it once only)."""
    if path == "/":
        return f"{method}_namespace"
    words = _PLACEHOLDER.sub(r"by_\1", path.replace("/by-slug/", "/"))
    return f"{method}_{_NOT_A_WORD.sub('_', words.lower()).strip('_')}"


def name_operations(paths: dict[str, Any]) -> None:
    for path, item in paths.items():
        for method, operation in item.items():
            operation["operationId"] = operation_id(method, path)
