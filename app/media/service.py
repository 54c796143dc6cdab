"""The rules of the media library: who may upload, see, change and delete which image, and
what a write means (docs/design.md#media).

Rights follow WordPress's: authors and up upload and manage their own images, editors and
administrators every image; contributors upload only for a draft of their own (`post`) and
manage their own images. The library is a tool of writers: reading it needs the right to
write records (the files themselves are public, as the records showing them).
"""

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from app.core.caching.etags import etag_of, if_match_holds
from app.core.errors import ApiError, InvalidParams, NotFound, invalid, note, precondition_failed
from app.core.rules.constants import UNPUBLISHED
from app.core.rules.html import Markup
from app.core.rules.paging import Page
from app.core.rules.permissions import OTHERS_MEDIA, Principal, Role, may, poster, require
from app.core.web.responses import dumps
from app.http.context import RequestContext
from app.http.params import refused_values
from app.media.commands import MediaQuery, MediaWrite
from app.media.incoming import IncomingFile, base_name
from app.media.params import MediaWriteParams
from app.media.repository import MediaFilters, MediaRecord, MediaRepository, file_names
from app.media.serializer import media_body
from app.media.storage import MediaStorage
from app.media.uploads import Uploads, UploadTexts
from app.posts.commands import TO_TRASH, Removal
from app.posts.service import Written

TEXTS = {"title": "title", "alt_text": "alt", "caption": "caption"}  # parameter -> column


def may_manage(user: Principal, record: MediaRecord) -> bool:
    return may_manage_upload_of(user, record.author_id)


def may_manage_upload_of(user: Principal, author_id: int | None) -> bool:
    """Editors and up: every image; everybody else who may write: their own."""
    return user.at_least(Role.EDITOR) or (author_id is not None and author_id == user.id)


@dataclass(frozen=True)
class Deleted:
    """A deletion: the image as it was, and the files to remove once the deletion is
    committed (those no other row names)."""

    previous: MediaRecord
    orphans: list[str]


