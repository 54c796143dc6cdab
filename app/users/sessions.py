"""Desk sessions: a signed-in person in a browser (app/desk/), one row each in PostgreSQL, so
that a session can be listed and ended, by its owner or an administrator, and ends by itself
after `DESK_SESSION_IDLE_MINUTES` without a request or `DESK_SESSION_LIFETIME_HOURS` after
sign-in.

The cookie carries a random token (256 bits); only its SHA-256 is stored, so a copy of the
database signs nobody in. Each session has its own CSRF token for the desk's forms."""

import hashlib
import secrets
from dataclasses import dataclass

from app.core.database.engine import Session
from app.core.rules.permissions import Principal
from app.core.settings import Settings
from app.users.repository import DeskSessionRepository, FoundSession, SessionRow

COOKIE = "almanac_desk"
TOKEN_BYTES = 32
USER_AGENT_LENGTH = 300


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A live desk session: whose it is and the token its forms must carry."""

    id: int
    principal: Principal
    csrf_token: str


class DeskSessions:
    def __init__(self, session: Session, settings: Settings) -> None:
        self.sessions = DeskSessionRepository(session)
        self.idle = settings.desk_session_idle_minutes
        self.lifetime = settings.desk_session_lifetime_hours

    async def start(self, principal: Principal, user_agent: str) -> tuple[str, SignedIn]:
        """A new session: (the cookie's token, the session). Sessions that ended by
        themselves (anybody's) are cleared out on the way: sign-ins are rare enough."""
        await self.sessions.remove_expired(self.idle, self.lifetime)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        csrf = secrets.token_urlsafe(TOKEN_BYTES)
        session_id = await self.sessions.add(
            principal.id, token_hash(token), csrf, user_agent[:USER_AGENT_LENGTH]
        )
        return token, SignedIn(session_id, principal, csrf)

    async def resume(self, token: str) -> SignedIn | None:
        """The live session of a cookie's token, None if it ended (or never was)."""
        if not token or len(token) > 2 * TOKEN_BYTES:
            return None
        found: FoundSession | None = await self.sessions.live(
            token_hash(token), self.idle, self.lifetime
        )
        if found is None:
            return None
        if found.stale:
            await self.sessions.touch(found.id)
        return SignedIn(found.id, found.principal, found.csrf_token)

    async def of_user(self, user_id: int) -> list[SessionRow]:
        return await self.sessions.of_user(user_id, self.idle, self.lifetime)

    async def end(self, user_id: int, session_id: int) -> bool:
        return await self.sessions.remove(user_id, session_id)

    async def end_all(self, user_id: int, keep: int | None = None) -> int:
        return await self.sessions.remove_all(user_id, keep)

    async def counts(self) -> dict[int, int]:
        """Live sessions per user id."""
        return await self.sessions.count_live(self.idle, self.lifetime)
