"""Which language a request reads and writes.

Precedence: the `i18n_language` parameter, then the `/{lang}/calendar/...` path segment, then
the `Accept-Language` header (with its q-values), then `DEFAULT_LANGUAGE`. The header is read
only when neither of the first two is given; the request then records that it was read, so
that `Vary` names it (app/core/edge/middleware.py) and the response cache keys on it.
"""

from fastapi import Request
from starlette.types import Scope

from app.core.edge.app_services import services_of
from app.core.edge.scopes import header
from app.core.infra.settings import LANGUAGES

LANGUAGE_STATE_KEY = "language"
HEADER_READ_STATE_KEY = "accept_language_read"


def _path_language(request: Request) -> str | None:
    """The `/{lang}/calendar/...` segment, when the route was reached through it."""
    segment = request.path_params.get("lang")
    if segment is None:
        path = request.url.path[len(request.scope.get("root_path", "")) :]
        first = path.lstrip("/").split("/", 1)[0]
        segment = first if first in LANGUAGES else None
    return str(segment) if segment is not None else None


def requested_language(request: Request, body_value: object = None) -> str | None:
    """The raw language asked for by parameter or path segment (may be invalid), else None."""
    if isinstance(body_value, str):
        return body_value
    query = request.query_params.get("i18n_language")
    if query is not None:
        return query
    return _path_language(request)


def accepted_language(value: str | None) -> str | None:
    """The best of our languages an `Accept-Language` header asks for, or None.

    `de-AT` matches `de`; the highest q wins, the earlier entry on a tie; `q=0` refuses a
    language; `*` stands for any language not named (answered with None: the default).
    """
    if not value:
        return None
    best: tuple[float, int, str] | None = None
    refused: set[str] = set()
    for position, item in enumerate(value.split(",")[:32]):
        tag, _, params = item.strip().partition(";")
        primary = tag.strip().split("-", 1)[0].lower()
        quality = _quality(params)
        if quality is None:
            continue
        if quality == 0:
            refused.add(primary)
            continue
        if primary in LANGUAGES and primary not in refused:
            candidate = (quality, -position, primary)
            if best is None or candidate > best:
                best = candidate
    return best[2] if best is not None else None


def _quality(params: str) -> float | None:
    """The q of an entry's parameters (1 when absent), None when malformed."""
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                quality = float(value.strip())
            except ValueError:
                return None
            return quality if 0 <= quality <= 1 else None
    return 1.0


def scope_accepted_language(scope: Scope) -> str | None:
    """`accepted_language` of a raw ASGI scope's header (for the response cache's key)."""
    return accepted_language(header(scope, b"accept-language"))


def header_language(request: Request, default: str) -> str:
    """The `Accept-Language` choice (else `default`), noting that the header was read."""
    request.scope.setdefault("state", {})[HEADER_READ_STATE_KEY] = True
    return accepted_language(request.headers.get("accept-language")) or default


def language_of(request: Request) -> str:
    """The language of the response; never raises (used while reporting errors too)."""
    stored = request.scope.get("state", {}).get(LANGUAGE_STATE_KEY)
    if stored:
        return str(stored)
    wanted = requested_language(request)
    if wanted in LANGUAGES:
        return str(wanted)
    default = str(services_of(request).settings.default_language)
    if wanted is not None:
        return default
    language = header_language(request, default)
    request.scope["state"][LANGUAGE_STATE_KEY] = language  # Content-Language says the same
    return language


def set_language(request: Request, language: str) -> None:
    request.state.language = language
