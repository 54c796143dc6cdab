"""Helpers for the desk's HTTP tests (in-process, the `client` fixture): people with account
passwords, and signing in through the real form.

    user = await desk_user("editor")            # the `desk_user` fixture (tests/conftest.py)
    token = await desk_login(client, user)      # the session's CSRF token, to post with
    await client.post("/desk/sessions/end-others", data={"csrf_token": token})
"""

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from argon2 import PasswordHasher
from httpx import AsyncClient, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.users.repository import UserRepository
from tests.factories import AuthFor, make_auth

ACCOUNT_PASSWORD = "correct horse battery staple"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class DeskUser(AuthFor):
    """A user with an application password (`password`, for the API) and an account
    password (`account_password`, for the desk)."""

    account_password: str = ACCOUNT_PASSWORD


DeskUserFactory = Callable[[str], Awaitable[DeskUser]]


# An argon2id hash of ACCOUNT_PASSWORD at the lowest cost argon2 allows. A stored hash carries
# its own cost parameters, so the sign-in verifies it for real, with the product's code, in a
# fraction of a millisecond instead of argon2-cffi's default ~0.2 s of CPU per sign-in (which
# cost the suite half a minute). Hashing at the product's own cost is tested through
# `almanac users set-password` and the Users screen.
CHEAP_HASH = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(ACCOUNT_PASSWORD)


async def make_desk_user(db: AsyncSession, role: str) -> DeskUser:
    """A new user of `role` with ACCOUNT_PASSWORD (CHEAP_HASH)."""
    made = await make_auth(db, role)
    await UserRepository(db).set_account_password(made.id, CHEAP_HASH)
    await db.commit()
    return DeskUser(id=made.id, login=made.login, password=made.password)


def csrf_token(page: Response | str) -> str:
    """The CSRF token of a desk page's forms."""
    html = page if isinstance(page, str) else page.text
    found = CSRF.search(html)
    assert found is not None, "no CSRF token on the page"
    return found.group(1)


async def sign_in(
    client: AsyncClient, login: str, password: str, prefix: str = "", **extra: str
) -> Response:
    """Post the sign-in form (as a browser of this site would); the response, unfollowed."""
    return await client.post(
        f"{prefix}/desk/signin", data={"login": login, "password": password, **extra}
    )


async def desk_login(client: AsyncClient, user: DeskUser, prefix: str = "") -> str:
    """Sign `user` in through the real form (the client keeps the cookie); the session's
    CSRF token."""
    answer = await sign_in(client, user.login, user.account_password, prefix)
    assert answer.status_code == 303, answer.text
    home = await client.get(f"{prefix}/desk/")
    assert home.status_code == 200, home.text
    return csrf_token(home)
