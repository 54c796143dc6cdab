"""What the event editor does, through the API's services only (app/events/service.py, the
media service, the list code of venues, organizers and categories): one implementation of
every rule. The editor builds the request context a route of the API would get, with the
desk user as the caller, and hands the service the typed write the form maps to
(app/desk/events/form.py: an EventWrite).

A save is all or nothing: it runs in a savepoint, so a refusal at any step (the event, a
translation, the image) leaves nothing written, and the form is shown again with the
values sent.
"""

import zoneinfo
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from itertools import islice
from typing import Any

from starlette.datastructures import UploadFile

from app.core.errors import ApiError, forbidden
from app.core.rules.dates import parse_zone
from app.core.rules.paging import Page
from app.core.rules.permissions import may
from app.desk.context import DeskContext
from app.desk.events.form import FormValues
from app.desk.events.messages import field_messages
from app.desk.refusal import Refusal
from app.events.commands import EventWrite, Scope
from app.events.records import EventRecord
from app.events.recurrence import parse_recurrence
from app.events.service import EventService
from app.http.context import RequestContext
from app.i18n import LANGUAGES
from app.media.commands import MediaQuery, MediaWrite
from app.media.files import media_storage, processing_slots
from app.media.incoming import IncomingFile, too_big
from app.media.repository import MediaRecord
from app.media.service import MediaService
from app.organizers.kind import ORGANIZERS
from app.posts.commands import PostFields, PostQuery
from app.posts.listing import list_posts
from app.terms.commands import TermQuery
from app.terms.repository import TermRecord
from app.terms.service import CATEGORIES, TermService
from app.venues.kind import VENUES

PREVIEW_DATES = 10
OPTIONS_PER_PAGE = 100


@cache
def time_zones() -> tuple[str, ...]:
    """Every IANA zone name, for the searchable list (a datalist: no script needed)."""
    return ("UTC", *sorted(zoneinfo.available_timezones() - {"UTC"}))


def refusal(
    error: ApiError,
    language: str,
    values: FormValues | None = None,
    max_upload_bytes: int = 0,
) -> Refusal:
    """The refusal as the form shows it: a refusal about fields has each message at its
    field (app/desk/events/messages.py) and no message of its own, so that the page does
    not repeat the API's parameter names ("Invalid parameter(s): end_date")."""
    fields = field_messages(error, language, values or {}, max_upload_bytes)
    message = "" if fields else str(error.body(language)["message"])
    return Refusal(error.status, error.code, message, fields)


@dataclass(frozen=True)
class NewImage:
    """A file chosen in the form, and its alt text."""

    file: IncomingFile
    alt: str


async def new_image(upload: UploadFile | str | None, alt: str) -> NewImage | None:
    if not isinstance(upload, UploadFile) or not upload.filename:
        return None
    try:
        data = await upload.read()
    finally:
        await upload.close()  # the form's spooled file: closed at once, not by the collector
    return NewImage(IncomingFile(data, upload.filename), alt.strip()) if data else None


