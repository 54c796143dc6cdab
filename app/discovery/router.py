"""The API index, the namespace description and the OpenAPI document."""

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BeforeValidator, Field
from starlette.responses import RedirectResponse, Response

from app.core.app_services import SettingsDep, services_of
from app.core.errors import ApiError, no_route
from app.core.rules.constants import NAMESPACE
from app.core.rules.dates import DATETIME_FORMAT
from app.core.settings import Settings
from app.core.web.responses import json_response
from app.core.web.urls import Urls, UrlsDep
from app.discovery.docs_page import asset, docs_page, wants_html
from app.events.listing import default_window
from app.feeds.service import feed_window
from app.http.coercion import lowercase
from app.http.context import LanguageDep, RawParamsDep
from app.http.openapi import api_doc, base_document, document
from app.http.pagination import DEFAULT_PER_PAGE
from app.http.params import Params, parse
from app.http.route_index import namespace_routes, route_key, route_of_template
from app.http.schemas import Schema

router = APIRouter(tags=["discovery"])

# The bare namespace path has no segment of its own, so it is mounted by create_app()
# with the namespace as prefix (an APIRouter cannot hold an empty path without one).
namespace_router = APIRouter(tags=["discovery"])


class NamespaceParams(Params):
    namespace: str = Field(NAMESPACE, description="The namespace to describe")
    context: Annotated[Literal["view", "embed", "edit", "help"], BeforeValidator(lowercase)] = (
        Field("view", description="view/edit/help: routes with their arguments; embed: routes only")
    )


class NamespaceDescription(Schema):
    namespace: str
    routes: dict[str, Any]
    links: dict[str, Any] = Field(alias="_links")


def computed_defaults(settings: Settings) -> dict[str, dict[str, Any]]:
    """Defaults that depend on the request time: the windows of the event list and of its
    calendar feed."""
    now = datetime.now(UTC)
    start, end = default_window(settings.site_zone, now)
    feed_start, feed_end = feed_window(settings.site_zone, now)
    return {
        "/events": {
            "start_date": start.strftime(DATETIME_FORMAT),
            "end_date": end.strftime(DATETIME_FORMAT),
            "per_page": DEFAULT_PER_PAGE,
        },
        "/events.ics": {
            "start_date": feed_start.strftime(DATETIME_FORMAT),
            "end_date": feed_end.strftime(DATETIME_FORMAT),
        },
    }


@namespace_router.get(
    "",
    summary="Describe the namespace",
    **api_doc(query=NamespaceParams, response=NamespaceDescription, errors=(404,)),
)
async def describe_namespace(
    request: Request,
    raw: RawParamsDep,
    urls: UrlsDep,
    language: LanguageDep,
    settings: SettingsDep,
) -> Response:
    """Every route of the namespace with its methods and arguments (WordPress's format)."""
    params = parse(NamespaceParams, raw)
    if params.namespace.strip("/") != NAMESPACE:
        raise ApiError(404, "rest_invalid_namespace")
    routes = namespace_routes(request.app, urls, computed_defaults(settings))
    if params.context == "embed":
        for entry in routes.values():
            entry.pop("endpoints", None)
    return json_response(
        {"namespace": NAMESPACE, "routes": routes, "_links": {"up": [{"href": urls.index}]}}
    )


@router.get(
    "/doc", summary="OpenAPI document (an HTML page for browsers)", **api_doc(response=None)
)
async def openapi_document(request: Request, urls: UrlsDep, language: LanguageDep) -> Response:
    """The OpenAPI 3.1 description of this interface (paths relative to servers[0]); a
    browser gets the interactive page over it (app/discovery/docs_page.py)."""
    if wants_html(request.headers.get("accept")):
        return docs_page(urls.rest("/doc"), urls.rest("/doc/assets"))
    return json_response(document(request.app, urls), headers={"Vary": "Accept"})


@router.get("/docs", include_in_schema=False)
async def docs_redirect(urls: UrlsDep) -> Response:
    """`/docs` is where many APIs keep their page: send whoever looks there to ours."""
    return RedirectResponse(urls.rest("/doc"), status_code=308)


@router.get("/doc/assets/{name}", include_in_schema=False)
async def docs_asset(name: str) -> Response:
    """The docs page's script, style and icon, served from the installed package."""
    found = asset(name)
    if found is None:
        raise no_route()
    return found


def index_route(urls: Urls) -> dict[str, Any]:
    """The index's own entry in `routes` (WordPress lists `/` too)."""
    return {
        "namespace": "",
        "methods": ["GET"],
        "endpoints": [{"methods": ["GET"], "args": {"context": {"required": False}}}],
        "_links": {"self": [{"href": urls.index}]},
    }


async def api_index(request: Request, urls: UrlsDep, language: LanguageDep) -> Response:
    """Name, namespaces and every route with its methods and arguments, like WordPress's
    index (`/wp-json/`), so that clients which discover an API from it find everything."""
    settings = services_of(request).settings
    routes: dict[str, Any] = {"/": index_route(urls)}
    routes.update(namespace_routes(request.app, urls, computed_defaults(settings)))
    return json_response(
        {
            "name": "almanac",
            "description": "Events calendar API",
            "url": urls.site,
            "home": urls.site,
            "namespaces": [NAMESPACE],
            "authentication": {},
            "routes": routes,
            "_links": {"help": [{"href": urls.rest("/doc")}]},
        }
    )


def _described(entry: dict[str, Any]) -> Response:
    return json_response(entry, headers={"Allow": ", ".join(entry["methods"])})


async def describe_route(request: Request, urls: UrlsDep, settings: SettingsDep) -> Response:
    """OPTIONS on a route of the namespace: the route's description (its methods and their
    arguments) and `Allow`, as WordPress answers it. CORS preflights never get here: the CORS
    middleware answers them (app/main.py)."""
    path = route_of_template(request.scope["route"].path_format)
    routes = namespace_routes(request.app, urls, computed_defaults(settings))
    item = base_document(request.app)["paths"][path]
    return _described(routes[route_key(path, item)])


async def describe_index(urls: UrlsDep) -> Response:
    """OPTIONS on the index."""
    return _described(index_route(urls))


def add_route_descriptions(router: APIRouter) -> None:
    """An OPTIONS route next to every documented path of `router` (call it once its routes
    are all there)."""
    # In the router's order: `/events/by-slug/{slug}.ics` must be tried before its prefix
    # `/events/by-slug/{slug}` takes `x.ics` for a slug, as for GET (app/api.py).
    documented = {
        str(route.path): None
        for route in iter_route_contexts(router.routes)
        if isinstance(route.original_route, APIRoute) and route.include_in_schema
    }
    for path in documented:
        router.add_api_route(path, describe_route, methods=["OPTIONS"], include_in_schema=False)


add_route_descriptions(namespace_router)
