"""Sign-in and sign-out. The desk takes account passwords only (`almanac users set-password`;
application passwords are for programs and the API), counts failed sign-ins in the API's
throttle, and returns to `next` only when it is a desk path of this site."""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from starlette.responses import RedirectResponse, Response

from app.core.app_services import services_of
from app.desk.context import (
    DeskContext,
    DeskDatabase,
    desk_language,
    desk_url,
    desk_writer,
    refuse_cross_site,
    render_desk,
)
from app.desk.paths import safe_next
from app.i18n import N_
from app.users.auth import desk_session
from app.users.service import Accounts
from app.users.sessions import COOKIE, DeskSessions

router = APIRouter()
LOGIN_LENGTH = 200


def _next(request: Request, value: str | None, language: str) -> str:
    root = str(request.scope.get("root_path", "")).rstrip("/")
    return safe_next(value, root) or desk_url(request, language)


def _form(request: Request, status: int, **values: Any) -> Response:
    language = desk_language(request)
    return render_desk(request, language, "desk/signin.html", status, **values)


@router.get("/signin")
async def signin_page(request: Request, db: DeskDatabase) -> Response:
    """The sign-in form (a person already signed in goes on to `next`)."""
    settings = services_of(request).settings
    language = desk_language(request)
    wanted = request.query_params.get("next")
    if await desk_session(request, db, settings) is not None:
        return RedirectResponse(_next(request, wanted, language), status_code=303)
    notice = None
    if request.query_params.get("ended"):
        notice = N_("Your session has ended. Please sign in again.")
    elif request.query_params.get("signedout"):
        notice = N_("You have signed out.")
    return _form(request, 200, next=safe_next(wanted, _root(request)), notice=notice, login="")


def _root(request: Request) -> str:
    return str(request.scope.get("root_path", "")).rstrip("/")


@router.post("/signin")
async def signin(request: Request, db: DeskDatabase) -> Response:
    """Check the account password; a new session and its cookie, then on to `next`."""
    settings = services_of(request).settings
    language = desk_language(request)
    refuse_cross_site(request, language)
    form = await request.form()
    login = str(form.get("login") or "")[:LOGIN_LENGTH]
    password = str(form.get("password") or "")
    wanted = safe_next(str(form.get("next") or ""), _root(request))
    limiter, metrics = services_of(request).failed_logins, services_of(request).metrics
    client = request.client.host if request.client else "unknown"
    reader = getattr(request.state, "version_reader", None)  # none in in-process tests
    wait, _ = await limiter.check(client, reader)
    if wait:
        metrics.throttled()
        response = _form(request, 429, next=wanted, login=login, throttled=True)
        response.headers["Retry-After"] = str(wait)
        return response
    principal = await Accounts(db, settings.app_password_pepper).signs_in(login, password)
    if principal is None:
        metrics.failed_signin()
        await limiter.record(client, reader)
        return _form(request, 401, next=wanted, login=login, wrong=True)
    sessions = DeskSessions(db, settings)
    previous = await desk_session(request, db, settings)
    if previous is not None:  # a new session, never a known one (session fixation)
        await sessions.end(previous.principal.id, previous.id)
    token, _ = await sessions.start(principal, request.headers.get("user-agent", ""))
    response = RedirectResponse(wanted or desk_url(request, language), status_code=303)
    response.set_cookie(
        COOKIE,
        token,
        path="/",
        httponly=True,
        samesite="lax",
        # https as the browser sees it: a trusted proxy's X-Forwarded-Proto counts
        # (app/core/web/middleware.py), an untrusted one's does not.
        secure=request.url.scheme == "https",
    )
    return response


@router.post("/signout")
async def signout(request: Request, desk: Annotated[DeskContext, Depends(desk_writer)]) -> Response:
    """End this session; the sign-in page says so."""
    await DeskSessions(desk.db, desk.settings).end(desk.principal.id, desk.session_id)
    url = desk_url(request, desk.language, "signin") + "?signedout=1"
    response = RedirectResponse(url, status_code=303)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response
