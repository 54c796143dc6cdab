"""The event editor: `events/new` and `events/{id}/edit` (issue 30).

Thin: read the form, map it (app/desk/events/form.py), write through the API's services
(app/desk/events/editing.py), and show the form again with the service's refusal and the
values sent, or go on to the saved event. `events/preview` answers the next dates of the
series the form describes, as an HTML fragment (the editor's script) or inside the whole
form (the "Preview dates" button without scripts).
"""

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Annotated, cast
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from starlette.datastructures import FormData
from starlette.responses import Response

from app.core.errors import ApiError
from app.core.rules.dates import ZoneError
from app.core.rules.html import POST_TAGS
from app.core.rules.permissions import (
    can_manage_terms,
    can_post_unfiltered_html,
    can_publish,
    can_see_attendees,
    poster,
)
from app.core.web.urls import urls_of
from app.desk.context import (
    DeskContext,
    body_refused,
    desk_reader,
    desk_upload_writer,
    desk_writer,
)
from app.desk.events.editing import Editing, NewImage, new_image, preview_dates, refusal, time_zones
from app.desk.events.form import (
    SCOPES,
    FormValues,
    blank_form,
    changed,
    event_write,
    record_form,
    translation_form,
    translation_params,
)
from app.desk.events.messages import LABELS, megabytes, too_big
from app.desk.events.recurrence_form import (
    DEFAULTS_FIELD,
    WEEKDAYS,
    WEEKS,
    follow_start,
    from_fields,
    to_lines,
)
from app.desk.events.series_dates import PER_PAGE, DatesPage, series_dates
from app.desk.form_once import FIELD as TOKEN_FIELD
from app.desk.form_once import FormOnce, new_token, valid_token
from app.desk.refusal import Refusal
from app.events.commands import EventWrite, Scope
from app.events.records import EventRecord
from app.events.serializer import public_url
from app.i18n import DESK_TEXTS, N_

router = APIRouter()
Reader = Annotated[DeskContext, Depends(desk_reader)]
Writer = Annotated[DeskContext, Depends(desk_writer)]


# A form too large to be read is let through as a read: the route shows the editor again
# with the reason at the image field, and writes nothing.
EditorWriter = Annotated[DeskContext, Depends(desk_upload_writer)]

# Form fields sent once per row or per checked box (everything else is one value).
LISTS = (
    "organizers",
    "organizer_name",
    "organizer_email",
    "organizer_phone",
    "categories",
    "repeat_weekdays",
    "repeat_rdate",
    "repeat_exdate",
)
# The rich-text toolbar's tags (labels in the template); a button shows when the user may
# keep its tag (app/core/rules/html.py).
TOOLBAR = ("strong", "em", "a", "h2", "h3", "ul", "ol", "blockquote")


def _editing(desk: DeskContext) -> Editing:
    return Editing(desk)


def _form_values(form: FormData) -> FormValues:
    values: FormValues = {name: [] for name in LISTS}
    for name, value in form.multi_items():
        if not isinstance(value, str):
            continue  # the image file: read on its own
        if name in LISTS:
            values[name].append(value)
        else:
            values[name] = value
    return follow_start(values)


def _texts(editing: Editing, values: FormValues) -> dict[str, dict[str, str]]:
    return {lang: translation_params(values, lang) for lang in editing.translations}


def _toolbar(desk: DeskContext) -> list[str]:
    unfiltered = can_post_unfiltered_html(desk.principal)
    return [tag for tag in TOOLBAR if unfiltered or tag in POST_TAGS]


async def _page(
    desk: DeskContext,
    editing: Editing,
    values: FormValues,
    *,
    record: EventRecord | None = None,
    problem: Refusal | None = None,
    field_errors: dict[str, str] | None = None,
    theirs: FormValues | None = None,
    preview: list[datetime] | None = None,
    status: int = 200,
    dates_page: int = 1,
) -> Response:
    errors = dict(problem.fields if problem else {})
    errors.update(field_errors or {})
    user = desk.principal
    series = record is not None and bool(record.recurrence)
    head = record is not None and record.id == record.series_id
    dates: DatesPage | None = None
    if series and head and record is not None:
        dates = await series_dates(desk.db, record, dates_page)
    return desk.render(
        "desk/editor.html",
        status=status,
        values=values,
        errors=errors,
        problem=problem,
        theirs=theirs,
        preview=preview,
        record=record,
        series=series,
        scopes=SCOPES,
        default_scope=("all" if record is None or record.id == record.series_id else "this"),
        action=desk.url("events/new" if record is None else f"events/{record.id}/edit"),
        preview_url=desk.url("events/preview"),
        options=await editing.options(),
        time_zones=time_zones(),
        translations=editing.translations,
        default_language=desk.settings.default_language,
        toolbar=_toolbar(desk),
        allowed_tags=" ".join(sorted(POST_TAGS)) if not can_post_unfiltered_html(user) else "",
        can_publish=can_publish(user),
        can_add_tags=can_manage_terms(user, "manage_tags"),
        weekdays=WEEKDAYS,
        weeks=WEEKS,
        series_dates=dates,
        per_page=PER_PAGE,
        one_date=series and not head,
        labels=LABELS,
        max_upload_bytes=desk.settings.max_upload_bytes,
        max_upload=megabytes(desk.settings.max_upload_bytes),
        public_url=_public_url(desk, record),
        attendees=record is not None and can_see_attendees(user, record.author_id),
    )


