"""What venues, organizers and events share as post-like records (docs/design.md#records and #languages).

One base repository reads a record with its texts in the request language (falling back to
the default language through an outer join and `coalesce`) and its image; it lists with the
status visibility of the caller, creates with a slug that is unique under concurrency (a
unique constraint, and the next `-N` candidate in a savepoint when a writer loses the race),
updates partially, trashes and deletes. A kind supplies its model, its translation table,
its own columns, how it is linked to events and what its search looks at.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from sqlalchemy import (
    Select,
    and_,
    delete,
    func,
    literal,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import (
    add_trashed_suffix,
    escape_like,
    from_json_row,
    insert_with_unique_slug,
    json_object,
    lock_row,
    rename_to_unique_slug,
    taken_slugs,
    upsert_translation,
)
from app.core.rules.constants import TRASH
from app.core.rules.paging import Page
from app.core.rules.permissions import User, can_create_posts, can_see_all_statuses, may
from app.core.rules.slugs import make_slug
from app.models import Event, Image, Organizer, Venue
from app.models.base import utcnow
from app.posts.commands import PostQuery
from app.posts.records import ImageRecord, Ownership, PostRecord

# Events in these statuses do not make a venue or organizer "have events" (docs/design.md#event-list, venue and organizer lists).
NOT_HOSTING = ("draft", "pending", TRASH)
TEXTS = ("name", "description", "excerpt")
IMAGE_COLUMNS = ("id", "url", "extension", "width", "height", "file", "filesize", "sizes", "alt")

PostModel = Venue | Organizer | Event


def image_columns(language: str, default_language: str) -> list[tuple[str, Any]]:
    """(name, column) of an embedded image (IMAGE_COLUMNS): its alternative text in the
    request language, else in the default one."""
    alt = func.coalesce(Image.alt[language].astext, Image.alt[default_language].astext)
    return [(name, alt if name == "alt" else getattr(Image, name)) for name in IMAGE_COLUMNS]


R = TypeVar("R", bound=PostRecord)


def visible_to(model: type[PostModel], user: User, statuses: Sequence[str] | None = None) -> Any:
    """Records of `model` that `user` may see in a list, limited to `statuses` when given.

    Without `statuses` every status but trash. Editors see everybody's records; contributors
    and authors published ones plus their own; everybody else published ones only.
    """
    conditions = [model.status.in_(statuses) if statuses else model.status != TRASH]
    if not can_see_all_statuses(user):
        readable = model.status == "publish"
        if user is not None and can_create_posts(user):
            readable = or_(readable, model.author_id == user.id)
        conditions.append(readable)
    return and_(*conditions)


def search_fragments(term: str) -> list[str]:
    """The term split on every character that is not a letter, a digit or `-` (docs/design.md#event-list, venue and organizer lists)."""
    fragments: list[str] = []
    current: list[str] = []
    for char in term:
        if char.isalnum() or char == "-":
            current.append(char)
        elif current:
            fragments.append("".join(current))
            current = []
    if current:
        fragments.append("".join(current))
    # Nothing but separators: look for the text as it is rather than match everything.
    return fragments or [term.strip()]


EXTRA = "narrowing_value"  # the label of a Narrowing's column among a record's columns


@dataclass(frozen=True, slots=True)
class Narrowing:
    """What a kind adds to its list: conditions with the values of their bound parameters,
    and a column read with each record (a venue's distance from a point)."""

    conditions: tuple[Any, ...]
    values: Mapping[str, Any]
    column: Any


class PostRepository(Generic[R]):
    model: ClassVar[type[PostModel]]
    translation: ClassVar[type[Any]]
    owner: ClassVar[str]  # the translation table's key column, e.g. venue_id
    # Fields compared when an inline record in an event payload may reuse an existing one.
    matched_fields: ClassVar[frozenset[str]] = frozenset()
    record_type: type[R]

    def __init__(self, session: AsyncSession, language: str, default_language: str) -> None:
        self.session = session
        self.language = language
        self.default_language = default_language
        self.translated = language != default_language

    # ---- what a kind adds -----------------------------------------------------------

    def own_columns(self) -> list[Any]:
        """The kind's columns, each labelled with its record field name."""
        return []

    def search_columns(self) -> list[Any]:
        """Columns searched besides the texts."""
        return []

    def linked_events(self, *conditions: Any) -> Any:
        """`EXISTS` an event linked to the record and meeting `conditions`."""
        raise NotImplementedError

    async def unlink(self, record_id: int) -> None:
        """Detach the record from every event."""
        raise NotImplementedError

    # ---- reads ----------------------------------------------------------------------

    def _texts(self) -> dict[str, Any]:
        texts = {text: getattr(self.model, text) for text in TEXTS}
        if not self.translated:
            return texts
        tr = self.translation
        return {text: func.coalesce(getattr(tr, text), column) for text, column in texts.items()}

    def _select(self) -> Select[Any]:
        m = self.model
        stmt = (
            select(m.id, m.author_id, m.status, m.slug, m.published_at, m.modified_at, m.password)
            .add_columns(*(column.label(text) for text, column in self._texts().items()))
            .add_columns(*self.own_columns())
            .add_columns(
                *(
                    column.label(f"image_{name}")
                    for name, column in image_columns(self.language, self.default_language)
                )
            )
            .select_from(m)
            .outerjoin(Image, Image.id == m.image_id)
        )
        if self.translated:
            tr = self.translation
            stmt = stmt.outerjoin(
                tr, and_(getattr(tr, self.owner) == m.id, tr.language == self.language)
            )
        return stmt

    def json_select(self, *conditions: Any) -> Select[Any]:
        """`_select()` as JSON objects (see repositories.base.json_object), for embedding."""
        stmt = self._select().where(*conditions)
        return stmt.with_only_columns(json_object(stmt), maintain_column_froms=True)

    def record_from_json(self, values: dict[str, Any]) -> R:
        return self._record_from(from_json_row(values, ("published_at", "modified_at")))

    def _record(self, row: Any) -> R:
        return self._record_from(dict(row._mapping))

    def _record_from(self, values: dict[str, Any]) -> R:
        image = {name: values.pop(f"image_{name}") for name in IMAGE_COLUMNS}
        found = ImageRecord(**image) if image["id"] is not None else None
        return self.record_type(**values, image=found)

    async def _one(self, condition: Any) -> R | None:
        row = (await self.session.execute(self._select().where(condition))).first()
        return self._record(row) if row else None

    async def get(self, record_id: int) -> R | None:
        return await self._one(self.model.id == record_id)

    async def get_by_slug(self, slug: str) -> R | None:
        return await self._one(self.model.slug == slug.lower())

    async def get_many(self, record_ids: Sequence[int]) -> list[R]:
        """The records of `record_ids` that exist (in no particular order): one query."""
        if not record_ids:
            return []
        rows = await self.session.execute(self._select().where(self.model.id.in_(record_ids)))
        return [self._record(row) for row in rows]

    async def lock(self, record_id: int) -> bool:
        """Lock the record for this transaction (see core.sql.lock_row); False if missing."""
        return await lock_row(self.session, self.model, record_id)

    async def exists(self, record_id: int) -> bool:
        m = self.model
        return await self.session.scalar(select(m.id).where(m.id == record_id)) is not None

    async def missing_ids(self, ids: Sequence[int]) -> list[int]:
        """Those of `ids` that are not records of this kind."""
        m = self.model
        found = set(await self.session.scalars(select(m.id).where(m.id.in_(ids))))
        return [record_id for record_id in ids if record_id not in found]

    async def find_identical(self, fields: dict[str, Any], user: User) -> int | None:
        """An existing record, not trashed, that `user` may read, equal to the one a create
        sends (docs/design.md#linked-venues-organizers-and-terms): texts and details equal
        case-insensitively, the address contained; only the matched fields sent, non-empty,
        count. None without the name."""
        m = self.model
        conditions: list[Any] = []
        for key, value in fields.items():
            if key not in self.matched_fields or not isinstance(value, str) or not value.strip():
                continue
            column = getattr(m, key)
            if key == "address":
                conditions.append(column.ilike(f"%{escape_like(value.strip())}%"))
            else:
                conditions.append(func.lower(column) == value.strip().lower())
        if not conditions or not isinstance(fields.get("name"), str):
            return None
        found: int | None = await self.session.scalar(
            select(m.id).where(visible_to(m, user), *conditions).order_by(m.id).limit(1)
        )
        return found

    def _search(self, term: str) -> Any:
        """Some one field (in the request language) contains every fragment of the term."""
        patterns = [f"%{escape_like(fragment)}%" for fragment in search_fragments(term)]
        fields = [*self._texts().values(), *self.search_columns()]
        return or_(*(and_(*(field.ilike(p) for p in patterns)) for field in fields))

    async def find(self, filters: PostQuery, user: User, page: Page) -> tuple[list[R], int]:
        """A page of the records `user` may see that match `filters`, newest first."""
        found, total = await self.find_with(filters, user, page)
        return [record for record, _ in found], total

    async def find_with(
        self, filters: PostQuery, user: User, page: Page, more: Narrowing | None = None
    ) -> tuple[list[tuple[R, Any]], int]:
        """`find`, narrowed by a kind's own conditions (`more`), each record with the value of
        its column (None without)."""
        conditions = [visible_to(self.model, user, filters.statuses)]
        if filters.search:
            conditions.append(self._search(filters.search))
        if filters.event is not None:
            conditions.append(self.linked_events(Event.id == filters.event))
        if filters.has_events is not None:
            hosting = self.linked_events(Event.status.not_in(NOT_HOSTING))
            conditions.append(hosting if filters.has_events else ~hosting)
        if filters.only_with_upcoming:
            conditions.append(
                self.linked_events(Event.start_at >= utcnow(), visible_to(Event, user))
            )
        stmt = self._select().where(*conditions)
        values: Mapping[str, Any] = {}
        if more is not None:
            stmt, values = stmt.where(*more.conditions), more.values
        counted = stmt.with_only_columns(literal(1), maintain_column_froms=True).subquery()
        total = await self.session.scalar(select(func.count()).select_from(counted), values)
        order = (self.model.published_at.desc(), self.model.id.desc())
        if more is not None:
            stmt = stmt.add_columns(more.column.label(EXTRA))
        paged = stmt.order_by(*order).limit(page.size).offset(page.offset)
        rows = await self.session.execute(paged, values)
        return [self._record_with(row) for row in rows], total or 0

    def _record_with(self, row: Any) -> tuple[R, Any]:
        values = dict(row._mapping)
        extra = values.pop(EXTRA, None)
        return self._record_from(values), extra

    # ---- writes ---------------------------------------------------------------------

    @property
    def _slug_constraint(self) -> str:
        return f"{self.model.__tablename__}_slug_key"

    async def create(self, columns: dict[str, Any], texts: dict[str, str], slug: str) -> int:
        """Insert a record under a free slug made from `slug` (`-2`, `-3`...); its new ID.

        Texts written in another language than the default one become the default texts
        too, so that no record is ever empty in any language.
        """
        values = {**columns, **texts}
        base = make_slug(slug)
        row = await insert_with_unique_slug(
            self.session,
            lambda candidate: self.model(**values, slug=candidate),
            base,
            await taken_slugs(self.session, self.model.slug, base),
            self._slug_constraint,
        )
        if self.translated:
            await self._save_translation(row.id, texts)
        return row.id

    async def update(
        self,
        record_id: int,
        columns: dict[str, Any],
        texts: dict[str, str],
        slug: str | None = None,
    ) -> None:
        """Change what is given (a partial update); texts go to the request language.

        A new `slug` taken by another record becomes the next free `-N` (WordPress's rule).
        """
        values = {**columns, "modified_at": utcnow()}
        if not self.translated:
            values.update(texts)
        m = self.model
        await self.session.execute(update(m).where(m.id == record_id).values(**values))
        if slug is not None:
            await rename_to_unique_slug(
                self.session, m, record_id, make_slug(slug), self._slug_constraint
            )
        if columns.get("status") == TRASH:
            await self.unlink(record_id)  # trashed by an update: as by a delete
        if texts and self.translated:
            await self._save_translation(record_id, texts)

    async def keep_modified(self, record_id: int, modified_at: datetime) -> None:
        """Give back the `modified` an update that changed nothing replaced."""
        m = self.model
        await self.session.execute(
            update(m).where(m.id == record_id).values(modified_at=modified_at)
        )

    async def _save_translation(self, record_id: int, texts: dict[str, str]) -> None:
        key = {self.owner: record_id, "language": self.language}
        await upsert_translation(self.session, self.translation, key, texts)

    async def trash(self, record_id: int) -> None:
        """Move to the trash; the record leaves its events and its slug becomes
        `<slug>__trashed` (free for another record)."""
        m = self.model
        await self.unlink(record_id)
        await self.session.execute(
            update(m).where(m.id == record_id).values(status=TRASH, modified_at=utcnow())
        )
        await add_trashed_suffix(self.session, m, record_id, self._slug_constraint)

    async def delete(self, record_id: int) -> None:
        """Delete for good (translations go with it)."""
        await self.unlink(record_id)
        await self.session.execute(delete(self.model).where(self.model.id == record_id))


class ImageRepository:
    """Images known by URL (never fetched)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def exists(self, image_id: int) -> bool:
        found = await self.session.scalar(select(Image.id).where(Image.id == image_id))
        return found is not None

    async def record_url(self, url: str, extension: str) -> int:
        """The ID of the image at `url`, recorded now unless known."""
        insert = pg_insert(Image).values(url=url, extension=extension)
        # DO UPDATE (a no-op) rather than DO NOTHING, so that RETURNING also answers for an
        # existing row, even one inserted concurrently.
        statement = insert.on_conflict_do_update(
            index_elements=[Image.url], set_={"url": insert.excluded.url}
        ).returning(Image.id)
        image_id: int = (await self.session.execute(statement)).scalar_one()
        return image_id


async def event_ownership(session: AsyncSession, event_id: int) -> Ownership | None:
    """Author and status of an event, to decide whether a caller may see it."""
    row = (
        await session.execute(select(Event.author_id, Event.status).where(Event.id == event_id))
    ).first()
    return Ownership(author_id=row.author_id, status=row.status) if row else None


async def is_post(session: AsyncSession, record_id: int) -> bool:
    """Is this ID an event, venue or organizer (they share one ID space)?"""
    found = await session.scalar(
        union_all(
            *(select(model.id).where(model.id == record_id) for model in (Event, Venue, Organizer))
        ).limit(1)
    )
    return found is not None


async def existing_ids(
    session: AsyncSession,
    wanted: Mapping[str, tuple[type[PostModel], Sequence[int]]],
    user: User,
) -> dict[str, set[int]]:
    """Those of the IDs that exist and that `user` may read, by name (each name: its kind's
    model and the IDs asked for); one statement for every kind, as a write's venue and
    organizers are checked. A record the caller may not read is as good as none: linking
    it would show another author's unpublished venue on the caller's event, and a
    different answer would tell that it exists."""
    names = list(wanted)
    parts = [
        select(literal(index).label("kind"), model.id, model.author_id, model.status).where(
            model.id.in_(ids)
        )
        for index, (model, ids) in enumerate(wanted.values())
    ]
    found: dict[str, set[int]] = {name: set() for name in names}
    for index, record_id, author_id, status in await session.execute(union_all(*parts)):
        if may(user, "read", author_id, status):
            found[names[index]].add(record_id)
    return found
