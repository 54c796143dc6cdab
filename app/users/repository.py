"""Users, their application passwords, account passwords and desk sessions: all of their SQL."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.engine import not_content
from app.core.rules.permissions import Principal, Role
from app.models import AppPassword, DeskSession, Event, Image, Organizer, User, Venue

# What a user can be the author of: removing the user must not leave it without one.
AUTHORED: dict[str, type[Event | Venue | Organizer | Image]] = {
    "events": Event,
    "venues": Venue,
    "organizers": Organizer,
    "media": Image,
}


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

    async def by_id(self, user_id: int) -> User | None:
        found: User | None = await self.session.get(User, user_id)
        return found

    async def exists(self, user_id: int) -> bool:
        found = await self.session.scalar(select(User.id).where(User.id == user_id))
        return found is not None

    async def add(self, login: str, role: Role) -> User:
        user = User(login=login, role=role.value)
        self.session.add(user)
        await self.session.flush()
        return user

    async def add_password(self, user_id: int, token_hash: str, pepper_fingerprint: str) -> None:
        password = AppPassword(
            user_id=user_id, token_hash=token_hash, pepper_fingerprint=pepper_fingerprint
        )
        self.session.add(password)
        await self.session.flush()

    async def pepper_fingerprints(self, login: str | None) -> set[str]:
        """The fingerprints of the peppers the application passwords of `login` (of
        everybody: None) were issued under, where known."""
        stmt = select(AppPassword.pepper_fingerprint).distinct()
        stmt = stmt.where(AppPassword.pepper_fingerprint.is_not(None))
        if login is not None:
            stmt = stmt.join(User, User.id == AppPassword.user_id).where(
                func.lower(User.login) == login.lower()
            )
        return {fingerprint for fingerprint in await self.session.scalars(stmt) if fingerprint}

    async def all(self) -> Sequence[User]:
        return (await self.session.scalars(select(User).order_by(User.id))).all()

    async def remove(self, user_id: int) -> None:
        await self.session.execute(delete(User).where(User.id == user_id))

    async def authored(self, user_id: int) -> dict[str, int]:
        """How many records of each kind (AUTHORED) the user is the author of."""
        return {
            kind: int(
                await self.session.scalar(
                    select(func.count()).select_from(model).where(model.author_id == user_id)
                )
                or 0
            )
            for kind, model in AUTHORED.items()
        }

    async def reassign(self, user_id: int, to_id: int) -> None:
        """Make `to_id` the author of everything `user_id` wrote (the dates of a series
        follow their series' author, by trigger)."""
        for model in AUTHORED.values():
            await self.session.execute(
                update(model).where(model.author_id == user_id).values(author_id=to_id)
            )

    async def delete_authored(self, user_id: int) -> None:
        """Delete everything the user wrote, as the API's `force=true` does (the database
        removes dates, translations and links, and records the deletions for the feed);
        image files are left to `almanac media prune`."""
        for model in AUTHORED.values():
            await self.session.execute(delete(model).where(model.author_id == user_id))

    async def set_account_password(self, user_id: int, password_hash: str | None) -> None:
        await self.session.execute(
            update(User).where(User.id == user_id).values(account_password=password_hash)
        )

    async def set_role(self, user_id: int, role: Role) -> None:
        await self.session.execute(update(User).where(User.id == user_id).values(role=role.value))

    async def remove_app_passwords(self, user_id: int) -> int:
        result = await self.session.execute(
            delete(AppPassword).where(AppPassword.user_id == user_id)
        )
        return int(getattr(result, "rowcount", 0) or 0)

    async def app_password_counts(self) -> dict[int, int]:
        rows = await self.session.execute(
            select(AppPassword.user_id, func.count()).group_by(AppPassword.user_id)
        )
        return dict(rows.all())


@dataclass(frozen=True, slots=True)
class FoundSession:
    """A live desk session and its user."""

    id: int
    principal: Principal
    csrf_token: str
    stale: bool  # last seen long enough ago to be worth writing down again


@dataclass(frozen=True, slots=True)
class SessionRow:
    id: int
    created_at: datetime
    last_seen_at: datetime
    user_agent: str


def _live(idle_minutes: int, lifetime_hours: int) -> list[Any]:
    """The conditions of a session that has neither idled out nor outlived its lifetime
    (the database's clock decides, as for the failed-login throttle)."""
    return [
        DeskSession.last_seen_at > func.now() - func.make_interval(0, 0, 0, 0, 0, idle_minutes),
        DeskSession.created_at > func.now() - func.make_interval(0, 0, 0, 0, lifetime_hours),
    ]


class DeskSessionRepository:
    # Writing `last_seen_at` on every request would write a row per page view; once a
    # minute is precise enough for an idle timeout counted in minutes.
    TOUCH_AFTER = text("interval '60 seconds'")

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def _writing(self) -> None:
        """Desk sessions are no content (no version trigger): their writes alone draw no
        data version after the commit (`not_content`, verified by the database)."""
        not_content(self.session)

    async def add(self, user_id: int, token_hash: str, csrf_token: str, user_agent: str) -> int:
        self._writing()
        row = DeskSession(
            user_id=user_id, token_hash=token_hash, csrf_token=csrf_token, user_agent=user_agent
        )
        self.session.add(row)
        await self.session.flush()
        return row.id

    async def live(
        self, token_hash: str, idle_minutes: int, lifetime_hours: int
    ) -> FoundSession | None:
        row = (
            await self.session.execute(
                select(
                    DeskSession.id,
                    DeskSession.csrf_token,
                    (DeskSession.last_seen_at < func.now() - self.TOUCH_AFTER).label("stale"),
                    User.id.label("user_id"),
                    User.login,
                    User.role,
                )
                .join(User, User.id == DeskSession.user_id)
                .where(DeskSession.token_hash == token_hash, *_live(idle_minutes, lifetime_hours))
            )
        ).first()
        if row is None:
            return None
        principal = Principal(id=row.user_id, login=row.login, role=Role(row.role))
        return FoundSession(row.id, principal, row.csrf_token, bool(row.stale))

    async def touch(self, session_id: int) -> None:
        self._writing()
        await self.session.execute(
            update(DeskSession).where(DeskSession.id == session_id).values(last_seen_at=func.now())
        )

    async def of_user(
        self, user_id: int, idle_minutes: int, lifetime_hours: int
    ) -> list[SessionRow]:
        rows = await self.session.execute(
            select(
                DeskSession.id,
                DeskSession.created_at,
                DeskSession.last_seen_at,
                DeskSession.user_agent,
            )
            .where(DeskSession.user_id == user_id, *_live(idle_minutes, lifetime_hours))
            .order_by(DeskSession.last_seen_at.desc(), DeskSession.id.desc())
        )
        return [SessionRow(*row) for row in rows]

    async def remove(self, user_id: int, session_id: int) -> bool:
        """End one of `user_id`'s sessions; False if it has none of that id."""
        self._writing()
        result = await self.session.execute(
            delete(DeskSession).where(DeskSession.id == session_id, DeskSession.user_id == user_id)
        )
        return bool(getattr(result, "rowcount", 0))

    async def remove_all(self, user_id: int, keep: int | None = None) -> int:
        """End every session of `user_id` (but `keep`); how many were ended."""
        self._writing()
        query = delete(DeskSession).where(DeskSession.user_id == user_id)
        if keep is not None:
            query = query.where(DeskSession.id != keep)
        result = await self.session.execute(query)
        return int(getattr(result, "rowcount", 0) or 0)

    async def remove_expired(self, idle_minutes: int, lifetime_hours: int) -> None:
        """Delete every session that has ended by itself (idle, or too old)."""
        self._writing()
        live = _live(idle_minutes, lifetime_hours)
        await self.session.execute(delete(DeskSession).where(~(live[0] & live[1])))

    async def count_live(self, idle_minutes: int, lifetime_hours: int) -> dict[int, int]:
        rows = await self.session.execute(
            select(DeskSession.user_id, func.count())
            .where(*_live(idle_minutes, lifetime_hours))
            .group_by(DeskSession.user_id)
        )
        return dict(rows.all())
