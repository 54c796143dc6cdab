"""Users, for administrators: add a person, change a role, reset an account password (a new
random one, shown once), issue or revoke application passwords, end a person's desk
sessions. The accounts service (app/users/service.py) does the work, as for `almanac users`."""

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from starlette.responses import Response

from app.core.rules.permissions import Role
from app.desk.context import ROLE_NAMES, DeskContext, DeskRefused, desk_reader, desk_writer
from app.i18n import DESK_TEXTS, N_
from app.models import User
from app.users.service import Accounts, UserError, UserExists
from app.users.sessions import DeskSessions

router = APIRouter()

Reader = Annotated[DeskContext, Depends(desk_reader)]
Writer = Annotated[DeskContext, Depends(desk_writer)]
# A reset account password: random, typed once by its owner (then changed, ideally).
RESET_PASSWORD_BYTES = 12


def _accounts(desk: DeskContext) -> Accounts:
    desk.require(desk.can.users)
    return Accounts(desk.db, desk.settings.app_password_pepper)


async def _page(desk: DeskContext, status: int = 200, **values: Any) -> Response:
    accounts = _accounts(desk)
    users = await accounts.list()
    app_passwords = await accounts.app_password_counts()
    sessions = await DeskSessions(desk.db, desk.settings).counts()
    return desk.render(
        "desk/users.html",
        status,
        users=users,
        roles=[role.value for role in Role],
        app_passwords=app_passwords,
        sessions=sessions,
        **values,
    )


async def _form(desk: DeskContext) -> dict[str, str]:
    form = await desk.request.form()
    return {key: str(value) for key, value in form.items() if isinstance(value, str)}


@router.get("/users")
async def users_page(desk: Reader) -> Response:
    """Every user, their role, passwords and sessions."""
    return await _page(desk)


@router.post("/users")
async def add_user(desk: Writer) -> Response:
    """A new user; the application password is shown once, on the answer itself."""
    form = await _form(desk)
    login = form.get("login", "")
    role = form.get("role", "")
    if role not in {r.value for r in Role}:
        return await _page(
            desk, 400, problem=DESK_TEXTS.gettext(desk.language, "Choose a role."), login=login
        )
    try:
        user, password = await _accounts(desk).add(login, Role(role))
    except UserExists:
        problem = DESK_TEXTS.gettext(desk.language, "That login is taken.")
        return await _page(desk, 400, problem=problem, login=login, role=role)
    except UserError:
        problem = DESK_TEXTS.gettext(
            desk.language, "A login has 1 to 60 characters, without spaces or ':'."
        )
        return await _page(desk, 400, problem=problem, login=login, role=role)
    return await _page(desk, secret=("app", user.login, password))


@router.post("/users/{user_id:id}/role")
async def change_role(user_id: int, desk: Writer) -> Response:
    form = await _form(desk)
    role = form.get("role", "")
    if role not in {r.value for r in Role}:
        return await _page(desk, 400, problem=DESK_TEXTS.gettext(desk.language, "Choose a role."))
    if user_id == desk.principal.id:
        problem = DESK_TEXTS.gettext(desk.language, "You cannot change your own role.")
        return await _page(desk, 400, problem=problem)
    user = await _found(desk, user_id)
    await _accounts(desk).set_role(user.login, Role(role))
    role_name = DESK_TEXTS.gettext(desk.language, ROLE_NAMES[Role(role)])
    message = DESK_TEXTS.gettext(
        desk.language, "%(login)s is now: %(role)s.", login=user.login, role=role_name
    )
    return desk.redirect("users/", message)


async def _found(desk: DeskContext, user_id: int) -> User:
    """The user of that id; 404 for an unknown one."""
    user = await _accounts(desk).users.by_id(user_id)
    if user is None:
        raise DeskRefused(404, N_("There is no such user."), desk.language)
    return user


@router.post("/users/{user_id:id}/account-password")
async def reset_account_password(user_id: int, desk: Writer) -> Response:
    """A new random account password, shown once; the person's desk sessions end."""
    user = await _found(desk, user_id)
    password = secrets.token_urlsafe(RESET_PASSWORD_BYTES)
    await _accounts(desk).set_account_password(user.login, password)
    if user.id == desk.principal.id:  # signed out by it: sign in again
        return desk.redirect("signin")
    return await _page(desk, secret=("account", user.login, password))


@router.post("/users/{user_id:id}/app-passwords")
async def issue_app_password(user_id: int, desk: Writer) -> Response:
    user = await _found(desk, user_id)
    password = await _accounts(desk).issue_password(user)
    return await _page(desk, secret=("app", user.login, password))


@router.post("/users/{user_id:id}/app-passwords/revoke")
async def revoke_app_passwords(user_id: int, desk: Writer) -> Response:
    user = await _found(desk, user_id)
    count = await _accounts(desk).revoke_app_passwords(user.login)
    message = DESK_TEXTS.gettext(
        desk.language, "Application passwords revoked for %(login)s: %(count)d.",
        login=user.login, count=count,
    )  # fmt: skip
    return desk.redirect("users/", message)


@router.post("/users/{user_id:id}/sessions/end")
async def end_sessions(user_id: int, desk: Writer) -> Response:
    user = await _found(desk, user_id)
    keep = desk.session_id if user.id == desk.principal.id else None
    count = await DeskSessions(desk.db, desk.settings).end_all(user.id, keep)
    message = DESK_TEXTS.gettext(
        desk.language, "Desk sessions ended for %(login)s: %(count)d.",
        login=user.login, count=count,
    )  # fmt: skip
    return desk.redirect("users/", message)
