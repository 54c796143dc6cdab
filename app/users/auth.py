"""Who the caller is: application passwords, and the desk's session cookie for reads.

Application passwords are random (192 bits), so a fast keyed hash is enough to store them: no
per-request bcrypt. Clients send them as HTTP Basic (`login:password`, what clients of the
reference use) or as `Authorization: Bearer <password>`.

A desk session's cookie (app/users/sessions.py) signs in reads only: a GET or HEAD of the API
or of the public pages with it is that person's read (the response cache stores and serves
no request with a cookie: app/core/asgi/scopes.py). A write with only the cookie is anonymous:
API writes take application passwords, and the desk's own forms check their CSRF token
(app/desk/context.py). This module is the one place that decides it.
"""

import base64
import binascii
import hashlib
import hmac
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Request

from app.core.app_services import services_of
from app.core.database.engine import ROUTE_KEY, Session, SessionMaker
from app.core.database.replica import Route
from app.core.errors import ApiError
from app.core.rules.permissions import Principal
from app.core.settings import Settings
from app.users.repository import UserRepository
from app.users.sessions import COOKIE, DeskSessions, SignedIn

log = logging.getLogger("almanac.auth")

PASSWORD_BYTES = 24
USER_STATE_KEY = "user"
DESK_SESSION_STATE_KEY = "desk_session"
COOKIE_READS = frozenset({"GET", "HEAD"})


def new_password() -> str:
    return secrets.token_urlsafe(PASSWORD_BYTES)


def hash_password(password: str, pepper: str) -> str:
    # WordPress shows application passwords in groups separated by spaces; clients may
    # send them either way.
    normalised = "".join(password.split())
    return hmac.new(pepper.encode(), normalised.encode(), hashlib.sha256).hexdigest()


# 16 bits: see pepper_fingerprint.
PEPPER_FINGERPRINT_CHARS = 4


def pepper_fingerprint(pepper: str) -> str:
    """A fingerprint of the pepper, kept with each application password issued under it:
    enough to tell that the pepper changed since (a different pepper has the same one once in
    65,536), too little to test guesses of a secret pepper against a stolen database (every
    65,536th guess matches)."""
    digest = hmac.new(pepper.encode(), b"almanac pepper fingerprint", hashlib.sha256)
    return digest.hexdigest()[:PEPPER_FINGERPRINT_CHARS]


def _credentials(header: str) -> tuple[str | None, str] | None:
    """(login or None, password) from an Authorization header; None if not ours."""
    scheme, _, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() == "bearer" and value:
        return None, value
    if scheme.lower() == "basic":
        try:
            decoded = base64.b64decode(value, validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            raise ApiError(401, "invalid_username", "malformed_authorization") from None
        login, sep, password = decoded.partition(":")
        if not sep or not login:
            raise ApiError(401, "invalid_username", "malformed_authorization")
        return login, password
    return None


async def authenticate(request: Request, session: Session, settings: Settings) -> Principal | None:
    """The caller, None when anonymous; wrong credentials are a 401 on every route."""
    if USER_STATE_KEY in request.scope.get("state", {}):
        cached: Principal | None = request.state.user
        return cached
    header = request.headers.get("authorization")
    principal = None
    if header:
        services = services_of(request)
        limiter, metrics = services.failed_logins, services.metrics
        client = request.client.host if request.client else "unknown"
        reader = getattr(request.state, "version_reader", None)  # none in in-process tests
        # The throttle and the data version (which validates cached callers) in one read.
        wait, version = await limiter.check(client, reader)
        if wait:
            metrics.throttled()
            raise ApiError(429, "rest_too_many_requests", headers={"Retry-After": str(wait)})
        principals = services.principals
        principal = principals.get(header, version) if version is not None else None
        pepper = settings.app_password_pepper
        if principal is None:
            try:
                async with security_session(request, session) as lookup:
                    principal = await _caller(header, lookup, pepper)
            except ApiError:
                metrics.failed_signin()
                await limiter.record(client, reader)
                raise
            if principal is not None and version is not None:
                principals.put(header, version, principal)
    else:
        principal = await session_reader(request, session, settings)
    request.state.user = principal
    return principal


async def session_reader(
    request: Request, session: Session, settings: Settings
) -> Principal | None:
    """The person of a read (GET/HEAD) that carries a live desk session's cookie; None for
    any write, whatever cookie it carries, and for a read without one."""
    if request.method not in COOKIE_READS:
        return None
    signed_in = await desk_session(request, session, settings)
    return signed_in.principal if signed_in is not None else None


async def desk_session(request: Request, session: Session, settings: Settings) -> SignedIn | None:
    """The live desk session the request's cookie names (once per request), else None. The
    desk's own screens use it for every method; `authenticate` for reads only."""
    state = request.scope.setdefault("state", {})
    if DESK_SESSION_STATE_KEY in state:
        known: SignedIn | None = state[DESK_SESSION_STATE_KEY]
        return known
    token = request.cookies.get(COOKIE)
    found = None
    if token:
        async with security_session(request, session) as lookup:
            found = await DeskSessions(lookup, settings).resume(token)
    state[DESK_SESSION_STATE_KEY] = found
    return found


@asynccontextmanager
async def security_session(request: Request, session: Session) -> AsyncIterator[Session]:
    """Where credentials and roles are read: never a replica's copy, which may still hold a
    revoked password, a removed user or an old role (and the cached caller is filed under
    the primary's version, read before this lookup)."""
    route: Route | None = getattr(request.state, ROUTE_KEY, None)
    if route is None or route.server == "primary":
        yield session
        return
    primary: SessionMaker = request.state.read_sessionmaker
    async with primary() as lookup:
        yield lookup


async def _caller(header: str, session: Session, pepper: str) -> Principal | None:
    """The caller an Authorization header names (None: not a scheme of ours)."""
    credentials = _credentials(header)
    if credentials is None:
        return None
    return await _principal(UserRepository(session), pepper, *credentials)


# What the log has been told already (once per process): the login (None: bearer tokens)
# and the fingerprints of the peppers its passwords were issued under.
_told: set[tuple[str | None, frozenset[str]]] = set()


async def _tell_changed_pepper(users: UserRepository, pepper: str, login: str | None) -> None:
    """After a failed sign-in: a WARNING (once) when none of the application passwords it
    could have used was issued under today's APP_PASSWORD_PEPPER, so that none of them can
    verify. Only in the log: the response says nothing a guesser could learn from."""
    issued = await users.pepper_fingerprints(login)
    current = pepper_fingerprint(pepper)
    if not issued or current in issued:
        return  # unknown (issued before fingerprints were kept), or a wrong password
    key = (login.lower() if login else None, frozenset(issued))
    if key in _told:
        return
    _told.add(key)
    whose = f"of {login!r}" if login else "in use"
    log.warning(
        "A sign-in failed: APP_PASSWORD_PEPPER changed since the application passwords %s "
        "were issued (pepper fingerprint %s, today's %s), so none of them verifies. Restore "
        "the old pepper, or issue new passwords (almanac users password LOGIN).",
        whose,
        ", ".join(sorted(issued)),
        current,
    )


async def _principal(
    users: UserRepository, pepper: str, login: str | None, password: str
) -> Principal:
    found = await users.by_password(hash_password(password, pepper))
    if found is not None and (login is None or found.login.lower() == login.lower()):
        return found
    await _tell_changed_pepper(users, pepper, login)
    # One answer whether the login exists or not (WordPress tells them apart, which lets
    # anybody find out which logins exist): `incorrect_password`, the code clients know.
    raise ApiError(401, "incorrect_password", "wrong_credentials")
