"""The API index, the namespace description and the OpenAPI document."""

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BeforeValidator, Field
from starlette.responses import Response

from app.core.dates import DATETIME_FORMAT
from app.core.errors import ApiError
from app.core.responses import json_response
from app.core.settings import Settings, SettingsDep
from app.core.urls import NAMESPACE, UrlsDep
from app.events.listing import default_window
from app.feeds.service import feed_window
from app.http.context import LanguageDep, RawParamsDep
from app.http.openapi import api_doc, document, namespace_routes
from app.http.params import DEFAULT_PER_PAGE, Params, lowercase, parse
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


@router.get("/doc", summary="OpenAPI document", **api_doc(response=None))
async def openapi_document(request: Request, urls: UrlsDep, language: LanguageDep) -> Response:
    """The OpenAPI 3.1 description of this interface (paths relative to servers[0])."""
    return json_response(document(request.app, urls))


async def api_index(urls: UrlsDep, language: LanguageDep) -> Response:
    """Name, namespaces and links of this API (like WordPress's /wp-json/)."""
    return json_response(
        {
            "name": "almanac",
            "description": "Events calendar API",
            "url": urls.site,
            "namespaces": [NAMESPACE],
            "routes": {
                f"/{NAMESPACE}": {
                    "namespace": NAMESPACE,
                    "methods": ["GET"],
                    "_links": {"self": [{"href": urls.namespace}]},
                }
            },
            "_links": {"help": [{"href": urls.rest("/doc")}]},
        }
    )
