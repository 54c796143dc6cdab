"""The desk's media library: a grid of uploads (thumbnail, alt text, size, how many records
show each), an upload form (a plain `<input type=file>`: no script needed), an editor of an
image's title, alt text and caption in every language side by side, and the deletion of an
image nothing shows. Everything goes through the API's media service (app/media/service.py),
which decides who may upload, see, change and delete which image, and refuses to delete an
image in use (the desk never sends `force`)."""

from typing import Any

from babel.units import format_unit
from fastapi import APIRouter, Request
from starlette.background import BackgroundTask
from starlette.datastructures import UploadFile
from starlette.responses import Response

from app.core.caching.etags import etag_of
from app.core.errors import ApiError
from app.core.rules.paging import Page
from app.core.rules.permissions import Role
from app.core.web.responses import dumps
from app.desk.context import DeskContext
from app.desk.refusal import Refusal
from app.desk.screens.api_calls import (
    DeskReader,
    DeskWriter,
    Form,
    TranslationRefused,
    flash,
    form_values,
    page_number,
    refusal,
    service_context,
    translation_fields,
    translation_languages,
    translation_params,
    write_step,
)
from app.desk.screens.post_screens import N_
from app.media.commands import MediaQuery, MediaWrite
from app.media.files import media_storage, processing_slots
from app.media.incoming import IncomingFile, too_big
from app.media.service import MediaService, may_manage_upload_of

PER_PAGE = 24
TEXTS = ("title", "alt_text", "caption")
# Where the desk edits each kind of record that may show an image.
EDITORS = {"event": "events", "venue": "venues", "organizer": "organizers"}


def file_size(size: int, language: str) -> str:
    """`412 kB`, `1.5 MB` in the language's digits."""
    if size >= 1_000_000:
        return str(format_unit(size / 1_000_000, "digital-megabyte", "short", "#,##0.#", language))
    return str(format_unit(size / 1000, "digital-kilobyte", "short", "#,##0", language))


def thumbnail(body: dict[str, Any]) -> str:
    """The smallest stored size's address (the full image when it has no smaller size)."""
    sizes = body.get("sizes") or {}
    size = sizes.get("thumbnail") or next(iter(sizes.values()), None)
    return str(size["url"]) if size else str(body["url"])


def service(desk: DeskContext, **options: Any) -> MediaService:
    ctx = service_context(desk, **options)
    return MediaService(ctx, media_storage(desk.request), processing_slots(desk.request))


def _write(texts: Form) -> MediaWrite:
    """The texts of a form (title, alt text, caption: those it holds)."""
    return MediaWrite(
        title=texts.get("title"), alt_text=texts.get("alt_text"), caption=texts.get("caption")
    )


def may_upload(desk: DeskContext) -> bool:
    """Authors and up upload to the library; contributors only for a draft of their own
    (from the event editor), which this screen does not offer."""
    return desk.principal.at_least(Role.AUTHOR)


