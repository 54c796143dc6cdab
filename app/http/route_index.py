"""WordPress's description of routes, derived from the OpenAPI operations: the `routes` of the
API index and of the namespace description, and the answer to OPTIONS on a route
(docs/design.md#wordpress-discovery).

WordPress clients (node-wpapi's `discover()`) build their request methods from these keys, so
they are the patterns WordPress registers (`/calendar/events/v1/events/(?P<id>\\d+)`), and each
argument says what it takes: its type (a union as a list, as WordPress writes it), `required`,
and a default only where it has one and is not required.
"""

import re
from typing import Any

from fastapi import FastAPI

from app.core.rules.constants import NAMESPACE
from app.core.web.urls import Urls
from app.http.openapi import base_document

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
# What a path value looks like, by the type its parameter declares.
DIGITS = r"\d+"
DAY = r"\d{4}-\d{2}-\d{2}"
SEGMENT = r"[^/]+"
# The JSON-schema keywords an argument keeps (WordPress strips its callbacks the same way).
ARG_KEYWORDS = ("enum", "format")


def _value_pattern(parameter: dict[str, Any] | None) -> str:
    schema = (parameter or {}).get("schema", {})
    if schema.get("type") == "integer":
        return DIGITS
    if schema.get("format") == "date":
        return DAY
    return SEGMENT


def wordpress_pattern(path: str, parameters: list[dict[str, Any]]) -> str:
    """`/events/{id}.ics` → `/events/(?P<id>\\d+)\\.ics` (path relative to the namespace)."""
    by_name = {p["name"]: p for p in parameters if p.get("in") == "path"}
    parts = _PLACEHOLDER.split(path)
    pattern = []
    for position, part in enumerate(parts):
        if position % 2:  # a placeholder's name
            pattern.append(f"(?P<{part}>{_value_pattern(by_name.get(part))})")
        else:
            pattern.append(part.replace(".", r"\."))
    return "".join(pattern)


def route_key(path: str, operations: dict[str, Any]) -> str:
    """The key of an OpenAPI path (relative to the namespace) in WordPress's `routes`."""
    parameters = [p for operation in operations.values() for p in operation.get("parameters", [])]
    relative = "" if path == "/" else wordpress_pattern(path, parameters)
    return f"/{NAMESPACE}{relative}"


def _resolved(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    """`schema` with a reference to a component replaced by the component (siblings win)."""
    reference = schema.get("$ref")
    if not isinstance(reference, str):
        return schema
    target = components.get("schemas", {}).get(reference.rsplit("/", 1)[-1], {})
    return {**_resolved(target, components), **{k: v for k, v in schema.items() if k != "$ref"}}


def _types(schema: dict[str, Any], components: dict[str, Any]) -> list[str]:
    """Every JSON type a schema accepts, in the order its branches give them."""
    found: list[str] = []
    for branch in schema.get("anyOf", [schema]):
        branch = _resolved(branch, components)
        if "anyOf" in branch:
            kinds: list[Any] = _types(branch, components)
        else:
            declared = branch.get("type")
            kinds = declared if isinstance(declared, list) else [declared]
        for kind in kinds:
            if isinstance(kind, str) and kind not in found:
                found.append(kind)
    return found


def _typed(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    """`type` (one, or a list for a union), `items`, `enum`, `format` of a schema."""
    schema = _resolved(schema, components)
    types = _types(schema, components)
    if types and types[0] == "boolean":
        # The other branches are spellings of the same boolean (1/0, "yes"), which WordPress
        # booleans also take; only null is another value.
        types = ["boolean", *(["null"] if "null" in types else [])]
    described: dict[str, Any] = {}
    if types:
        described["type"] = types[0] if len(types) == 1 else types
    branches = [_resolved(branch, components) for branch in schema.get("anyOf", [schema])]
    if len(branches) == 1:
        described.update({k: branches[0][k] for k in ARG_KEYWORDS if k in branches[0]})
    arrays = [branch for branch in branches if "items" in branch]
    if arrays:
        described["items"] = _typed(arrays[0]["items"], components)
    return described


def _arg(
    schema: dict[str, Any], required: bool, description: str | None, components: dict[str, Any]
) -> dict[str, Any]:
    schema = _resolved(schema, components)
    arg: dict[str, Any] = {"required": required}
    if "default" in schema and not required:
        arg["default"] = schema["default"]
    if description or schema.get("description"):
        arg["description"] = description or schema.get("description")
    arg.update(_typed(schema, components))
    return arg


def _args(operation: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for parameter in operation.get("parameters", []):
        if parameter.get("in") in ("path", "query"):
            required = parameter.get("in") == "path" or parameter.get("required", False)
            args[parameter["name"]] = _arg(
                parameter["schema"], required, parameter.get("description"), components
            )
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if content:
        body = _resolved(content["schema"], components)
        needed = set(body.get("required", []))
        for name, prop in body.get("properties", {}).items():
            args[name] = _arg(prop, name in needed, prop.get("description"), components)
    return args


def namespace_routes(
    app: FastAPI, urls: Urls, defaults: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    """WordPress's namespace description (`routes` of GET /calendar/events/v1), keyed by
    route pattern. `defaults` are values computed for this request (the event list's window)
    per path and argument of its GET, where the argument is not required."""
    document = base_document(app)
    components = document.get("components", {})
    routes: dict[str, Any] = {}
    for path, item in document["paths"].items():
        key = route_key(path, item)
        endpoints: list[dict[str, Any]] = []
        for method, operation in item.items():
            args = _args(operation, components)
            if method == "get":
                for name, value in defaults.get(path, {}).items():
                    if name in args and not args[name]["required"]:
                        args[name]["default"] = value
            same = next((e for e in endpoints if e["args"] == args), None)
            if same is None:  # methods that take the same args share one endpoint
                endpoints.append({"methods": [method.upper()], "args": args})
            else:
                same["methods"].append(method.upper())
        entry: dict[str, Any] = {
            "namespace": NAMESPACE,
            "methods": [method.upper() for method in item],
            "endpoints": endpoints,
        }
        if "{" not in path:  # as WordPress: a link only where the route has no variables
            entry["_links"] = {"self": [{"href": urls.rest("" if path == "/" else path)}]}
        routes[key] = entry
    return routes


def route_of_template(template: str) -> str:
    """The OpenAPI path of a route template (`/{lang}/calendar/events/v1/events/{id}` →
    `/events/{id}`; the namespace itself is `/`)."""
    path = template.removeprefix("/{lang}").removeprefix(f"/{NAMESPACE}")
    return path or "/"
