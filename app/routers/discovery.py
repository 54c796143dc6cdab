"""The API index, the namespace description and the OpenAPI document."""

from typing import Any

from fastapi import APIRouter, Request
from fastapi.routing import APIRoute
from starlette.responses import Response

from app.deps import LanguageDep
from app.responses import json_response
from app.urls import NAMESPACE, UrlsDep

router = APIRouter(tags=["discovery"])


def _namespace_routes(request: Request, urls: Any) -> dict[str, Any]:
    """Routes of the namespace as WordPress lists them (unprefixed forms only)."""
    routes: dict[str, Any] = {}
    prefix = f"/{NAMESPACE}"
    for route in request.app.routes:
        if not isinstance(route, APIRoute) or not route.path_format.startswith(prefix):
            continue
        path = route.path_format
        entry = routes.setdefault(path, {"namespace": NAMESPACE, "methods": [], "endpoints": []})
        methods = sorted(route.methods or [])
        entry["methods"].extend(m for m in methods if m not in entry["methods"])
        entry["endpoints"].append({"methods": methods, "args": {}})
        if "{" not in path:
            entry["_links"] = {"self": [{"href": urls.rest(path[len(prefix) :])}]}
    return routes


# The bare namespace path has no segment of its own, so it is mounted by create_app()
# with the namespace as prefix (an APIRouter cannot hold an empty path without one).
namespace_router = APIRouter(tags=["discovery"])


@namespace_router.get("", summary="Describe the namespace")
async def describe_namespace(request: Request, urls: UrlsDep, language: LanguageDep) -> Response:
    """The routes of the namespace with their methods and arguments."""
    return json_response(
        {
            "namespace": NAMESPACE,
            "routes": _namespace_routes(request, urls),
            "_links": {"up": [{"href": urls.index}]},
        }
    )


@router.get("/doc", summary="OpenAPI document")
async def openapi_document(request: Request, urls: UrlsDep, language: LanguageDep) -> Response:
    """The OpenAPI 3.1 description of this interface."""
    document = dict(request.app.openapi())
    document["servers"] = [{"url": urls.namespace}]
    return json_response(document)


async def api_index(urls: UrlsDep, language: LanguageDep) -> Response:
    """Name, namespaces and links of this API (like WordPress's /wp-json/)."""
    return json_response(
        {
            "name": "almanac",
            "description": "Events calendar API",
            "url": urls.site,
            "namespaces": [NAMESPACE],
            "routes": {f"/{NAMESPACE}": {"namespace": NAMESPACE, "methods": ["GET"]}},
            "_links": {"help": [{"href": urls.rest("/doc")}]},
        }
    )
