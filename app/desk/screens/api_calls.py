"""Calling the API's services from a desk screen: the request context a service takes (the
desk's principal, session and language; the version the form was read at as `If-Match`; a
form's values go to the service as its typed inputs, app/*/commands.py), a write in a
savepoint, and a service's refusal as a form shows it."""

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends

from app.core.errors import ApiError
from app.desk.context import DeskContext, desk_reader, desk_writer
from app.desk.refusal import Refusal
from app.http.context import RequestContext
from app.i18n import DESK_TEXTS, LANGUAGES

Form = dict[str, Any]
# A screen's desk context: a page (GET) of a signed-in desk user; a form's POST, its CSRF
# token checked too.
DeskReader = Annotated[DeskContext, Depends(desk_reader)]
DeskWriter = Annotated[DeskContext, Depends(desk_writer)]


def service_context(
    desk: DeskContext, *, language: str | None = None, if_match: str | None = None
) -> RequestContext:
    """What the API's handlers give a service, for this desk request (`DeskContext.api_context`):
    texts are read and written in `language` (the site's default language unless given)."""
    return desk.api_context(language=language, if_match=if_match or None)


def translation_languages(desk: DeskContext) -> list[str]:
    """The languages texts are translated into: every one but the default."""
    return [language for language in LANGUAGES if language != desk.settings.default_language]


@asynccontextmanager
async def write_step(desk: DeskContext) -> AsyncIterator[None]:
    """One write of a screen (several service calls: the record, then its translations),
    all or nothing: a refusal (raised through) rolls back what the write did so far, so
    that the form shown with the refusal reads the record as it is saved. (The page of a
    refusal, 4xx, commits nothing anyway: DeskContext.render.)"""
    async with desk.db.begin_nested():
        yield


class TranslationRefused(Exception):
    """The service refused the texts of one translation (`language`)."""

    def __init__(self, error: ApiError, language: str) -> None:
        super().__init__(error.code)
        self.error = error
        self.language = language


def refusal(error: ApiError | TranslationRefused, language: str) -> Refusal:
    """`error` as a form in `language` shows it; the fields of a translation's refusal
    carry the translation's prefix (`de-venue`)."""
    prefix = ""
    if isinstance(error, TranslationRefused):
        prefix = f"{error.language}-"
        error = error.error
    body = error.body(language)
    params = body["data"].get("params") or {}
    fields = {f"{prefix}{name}": str(text) for name, text in params.items()}
    return Refusal(error.status, error.code, str(body["message"]), fields)


async def form_values(desk: DeskContext) -> dict[str, str]:
    """The posted form's text fields (a file field is the media screen's to read); the
    token and the version the form was read at are not parameters of the services."""
    form = await desk.request.form()
    return {
        name: value
        for name, value in form.multi_items()
        if isinstance(value, str) and name != "csrf_token"
    }


def flash(desk: DeskContext, message: str) -> str:
    """A message of the desk's catalog in the desk's language, for `DeskContext.redirect`."""
    return DESK_TEXTS.gettext(desk.language, message)


def page_number(value: str | None) -> int:
    """A list's `page` query value: 1 unless it is a whole number of at least 1."""
    return int(value) if value is not None and value.isdigit() and int(value) >= 1 else 1


# ---- translations side by side ------------------------------------------------------------
# A translation's field is named `<language>-<name>`. The API shows a text without a
# translation in the default language; the editor shows such a text (equal to the default
# one) empty, and saves only the texts that were filled in and differ from what the record
# shows in that language already.


def translation_fields(language: str, shown: Mapping[str, str], source: Form) -> Form:
    """The form fields of one language's texts (`shown`: as the API shows them in it)."""
    return {
        f"{language}-{name}": value if value != source.get(name) else ""
        for name, value in shown.items()
    }


def translation_params(form: Form, language: str, shown: Mapping[str, str]) -> dict[str, str]:
    """The parameters of a write in `language`: its filled-in texts that changed."""
    sent = {name: str(form.get(f"{language}-{name}") or "") for name in shown}
    return {name: value for name, value in sent.items() if value and value != shown[name]}
