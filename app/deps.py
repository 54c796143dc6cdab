"""Request-scoped dependencies shared by every router."""

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth import CurrentUser
from app.config import LANGUAGES, Settings, get_settings
from app.db import SessionDep
from app.errors import invalid
from app.language import requested_language, set_language
from app.params import RawParams, raw_params
from app.permissions import Principal
from app.urls import Urls, UrlsDep

SettingsDep = Annotated[Settings, Depends(get_settings)]
RawParamsDep = Annotated[RawParams, Depends(raw_params)]


async def get_language(request: Request, raw: RawParamsDep, settings: SettingsDep) -> str:
    """`i18n_language` (any parameter source) or the path segment; unknown values are a 400."""
    wanted = requested_language(request, raw.get("i18n_language"))
    language = settings.default_language if wanted is None else wanted
    if language not in LANGUAGES:
        set_language(request, settings.default_language)
        raise invalid("i18n_language", ("unknown_language", {"languages": ", ".join(LANGUAGES)}))
    set_language(request, language)
    return language


LanguageDep = Annotated[str, Depends(get_language)]


@dataclass(frozen=True, slots=True)
class RequestContext:
    """What most handlers need, resolved once: parameters, language, caller, session, URLs."""

    raw: RawParams
    language: str
    user: Principal | None
    session: AsyncSession
    urls: Urls


async def request_context(
    raw: RawParamsDep, language: LanguageDep, user: CurrentUser, session: SessionDep, urls: UrlsDep
) -> RequestContext:
    return RequestContext(raw=raw, language=language, user=user, session=session, urls=urls)


ContextDep = Annotated[RequestContext, Depends(request_context)]
