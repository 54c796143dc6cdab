"""Reads of the large statements compiled once: their SQL text, the order of their parameters
and the keys of their rows kept per statement object, each execution sent as driver SQL on
the session's connection (its transaction, its pool and its statement events as before).

Why: SQLAlchemy finds a statement's compiled form on every execution by its cache key, and
hashing the key of the events' statements (every relation a JSON subquery) costs more CPU
than the driver's whole round trip: about 0.4 ms of the 1.3 ms a busted single event's
statement cost the worker (docs/performance.md, fifth round). The statements are built once
and kept (app/events/repository), so their text can be too.

A statement keeps the usual path when its text depends on the values (expanding `IN` lists,
parameters rendered at execution) or when a column of its rows needs a conversion in Python
(a result processor): the first execution of each statement goes the usual way and tells."""

import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select
from sqlalchemy.engine import CursorResult, Dialect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.sql.compiler import SQLCompiler


@dataclass(frozen=True, slots=True)
class _Compiled:
    compiled: SQLCompiler
    sql: str
    order: tuple[str, ...]  # the parameters' names, by position
    processors: Mapping[str, Callable[[Any], Any]]  # the binds' conversions
    keys: tuple[str, ...]  # the rows' keys, as the usual path names them
    dialect: tuple[str, str, str]  # see _dialect_key

    def arguments(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        """The positional arguments of `values` (the statement's own bound values filled in,
        a missing one an error, as in the usual path)."""
        given = self.compiled.construct_params(dict(values))
        processors = self.processors
        return tuple(
            processors[name](given[name]) if name in processors else given[name]
            for name in self.order
        )


# Per statement object (the repositories keep theirs: a statement dropped from their caches
# is dropped here too). None: the usual path for good.
_FORMS: "weakref.WeakKeyDictionary[Select[Any], _Compiled | None]" = weakref.WeakKeyDictionary()


def _precompilable(compiled: SQLCompiler) -> bool:
    return (
        compiled.positiontup is not None
        and not compiled.post_compile_params
        and not compiled.literal_execute_params
    )


def _form(compiled: SQLCompiler, result: CursorResult[Any]) -> _Compiled | None:
    """The kept form of a statement, from its first (usual) execution's `result`."""
    processors = getattr(result._metadata, "_processors", None)
    if not _precompilable(compiled) or processors is None or any(processors):
        return None
    assert compiled.positiontup is not None  # _precompilable
    bind_processors: dict[str, Callable[[Any], Any]] = {}
    for name, process in compiled._bind_processors.items():
        if not callable(process):  # a tuple's processors, one per element
            return None
        bind_processors[name] = process
    return _Compiled(
        compiled,
        compiled.string,
        tuple(compiled.positiontup),
        bind_processors,
        tuple(result.keys()),
        _dialect_key(compiled.dialect),
    )


def _dialect_key(dialect: Dialect) -> tuple[str, str, str]:
    """What the text depends on: engines of one kind (the primary and a replica, the tests'
    databases) share the kept forms."""
    return (dialect.name, str(dialect.driver), str(dialect.paramstyle))


async def fetch_rows(
    session: AsyncSession, stmt: Select[Any], values: Mapping[str, Any]
) -> tuple[Sequence[str], Sequence[Sequence[Any]]]:
    """The keys and rows of `stmt` with `values`, on the session's connection."""
    connection: AsyncConnection = await session.connection()
    form = _FORMS.get(stmt, False)
    if isinstance(form, _Compiled) and form.dialect == _dialect_key(connection.dialect):
        driver = await connection.exec_driver_sql(form.sql, form.arguments(values))
        return form.keys, driver.all()
    result = await connection.execute(stmt, dict(values))
    if form is False:
        # Compiled here, not taken from the execution: SQLAlchemy shares one compiled form
        # among statements that differ only in values bound in them (the language of the
        # texts), and fills in each one's values on every execution.
        compiled = stmt.compile(dialect=connection.dialect)
        _FORMS[stmt] = _form(compiled, result) if isinstance(compiled, SQLCompiler) else None
    return tuple(result.keys()), result.all()
