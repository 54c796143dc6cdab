"""Request-scoped dependencies shared by every router: one request context resolved once."""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from app.core.edge.app_services import services_of
from app.core.edge.errors import invalid, no_route
from app.core.edge.ratelimit import Guesses
from app.core.edge.urls import Urls, urls_of
from app.core.infra.database import MakerDep, Session, session_scope
from app.core.infra.settings import Settings
from app.core.rules.permissions import Principal
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


async def request_context(
    request: Request, language: LanguageDep, maker: MakerDep
) -> AsyncIterator[RequestContext]:
    """One dependency for everything a handler needs. The parameters, the session, the caller
    and the URLs are resolved here rather than as dependencies of their own: FastAPI's
    resolution of each dependency costs more than the work it wraps, on every request. The
    session factory stays one (`MakerDep`): the tests and the statement counter replace it."""
    settings = services_of(request).settings
    raw = await raw_params(request)
    reads = services_of(request).anonymous_reads
    async with session_scope(request, maker, services_of(request)) as session:
        user = await authenticate(request, session, settings)
        urls = urls_of(request, settings)
        if_match = request.headers.get("if-match")
        # After authenticating (which reads nothing for anonymous callers): credentials
        # that fail are a 401, not a way around the anonymous share of the pool.
        guesses = password_guesses(request)
        async with reads.admitted(request.method, user is None):
            yield RequestContext(raw, language, user, session, urls, settings, if_match, guesses)


def password_guesses(request: Request) -> Guesses:
    """The request's client's record-password guesses (app/core/edge/ratelimit.py)."""
    client = request.client.host if request.client else "unknown"
    reader = getattr(request.state, "version_reader", None)  # none in in-process tests
    return Guesses(services_of(request).failed_logins, client, reader)


# scope="function": the session commits before the response goes out, so a failed commit
# is reported to the client instead of a 2xx for lost data.
ContextDep = Annotated[RequestContext, Depends(request_context, scope="function")]
