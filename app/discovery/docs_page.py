"""The interactive documentation page: Swagger UI over the OpenAPI document, for browsers.

`GET /calendar/events/v1/doc` answers a browser (an `Accept` that prefers `text/html`) with
this page and every other client with the JSON document; both say `Vary: Accept`, so no
cache hands one to the other. The page's script and style come from the `fastapi-offline`
package (Swagger UI 5, which reads OpenAPI 3.1) and are served by almanac itself under
`doc/assets/`: the page loads nothing from elsewhere.
"""

from functools import cache
from importlib.resources import files
from pathlib import Path

from fastapi.openapi.docs import get_swagger_ui_html
from starlette.responses import FileResponse, Response

ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon.png": "image/png",
}
ASSET_MAX_AGE = 86_400  # the assets change only with the package: a day is safe
UI_PARAMETERS = {
    "deepLinking": True,
    "displayRequestDuration": True,
    "docExpansion": "list",
    "tryItOutEnabled": False,
    "defaultModelsExpandDepth": 0,
}


@cache
def assets_dir() -> Path:
    return Path(str(files("fastapi_offline") / "static"))


def _quality(accept: str, wanted: tuple[str, ...]) -> float:
    """The highest q `accept` gives to any of the media ranges in `wanted`."""
    best = 0.0
    for item in accept.split(",")[:32]:
        media, _, params = item.strip().partition(";")
        if media.strip().lower() not in wanted:
            continue
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        best = max(best, quality)
    return best


def wants_html(accept: str | None) -> bool:
    """Does the client prefer an HTML page to JSON? Only when it names HTML itself (a
    browser does) and rates it above JSON; `*/*` alone (curl, most clients) gets JSON."""
    if not accept:
        return False
    html = _quality(accept, ("text/html", "text/*"))
    json = _quality(accept, ("application/json", "application/*", "*/*"))
    return html > 0 and html > json


def docs_page(document_url: str, assets_url: str) -> Response:
    page = get_swagger_ui_html(
        openapi_url=document_url,
        title="almanac API documentation",
        swagger_js_url=f"{assets_url}/swagger-ui-bundle.js",
        swagger_css_url=f"{assets_url}/swagger-ui.css",
        swagger_favicon_url=f"{assets_url}/favicon.png",
        swagger_ui_parameters=UI_PARAMETERS,
    )
    page.headers["Vary"] = "Accept"
    page.headers["Cache-Control"] = "no-cache"
    return page


def asset(name: str) -> Response | None:
    """One of the page's assets, None for any other name."""
    media_type = ASSETS.get(name)
    if media_type is None:
        return None
    return FileResponse(
        assets_dir() / name,
        media_type=media_type,
        headers={"Cache-Control": f"public, max-age={ASSET_MAX_AGE}"},
    )