async def _grid(desk: DeskContext, request: Request, problem: Refusal | None = None) -> Response:
    """The library's page: what the principal may see of it, newest first."""
    search = (request.query_params.get("search") or "").strip()
    number = page_number(request.query_params.get("page"))
    library = service(desk, language=desk.language)
    items, total = await library.find(MediaQuery(search=search or None), Page(number, PER_PAGE))
    uses = await library.use_counts([item["id"] for item in items])
    principal = desk.principal
    cards = [
        {
            "body": item,
            "thumbnail": thumbnail(item),
            "size": file_size(item["filesize"], desk.language),
            "uses": uses.get(item["id"], 0),
            "manageable": may_manage_upload_of(principal, int(item["author"]) or None),
        }
        for item in items
    ]
    return desk.render(
        "desk/media.html",
        status=problem.status if problem else 200,
        cards=cards,
        total=total,
        search=search,
        page=number,
        pages=max(1, -(-total // PER_PAGE)),
        problem=problem,
        may_upload=may_upload(desk),
    )


async def _incoming(request: Request, max_bytes: int) -> IncomingFile:
    """The form's file (the desk's form is read once, the token checked from it): the
    400 or 413 of the API when there is none or it is too large."""
    form = await request.form()
    upload = form.get("file")
    if not isinstance(upload, UploadFile) or not upload.filename:
        raise ApiError(400, "rest_upload_no_data")
    data = await upload.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise too_big(max_bytes)
    if not data:
        raise ApiError(400, "rest_upload_no_data")
    return IncomingFile(data, upload.filename)


async def _editing(desk: DeskContext, media_id: int) -> tuple[dict[str, Any], Form, str]:
    """(the image as the API shows it, the editor's form, its version)."""
    body = await service(desk).get(media_id)
    form: Form = {name: body[name] for name in TEXTS}
    for language in translation_languages(desk):
        shown = await service(desk, language=language).get(media_id)
        form.update(translation_fields(language, {name: shown[name] for name in TEXTS}, form))
    return body, form, etag_of(dumps(body))


async def _editor(
    desk: DeskContext,
    media_id: int,
    *,
    form: Form | None = None,
    problem: Refusal | None = None,
    conflict: bool = False,
) -> Response:
    # An image the principal may not see, or none: the service's refusal, which the desk
    # shows as its error page (app/desk/router.py).
    body, saved, version = await _editing(desk, media_id)
    users = await service(desk).users(media_id)
    return desk.render(
        "desk/media_editor.html",
        status=problem.status if problem else 200,
        image=body,
        thumbnail=thumbnail(body),
        size=file_size(body["filesize"], desk.language),
        form=form if form is not None else saved,
        theirs=saved if conflict else None,
        version=version if conflict or form is None else form.get("version", version),
        users=[(kind, record_id, EDITORS[kind]) for kind, record_id in users],
        problem=problem,
        manageable=may_manage_upload_of(desk.principal, int(body["author"]) or None),
        languages=translation_languages(desk),
        default_language=desk.settings.default_language,
    )


# ---- routes -----------------------------------------------------------------------------

router = APIRouter()


@router.get("/media", include_in_schema=False)
async def media_page(request: Request, desk: DeskReader) -> Response:
    desk.require(desk.can.posts)
    return await _grid(desk, request)


@router.post("/media", include_in_schema=False)
async def upload(request: Request, desk: DeskWriter) -> Response:
    desk.require(desk.can.posts)
    # An empty field is not sent: the title then defaults to the file's name (the service's).
    texts = {name: value for name, value in (await form_values(desk)).items() if value}
    max_bytes = desk.settings.max_upload_bytes

    async def incoming() -> IncomingFile:
        return await _incoming(request, max_bytes)

    try:
        async with write_step(desk):
            media_id, _ = await service(desk).upload(_write(texts), incoming)
    except ApiError as exc:
        return await _grid(desk, request, refusal(exc, desk.language))
    finally:
        await (await request.form()).close()  # the file's spooled copy
    uploaded = N_("Uploaded. Describe the image for people who cannot see it.")
    return desk.redirect(f"media/{media_id}/edit", flash=flash(desk, uploaded))


@router.get("/media/{media_id:id}/edit", include_in_schema=False)
async def edit_page(media_id: int, desk: DeskReader) -> Response:
    desk.require(desk.can.posts)
    return await _editor(desk, media_id)


@router.post("/media/{media_id:id}/edit", include_in_schema=False)
async def update(media_id: int, desk: DeskWriter) -> Response:
    desk.require(desk.can.posts)
    form = await form_values(desk)
    try:
        async with write_step(desk):
            texts = {name: form.get(name, "") for name in TEXTS}
            await service(desk, if_match=form.get("version", "")).update(media_id, _write(texts))
            for language in translation_languages(desk):
                shown = await service(desk, language=language).get(media_id)
                sent = translation_params(form, language, {name: shown[name] for name in TEXTS})
                if sent:
                    try:
                        await service(desk, language=language).update(media_id, _write(sent))
                    except ApiError as exc:
                        raise TranslationRefused(exc, language) from exc
    except (ApiError, TranslationRefused) as exc:
        problem = refusal(exc, desk.language)
        return await _editor(desk, media_id, form=form, problem=problem, conflict=problem.conflict)
    return desk.redirect(f"media/{media_id}/edit", flash=flash(desk, N_("Saved.")))


@router.post("/media/{media_id:id}/delete", include_in_schema=False)
async def delete(media_id: int, desk: DeskWriter) -> Response:
    desk.require(desk.can.posts)
    form = await form_values(desk)
    library = service(desk, if_match=form.get("version", ""))
    try:
        async with write_step(desk):
            _, orphans = await library.delete(media_id)  # never `force`: 409 while in use
    except ApiError as exc:
        return await _editor(desk, media_id, problem=refusal(exc, desk.language))
    response = desk.redirect("media/", flash=flash(desk, N_("Deleted.")))
    # Files go once the deletion is committed: after the response (as the API does).
    response.background = BackgroundTask(library.remove_files, orphans)
    return response
