"""What every desk screen gets: the signed-in person, the request's database session, the
language, the CSRF token and the CSP nonce, and how to answer (`render`, `redirect`).

Screens take it as a dependency:

    @router.get("/events")
    async def events(desk: DeskContext = Depends(desk_reader)) -> Response: ...

    @router.post("/events/{event_id}/trash")
    async def trash(event_id: int, desk: DeskContext = Depends(desk_writer)) -> Response: ...

`desk_reader` (GET/HEAD) and `desk_writer` (POST) send a person without a live session to
the sign-in page (303, `next=` the page they asked for); `desk_writer` refuses with 403 a
form without the session's CSRF token and a cross-site post (Origin / Sec-Fetch-Site). The
database session commits before the response goes out, unless the answer is an error page
(`render` with a 4xx status: a refused form writes nothing)."""

import hmac
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Annotated, Any
from urllib.parse import quote, unquote, urlencode

from fastapi import Depends, Request
from starlette.datastructures import Headers
from starlette.responses import HTMLResponse, RedirectResponse, Response

from app.core.app_services import services_of
from app.core.database.engine import (
    MakerDep,
    Session,
    SessionMaker,
    SessionServices,
    session_scope,
)
from app.core.errors import ApiError
from app.core.rules.permissions import Principal, Role, can_create_posts, can_manage_terms
from app.core.security.csp import new_nonce
from app.core.settings import Settings
from app.core.web.middleware import BODY_REFUSED_STATE_KEY
from app.desk.headers import NONCE_STATE_KEY
from app.desk.paths import DESK, desk_parts
from app.http.context import FindCaller, RequestContext, open_request_context
from app.i18n import LANGUAGES, N_, path_language
from app.i18n.dates import format_moment
from app.users.auth import desk_session
from app.users.sessions import COOKIE, SignedIn

FLASH_COOKIE = "almanac_desk_flash"
FLASH_LENGTH = 500
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
DISCARD_STATE_KEY = "desk_discard"
# The screens of the nav, in its order: (path under /desk/, label); who sees which is `Can`.
NAV = (
    ("events/", N_("Events")),
    ("events/new", N_("Add event")),
    ("venues/", N_("Venues")),
    ("organizers/", N_("Organizers")),
    ("categories/", N_("Categories")),
    ("tags/", N_("Tags")),
    ("media/", N_("Media")),
    ("trash/", N_("Trash")),
    ("users/", N_("Users")),
    ("outbox/", N_("Outbox")),
    ("sessions/", N_("My sessions")),
)
ROLE_NAMES = {
    Role.ADMINISTRATOR: N_("Administrator"),
    Role.EDITOR: N_("Editor"),
    Role.AUTHOR: N_("Author"),
    Role.CONTRIBUTOR: N_("Contributor"),
    Role.SUBSCRIBER: N_("Subscriber"),
}


class SignInNeeded(Exception):
    """No live desk session: the sign-in page, back to `next_path` afterwards; `ended`: a
    cookie came with the request, but its session was ended, idled out or expired."""

    def __init__(self, language: str, next_path: str | None, ended: bool) -> None:
        super().__init__("sign-in needed")
        self.language = language
        self.next_path = next_path
        self.ended = ended