class Editing:
    """The API's services, called as the desk's signed-in person in this request."""

    def __init__(self, desk: DeskContext) -> None:
        self.desk = desk
        self.request = desk.request
        self.session = desk.db
        self.settings = desk.settings
        self.user = desk.principal

    def context(
        self, *, language: str | None = None, if_match: str | None = None
    ) -> RequestContext:
        """The request context of the services for this person. Texts are the default
        language's unless `language` names a translation."""
        return self.desk.api_context(language=language, if_match=if_match)

    @property
    def translations(self) -> list[str]:
        return [lang for lang in LANGUAGES if lang != self.settings.default_language]

    # ---- reading ------------------------------------------------------------------------

    async def editable(self, event_id: int) -> EventRecord:
        """The event (or date of a series) if the user may edit it: the service's 404, or
        the 403 the API answers an update of it."""
        service = EventService(self.context())
        record = await service.by_id(event_id)
        if not may(self.user, "edit", record.author_id, record.status):
            raise forbidden(self.user.login, self.user.role.value)  # the API's answer
        return record

    async def in_language(self, event_id: int, language: str) -> EventRecord:
        return await EventService(self.context(language=language)).by_id(event_id)

    def version(self, record: EventRecord) -> str:
        """The ETag the API's GET of the record gives this user: the form's version."""
        return EventService(self.context()).read_etag(record) or ""

    async def options(self) -> dict[str, Any]:
        """Venues, organizers, categories and images to choose from, as the API lists them
        to this user."""
        ctx = self.context()
        page = Page(1, OPTIONS_PER_PAGE)
        assert VENUES.posts is not None
        assert ORGANIZERS.posts is not None
        venues, _ = await list_posts(VENUES, VENUES.posts(ctx), ctx, PostQuery(), page)
        organizers, _ = await list_posts(ORGANIZERS, ORGANIZERS.posts(ctx), ctx, PostQuery(), page)
        categories, _ = await TermService(CATEGORIES, ctx).list(TermQuery(hide_empty=False), page)
        library = MediaService(ctx, media_storage(self.request))
        images, _ = await library.find(MediaQuery(), Page(1, 50))
        return {
            "venues": [(str(v["id"]), str(v["venue"])) for v in venues],
            "organizers": [(str(o["id"]), str(o["organizer"])) for o in organizers],
            "categories": category_tree(categories),
            "media": [image_choice(ctx, image) for image in images],
        }

    # ---- writing ------------------------------------------------------------------------

    async def create(
        self,
        write: EventWrite,
        texts: dict[str, dict[str, str]],
        image: NewImage | None,
    ) -> int:
        """A new event; its ID. Refused as a whole (ApiError) or written as a whole."""
        async with self.session.begin_nested():
            event_id = (await EventService(self.context()).create(write)).record.id
            await self._translate(event_id, texts, scope="all")
            await self._image(event_id, image, scope="all")
            return event_id

    async def update(
        self,
        record: EventRecord,
        write: EventWrite,
        texts: dict[str, dict[str, str]],
        image: NewImage | None,
        *,
        version: str | None,
    ) -> int:
        """Write what changed on `record`; the ID the editor shows next (a split series'
        new one). A `version` that is no longer the record's is the API's 412."""
        async with self.session.begin_nested():
            ctx = self.context(if_match=version or None)
            shown = (await EventService(ctx).update(record.id, write)).record.id
            scope: Scope = "this" if write.scope == "this" else "all"
            target = record.id if scope == "this" else shown
            await self._translate(target, texts, scope=scope)
            await self._image(target, image, scope=scope)
            return shown

    async def _translate(
        self, event_id: int, texts: dict[str, dict[str, str]], scope: Scope
    ) -> None:
        for language, sent in texts.items():
            if sent:
                ctx = self.context(language=language)
                await EventService(ctx).update(event_id, translation_write(sent, scope))

    async def _image(self, event_id: int, image: NewImage | None, scope: Scope) -> None:
        """An uploaded image goes to the media library (for this event: the right a
        contributor needs), then becomes the event's image."""
        if image is None:
            return
        media = MediaService(
            self.context(), media_storage(self.request), processing_slots(self.request)
        )

        async def file() -> IncomingFile:
            if len(image.file.data) > self.settings.max_upload_bytes:
                raise too_big(self.settings.max_upload_bytes)
            return image.file

        uploaded = await media.upload(MediaWrite(alt_text=image.alt, post=event_id), file)
        media_id = uploaded.record.id
        command = EventWrite(post=PostFields(image=media_id), scope=scope)
        await EventService(self.context()).update(event_id, command)


@dataclass(frozen=True)
class ImageChoice:
    """An image of the library the editor offers: its full file's address and its texts in
    the context's language."""

    id: int
    url: str
    title: str
    alt_text: str


def image_choice(ctx: RequestContext, image: MediaRecord) -> ImageChoice:
    texts = image.texts_in(ctx.language, ctx.settings.default_language)
    return ImageChoice(image.id, ctx.urls.media(image.file), texts.title, texts.alt_text)


def translation_write(texts: dict[str, str], scope: Scope) -> EventWrite:
    """The write of one language's texts (title, description, excerpt: those filled in)."""
    return EventWrite(
        title=texts.get("title"),
        description=texts.get("description"),
        excerpt=texts.get("excerpt"),
        scope=scope,
    )


def preview_dates(values: FormValues, lines: list[str], write: EventWrite) -> list[datetime]:
    """The next dates of the series the form describes, as the API expands them (local
    wall times); a 400 from the same rule reader the API uses when the lines are wrong,
    and a ValueError when the start is no date."""
    zone_name = str(write.timezone or values.get("site_timezone") or "UTC")
    if not lines or (write.start is None and "start_date" not in write.refused):
        return []
    if write.start is None:
        raise ValueError("the start is no date")
    parse_zone(zone_name)  # ZoneError when it names no zone
    rules = parse_recurrence(lines, write.start, zone_name)
    return list(islice(rules.starts(), PREVIEW_DATES))


def category_tree(terms: list[TermRecord]) -> list[tuple[str, str, int]]:
    """(ID, name, depth) of the categories, each after its parent."""
    children: dict[int, list[TermRecord]] = {}
    ids = {term.id for term in terms}
    for term in terms:
        parent = term.parent_id or 0
        children.setdefault(parent if parent in ids else 0, []).append(term)
    tree: list[tuple[str, str, int]] = []

    def walk(parent: int, depth: int) -> None:
        for term in sorted(children.get(parent, []), key=lambda t: t.name.lower()):
            tree.append((str(term.id), term.name, depth))
            walk(term.id, depth + 1)

    walk(0, 0)
    return tree