class MediaService:
    def __init__(
        self, ctx: RequestContext, storage: MediaStorage, slots: asyncio.Semaphore | None = None
    ) -> None:
        self.ctx = ctx
        self.storage = storage
        self.slots = slots
        self.repo = MediaRepository(ctx.session)

    def etag(self, record: MediaRecord) -> str:
        """The ETag of a GET of `record` by this caller (app/core/caching/etags.py: its
        body's digest): what `If-Match` names, and what a write answers with."""
        return etag_of(dumps(media_body(record, self.ctx)))

    async def _load(self, media_id: int) -> MediaRecord:
        record = await self.repo.get(media_id)
        if record is None:
            raise NotFound("media", media_id)
        return record

    # ---- reads ----------------------------------------------------------------------

    async def find(self, query: MediaQuery, page: Page) -> tuple[list[MediaRecord], int]:
        """(the images of the page, newest first; how many match)."""
        user = poster(self.ctx.user)  # writers only: 401, 403
        query.refused.raise_any()
        author = query.author
        if not user.at_least(Role.AUTHOR):  # contributors see their own uploads only
            author = user.id
        filters = MediaFilters(
            search=query.search,
            author_id=author,
            post_id=query.post,
            mime_types=query.mime_types,
        )
        return await self.repo.find(page, filters)

    async def get(self, media_id: int) -> MediaRecord:
        user = poster(self.ctx.user)  # writers only: 401, 403
        record = await self._load(media_id)
        if not user.at_least(Role.AUTHOR):
            require(user, may_manage(user, record), OTHERS_MEDIA)
        return record

    async def use_counts(self, media_ids: list[int]) -> dict[int, int]:
        """How many records show each of `media_ids` (see `delete`: only an image nothing
        shows may be deleted without `force`)."""
        poster(self.ctx.user)  # writers only: 401, 403
        return await self.repo.use_counts(media_ids)

    async def users(self, media_id: int) -> list[tuple[str, int]]:
        """(kind, ID) of each event, venue and organizer showing the image, for a caller
        who may read it."""
        await self.get(media_id)
        return await self.repo.users(media_id)

    # ---- writes ---------------------------------------------------------------------

    def _texts(self, write: MediaWrite) -> dict[str, str]:
        """The texts sent, without markup (they are shown as plain text and attributes),
        once what the door refused, and what the limits refuse of values no door read (the
        desk's), is refused."""
        write.refused.raise_any()
        notes = refused_values(MediaWriteParams, write.texts())
        if notes:
            raise InvalidParams(notes)
        markup = Markup(False)
        return {TEXTS[name]: markup.plain(value).strip() for name, value in write.texts().items()}

    async def _check_post(self, user: Principal, post_id: int | None) -> None:
        if post_id is None:
            if not user.at_least(Role.AUTHOR):
                raise ApiError(403, "rest_cannot_upload")
            return
        owner = await self.repo.post_ownership(post_id)
        if owner is None:
            raise invalid("post", note("not_a_post", name="post"))
        allowed = may(user, "edit", owner.author_id, owner.status)
        if user.role == Role.CONTRIBUTOR:
            allowed = allowed and owner.status in UNPUBLISHED
        if not allowed:
            raise ApiError(403, "rest_cannot_upload")

    async def upload(
        self, write: MediaWrite, incoming: Callable[[], Awaitable[IncomingFile]]
    ) -> Written[MediaRecord]:
        """Store the request's file: the new image, with the ETag of its GET."""
        user = poster(self.ctx.user)  # 401/403 before the body is looked at
        write.refused.raise_any()
        await self._check_post(user, write.post)
        file = await incoming()
        texts = self._texts(write)
        texts.setdefault("title", base_name(file.filename))
        languages = {self.ctx.language, self.ctx.settings.default_language}
        by_language = {
            column: dict.fromkeys(languages, texts[column])
            for column in ("title", "alt", "caption")
            if texts.get(column)
        }
        settings = self.ctx.settings
        uploads = Uploads(self.repo, self.storage, settings.max_image_pixels, self.slots)
        media_id = await uploads.store(
            file.data,
            UploadTexts(
                title=by_language.get("title", {}),
                alt=by_language.get("alt", {}),
                caption=by_language.get("caption", {}),
            ),
            author_id=user.id,
            post_id=write.post,
        )
        return self._written(await self._load(media_id))

    def _written(self, record: MediaRecord) -> Written[MediaRecord]:
        return Written(record, self.etag(record))

    async def _for_writing(self, media_id: int) -> MediaRecord:
        user = poster(self.ctx.user)
        await self.repo.lock(media_id)
        record = await self._load(media_id)
        require(user, may_manage(user, record), OTHERS_MEDIA)
        condition = self.ctx.if_match
        if condition is not None and not if_match_holds(condition, self.etag(record)):
            raise precondition_failed()
        return record

    async def update(self, media_id: int, write: MediaWrite) -> Written[MediaRecord]:
        """Change the texts sent, in the request language (the default language's too when
        it has none yet, so that no image is without a text in it)."""
        record = await self._for_writing(media_id)
        texts = self._texts(write)
        changes: dict[str, Any] = {}
        default = self.ctx.settings.default_language
        for column, value in texts.items():
            current: dict[str, str] = dict(getattr(record, column))
            current[self.ctx.language] = value
            if not current.get(default):
                current[default] = value
            wanted = {language: text for language, text in current.items() if text}
            if wanted != dict(
                getattr(record, column)
            ):  # the same texts: no change, no new modified
                changes[column] = wanted
        if changes:
            await self.repo.update(record.id, changes)
        return self._written(await self._load(record.id))

    async def delete(self, media_id: int, removal: Removal = TO_TRASH) -> Deleted:
        """Delete the image; 409 while records show it, unless `force`."""
        record = await self._for_writing(media_id)
        removal.refused.raise_any()
        users = await self.repo.users(record.id)
        if users and not removal.force:
            shown_by = [{"kind": kind, "id": record_id} for kind, record_id in users]
            raise ApiError(
                409, "rest_media_in_use", values={"count": len(users)}, data={"used_by": shown_by}
            )
        await self.repo.delete(record.id)
        # Removed only after the commit (by the caller): a failed commit must not leave a
        # row whose files are gone. Files another row names (the same bytes) stay.
        orphans = (
            []
            if await self.repo.file_in_use(record.file)
            else file_names(record.file, record.sizes)
        )
        return Deleted(record, sorted(orphans))

    def remove_files(self, names: list[str]) -> None:
        for name in names:
            self.storage.delete(name)
