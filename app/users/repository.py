"""Users and their application passwords: all of their SQL."""

from collections.abc import Sequence

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.rules.permissions import Principal, Role
from app.models import AppPassword, User


class UserRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def by_password(self, token_hash: str) -> Principal | None:
        """The owner of the application password with this hash."""
        row = (
            await self.session.execute(
                select(User.id, User.login, User.role)
                .join(AppPassword, AppPassword.user_id == User.id)
                .where(AppPassword.token_hash == token_hash)
            )
        ).first()
        return Principal(id=row.id, login=row.login, role=Role(row.role)) if row else None

    async def by_login(self, login: str) -> User | None:
        """Logins are unique case-insensitively (an index on lower(login))."""
        found: User | None = await self.session.scalar(
            select(User).where(func.lower(User.login) == login.lower())
        )
        return found

    async def exists(self, user_id: int) -> bool:
        found = await self.session.scalar(select(User.id).where(User.id == user_id))
        return found is not None

    async def add(self, login: str, role: Role) -> User:
        user = User(login=login, role=role.value)
        self.session.add(user)
        await self.session.flush()
        return user

    async def add_password(self, user_id: int, token_hash: str) -> None:
        self.session.add(AppPassword(user_id=user_id, token_hash=token_hash))
        await self.session.flush()

    async def all(self) -> Sequence[User]:
        return (await self.session.scalars(select(User).order_by(User.id))).all()

    async def remove(self, user_id: int) -> None:
        await self.session.execute(delete(User).where(User.id == user_id))