def _public_url(desk: DeskContext, record: EventRecord | None) -> str | None:
    """The event's public page, once the public can read it."""
    if record is None or record.status != "publish" or record.password:
        return None
    return public_url(record, urls_of(desk.request, desk.settings))


@router.get("/events/new")
async def new_event(request: Request, desk: Reader) -> Response:
    """A new event's form, at an address of its own (`?form=<one-time token>`: a fresh
    "Add event" is redirected there). Back after saving loads that address again, with the
    same token, so that saving again opens the event made the first time; the browser
    restores what was typed (without scripts too)."""
    editing = _editing(desk)
    try:
        poster(desk.principal)  # subscribers: the API's 403 for creating events
    except ApiError as error:
        return _refused(desk, error)
    form = request.query_params.get("form", "")
    if not valid_token(form):
        return desk.redirect(f"events/new?{urlencode({'form': new_token()})}")
    return await _page(desk, editing, _new_values(desk, form))


def _new_values(desk: DeskContext, token: str) -> FormValues:
    """A new event's form, with its one-time token (app/desk/form_once.py) and the day its
    repeat builder's defaults are set for."""
    values = blank_form(desk.settings.site_timezone, datetime.now(desk.settings.site_zone))
    values[TOKEN_FIELD] = token
    values[DEFAULTS_FIELD] = values["start_day"]
    return values


@router.post("/events/new")
async def create_event(request: Request, desk: EditorWriter) -> Response:
    editing = _editing(desk)
    if body_refused(request) is not None:
        return await _too_large(desk, editing, _new_values(desk, new_token()), None)
    sent = await _submission(request, desk, editing, None)
    if isinstance(sent, Response):
        return sent
    once = FormOnce(desk, str(sent.values.get(TOKEN_FIELD, "")))
    made = await once.made_before()
    if made is not None:  # this form was saved already: its event, not a second one
        return desk.redirect(
            made, flash=DESK_TEXTS.gettext(desk.language, N_("This form was saved already."))
        )
    try:
        event_id = await editing.create(sent.write, _texts(editing, sent.values), sent.image)
    except ApiError as error:
        return await _refused_form(desk, editing, sent.values, None, error)
    await once.made(f"events/{event_id}/edit")
    return await _saved(desk, editing, event_id, sent.values)


@router.get("/events/{event_id:id}/edit")
async def edit_event(event_id: int, request: Request, desk: Reader) -> Response:
    editing = _editing(desk)
    try:
        record = await editing.editable(event_id)
    except ApiError as error:
        return _refused(desk, error)
    values = await _record_values(editing, record)
    # The page of the series' dates: a number the pager wrote; anything else is the first.
    page = request.query_params.get("dates", "")
    dates_page = int(page) if page.isdigit() and len(page) < 6 else 1
    return await _page(desk, editing, values, record=record, dates_page=dates_page)


@router.post("/events/{event_id:id}/edit")
async def update_event(event_id: int, request: Request, desk: EditorWriter) -> Response:
    editing = _editing(desk)
    try:
        record = await editing.editable(event_id)
    except ApiError as error:
        return _refused(desk, error)
    if body_refused(request) is not None:
        return await _too_large(desk, editing, await _record_values(editing, record), record)
    sent = await _submission(request, desk, editing, record)
    if isinstance(sent, Response):
        return sent
    shown, _ = event_write(await _record_values(editing, record), desk.settings.site_zone)
    write = changed(sent.write, shown)
    scope = str(sent.values.get("scope", ""))
    if record.recurrence and scope in SCOPES:
        write = replace(write, scope=cast(Scope, scope))
    texts = _texts(editing, sent.values)
    version = str(sent.values.get("version", ""))
    try:
        saved = await editing.update(record, write, texts, sent.image, version=version)
    except ApiError as error:
        if error.status == 412:
            return await _conflict(desk, editing, sent.values, event_id, error)
        return await _refused_form(desk, editing, sent.values, record, error)
    return await _saved(desk, editing, saved, sent.values, before=record.status)


@router.post("/events/preview")
async def preview(request: Request, desk: Writer) -> Response:
    """The next dates, as a fragment the editor's script puts in place."""
    values = _form_values(await request.form())
    write, errors = event_write(values, desk.settings.site_zone)
    dates, problem = _dates(desk, values, write, errors)
    return desk.render(
        "desk/editor_preview.html",
        status=400 if problem else 200,
        preview=dates,
        problem=problem,
    )


