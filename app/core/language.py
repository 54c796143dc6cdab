"""Which language a request reads and writes: `i18n_language` wins over the path segment."""

from fastapi import Request

from app.core.settings import LANGUAGES

LANGUAGE_STATE_KEY = "language"


def _path_language(request: Request) -> str | None:
    """The `/{lang}/calendar/...` segment, when the route was reached through it."""
    segment = request.path_params.get("lang")
    if segment is None:
        path = request.url.path[len(request.scope.get("root_path", "")) :]
        first = path.lstrip("/").split("/", 1)[0]
        segment = first if first in LANGUAGES else None
    return str(segment) if segment is not None else None


def requested_language(request: Request, body_value: object = None) -> str | None:
    """The raw language asked for (may be invalid), or None for the default."""
    if isinstance(body_value, str):
        return body_value
    query = request.query_params.get("i18n_language")
    if query is not None:
        return query
    return _path_language(request)


def language_of(request: Request) -> str:
    """The language of the response; never raises (used while reporting errors too)."""
    stored = request.scope.get("state", {}).get(LANGUAGE_STATE_KEY)
    if stored:
        return str(stored)
    wanted = requested_language(request)
    return wanted if wanted in LANGUAGES else str(request.app.state.settings.default_language)


def set_language(request: Request, language: str) -> None:
    request.state.language = language