class DeskRefused(Exception):
    """A request the desk refuses (a missing CSRF token, a cross-site post, a screen the role
    may not use): an error page with `status` and `message` (a text of the desk's catalog)."""

    def __init__(self, status: int, message: str, language: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.language = language


@dataclass(frozen=True, slots=True)
class Can:
    """Which screens a role may use: what the nav and the home page offer (the services
    still decide every action)."""

    principal: Principal | None

    @property
    def posts(self) -> bool:
        """Events, venues, organizers, media and the trash: contributors and up."""
        return can_create_posts(self.principal)

    @property
    def categories(self) -> bool:
        return can_manage_terms(self.principal, "manage_categories")

    @property
    def tags(self) -> bool:
        return can_manage_terms(self.principal, "manage_tags")

    @property
    def review(self) -> bool:
        """Sees the events waiting for review (and may publish them)."""
        return self.principal is not None and self.principal.at_least(Role.EDITOR)

    @property
    def users(self) -> bool:
        return self.principal is not None and self.principal.role == Role.ADMINISTRATOR

    @property
    def outbox(self) -> bool:
        """The messages to attendees, waiting, sent or failed: editors and up."""
        return self.principal is not None and self.principal.at_least(Role.EDITOR)

    def screen(self, path: str) -> bool:
        section = path.split("/", 1)[0]
        if section in ("events", "venues", "organizers", "media", "trash"):
            return self.posts
        if section in ("categories", "tags", "users", "outbox"):
            return bool(getattr(self, section))
        return self.principal is not None


def desk_language(request: Request) -> str:
    settings = services_of(request).settings
    return path_language(request, settings.default_language)


def _relative(request: Request) -> str:
    return request.url.path[len(request.scope.get("root_path", "")) :] or "/"


def desk_url(request: Request, language: str, path: str = "") -> str:
    """A desk path in `language`: `desk_url(r, "de", "events/")` is `/de/desk/events/`
    (after the root path; the default language has no prefix)."""
    settings = services_of(request).settings
    root = str(request.scope.get("root_path", "")).rstrip("/")
    prefix = "" if language == settings.default_language else f"/{language}"
    return f"{root}{prefix}/{DESK}/{path.lstrip('/')}"


def static_url(request: Request, name: str) -> str:
    root = str(request.scope.get("root_path", "")).rstrip("/")
    return f"{root}/{DESK}/static/{name}"


def here(request: Request) -> str:
    """The desk-relative path of the request (`events/12/edit`), without a trailing slash."""
    parts = desk_parts(_relative(request))
    return parts[1].rstrip("/") if parts is not None else ""


def current_nav(path: str) -> str | None:
    """The nav entry the page at `path` belongs to: the longest that names it or a parent."""
    matching = [
        entry
        for entry, _ in NAV
        if path == entry.rstrip("/") or (entry.endswith("/") and path.startswith(entry))
    ]
    return max(matching, key=lambda entry: len(entry.rstrip("/")), default=None)


def nonce_of(request: Request) -> str:
    state = request.scope.setdefault("state", {})
    if NONCE_STATE_KEY not in state:  # set by DeskHeaders on every desk path
        state[NONCE_STATE_KEY] = new_nonce()
    return str(state[NONCE_STATE_KEY])


def flash_cookie(response: Response, message: str) -> None:
    """Show `message` once, on the next desk page this browser opens."""
    response.set_cookie(
        FLASH_COOKIE,
        quote(message[:FLASH_LENGTH]),
        max_age=120,
        path="/",
        httponly=True,
        samesite="lax",
    )


def render_desk(
    request: Request,
    language: str,
    template: str,
    status: int = 200,
    *,
    principal: Principal | None = None,
    csrf_token: str | None = None,
    **values: Any,
) -> Response:
    """A desk template with what the layout needs; a flash message waiting in the cookie is
    shown and cleared. Signed-in or not (the sign-in page, the error pages)."""
    settings = services_of(request).settings
    request.state.language = language  # Content-Language
    if status >= 400:
        setattr(request.state, DISCARD_STATE_KEY, True)
    templates = services_of(request).desk_templates
    path = here(request)
    flash = unquote(request.cookies.get(FLASH_COOKIE, ""))[:FLASH_LENGTH] or None
    html = templates.render(
        language,
        template,
        request=request,
        user=principal,
        can=Can(principal),
        csrf_token=csrf_token,
        nonce=nonce_of(request),
        moment=lambda value: format_moment(value, language, settings.site_zone),
        flash=flash,
        here=path,
        nav=NAV,
        role_names={role.value: name for role, name in ROLE_NAMES.items()},
        current=current_nav(path),
        url=lambda target="": desk_url(request, language, target),
        static=lambda name: static_url(request, name),
        alternates=[(code, desk_url(request, code, path)) for code in LANGUAGES],
        site_name=settings.site_name or (request.headers.get("host") or "almanac"),
        **values,
    )
    response = HTMLResponse(html, status_code=status, headers={"Content-Language": language})
    if flash:
        response.delete_cookie(FLASH_COOKIE, path="/", httponly=True, samesite="lax")
    return response


@dataclass
class DeskContext:
    """One signed-in desk request (see the module docstring)."""

    # The request's context (app/http/context.py), texts in the site's default language.
    context: RequestContext
    principal: Principal
    language: str
    csrf_token: str
    nonce: str
    request: Request
    session_id: int
    can: Can = field(init=False)

    def __post_init__(self) -> None:
        self.can = Can(self.principal)

    @property
    def db(self) -> Session:
        return self.context.session

    @property
    def settings(self) -> Settings:
        return self.context.settings

    def url(self, path: str = "") -> str:
        """A desk path in the context's language: `.url("events/")` is `/de/desk/events/`."""
        return desk_url(self.request, self.language, path)

    def render(self, template: str, status: int = 200, **values: Any) -> Response:
        """`template` (under app/desk/templates/, e.g. "desk/home.html") in the layout; a
        status of 400 and up rolls the request's writes back."""
        return render_desk(
            self.request,
            self.language,
            template,
            status,
            principal=self.principal,
            csrf_token=self.csrf_token,
            desk=self,
            **values,
        )

    def redirect(self, path: str, flash: str | None = None) -> Response:
        """303 to a desk path (`.url(path)`, or `path` itself when it starts with "/"), the
        answer to a successful POST; `flash` shows once on the page it leads to."""
        target = path if path.startswith("/") else self.url(path)
        response = RedirectResponse(target, status_code=303)
        if flash:
            flash_cookie(response, flash)
        return response

    def api_context(
        self, *, language: str | None = None, if_match: str | None = None
    ) -> RequestContext:
        """A request context for the API's services, as this person: `language` the
        language of the records' texts (default: the site's default language, whatever the
        desk's own language is). The services take typed inputs: it carries no parameters."""
        return replace(
            self.context,
            raw={},
            language=language or self.settings.default_language,
            if_match=if_match,
        )

    def message(self, error: ApiError) -> str:
        """A service's refusal in the desk's language (the API's own text), for a form."""
        return str(error.body(self.language)["message"])

    def require(self, allowed: bool) -> None:
        """403 unless `allowed` (a screen the role may not use)."""
        if not allowed:
            raise DeskRefused(403, N_("You may not use this screen."), self.language)


class _Discard(Exception):
    """Raised inside the session's scope to roll it back (an error page was rendered)."""


@asynccontextmanager
async def desk_session_scope(
    request: Request, maker: SessionMaker, services: SessionServices
) -> AsyncIterator[Session]:
    """The request's session, committed before the response is sent (unless an error page
    was rendered: rolled back)."""
    try:
        async with session_scope(request, maker, services) as db:
            yield db
            if getattr(request.state, DISCARD_STATE_KEY, False):
                raise _Discard
    except _Discard:
        pass


class DeskRequest:
    """A dependency: the desk request's context (app/http/context.py
    `open_request_context`), its person found by `gate` (which refuses the request, or
    sends it to the sign-in page, before the screen runs); no anonymous share of the pool
    and no throttle of record passwords (the desk's people are signed in)."""

    def __init__(self, gate: FindCaller) -> None:
        self.gate = gate

    async def __call__(self, request: Request, maker: MakerDep) -> AsyncIterator[RequestContext]:
        settings = services_of(request).settings
        async with open_request_context(
            request,
            maker,
            settings.default_language,
            caller=self.gate,
            session=desk_session_scope,
            guesses=False,
        ) as ctx:
            yield ctx


async def _live_session(request: Request, db: Session, settings: Settings) -> SignedIn:
    """The request's live desk session; without one, the sign-in page."""
    language = desk_language(request)
    request.state.language = language
    found = await desk_session(request, db, settings)
    if found is None:
        next_path = None
        if request.method in ("GET", "HEAD"):
            query = request.url.query
            next_path = request.url.path + (f"?{query}" if query else "")
        raise SignInNeeded(language, next_path, ended=COOKIE in request.cookies)
    request.state.user = found.principal  # the access log's user id
    return found


async def _nobody(request: Request, db: Session, settings: Settings) -> None:
    """No one yet: the sign-in screens look the session up themselves."""
    return None


async def _reader(request: Request, db: Session, settings: Settings) -> Principal:
    return (await _live_session(request, db, settings)).principal


async def _writer(request: Request, db: Session, settings: Settings) -> Principal:
    """A same-origin form that carries the session's CSRF token (see `desk_writer`)."""
    language = desk_language(request)
    refuse_cross_site(request, language)
    found = await _live_session(request, db, settings)
    if body_refused(request) is not None:
        raise DeskRefused(
            413, N_("The form was too large to be received, so nothing was saved."), language
        )
    await check_csrf(request, found.csrf_token, language)
    return found.principal


async def _upload_writer(request: Request, db: Session, settings: Settings) -> Principal:
    """`_writer`, but a form too large to be read (its body was never received, so no CSRF
    token either) is let through as a read, once it is known to come from this site."""
    if body_refused(request) is None:
        return await _writer(request, db, settings)
    refuse_cross_site(request, desk_language(request))
    return await _reader(request, db, settings)


# scope="function": the session commits before the response goes out (as the API's).
SigningIn = Annotated[RequestContext, Depends(DeskRequest(_nobody), scope="function")]
Reading = Annotated[RequestContext, Depends(DeskRequest(_reader), scope="function")]
Writing = Annotated[RequestContext, Depends(DeskRequest(_writer), scope="function")]
Uploading = Annotated[RequestContext, Depends(DeskRequest(_upload_writer), scope="function")]


async def desk_database(ctx: SigningIn) -> Session:
    """The session of a desk request before anyone is signed in (the sign-in screens)."""
    return ctx.session


DeskDatabase = Annotated[Session, Depends(desk_database)]


async def _desk(request: Request, ctx: RequestContext) -> DeskContext:
    """The desk's context of a request its gate let through."""
    # The live session the gate found, kept by the request (app/users/auth.py).
    found = await desk_session(request, ctx.session, ctx.settings)
    assert found is not None, "the desk's gates let nobody through without a live session"
    return DeskContext(
        context=ctx,
        principal=found.principal,
        language=desk_language(request),
        csrf_token=found.csrf_token,
        nonce=nonce_of(request),
        request=request,
        session_id=found.id,
    )


async def desk_reader(request: Request, ctx: Reading) -> DeskContext:
    """A signed-in desk read; without a live session, a 303 to the sign-in page."""
    return await _desk(request, ctx)


DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def _normal_origin(scheme: str, host: str) -> str:
    """`scheme://host[:port]`, lower case, without the scheme's default port (a browser's
    Origin leaves it out; a Host header may not)."""
    scheme, host = scheme.lower(), host.lower()
    default = DEFAULT_PORTS.get(scheme)
    if default and host.endswith(default):
        host = host[: -len(default)]
    return f"{scheme}://{host}"


def _origin(request: Request) -> str:
    """This site's origin as the browser sees it (the trusted proxy's scheme and host)."""
    host = Headers(scope=request.scope).get("host") or ""
    return _normal_origin(request.url.scheme, host)


def refuse_cross_site(request: Request, language: str) -> None:
    """403 for a form posted from another origin. Browsers say where a request comes from:
    `Sec-Fetch-Site` (same-origin, or none for one the person started), else `Origin`. A
    request that sends neither is no browser's cross-site form (the CSRF token still counts).
    Another port of the same host is same-site but not same-origin: refused too."""
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site.lower() not in ("same-origin", "none"):
        raise DeskRefused(403, N_("This form was sent from another site."), language)
    origin = request.headers.get("origin")
    scheme, _, host = (origin or "").partition("://")
    if origin is not None and _normal_origin(scheme, host) != _origin(request):
        raise DeskRefused(403, N_("This form was sent from another site."), language)


async def check_csrf(request: Request, expected: str, language: str) -> None:
    """The form's `csrf_token` field, or (a screen's script posting) the `X-CSRF-Token`
    header, must be the session's token."""
    sent: object = request.headers.get(CSRF_HEADER)
    if sent is None:
        sent = (await request.form()).get(CSRF_FIELD)
    if not isinstance(sent, str) or not hmac.compare_digest(sent.encode(), expected.encode()):
        raise DeskRefused(
            403, N_("The form has expired. Go back, reload the page and try again."), language
        )


def body_refused(request: Request) -> int | None:
    """The limit (bytes) a form's body was over, when the edge did not read it
    (app/core/web/middleware.py): the desk answers with a page saying so, never JSON."""
    limit = request.scope.get("state", {}).get(BODY_REFUSED_STATE_KEY)
    return int(limit) if limit is not None else None


async def desk_writer(request: Request, ctx: Writing) -> DeskContext:
    """A signed-in desk write: a same-origin form that carries the session's CSRF token;
    else 403 (or, without a live session, the sign-in page). A form too large to be read
    is a 413 page (a screen that can show its own form with the message uses
    `desk_upload_writer`)."""
    return await _desk(request, ctx)


async def desk_upload_writer(request: Request, ctx: Uploading) -> DeskContext:
    """`desk_writer` for a screen that shows its own form again when the form was too large
    to be received (the event editor: the reason at the image field); it writes nothing
    then (`body_refused`)."""
    return await _desk(request, ctx)


def signin_url(request: Request, language: str, next_path: str | None, **flags: str) -> str:
    query = {**({"next": next_path} if next_path else {}), **flags}
    url = desk_url(request, language, "signin")
    return f"{url}?{urlencode(query)}" if query else url
