"""Routing helpers shared by the resource routers."""

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path

UPDATE_METHODS = ("POST", "PUT", "PATCH")


def update_route(
    router: APIRouter, path: str, *, summary: str, **route_options: Any
) -> Callable[[Any], Any]:
    """Register an update handler for POST, PUT and PATCH alike (the interface's rule).

    One route per method, so that each OpenAPI operation gets its own operation ID.
    """

    def register(endpoint: Callable[..., Any]) -> Callable[..., Any]:
        for method in UPDATE_METHODS:
            router.add_api_route(
                path,
                endpoint,
                methods=[method],
                summary=summary,
                name=f"{endpoint.__name__}_{method.lower()}",
                **route_options,
            )
        return endpoint

    return register


RecordId = Annotated[int, Path(description="Numeric ID of the record")]
RecordSlug = Annotated[str, Path(max_length=200, description="Slug of the record")]
