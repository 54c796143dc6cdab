"""A form for a new record is saved once: it carries a one-time token, and a second post of
the same token (Back after saving, then Save again; a double click) opens the record the
first post made instead of making another. The token is also in the form page's address
(the editor's `events/new?form=...`), so that Back, which loads that address again (desk
pages are never cached), shows the form with the same token.

The token is claimed as an idempotency key of the API's creates (app/http/idempotency.py:
the same table, its lifetime and pruning), per user, in the create's own transaction: a
create that is refused rolls the claim back with it, so the form can be saved once fixed.
A concurrent second post waits on the first one's claim, then reads what it made.
"""

import re
import secrets

from app.desk.context import DeskContext
from app.http.idempotency import LIFETIME
from app.http.repository.idempotency_keys import CLAIM_SQL, HELD_SQL, STORE_SQL

FIELD = "form_token"
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
# The stored "answer" of a desk form: the path of the record it made (no response body).
_DIGEST = b"desk form"
_PREFIX = "desk-form:"


def new_token() -> str:
    return secrets.token_urlsafe(24)


def valid_token(token: str) -> bool:
    return TOKEN.fullmatch(token) is not None


class FormOnce:
    """The claim of one form's token for this desk user."""

    def __init__(self, desk: DeskContext, token: str) -> None:
        self.desk = desk
        self.ids = {"user_id": desk.principal.id, "key": _PREFIX + token}
        self.valid = valid_token(token)

    async def made_before(self) -> str | None:
        """The desk path of the record an earlier post of this form made, or None when
        this post is the first (the token is now claimed by it)."""
        if not self.valid:
            return None
        session = self.desk.db
        claim = {**self.ids, "digest": _DIGEST, "lifetime": LIFETIME}
        if (await session.execute(CLAIM_SQL, claim)).first() is not None:
            return None
        held = (await session.execute(HELD_SQL, self.ids)).one()
        location: str | None = held.location
        return location

    async def made(self, path: str) -> None:
        """Remember the record this post made (`path`: its editor, a desk path)."""
        if self.valid:
            stored = {**self.ids, "status": 303, "body": b"", "location": path}
            await self.desk.db.execute(STORE_SQL, stored)
