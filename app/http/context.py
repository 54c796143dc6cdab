"""The request context: what a service needs of a request (its language, caller, session,
URLs, settings), opened by one function for the API, the pages and the desk
(`open_request_context`); the API's dependency (`ContextDep`) and its language."""

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from app.core.app_services import services_of
from app.core.database.engine import (
    MakerDep,
    Session,
    SessionMaker,
    SessionServices,
    session_scope,
)
from app.core.errors import invalid, no_route
from app.core.rules.permissions import Principal
from app.core.security.ratelimit import Guesses
from app.core.settings import Settings
from app.core.web.urls import Urls, urls_of
from app.http.raw_params import RawParams, raw_params
from app.i18n import (
    LANGUAGES,
    UnknownLanguage,
    header_language,
    negotiate,
    requested_language,
    set_language,
)
from app.users.auth import authenticate

RawParamsDep = Annotated[RawParams, Depends(raw_params)]


async def get_language(request: Request) -> str:
    """`i18n_language` (any parameter source), the path segment, then `Accept-Language`
    (app/i18n/negotiation.py). An unknown path segment is no route of ours (404); an unknown
    parameter value is a 400. The parameters and settings are read directly, not as
    dependencies: every route resolves this one, and FastAPI's resolution of a dependency
    costs more than reading them."""
    settings = services_of(request).settings
    raw = await raw_params(request)  # read once per request, then kept in its state
    segment = request.path_params.get("lang")
    if segment is not None and segment not in LANGUAGES:
        set_language(request, settings.default_language)
        raise no_route()
    wanted = requested_language(request, raw.get("i18n_language"))
    try:
        language = (
            header_language(request, settings.default_language)
            if wanted is None
            else negotiate(settings.default_language, wanted)
        )
    except UnknownLanguage:
        set_language(request, settings.default_language)
        languages = ", ".join(LANGUAGES)
        raise invalid("i18n_language", ("unknown_language", {"languages": languages})) from None
    set_language(request, language)
    return language


LanguageDep = Annotated[str, Depends(get_language)]


@dataclass(frozen=True, slots=True)
class RequestContext:
    """What handlers need, resolved once: parameters, language, caller, session, URLs and
    the settings."""

    raw: RawParams
    language: str
    user: Principal | None
    session: Session
    urls: Urls
    settings: Settings
    # The request's `If-Match` header: writes check it under the record's row lock.
    if_match: str | None = None
    # The client's wrong record passwords, throttled with its failed logins (none: not
    # throttled, e.g. a context made for a background task).
    guesses: Guesses | None = None

    @property
    def translated(self) -> bool:
        """Are texts read and written in another language than the default one?"""
        return self.language != self.settings.default_language


# How a door finds the caller on the request's session: application passwords (and a desk
# session's cookie on reads) for the API, the cookie on reads for the pages, the desk's
# session, after its own checks, for the desk. None: anonymous.
FindCaller = Callable[[Request, Session, Settings], Awaitable[Principal | None]]
# How a door opens the request's session and what it commits (`session_scope`: committed
# before the response goes out, the app's after-commit hooks run after a write).
OpenSession = Callable[
    [Request, SessionMaker, SessionServices], AbstractAsyncContextManager[Session]
]


def read_only(
    request: Request, maker: SessionMaker, services: SessionServices
) -> AbstractAsyncContextManager[Session]:
    """A session that commits nothing, whatever the method (the pages': no data version is
    drawn)."""
    return maker()


@asynccontextmanager
async def open_request_context(
    request: Request,
    maker: SessionMaker,
    language: str,
    *,
    caller: FindCaller,
    session: OpenSession = session_scope,
    admitted_as: str | None = None,
    guesses: bool = True,
    raw: RawParams | None = None,
    if_match: str | None = None,
) -> AsyncIterator[RequestContext]:
    """The context of a request at any door (the API, the pages, the desk), open while the
    request is served. What differs between the doors are the arguments: `caller` finds the
    caller; `session` opens the session and decides what it commits; `admitted_as`, the
    method an anonymous caller's read is admitted to its share of the pool as (None: no
    share); `guesses`, whether wrong record passwords are throttled; `raw` and `if_match`
    the API's parameters and `If-Match` header (none elsewhere)."""
    services = services_of(request)
    settings = services.settings
    async with session(request, maker, services) as db:
        user = await caller(request, db, settings)
        urls = urls_of(request, settings)
        # After finding the caller (which reads nothing for anonymous callers): credentials
        # that fail are a 401, not a way around the anonymous share of the pool.
        admission = (
            nullcontext()
            if admitted_as is None
            else services.anonymous_reads.admitted(admitted_as, user is None)
        )
        throttle = password_guesses(request) if guesses else None
        async with admission:
            yield RequestContext(
                {} if raw is None else raw, language, user, db, urls, settings, if_match, throttle
            )


async def request_context(
    request: Request, language: LanguageDep, maker: MakerDep
) -> AsyncIterator[RequestContext]:
    """The API's one dependency for everything a handler needs. The parameters, the session,
    the caller and the URLs are resolved here rather than as dependencies of their own:
    FastAPI's resolution of each dependency costs more than the work it wraps, on every
    request. The session factory stays one (`MakerDep`): the tests and the statement counter
    replace it."""
    raw = await raw_params(request)
    async with open_request_context(
        request,
        maker,
        language,
        caller=authenticate,
        admitted_as=request.method,
        raw=raw,
        if_match=request.headers.get("if-match"),
    ) as ctx:
        yield ctx


def password_guesses(request: Request) -> Guesses:
    """The request's client's record-password guesses (app/core/security/ratelimit.py)."""
    client = request.client.host if request.client else "unknown"
    reader = getattr(request.state, "version_reader", None)  # none in in-process tests
    return Guesses(services_of(request).failed_logins, client, reader)


# scope="function": the session commits before the response goes out, so a failed commit
# is reported to the client instead of a 2xx for lost data.
ContextDep = Annotated[RequestContext, Depends(request_context, scope="function")]