# ---- pieces -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Submission:
    """A form sent to be saved: its values, the event service's write and a chosen file."""

    values: FormValues
    write: EventWrite
    image: NewImage | None


async def _submission(
    request: Request, desk: DeskContext, editing: Editing, record: EventRecord | None
) -> Submission | Response:
    """The form to save, or the page to answer instead: the dates previewed ("Preview
    dates" without scripts), or the fields the form could not even read."""
    form = await request.form()
    values = _form_values(form)
    write, errors = event_write(values, desk.settings.site_zone)
    if values.get("action") == "preview":
        return await _preview_page(desk, editing, values, write, record)
    if errors:
        return await _page(desk, editing, values, record=record, field_errors=errors, status=400)
    image = await new_image(form.get("image_file"), str(values.get("image_alt", "")))
    return Submission(values, write, image)


# What a save did, by the status the event has after it.
SAVED = {
    "publish": N_("Published."),
    "future": N_("Scheduled for publication."),
    "pending": N_("Sent for review."),
    "private": N_("Saved as private."),
}


async def _saved(
    desk: DeskContext, editing: Editing, event_id: int, values: FormValues, before: str = ""
) -> Response:
    """Post/redirect/get: the saved event's editor, saying what happened: "Published." (or
    "Sent for review." ...) when the press of Publish or Submit for review changed the
    status (from `before`), "Saved." otherwise (an update of a published event)."""
    record = await editing.editable(event_id)
    pressed = values.get("action") in ("publish", "review")
    said = SAVED.get(record.status, "Saved.") if pressed and record.status != before else "Saved."
    return desk.redirect(f"events/{event_id}/edit", flash=DESK_TEXTS.gettext(desk.language, said))


async def _too_large(
    desk: DeskContext, editing: Editing, values: FormValues, record: EventRecord | None
) -> Response:
    """The form's body was over the limit and never read: the form again as it can be shown
    (a new one, or the event as saved), the reason at the image field."""
    limit = desk.settings.max_upload_bytes
    message = DESK_TEXTS.gettext(
        desk.language,
        N_(
            "The form was too large to be received, so nothing was saved and what you typed "
            "could not be kept. Choose a smaller image and fill in the form again."
        ),
    )
    problem = Refusal(413, "", message, {"image_file": too_big(desk.language, limit)})
    return await _page(desk, editing, values, record=record, problem=problem, status=413)


async def _refused_form(
    desk: DeskContext,
    editing: Editing,
    values: FormValues,
    record: EventRecord | None,
    error: ApiError,
) -> Response:
    """The form again, with the service's refusal and the values sent (nothing written)."""
    problem = refusal(error, desk.language, values, desk.settings.max_upload_bytes)
    return await _page(desk, editing, values, record=record, problem=problem, status=error.status)


async def _record_values(editing: Editing, record: EventRecord) -> FormValues:
    values = record_form(record)
    for language in editing.translations:
        translated = await editing.in_language(record.id, language)
        values.update(translation_form(translated, language, record))
    values["version"] = editing.version(record)
    if not record.recurrence:  # the builder at its defaults: they follow the start date
        values[DEFAULTS_FIELD] = values["start_day"]
    return values


def _dates(
    desk: DeskContext, values: FormValues, write: EventWrite, errors: dict[str, str]
) -> tuple[list[datetime], Refusal | None]:
    if errors:
        return [], Refusal(400, "", "", dict.fromkeys(errors, ""))
    lines = to_lines(from_fields(values, {}))
    values = {**values, "site_timezone": desk.settings.site_timezone}
    try:
        return preview_dates(values, lines, write), None
    except ApiError as error:
        return [], refusal(error, desk.language, values)
    except (ValueError, ZoneError):
        return [], Refusal(400, "", "", {"start_day": ""})


async def _preview_page(
    desk: DeskContext,
    editing: Editing,
    values: FormValues,
    write: EventWrite,
    record: EventRecord | None,
) -> Response:
    dates, problem = _dates(desk, values, write, {})
    return await _page(
        desk,
        editing,
        values,
        record=record,
        problem=problem,
        preview=dates,
        status=400 if problem else 200,
    )


async def _conflict(
    desk: DeskContext, editing: Editing, values: FormValues, event_id: int, error: ApiError
) -> Response:
    """Someone saved the event after this form was opened: their version beside the
    user's (kept in the form), and the form now carries their version, so that saving
    again writes the user's text over theirs deliberately."""
    record = await editing.editable(event_id)
    theirs = await _record_values(editing, record)
    values = {**values, "version": theirs["version"]}
    problem = refusal(error, desk.language)
    return await _page(
        desk, editing, values, record=record, problem=problem, theirs=theirs, status=error.status
    )


def _refused(desk: DeskContext, error: ApiError) -> Response:
    problem = refusal(error, desk.language)
    return desk.render("desk/editor_refused.html", status=error.status, problem=problem)
