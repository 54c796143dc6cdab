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

from app.core.errors import ApiError
from app.core.rules.paging import Page
from app.core.rules.permissions import Role
from app.core.web.urls import Urls
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
from app.media.repository import MediaRecord, MediaTexts
from app.media.service import MediaService, may_manage
from app.posts.images import size_rank

PER_PAGE = 24
TEXTS = ("title", "alt_text", "caption")
# Where the desk edits each kind of record that may show an image.
EDITORS = {"event": "events", "venue": "venues", "organizer": "organizers"}


def file_size(size: int, language: str) -> str:
    """`412 kB`, `1.5 MB` in the language's digits."""
    if size >= 1_000_000:
        return str(format_unit(size / 1_000_000, "digital-megabyte", "short", "#,##0.#", language))
    return str(format_unit(size / 1000, "digital-kilobyte", "short", "#,##0", language))


def thumbnail(record: MediaRecord, urls: Urls) -> str:
    """The smallest stored size's address (the full image when it has no smaller size)."""
    sizes = record.sizes
    smallest = min(sizes, key=size_rank) if sizes else None
    return urls.media(sizes[smallest]["file"] if smallest else record.file)


def texts_in(desk: DeskContext, record: MediaRecord, language: str | None = None) -> MediaTexts:
    """The image's texts as the API shows them in `language` (the site's default language
    unless given)."""
    default = desk.settings.default_language
    return record.texts_in(language or default, default)


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
    library = service(desk)
    records, total = await library.find(MediaQuery(search=search or None), Page(number, PER_PAGE))
    uses = await library.use_counts([record.id for record in records])
    cards = [
        {
            "image": record,
            "texts": texts_in(desk, record, desk.language),
            "thumbnail": thumbnail(record, desk.context.urls),
            "size": file_size(record.filesize, desk.language),
            "uses": uses.get(record.id, 0),
            "manageable": may_manage(desk.principal, record),
        }
        for record in records
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


async def _editing(desk: DeskContext, media_id: int) -> tuple[MediaRecord, Form, str]:
    """(the image, the editor's form, its version: the ETag of the API's GET of it)."""
    library = service(desk)
    record = await library.get(media_id)
    form: Form = dict(texts_in(desk, record).by_name())
    for language in translation_languages(desk):
        shown = texts_in(desk, record, language).by_name()
        form.update(translation_fields(language, shown, form))
    return record, form, library.etag(record)


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
    record, saved, version = await _editing(desk, media_id)
    users = await service(desk).users(media_id)
    return desk.render(
        "desk/media_editor.html",
        status=problem.status if problem else 200,
        image=record,
        texts=texts_in(desk, record),
        file=desk.context.urls.media(record.file),
        thumbnail=thumbnail(record, desk.context.urls),
        size=file_size(record.filesize, desk.language),
        form=form if form is not None else saved,
        theirs=saved if conflict else None,
        version=version if conflict or form is None else form.get("version", version),
        users=[(kind, record_id, EDITORS[kind]) for kind, record_id in users],
        problem=problem,
        manageable=may_manage(desk.principal, record),
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
            media_id = (await service(desk).upload(_write(texts), incoming)).record.id
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
                # As saved so far: the default language's texts fill a language without its own.
                shown = texts_in(desk, await service(desk).get(media_id), language).by_name()
                sent = translation_params(form, language, shown)
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
            deleted = await library.delete(media_id)  # never `force`: 409 while in use
    except ApiError as exc:
        return await _editor(desk, media_id, problem=refusal(exc, desk.language))
    response = desk.redirect("media/", flash=flash(desk, N_("Deleted.")))
    # Files go once the deletion is committed: after the response (as the API does).
    response.background = BackgroundTask(library.remove_files, deleted.orphans)
    return response
