"""The desk's routes: every screen of `SCREENS` under `/desk/`, `/de/desk/`, `/sk/desk/` (and
`/en/desk/`), its static files at `/desk/static/`, the sign-in redirect and error pages, and
the desk's response headers (app/desk/headers.py)."""

import importlib
import re
from collections.abc import Awaitable
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import FileResponse, RedirectResponse, Response

from app.core.app_services import app_services
from app.core.errors import ApiError, no_route
from app.core.rules.permissions import Principal
from app.desk.context import (
    DeskRefused,
    SignInNeeded,
    desk_language,
    render_desk,
    signin_url,
)
from app.desk.headers import DeskHeaders
from app.desk.paths import desk_parts
from app.i18n import LANGUAGES, N_
from app.users.auth import DESK_SESSION_STATE_KEY
from app.users.sessions import COOKIE

# The screens, one module of app/desk/ each (screens/, and the event editor's events/), with
# an APIRouter named `router`. One line per screen, so that the areas of the desk add theirs
# without touching each other's.
SCREENS = [
    "screens.signin",
    "screens.home",
    "screens.sessions",
    "screens.users",
    "screens.venues",
    "screens.organizers",
    "screens.terms",
    "screens.media",
    "events.editor",
    "screens.events",
    "events.duplicate",
    "screens.trash",
    "tickets.tickets",
    "tickets.attendees",
    "tickets.check_in",
    "tickets.outbox",
]

STATIC = Path(__file__).parent / "static"
STATIC_TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}
STATIC_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*\.(css|js|svg)$")

static_router = APIRouter(include_in_schema=False)


@static_router.api_route("/desk/static/{name}", methods=["GET", "HEAD"])
async def static_file(name: str) -> Response:
    """The desk's stylesheet and scripts (a plain name of app/desk/static/, nothing else)."""
    path = STATIC / name
    if not STATIC_NAME.match(name) or not path.is_file():
        raise no_route()
    return FileResponse(path, media_type=STATIC_TYPES[path.suffix])


def screen_routers() -> list[APIRouter]:
    return [importlib.import_module(f"app.desk.{name}").router for name in SCREENS]


def _signed_in_principal(request: Request) -> Principal | None:
    found = request.scope.get("state", {}).get(DESK_SESSION_STATE_KEY)
    principal: Principal | None = getattr(found, "principal", None)
    return principal


def add_desk_routes(app: FastAPI) -> None:
    """Mount the desk (before the edge pipeline is added: its header middleware runs inside
    it, where the proxy's scheme, host and root path are already the public ones)."""
    settings = app_services(app).settings
    routers = screen_routers()
    for prefix in ("", *(f"/{language}" for language in LANGUAGES)):
        for router in routers:
            app.include_router(router, prefix=f"{prefix}/desk", include_in_schema=False)
    app.include_router(static_router)

    async def sign_in_needed(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, SignInNeeded)
        flags = {"ended": "1"} if exc.ended else {}
        response = RedirectResponse(
            signin_url(request, exc.language, exc.next_path, **flags), status_code=303
        )
        if exc.ended:
            response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return response

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, DeskRefused)
        language = exc.language or desk_language(request)
        principal = _signed_in_principal(request)
        return render_desk(
            request,
            language,
            "desk/error.html",
            exc.status,
            principal=principal,
            message=exc.message,
        )

    previous = app.exception_handlers[StarletteHTTPException]

    async def not_found(request: Request, exc: Exception) -> Response:
        """The desk's own 404 and 405 pages; every other path keeps its handler."""
        assert isinstance(exc, StarletteHTTPException)
        relative = request.url.path[len(request.scope.get("root_path", "")) :]
        if desk_parts(relative) is not None and exc.status_code in (404, 405):
            message = (
                N_("There is no such page.") if exc.status_code == 404 else N_("Not allowed here.")
            )
            return render_desk(
                request, desk_language(request), "desk/error.html", exc.status_code,
                principal=_signed_in_principal(request),
                message=message,
            )  # fmt: skip
        answer = previous(request, exc)
        return await answer if isinstance(answer, Awaitable) else answer

    api_errors = app.exception_handlers[ApiError]

    async def service_error(request: Request, exc: Exception) -> Response:
        """A service's refusal that no screen caught: the desk's error page with the API's
        message (in the desk's language), the API's status and headers (Retry-After ...)."""
        assert isinstance(exc, ApiError)
        relative = request.url.path[len(request.scope.get("root_path", "")) :]
        if desk_parts(relative) is None:
            answer = api_errors(request, exc)
            return await answer if isinstance(answer, Awaitable) else answer
        language = desk_language(request)
        response = render_desk(
            request, language, "desk/error.html", exc.status,
            principal=_signed_in_principal(request),
            message=exc.body(language)["message"],
        )  # fmt: skip
        response.headers.update(exc.headers)
        return response

    app.add_exception_handler(ApiError, service_error)
    app.add_exception_handler(SignInNeeded, sign_in_needed)
    app.add_exception_handler(DeskRefused, refused)
    app.add_exception_handler(StarletteHTTPException, not_found)
    app.add_middleware(DeskHeaders, media_url=settings.media_url, tiles=settings.map_tiles_url)
