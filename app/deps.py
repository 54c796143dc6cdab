"""Request-scoped dependencies shared by every router."""

from typing import Annotated

from fastapi import Depends, Request

from app.config import LANGUAGES, Settings, get_settings
from app.errors import invalid
from app.language import requested_language, set_language
from app.params import RawParams, raw_params

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
