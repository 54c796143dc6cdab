"""The list and the editor of venues and organizers, one implementation for both kinds: a
kind declares its fields (`RecordScreens`), and every read and write goes through the API's
post service (app/posts/service.py) with the desk's principal, so roles, ownership,
sanitising, slugs, versions (`If-Match`) and the change log are the API's.

The editor shows the texts of the default language with their German and Slovak
translations side by side. A translation left empty shows the default text (as the API
does for a missing translation); one equal to the default text is shown empty."""

from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.core.errors import ApiError, note
from app.core.rules.constants import TRASH
from app.core.rules.paging import Page
from app.core.rules.permissions import can_create_posts, can_publish, may
from app.core.web.refusals import Refused
from app.desk.context import DeskContext
from app.desk.refusal import Refusal
from app.desk.screens.api_calls import (
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
from app.desk.screens.editor_routes import editor_routes
from app.posts.commands import NO_IMAGE, ImageRef, PostFields, PostQuery, RecordWrite
from app.posts.images import BAD_IMAGE, is_http_url
from app.posts.kind import PostKind
from app.posts.listing import list_posts
from app.posts.service import PostService

PER_PAGE = 20
TEXTS = ("description", "excerpt")  # besides the name: the translated texts
# Sent only when changed (the form keeps what it showed in `was-<name>`): a publication
# date sent again would re-date the record, and a trashed record's slug (`<slug>__trashed`)
# is the service's to give back.
SENT_WHEN_CHANGED = ("date", "slug")


def N_(text: str) -> str:
    """Marks a label for the catalogs; the templates translate it when they show it."""
    return text


STATUS_LABELS = {
    "publish": N_("Published"),
    "future": N_("Scheduled"),
    "draft": N_("Draft"),
    "pending": N_("Pending review"),
    "private": N_("Private"),
    "trash": N_("In the trash"),
}


@dataclass(frozen=True)
class Field:
    """One field of the editor: the API's parameter `name`, shown as `label`."""

    name: str
    label: str
    kind: str = "text"  # text, textarea, url, email, tel, checkbox
    help: str | None = None


@dataclass(frozen=True)
class RecordScreens:
    """The screens of one post kind (venue, organizer)."""

    kind: PostKind[Any]
    title: str  # "Venues"
    new_title: str  # "New venue"
    edit_title: str  # "Edit venue"
    fields: tuple[Field, ...]  # the kind's own fields, after its name and texts
    columns: tuple[Field, ...]  # list columns after the name

    @property
    def path(self) -> str:
        return self.kind.plural  # venues/

    @property
    def removal(self) -> str:
        return "trash"

    @property
    def name_field(self) -> str:
        return self.kind.name  # the API's name parameter: venue, organizer

    # ---- reading ------------------------------------------------------------------------

    def statuses(self, desk: DeskContext, current: str | None) -> list[tuple[str, str]]:
        """The statuses the principal may choose (the service scales any other down)."""
        names = ["draft", "pending"]
        if can_publish(desk.principal):
            names = ["publish", *names, "private"]
        if current in ("future", "trash") or (current and current not in names):
            names.insert(0, current)  # as it is; the service decides what it may become
        return [(name, STATUS_LABELS[name]) for name in names]

    def form_of(self, body: dict[str, Any], password: str | None) -> Form:
        """The editor's values of a record as the API shows it."""
        form: Form = {self.name_field: body[self.name_field]}
        form.update((name, body[name]) for name in TEXTS)
        for field in self.fields:
            value = body.get(field.name)
            # A checkbox as a form posts it: "true" when ticked, nothing otherwise.
            form[field.name] = (
                ("true" if value else "") if field.kind == "checkbox" else value or ""
            )
        image = body.get("image")
        form.update(
            status=body["status"],
            slug=body["slug"],
            date=body["date"],
            image=str(image["id"]) if isinstance(image, dict) and image.get("id") else "",
            password=password or "",
        )
        form.update((f"was-{name}", form[name]) for name in SENT_WHEN_CHANGED)
        return form

    async def _translations(self, desk: DeskContext, record_id: int, form: Form) -> None:
        """Add each translation's texts to `form` as `<language>-<field>`."""
        for language in translation_languages(desk):
            service = PostService(self.kind, service_context(desk, language=language))
            record = await service.by_id(record_id)
            form.update(translation_fields(language, self._texts_of(record), form))

    def _texts_of(self, record: Any) -> dict[str, str]:
        texts = {name: getattr(record, name) for name in TEXTS}
        return {self.name_field: record.name, **texts}

    async def _editing(self, desk: DeskContext, record_id: int) -> tuple[Any, Form, str]:
        """(the record, its form, its version) for the editor; the service's refusal when
        the principal may not read it."""
        service = PostService(self.kind, service_context(desk))
        record, _ = await service.readable(record_id)
        form = self.form_of(service.bodies.one(record), record.password)
        await self._translations(desk, record.id, form)
        return record, form, service.read_etag(record) or ""

    # ---- writing ------------------------------------------------------------------------

    def _write(self, desk: DeskContext, form: Form, *, creating: bool) -> RecordWrite:
        """The service's write of the default language's form fields: every field (an
        empty text clears it) but those of SENT_WHEN_CHANGED unless they were changed, and,
        on a create, nothing empty."""
        sent: dict[str, str | bool] = {self.name_field: form.get(self.name_field, "")}
        sent.update((name, form.get(name, "")) for name in TEXTS)
        for field in self.fields:
            if field.kind == "checkbox":
                sent[field.name] = bool(form.get(field.name))
            else:
                value = form.get(field.name, "")
                sent[field.name] = value.strip() if field.kind == "url" else value
        for name in ("status", "image", "password"):
            sent[name] = form.get(name, "")
        for name in SENT_WHEN_CHANGED:
            if form.get(name, "") != form.get(f"was-{name}", ""):
                sent[name] = form.get(name, "")
        if not sent.get("slug", True):
            del sent["slug"]  # emptied: it stays (a new record's comes from its name)
        if creating:
            sent = {name: value for name, value in sent.items() if value not in ("", False)}
        own = {field.name for field in self.fields}

        def text(name: str) -> str | None:
            value = sent.get(name)
            return value if isinstance(value, str) else None

        image, date = text("image"), text("date")
        return RecordWrite(
            name=text(self.name_field),
            description=text("description"),
            excerpt=text("excerpt"),
            post=PostFields(
                status=text("status"),
                published=None if date is None else _published(date, desk.settings.site_zone),
                image=None if image is None else _image(image),
                slug=text("slug"),
                password=text("password"),
            ),
            details={name: value for name, value in sent.items() if name in own},
        )

    async def _write_translations(self, desk: DeskContext, record_id: int, form: Form) -> None:
        """Save each translation's texts that were filled in and differ from what the
        record shows in that language already (the service's update in that language)."""
        for language in translation_languages(desk):
            ctx = service_context(desk, language=language)
            service = PostService(self.kind, ctx)
            raw = translation_params(form, language, self._texts_of(await service.by_id(record_id)))
            if not raw:
                continue
            texts = RecordWrite(
                name=raw.get(self.name_field),
                description=raw.get("description"),
                excerpt=raw.get("excerpt"),
            )
            try:
                await PostService(self.kind, service_context(desk, language=language)).update(
                    record_id, texts
                )
            except ApiError as exc:
                raise TranslationRefused(exc, language) from exc

    # ---- pages --------------------------------------------------------------------------

    async def list_page(self, desk: DeskContext, request: Request) -> Response:
        search = (request.query_params.get("search") or "").strip()
        page = Page(number=page_number(request.query_params.get("page")), size=PER_PAGE)
        ctx = service_context(desk, language=desk.language)
        items: list[dict[str, Any]] = []
        total, problem = 0, None
        try:
            assert self.kind.posts is not None  # venues and organizers have their list
            query = PostQuery(search=search or None)
            items, total = await list_posts(self.kind, self.kind.posts(ctx), ctx, query, page)
        except ApiError as exc:
            problem = refusal(exc, desk.language)
        return desk.render(
            "desk/records_list.html",
            status=problem.status if problem else 200,
            screen=self,
            items=[self._row(desk, item) for item in items],
            search=search,
            page=page.number,
            pages=max(1, -(-total // PER_PAGE)),
            total=total,
            problem=problem,
            may_create=can_create_posts(desk.principal),
            statuses=STATUS_LABELS,
        )

    def _row(self, desk: DeskContext, body: dict[str, Any]) -> dict[str, Any]:
        author = int(body["author"] or 0) or None
        return {
            "body": body,
            "name": body[self.name_field],
            "editable": may(desk.principal, "edit", author, body["status"]),
        }

    async def _editor(
        self,
        desk: DeskContext,
        *,
        form: Form,
        record: Any | None,
        version: str,
        problem: Refusal | None = None,
        theirs: Form | None = None,
    ) -> Response:
        principal = desk.principal
        if record is None:
            editable, trashable = can_create_posts(principal), False
        else:
            editable = may(principal, "edit", record.author_id, record.status)
            trashable = record.status != TRASH and may(
                principal, "delete", record.author_id, record.status
            )
        return desk.render(
            "desk/records_editor.html",
            status=problem.status if problem else 200,
            screen=self,
            form=form,
            record=record,
            version=version,
            problem=problem,
            theirs=theirs,
            editable=editable,
            trashable=trashable,
            statuses=self.statuses(desk, form.get("status")),
            languages=translation_languages(desk),
            default_language=desk.settings.default_language,
            **await self.shown(desk, record),
        )

    async def shown(self, desk: DeskContext, record: Any | None) -> dict[str, Any]:
        """What a kind's editor shows besides its fields (a venue's place)."""
        return {}

    def labels(self) -> dict[str, str]:
        """The label of each field of the form (translated by the templates)."""
        labels = {self.name_field: N_("Name"), "description": N_("Description")}
        labels.update(excerpt=N_("Excerpt"), status=N_("Status"), date=N_("Publication date"))
        labels.update(slug=N_("Slug"), image=N_("Image"), password=N_("Password"))
        labels.update((field.name, field.label) for field in self.fields)
        return labels

    async def new_page(self, desk: DeskContext) -> Response:
        form: Form = {"status": "publish" if can_publish(desk.principal) else "draft"}
        return await self._editor(desk, form=form, record=None, version="")

    async def create(self, desk: DeskContext) -> Response:
        form = await form_values(desk)
        try:
            async with write_step(desk):
                service = PostService(self.kind, service_context(desk))
                written = await service.create(self._write(desk, form, creating=True))
                record_id = written.record.id
                await self._write_translations(desk, record_id, form)
        except (ApiError, TranslationRefused) as exc:
            problem = refusal(exc, desk.language)
            return await self._editor(desk, form=form, record=None, version="", problem=problem)
        return desk.redirect(f"{self.path}/{record_id}/edit", flash=flash(desk, N_("Saved.")))

    async def edit_page(self, desk: DeskContext, record_id: int) -> Response:
        # A record the principal may not read, or none: the service's refusal, which the
        # desk shows as its error page (app/desk/router.py).
        record, form, version = await self._editing(desk, record_id)
        return await self._editor(desk, form=form, record=record, version=version)

    async def update(self, desk: DeskContext, record_id: int) -> Response:
        form = await form_values(desk)
        version = form.get("version", "")
        try:
            async with write_step(desk):
                ctx = service_context(desk, if_match=version)
                command = self._write(desk, form, creating=False)
                await PostService(self.kind, ctx).update(record_id, command)
                await self._write_translations(desk, record_id, form)
        except (ApiError, TranslationRefused) as exc:
            problem = refusal(exc, desk.language)
            record, theirs, current = await self._editing(desk, record_id)
            # After a conflict the form carries the version saved meanwhile: saving again
            # keeps what the person wrote, knowingly.
            saved = current if problem.conflict else version
            shown = theirs if problem.conflict else None
            return await self._editor(
                desk, form=form, record=record, version=saved, problem=problem, theirs=shown
            )
        return desk.redirect(f"{self.path}/{record_id}/edit", flash=flash(desk, N_("Saved.")))

    async def remove(self, desk: DeskContext, record_id: int) -> Response:
        """Move to the trash (restored from the Trash screen)."""
        form = await form_values(desk)
        ctx = service_context(desk, if_match=form.get("version", ""))
        await PostService(self.kind, ctx).remove(record_id)  # a refusal: the error page
        return desk.redirect(f"{self.path}/", flash=flash(desk, N_("Moved to the trash.")))

    def allowed(self, desk: DeskContext) -> bool:
        """Contributors and up (the nav's rule): the roles that may write such records."""
        return desk.can.posts

    def router(self) -> APIRouter:
        return editor_routes(self)


def _published(text: str, zone: tzinfo) -> datetime | Refused:
    """The publication date field (YYYY-MM-DD HH:MM:SS, the site's wall time)."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        return Refused(note("bad_date", name="date"))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=zone)


def _image(text: str) -> ImageRef:
    """The image field: an image's number, an http(s) URL, or empty for none."""
    text = text.strip()
    if not text:
        return NO_IMAGE
    if text.isascii() and text.isdigit():
        return int(text)
    return text if is_http_url(text) else Refused(BAD_IMAGE)
