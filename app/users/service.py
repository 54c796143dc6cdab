"""User management behind the `almanac users` commands."""

from collections.abc import Sequence
from dataclasses import dataclass

from app.core.database.engine import Session, not_content
from app.core.rules.permissions import Principal, Role
from app.models import User
from app.users.auth import hash_password, new_password, pepper_fingerprint
from app.users.passwords import WeakPassword, hash_account_password, verify_account_password
from app.users.repository import DeskSessionRepository, UserRepository

MAX_LOGIN_LENGTH = 60


class UserError(Exception):
    """A user command that cannot be carried out (message for the operator)."""


class UserExists(UserError):
    """`users add` of a login that is taken: an answer, not a failure of the command's
    input (the CLI says so on standard output, where a script reads the password)."""

    def __init__(self, user: User) -> None:
        super().__init__(f"user {user.login!r} already exists (role {user.role})")
        self.login = user.login


# How the kinds are counted in a sentence: one, several.
NOUNS = {
    "events": ("event", "events"),
    "venues": ("venue", "venues"),
    "organizers": ("organizer", "organizers"),
    "media": ("media item", "media items"),
}


@dataclass(frozen=True, slots=True)
class Authored:
    """What a user is the author of, by kind (events, venues, organizers, media)."""

    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def __str__(self) -> str:
        return (
            ", ".join(
                f"{n} {NOUNS[kind][0] if n == 1 else NOUNS[kind][1]}"
                for kind, n in self.counts.items()
                if n
            )
            or "nothing"
        )


class Accounts:
    """Users and application passwords; `pepper` keys the stored password hashes."""

    def __init__(self, session: Session, pepper: str) -> None:
        self.users = UserRepository(session)
        self.desk_sessions = DeskSessionRepository(session)
        self.pepper = pepper

    async def _find(self, login: str) -> User:
        user = await self.users.by_login(login)
        if user is None:
            raise UserError(f"no user {login!r}")
        return user

    async def issue_password(self, user: User) -> str:
        password = new_password()
        token_hash = hash_password(password, self.pepper)
        await self.users.add_password(user.id, token_hash, pepper_fingerprint(self.pepper))
        return password

    async def add(self, login: str, role: Role) -> tuple[User, str]:
        login = login.strip()
        if (
            not login
            or len(login) > MAX_LOGIN_LENGTH
            or any(c.isspace() or c == ":" for c in login)
        ):
            raise UserError("a login is 1-60 characters without spaces or ':'")
        existing = await self.users.by_login(login)
        if existing is not None:
            raise UserExists(existing)
        user = await self.users.add(login, role)
        return user, await self.issue_password(user)

    async def new_password(self, login: str) -> str:
        return await self.issue_password(await self._find(login))

    async def list(self) -> Sequence[User]:
        return await self.users.all()

    async def authored(self, login: str) -> Authored:
        return Authored(await self.users.authored((await self._find(login)).id))

    async def remove(
        self, login: str, *, reassign_to: str | None = None, delete: bool = False
    ) -> Authored:
        """Remove the user; what they wrote goes to `reassign_to`, or is deleted with
        `delete`. Refused when it would be left without an author (as `wp user delete`
        asks for --reassign): the answer is what was moved or deleted."""
        user = await self._find(login)
        authored = Authored(await self.users.authored(user.id))
        if reassign_to is not None:
            heir = await self._find(reassign_to)
            if heir.id == user.id:
                raise UserError(f"cannot give {user.login!r}'s content to {user.login!r} itself")
            await self.users.reassign(user.id, heir.id)
        elif delete:
            await self.users.delete_authored(user.id)
        elif authored.total:
            raise UserError(
                f"{user.login} is the author of {authored}: give it to another user or delete it"
            )
        await self.users.remove(user.id)
        return authored

    async def set_account_password(self, login: str, password: str) -> User:
        """Set the account password (the desk's sign-in); every desk session of the user
        ends, as after any change of password."""
        user = await self._find(login)
        try:
            hashed = await hash_account_password(password)
        except WeakPassword as exc:
            raise UserError(str(exc)) from None
        await self.users.set_account_password(user.id, hashed)
        await self.desk_sessions.remove_all(user.id)
        return user

    async def signs_in(self, login: str, password: str) -> Principal | None:
        """The user whose account password this is, None for a wrong login or password
        (an application password is not an account password). A sign-in writes no content
        (at most a desk session, and the throttle's failure outside this session)."""
        not_content(self.users.session)
        user = await self.users.by_login(login.strip()) if login.strip() else None
        stored = user.account_password if user is not None else None
        if not await verify_account_password(stored, password) or user is None:
            return None
        return Principal(id=user.id, login=user.login, role=Role(user.role))

    async def set_role(self, login: str, role: Role) -> User:
        user = await self._find(login)
        await self.users.set_role(user.id, role)
        return user

    async def revoke_app_passwords(self, login: str) -> int:
        """Remove every application password of the user; how many there were."""
        return await self.users.remove_app_passwords((await self._find(login)).id)

    async def app_password_counts(self) -> dict[int, int]:
        return await self.users.app_password_counts()
