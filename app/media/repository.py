"""Every query of the media library: its rows (`images` with a `file`), who shows an image,
and which stored file names a row still names."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, delete, func, literal, or_, select, union_all, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import escape_like, lock_row
from app.core.rules.paging import Page
from app.models import Event, Image, Organizer, Venue
from app.posts.records import Ownership

POSTS = (("event", Event), ("venue", Venue), ("organizer", Organizer))


@dataclass(frozen=True, slots=True)
class MediaRecord:
    id: int
    file: str
    mime_type: str
    extension: str
    width: int
    height: int
    filesize: int
    sizes: dict[str, Any]
    title: dict[str, str]
    alt: dict[str, str]
    caption: dict[str, str]
    author_id: int | None
    post_id: int | None
    created_at: datetime
    modified_at: datetime

    def texts_in(self, language: str, default_language: str) -> "MediaTexts":
        """Title, alternative text and caption as the API shows them in `language`: its
        own, else the default language's, else empty."""

        def text(texts: dict[str, str]) -> str:
            return texts.get(language) or texts.get(default_language) or ""

        return MediaTexts(text(self.title), text(self.alt), text(self.caption))


@dataclass(frozen=True, slots=True)
class MediaTexts:
    """An image's texts in one language, named as the API's parameters name them."""

    title: str
    alt_text: str
    caption: str

    def by_name(self) -> dict[str, str]:
        return {"title": self.title, "alt_text": self.alt_text, "caption": self.caption}


@dataclass(frozen=True, slots=True)
class MediaFilters:
    search: str | None = None
    author_id: int | None = None
    post_id: int | None = None
    mime_types: list[str] | None = None


@dataclass(frozen=True, slots=True)
class NewMedia:
    """A stored upload, as its row records it."""

    file: str
    mime_type: str
    extension: str
    width: int
    height: int
    filesize: int
    sizes: dict[str, Any]
    title: dict[str, str]
    alt: dict[str, str]
    caption: dict[str, str]
    author_id: int | None
    post_id: int | None = None
    source_url: str | None = None


COLUMNS = [getattr(Image, name) for name in MediaRecord.__slots__]


def file_names(file: str | None, sizes: dict[str, Any]) -> set[str]:
    """Every stored name a row holds: its full file, its sizes and their variants."""
    names = {file} if file else set()
    for size in sizes.values():
        names.add(size["file"])
        names.update(source["file"] for source in (size.get("sources") or {}).values())
    return names


class MediaRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def _select(self) -> Select[Any]:
        return select(*COLUMNS).where(Image.file.is_not(None))

    async def get(self, media_id: int) -> MediaRecord | None:
        row = (await self.session.execute(self._select().where(Image.id == media_id))).first()
        return MediaRecord(**row._mapping) if row else None

    async def lock(self, media_id: int) -> None:
        await lock_row(self.session, Image, media_id)

    async def find(self, page: Page, filters: MediaFilters) -> tuple[list[MediaRecord], int]:
        """A page of the library, newest first, and the number of matches."""
        conditions: list[Any] = [Image.file.is_not(None)]
        if filters.author_id is not None:
            conditions.append(Image.author_id == filters.author_id)
        if filters.post_id is not None:
            conditions.append(Image.post_id == filters.post_id)
        if filters.mime_types:
            conditions.append(Image.mime_type.in_(filters.mime_types))
        search = filters.search
        if search:
            pattern = f"%{escape_like(search)}%"
            # A text in any language matches.
            title = func.jsonb_each_text(Image.title).table_valued("key", "value").alias("t")
            texts = select(literal(1)).select_from(title).where(title.c.value.ilike(pattern))
            conditions.append(or_(texts.exists(), Image.file.ilike(pattern)))
        total = await self.session.scalar(
            select(func.count()).select_from(Image).where(*conditions)
        )
        rows = await self.session.execute(
            select(*COLUMNS)
            .where(*conditions)
            .order_by(Image.created_at.desc(), Image.id.desc())
            .limit(page.size)
            .offset(page.offset)
        )
        return [MediaRecord(**row._mapping) for row in rows], total or 0

    async def insert(self, media: NewMedia) -> int:
        row = Image(
            url=None,
            file=media.file,
            mime_type=media.mime_type,
            extension=media.extension,
            width=media.width,
            height=media.height,
            filesize=media.filesize,
            sizes=media.sizes,
            title=media.title,
            alt=media.alt,
            caption=media.caption,
            author_id=media.author_id,
            post_id=media.post_id,
            source_url=media.source_url,
        )
        self.session.add(row)
        await self.session.flush()
        return row.id

    async def update(self, media_id: int, changes: dict[str, Any]) -> None:
        await self.session.execute(
            update(Image).where(Image.id == media_id).values(**changes, modified_at=func.now())
        )

    async def delete(self, media_id: int) -> None:
        """Delete the row; the posts showing it lose their image (`ON DELETE SET NULL`)."""
        await self.session.execute(delete(Image).where(Image.id == media_id))

    async def users(self, media_id: int) -> list[tuple[str, int]]:
        """(kind, ID) of every event, venue and organizer showing the image, trash included."""
        statement = union_all(
            *(
                select(literal(kind).label("kind"), model.id).where(model.image_id == media_id)
                for kind, model in POSTS
            )
        )
        rows = await self.session.execute(statement)
        return sorted((row.kind, row.id) for row in rows)

    async def use_counts(self, media_ids: Sequence[int]) -> dict[int, int]:
        """How many events, venues and organizers show each of `media_ids` (trash included;
        an image shown by none is absent): one query for a page of the library."""
        if not media_ids:
            return {}
        shown = union_all(
            *(
                select(model.image_id.label("image_id")).where(model.image_id.in_(media_ids))
                for _, model in POSTS
            )
        ).subquery()
        rows = await self.session.execute(
            select(shown.c.image_id, func.count().label("uses")).group_by(shown.c.image_id)
        )
        return {row.image_id: row.uses for row in rows}

    async def post_ownership(self, record_id: int) -> Ownership | None:
        """Author and status of the event, venue or organizer with this ID."""
        statement = union_all(
            *(
                select(model.author_id, model.status).where(model.id == record_id)
                for _, model in POSTS
            )
        ).limit(1)
        row = (await self.session.execute(statement)).first()
        return Ownership(author_id=row.author_id, status=row.status) if row else None

    async def file_in_use(self, file: str) -> bool:
        """Does a row name this full file? Names are content hashes: another upload of the
        same bytes shares every file with it."""
        found = await self.session.scalar(select(Image.id).where(Image.file == file).limit(1))
        return found is not None

    async def all_named(self) -> set[str]:
        """Every stored name any row holds."""
        rows = await self.session.execute(
            select(Image.file, Image.sizes).where(Image.file.is_not(None))
        )
        named: set[str] = set()
        for row in rows:
            named |= file_names(row.file, row.sizes)
        return named

    async def by_source(self, urls: Sequence[str]) -> dict[str, int]:
        """Copies already made of these addresses: address -> image ID."""
        if not urls:
            return {}
        rows = await self.session.execute(
            select(Image.source_url, Image.id).where(Image.source_url.in_(list(urls)))
        )
        return {row.source_url: row.id for row in rows}

    async def show_copy(self, image_id: int, copy_id: int) -> None:
        """Every post showing the external image `image_id` shows its copy instead. Their
        modification time stays: their own content did not change (the changes feed still
        reports them, through the change log's triggers)."""
        for _, model in POSTS:
            await self.session.execute(
                update(model)
                .where(model.image_id == image_id)
                .values(image_id=copy_id, modified_at=model.modified_at)
            )
