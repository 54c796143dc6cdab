"""Helpers shared by the repositories: constraints, savepoints, unique slugs, translations."""

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import (
    ColumnDefault,
    ColumnElement,
    FromClause,
    Select,
    String,
    bindparam,
    case,
    cast,
    exists,
    func,
    literal_column,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.rules.slugs import candidates, is_trashed_slug, trashed_slug
from app.models import Base

T = TypeVar("T")
M = TypeVar("M", bound=Base)
MAX_SLUG_ATTEMPTS = 50


def analyze_statement(*tables: str) -> str:
    """`ANALYZE` of the tables a bulk load grew (names from the code, never from input)."""
    return f"ANALYZE {', '.join(tables)}"


async def refresh_statistics(session: AsyncSession, *tables: str) -> None:
    """Statistics right after a bulk load, before the next one (docs/design.md#bulk-loads).

    Each connection keeps its plan for checking a foreign key; one made while a table looked
    empty scans it, once per row checked: a large load becomes quadratic. New statistics
    make every connection plan again, by the table's real size (through its index)."""
    await session.execute(text(analyze_statement(*tables)))


def violated_constraint(exc: IntegrityError) -> str | None:
    """The name of the constraint an IntegrityError broke (asyncpg keeps it on the cause)."""
    cause = getattr(exc.orig, "__cause__", None)
    name = getattr(cause, "constraint_name", None)
    return str(name) if name else None


async def in_savepoint(session: AsyncSession, action: Callable[[], Awaitable[T]]) -> T:
    """Run `action` in a SAVEPOINT so that a constraint violation leaves the transaction usable."""
    async with session.begin_nested():
        return await action()


async def under_free_slug(
    session: AsyncSession,
    write: Callable[[str], Awaitable[T]],
    base: str,
    taken: set[str],
    constraint: str,
) -> T:
    """`write(slug)` under the first free slug of `base`, `base-2`, `base-3`...

    `taken` is what a read saw; a concurrent writer may still win a candidate, which the
    unique `constraint` reports, and the next candidate is tried in a fresh SAVEPOINT.
    """
    for attempt, candidate in enumerate(candidates(base, taken)):
        if attempt >= MAX_SLUG_ATTEMPTS:
            break
        try:
            async with session.begin_nested():
                return await write(candidate)
        except IntegrityError as exc:
            if violated_constraint(exc) != constraint:
                raise
    raise RuntimeError(f"no free slug for {base!r} after {MAX_SLUG_ATTEMPTS} attempts")


async def insert_with_unique_slug(
    session: AsyncSession,
    build: Callable[[str], M],
    base: str,
    taken: set[str],
    constraint: str,
) -> M:
    """Insert the row `build(slug)` under the first free slug of `base` (see under_free_slug)."""

    async def insert(slug: str) -> M:
        row = build(slug)
        session.add(row)
        await session.flush()
        return row

    return await under_free_slug(session, insert, base, taken, constraint)


async def rename_to_unique_slug(
    session: AsyncSession, model: Any, record_id: int, base: str, constraint: str
) -> str:
    """Give the record the first free slug of `base`, `base-2`... (WordPress's rule for a slug
    taken by another record); its new slug."""
    taken = await taken_slugs(session, model.slug, base, model.id != record_id)

    async def rename(slug: str) -> str:
        await session.execute(update(model).where(model.id == record_id).values(slug=slug))
        return slug

    return await under_free_slug(session, rename, base, taken, constraint)


async def add_trashed_suffix(
    session: AsyncSession, model: Any, record_id: int, constraint: str
) -> None:
    """Rename a trashed record to `<slug>__trashed` (`-N` after it when another trashed
    record has that), freeing its slug as WordPress does; nothing if it has the suffix."""
    slug = await session.scalar(select(model.slug).where(model.id == record_id))
    if slug is not None and not is_trashed_slug(slug):
        await rename_to_unique_slug(session, model, record_id, trashed_slug(slug), constraint)


def free_slug(table: FromClause) -> ColumnElement[str]:
    """The first of `base`, `base-2`, `base-3`... that no row of `table` holds (the rule of
    `candidates`), as an expression to insert: the read of the slugs in use and the write
    are one statement. Its parameters: `slug_base`, `slug_prefix` (`base-`) and
    `slug_pattern` (`base-%`, escaped for LIKE). A concurrent writer may still take the slug
    first: insert with ON CONFLICT DO NOTHING on the slug and try again when no row came
    back."""
    taken = table.alias("taken")
    base = bindparam("slug_base", type_=String)
    pattern = bindparam("slug_pattern", type_=String)
    numbers = func.generate_series(
        2,
        select(func.count()).select_from(taken).where(taken.c.slug.like(pattern)).scalar_subquery()
        + 2,
    ).table_valued("n")
    numbers = numbers.render_derived()
    candidate = bindparam("slug_prefix", type_=String) + cast(numbers.c.n, String)
    numbered = (
        select(candidate)
        .select_from(numbers)
        .where(~exists().where(taken.c.slug == candidate))
        .order_by(numbers.c.n)
        .limit(1)
        .scalar_subquery()
    )
    return case((~exists().where(taken.c.slug == base), base), else_=numbered)


def with_defaults(table: FromClause, values: dict[str, Any]) -> dict[str, Any]:
    """`values` and the Python-side defaults of the columns they leave out: SQLAlchemy leaves
    those defaults unset in an INSERT that is a CTE (a write of several tables at once)."""
    filled = dict(values)
    for column in table.c:
        default = column.default
        if column.key in filled or not isinstance(default, ColumnDefault):
            continue
        if default.is_scalar:
            filled[column.key] = default.arg
        elif default.is_callable:
            filled[column.key] = default.arg(None)  # a callable default takes a context
    return filled


def escape_like(text: str) -> str:
    """`text` matched literally inside a LIKE pattern."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def taken_slugs(session: AsyncSession, column: Any, base: str, *where: Any) -> set[str]:
    """Slugs in use that `base` or `base-N` could collide with."""
    pattern = escape_like(base) + "-%"
    rows = await session.scalars(
        select(column).where(or_(column == base, column.like(pattern)), *where)
    )
    return set(rows)


async def upsert_translation(
    session: AsyncSession, table: Any, key: dict[str, Any], texts: dict[str, Any]
) -> None:
    """Insert or update the texts of one record in one language (`key`: ids + language)."""
    if not texts:
        return
    stmt = pg_insert(table).values(**key, **texts)
    await session.execute(
        stmt.on_conflict_do_update(
            index_elements=list(key), set_={name: stmt.excluded[name] for name in texts}
        )
    )


async def lock_row(session: AsyncSession, model: Any, record_id: int) -> bool:
    """Lock one record for the rest of the transaction (False if it does not exist).

    Writers of the same record take this lock before reading it, so concurrent updates and
    deletes run one after the other on fresh data: one delete trashes, the next sees the
    trash (410); two link replacements cannot interleave into duplicate rows.
    """
    found = await session.scalar(select(model.id).where(model.id == record_id).with_for_update())
    return found is not None


def json_object(stmt: Select[Any]) -> Any:
    """The row of `stmt` as one JSON object keyed by its column names: related records can
    ride along a parent query as a column instead of costing a query of their own."""
    pairs: list[Any] = []
    for column in stmt.selected_columns:
        # Keys are our own column names: inline them rather than binding a parameter each.
        pairs.extend((literal_column(f"'{column.key}'"), column))
    return func.json_build_object(*pairs)


def from_json_row(values: dict[str, Any], datetime_fields: Sequence[str]) -> dict[str, Any]:
    """Undo JSON's flattening of timestamps (ISO strings) for the given fields."""
    for name in datetime_fields:
        if isinstance(values.get(name), str):
            values[name] = datetime.fromisoformat(values[name])
    return values
