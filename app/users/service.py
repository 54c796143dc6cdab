"""User management behind the `almanac users` commands."""

from collections.abc import Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.auth import hash_password, new_password
from app.core.permissions import Role
from app.models import AppPassword, User


class UserError(Exception):
    """A user command that cannot be carried out (message for the operator)."""


async def _find(session: AsyncSession, login: str) -> User:
    user = await session.scalar(select(User).where(func.lower(User.login) == login.lower()))
    if user is None:
        raise UserError(f"no user {login!r}")
    return user


async def issue_password(session: AsyncSession, user: User) -> str:
    password = new_password()
    session.add(AppPassword(user_id=user.id, token_hash=hash_password(password)))
    await session.flush()
    return password


async def add_user(session: AsyncSession, login: str, role: Role) -> tuple[User, str]:
    login = login.strip()
    if not login or len(login) > 60 or any(c.isspace() or c == ":" for c in login):
        raise UserError("a login is 1-60 characters without spaces or ':'")
    exists = await session.scalar(select(User.id).where(func.lower(User.login) == login.lower()))
    if exists is not None:
        raise UserError(f"user {login!r} already exists")
    user = User(login=login, role=role.value)
    session.add(user)
    await session.flush()
    return user, await issue_password(session, user)


async def new_user_password(session: AsyncSession, login: str) -> str:
    return await issue_password(session, await _find(session, login))


async def list_users(session: AsyncSession) -> Sequence[User]:
    return (await session.scalars(select(User).order_by(User.id))).all()


async def remove_user(session: AsyncSession, login: str) -> None:
    user = await _find(session, login)
    await session.execute(delete(User).where(User.id == user.id))
