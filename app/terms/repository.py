"""Categories and tags (one table, told apart by taxonomy)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    SQLColumnExpression,
    and_,
    delete,
    exists,
    func,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import (
    escape_like,
    in_savepoint,
    insert_with_unique_slug,
    lock_row,
    taken_slugs,
    upsert_translation,
    violated_constraint,
)
from app.core.rules.paging import Page
from app.core.rules.slugs import make_slug
from app.models import Term, TermTranslation, event_terms
from app.terms.commands import TermQuery

SLUG_CONSTRAINT = "terms_taxonomy_slug_key"


@dataclass(slots=True)
class TermRecord:
    id: int
    taxonomy: str
    name: str
    slug: str
    description: str
    parent_id: int | None
    count: int


# (found IDs in order, unknown IDs, unknown names) of term references.
Resolved = tuple[list[int], list[int], list[str]]


class DuplicateName(Exception):
    def __init__(self, term_id: int | None):
        super().__init__(term_id)
        self.term_id = term_id


class DuplicateSlug(Exception):
    pass


class TermRepository:
    def __init__(
        self, session: AsyncSession, taxonomy: str | None, language: str, default_language: str
    ) -> None:
        """`taxonomy` None: both kinds (reading the terms of events)."""
        self.session = session
        self.taxonomy = taxonomy
        self.language = language
        self.translated = language != default_language

    # ---- reads ---------------------------------------------------------------------

    def _select(self) -> Select[Any]:
        name: SQLColumnExpression[str] = Term.name
        description: SQLColumnExpression[str] = Term.description
        stmt: Any = select(Term.id, Term.taxonomy, Term.slug, Term.parent_id)
        if self.translated:
            tr = TermTranslation
            name = func.coalesce(tr.name, Term.name)
            description = func.coalesce(tr.description, Term.description)
            stmt = stmt.outerjoin(tr, and_(tr.term_id == Term.id, tr.language == self.language))
        count = Term.published_count
        stmt = stmt.add_columns(
            name.label("name"), description.label("description"), count.label("count")
        )
        selected: Select[Any] = (
            stmt.where(Term.taxonomy == self.taxonomy) if self.taxonomy else stmt
        )
        return selected

    @staticmethod
    def _record(row: Any) -> TermRecord:
        values = row._mapping
        return TermRecord(**{key: values[key] for key in TermRecord.__slots__})

    def select_for_events(self, event_id: Any) -> Select[Any]:
        """The terms of the event `event_id` (a column, for correlated subqueries)."""
        return (
            self._select()
            .join(event_terms, event_terms.c.term_id == Term.id)
            .where(event_terms.c.event_id == event_id)
        )

    async def lock(self, term_id: int) -> bool:
        """Lock the term for this transaction (see core.sql.lock_row); False if missing."""
        return await lock_row(self.session, Term, term_id)

    async def get(self, term_id: int) -> TermRecord | None:
        row = (await self.session.execute(self._select().where(Term.id == term_id))).first()
        return self._record(row) if row else None

    async def get_many(self, term_ids: Sequence[int]) -> list[TermRecord]:
        """The terms of `term_ids` that exist (in no particular order): one query."""
        if not term_ids:
            return []
        rows = await self.session.execute(self._select().where(Term.id.in_(term_ids)))
        return [self._record(row) for row in rows]

    async def missing_ids(self, ids: Sequence[int]) -> list[int]:
        """Those of `ids` that are not terms of this taxonomy."""
        found = set(
            await self.session.scalars(
                select(Term.id).where(Term.taxonomy == self.taxonomy, Term.id.in_(ids))
            )
        )
        return [term_id for term_id in ids if term_id not in found]

    async def find(self, filters: TermQuery, page: Page) -> tuple[list[TermRecord], int]:
        inner = self._select()
        name_col = inner.selected_columns.name
        conditions: list[ColumnElement[bool]] = []
        if filters.search:
            pattern = f"%{escape_like(filters.search)}%"
            conditions.append(or_(name_col.ilike(pattern), Term.slug.ilike(pattern)))
        if filters.include:
            conditions.append(Term.id.in_(filters.include))
        if filters.exclude:
            conditions.append(Term.id.not_in(filters.exclude))
        if filters.slugs:
            conditions.append(Term.slug.in_(filters.slugs))
        if filters.parent is not None:
            conditions.append(func.coalesce(Term.parent_id, 0) == filters.parent)
        if filters.event is not None:
            conditions.append(
                exists().where(
                    event_terms.c.term_id == Term.id, event_terms.c.event_id == filters.event
                )
            )
        if filters.hide_empty:
            conditions.append(Term.published_count > 0)
        stmt = inner.where(*conditions)
        total = await self.session.scalar(
            select(func.count()).select_from(
                stmt.with_only_columns(literal(1), maintain_column_froms=True).subquery()
            )
        )
        rows = await self.session.execute(
            stmt.order_by(*self._order(filters, inner)).limit(page.size).offset(page.offset)
        )
        return [self._record(row) for row in rows], total or 0

    @staticmethod
    def _order(filters: TermQuery, inner: Select[Any]) -> list[Any]:
        columns = inner.selected_columns
        key: SQLColumnExpression[Any]
        if filters.orderby == "include" and filters.include:
            key = func.array_position(literal(filters.include), Term.id)
        else:
            key = {
                "name": func.lower(columns.name),
                "slug": Term.slug,
                "count": columns.count,
                "description": func.lower(columns.description),
            }.get(filters.orderby, Term.id)
        tie = Term.id.desc() if filters.descending else Term.id.asc()
        return [key.desc() if filters.descending else key.asc(), tie]

    async def resolve(self, refs: Sequence[int | str]) -> Resolved:
        """Term references (IDs, slugs or names) → (found IDs in order, unknown IDs, unknown names)."""
        assert self.taxonomy is not None
        return (await self.resolve_each({self.taxonomy: refs}))[self.taxonomy]

    async def resolve_each(self, refs: Mapping[str, Sequence[int | str]]) -> dict[str, Resolved]:
        """`resolve` for several taxonomies (`refs` by taxonomy) in one statement: an event's
        categories and tags are looked up together."""
        ids = {ref for wanted in refs.values() for ref in wanted if isinstance(ref, int)}
        texts = {ref.strip() for wanted in refs.values() for ref in wanted if isinstance(ref, str)}
        texts.discard("")
        rows = []
        if ids or texts:
            matches = [Term.id.in_(sorted(ids))] if ids else []
            if texts:
                lowered = sorted({text.lower() for text in texts})
                matches += [Term.slug.in_(sorted(texts)), func.lower(Term.name).in_(lowered)]
            rows = list(
                await self.session.execute(
                    select(Term.id, Term.taxonomy, Term.slug, Term.name)
                    .where(Term.taxonomy.in_(sorted(refs)), or_(*matches))
                    .order_by(Term.id)
                )
            )
        return {
            taxonomy: _resolved(wanted, [row for row in rows if row.taxonomy == taxonomy])
            for taxonomy, wanted in refs.items()
        }

    async def with_descendants(
        self, refs: Sequence[int | str]
    ) -> tuple[list[int], list[int | str]]:
        """(the terms named by ID or slug plus all their descendants, the unknown refs)."""
        ids = [ref for ref in refs if isinstance(ref, int)]
        slugs = [ref for ref in refs if isinstance(ref, str)]
        rows = await self.session.execute(
            select(Term.id, Term.slug).where(
                Term.taxonomy == self.taxonomy, (Term.id.in_(ids)) | (Term.slug.in_(slugs))
            )
        )
        found_ids, found_slugs = set(), set()
        for term_id, slug in rows:
            found_ids.add(term_id)
            found_slugs.add(slug)
        unknown = [ref for ref in refs if ref not in found_ids and ref not in found_slugs]
        if unknown:
            return [], unknown
        tree = select(Term.id).where(Term.id.in_(found_ids)).cte("tree", recursive=True)
        tree = tree.union(select(Term.id).join(tree, Term.parent_id == tree.c.id))
        return list(await self.session.scalars(select(tree.c.id))), []

    async def is_ancestor(self, candidate: int, term_id: int) -> bool:
        """Is `term_id` among `candidate` and its ancestors (a would-be parent loop)?"""
        tree = (
            select(Term.id, Term.parent_id)
            .where(Term.id == candidate)
            .cte("ancestors", recursive=True)
        )
        tree = tree.union(select(Term.id, Term.parent_id).join(tree, Term.id == tree.c.parent_id))
        found = await self.session.scalar(select(tree.c.id).where(tree.c.id == term_id).limit(1))
        return found is not None

    async def _id_by_name(self, name: str, parent_id: int | None) -> int | None:
        return await self.session.scalar(
            select(Term.id)
            .where(
                Term.taxonomy == self.taxonomy,
                func.coalesce(Term.parent_id, 0) == (parent_id or 0),
                func.lower(Term.name) == name.lower(),
            )
            .order_by(Term.id)
            .limit(1)
        )

    async def create(
        self, *, name: str, description: str, slug: str | None, parent_id: int | None
    ) -> int:
        """Insert a term; the default-language text is set too, so no term is ever empty.

        Raises DuplicateName when a term of that name exists under the same parent. Only
        creating checks names (an update may give a term any name, as in WordPress):
        concurrent creates of one name queue on a lock of that name until the first one
        commits, so the others see its term.
        """
        key = func.concat(self.taxonomy, ":", parent_id or 0, ":", func.lower(name))
        await self.session.execute(
            select(func.pg_advisory_xact_lock(func.hashtextextended(key, 0)))
        )
        existing = await self._id_by_name(name, parent_id)
        if existing is not None:
            raise DuplicateName(existing)
        base = make_slug(slug or name)
        taken = await taken_slugs(self.session, Term.slug, base, Term.taxonomy == self.taxonomy)

        def build(candidate: str) -> Term:
            return Term(
                taxonomy=self.taxonomy,
                name=name,
                slug=candidate,
                description=description,
                parent_id=parent_id,
            )

        term = await insert_with_unique_slug(self.session, build, base, taken, SLUG_CONSTRAINT)
        if self.translated:
            await self._save_translation(term.id, {"name": name, "description": description})
        return term.id

    async def update(self, term_id: int, changes: dict[str, Any]) -> None:
        """Apply `changes` (name, description, slug, parent_id); texts go to the request language.

        Any name is allowed, also one another term has (WordPress's wp_update_term); raises
        DuplicateSlug when another term of the taxonomy has the slug.
        """
        texts: dict[str, Any] = {k: changes.pop(k) for k in ("name", "description") if k in changes}
        columns = dict(changes)
        if texts and not self.translated:
            columns.update(texts)
        if "slug" in columns:
            columns["slug"] = make_slug(columns["slug"])
        if columns:
            statement = update(Term).where(Term.id == term_id).values(**columns)
            try:
                await in_savepoint(self.session, lambda: self.session.execute(statement))
            except IntegrityError as exc:
                if violated_constraint(exc) == SLUG_CONSTRAINT:
                    raise DuplicateSlug() from exc
                raise
        if texts and self.translated:
            await self._save_translation(term_id, texts)

    async def _save_translation(self, term_id: int, texts: dict[str, Any]) -> None:
        key = {"term_id": term_id, "language": self.language}
        await upsert_translation(self.session, TermTranslation, key, texts)

    async def delete(self, term: TermRecord) -> None:
        """Delete permanently; children move up to the deleted term's parent (WordPress)."""
        await self.session.execute(
            update(Term).where(Term.parent_id == term.id).values(parent_id=term.parent_id)
        )
        await self.session.execute(delete(Term).where(Term.id == term.id))


def _resolved(refs: Sequence[int | str], rows: Sequence[Any]) -> Resolved:
    """`refs` matched against the rows (id, taxonomy, slug, name) of their taxonomy: an ID
    by itself, a text by slug, else by name (case-insensitive); the lowest ID wins."""
    known_ids = {row.id for row in rows}
    by_text: dict[str, int] = {}
    for row in rows:
        by_text.setdefault(row.slug, row.id)
        by_text.setdefault(row.name.lower(), row.id)
    found: list[int] = []
    unknown_ids: list[int] = []
    unknown_names: list[str] = []
    for ref in refs:
        if isinstance(ref, int):
            (found if ref in known_ids else unknown_ids).append(ref)
        elif ref.strip():
            match = by_text.get(ref.strip()) or by_text.get(ref.strip().lower())
            if match is None:
                unknown_names.append(ref.strip())
            else:
                found.append(match)
    return list(dict.fromkeys(found)), unknown_ids, list(dict.fromkeys(unknown_names))
