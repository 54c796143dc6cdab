"""Which language a request reads and writes: one rule, `negotiate`, for the API, the pages
and the desk, and the readers of a request each of them uses.

The rule: the language the request names (the API's `i18n_language` parameter, else the path's
`/de/` or `/sk/` prefix), else the best one `Accept-Language` asks for, else the default. The
pages and the desk are named by their path alone (a URL is one page, docs/design.md, Public
pages), so they give no header. The API reads the header only when neither of the first two is
given; the request then records that it was read, so that `Vary` names it
(app/core/web/middleware.py) and the response cache keys on it.
"""

from urllib.parse import parse_qsl

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.types import Scope

from app.i18n.languages import LANGUAGES

LANGUAGE_STATE_KEY = "language"
HEADER_READ_STATE_KEY = "accept_language_read"


class UnknownLanguage(ValueError):
    """The request names a language the site does not have."""


def negotiate(default: str, asked: str | None = None, accept_language: str | None = None) -> str:
    """The language of a request: `asked` (what it names), else the best of ours that
    `accept_language` (the header's value) asks for, else `default`. Raises UnknownLanguage
    when `asked` is not one of ours."""
    if asked is not None:
        if asked not in LANGUAGES:
            raise UnknownLanguage(asked)
        return asked
    return accepted_language(accept_language) or default


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


def prefix_language(path: str) -> str | None:
    """The language a path (after the root path) names by its first segment, if one of ours."""
    first = path.lstrip("/").split("/", 1)[0]
    return first if first in LANGUAGES else None


def _relative(scope: Scope) -> str:
    path: str = scope.get("path", "")
    return path[len(scope.get("root_path", "")) :]


# ---- the pages and the desk: the path alone ----


def path_language(request: Request, default: str) -> str:
    """A page's or a desk screen's language: its path's prefix, else `default`."""
    return negotiate(default, prefix_language(_relative(request.scope)))


# ---- the API: the parameter, the path, then the header ----


def requested_language(request: Request, body_value: object = None) -> str | None:
    """The raw language asked for by parameter or path segment (may be invalid), else None."""
    if isinstance(body_value, str):
        return body_value
    query = request.query_params.get("i18n_language")
    if query is not None:
        return query
    segment = request.path_params.get("lang")
    if segment is not None:
        return str(segment)
    return prefix_language(_relative(request.scope))


def header_language(request: Request, default: str) -> str:
    """The `Accept-Language` choice (else `default`), noting that the header was read."""
    request.scope.setdefault("state", {})[HEADER_READ_STATE_KEY] = True
    return negotiate(default, accept_language=request.headers.get("accept-language"))


def language_of(request: Request, default: str) -> str:
    """The language of the response; never raises (used while reporting errors too)."""
    stored = request.scope.get("state", {}).get(LANGUAGE_STATE_KEY)
    if stored:
        return str(stored)
    wanted = requested_language(request)
    try:
        if wanted is not None:
            return negotiate(default, wanted)
    except UnknownLanguage:
        return default
    language = header_language(request, default)
    request.scope["state"][LANGUAGE_STATE_KEY] = language  # Content-Language says the same
    return language


def set_language(request: Request, language: str) -> None:
    request.state.language = language


# ---- the edge, before (or without) the app: a raw ASGI scope ----


def scope_accepted_language(scope: Scope) -> str | None:
    """`accepted_language` of a raw ASGI scope's header (for the response cache's key)."""
    return accepted_language(Headers(scope=scope).get("accept-language"))


def scope_language(scope: Scope, default: str) -> str:
    """The language an answer is in (`Content-Language`): the one the app chose, else the
    query's `i18n_language` or the path's prefix when one of ours, else the header's."""
    state = scope.get("state") or {}
    if state.get(LANGUAGE_STATE_KEY):
        return str(state[LANGUAGE_STATE_KEY])
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
    named = query.get("i18n_language")
    asked = named if named in LANGUAGES else prefix_language(_relative(scope))
    if asked is not None:
        return negotiate(default, asked)
    # Neither given, and the app did not run (a response from the cache, whose key holds
    # the header's choice) or did not get that far: the header decides, and Vary says so.
    scope.setdefault("state", {})[HEADER_READ_STATE_KEY] = True
    return negotiate(default, accept_language=Headers(scope=scope).get("accept-language"))


def header_was_read(scope: Scope) -> bool:
    """Did `Accept-Language` decide the language (so that responses vary on it)?"""
    return bool((scope.get("state") or {}).get(HEADER_READ_STATE_KEY))
