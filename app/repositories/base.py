"""Helpers shared by the repositories: constraint names from integrity errors, savepoints."""

from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

T = TypeVar("T")
MAX_SLUG_ATTEMPTS = 50


def violated_constraint(exc: IntegrityError) -> str | None:
    """The name of the constraint an IntegrityError broke (asyncpg keeps it on the cause)."""
    cause = getattr(exc.orig, "__cause__", None)
    name = getattr(cause, "constraint_name", None)
    return str(name) if name else None


async def in_savepoint(session: AsyncSession, action: Callable[[], Awaitable[T]]) -> T:
    """Run `action` in a SAVEPOINT so that a constraint violation leaves the transaction usable."""
    async with session.begin_nested():
        return await action()
