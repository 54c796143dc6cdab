"""The Users screen (`/desk/users/`, administrators only): list, add (the new application
password shown once, as `almanac users add` prints it), change a role, set a new account
password (typed, or made up and shown once), revoke application passwords and end desk
sessions. Every change is the `almanac users` commands' service (app/users/service.py)."""

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from starlette.responses import Response

from app.core.rules.permissions import Role
from app.desk.context import DeskContext, desk_reader, desk_writer
from app.desk.i18n import gettext
from app.desk.screens.plurals import ngettext
from app.models import User
from app.users.passwords import MAX_LENGTH, MIN_LENGTH
from app.users.service import Accounts, LastAdministrator, UserError, UserExists
from app.users.sessions import DeskSessions

router = APIRouter()
Reader = Annotated[DeskContext, Depends(desk_reader)]
Writer = Annotated[DeskContext, Depends(desk_writer)]

ROLES = tuple(role.value for role in Role)
MADE_UP_PASSWORD_BYTES = 12  # 16 characters, 96 bits


def _accounts(desk: DeskContext) -> Accounts:
    return Accounts(desk.db, desk.settings.app_password_pepper)


def _administrator(desk: DeskContext) -> None:
    """The 403 page for everybody but administrators (they alone manage accounts)."""
    desk.require(desk.can.users)


async def render_users(desk: DeskContext, status: int = 200, **values: Any) -> Response:
    accounts = _accounts(desk)
    users = await accounts.list()
    values.setdefault("errors", {})
    values.setdefault("form", {"login": "", "role": Role.AUTHOR.value})
    return desk.render(
        "desk/users.html",
        status=status,
        users=users,
        roles=ROLES,
        app_passwords=await accounts.app_password_counts(),
        sessions=await DeskSessions(desk.db, desk.settings).counts(),
        **values,
    )


@router.get("/users")
async def users_screen(desk: Reader) -> Response:
    _administrator(desk)
    return await render_users(desk)


async def _user(desk: DeskContext, user_id: int) -> User | None:
    for user in await _accounts(desk).list():
        if user.id == user_id:
            return user
    return None


def _role(value: Any) -> Role | None:
    return Role(value) if value in ROLES else None


@router.post("/users/add")
async def add_user(desk: Writer) -> Response:
    _administrator(desk)
    form = await desk.request.form()
    login, role = str(form.get("login", "")).strip(), _role(form.get("role"))
    kept = {"login": login, "role": str(form.get("role", ""))}
    if role is None:
        errors = {"role": gettext(desk.language, "Choose a role.")}
        return await render_users(desk, status=400, errors=errors, form=kept)
    try:
        user, password = await _accounts(desk).add(login, role)
    except UserExists:
        errors = {"login": gettext(desk.language, "A user with this login exists already.")}
        return await render_users(desk, status=409, errors=errors, form=kept)
    except UserError:
        errors = {
            "login": gettext(desk.language, "A login is 1 to 60 characters, without spaces or “:”.")
        }
        return await render_users(desk, status=400, errors=errors, form=kept)
    shown = {"login": user.login, "password": password, "kind": "application"}
    return await render_users(desk, status=201, shown=shown)


@router.post("/users/{user_id}/role")
async def change_role(user_id: int, desk: Writer) -> Response:
    _administrator(desk)
    user = await _user(desk, user_id)
    form = await desk.request.form()
    role = _role(form.get("role"))
    if user is None or role is None:
        message = gettext(desk.language, "No such user or role.")
        return await render_users(desk, status=404 if user is None else 400, problem=message)
    try:
        await _accounts(desk).set_role(user.login, role)
    except LastAdministrator:
        problem = gettext(desk.language, "The last administrator keeps their role.")
        return await render_users(desk, status=409, problem=problem)
    role_text = role_name(desk, role.value)
    message = gettext(
        desk.language, "%(login)s is now: %(role)s.", login=user.login, role=role_text
    )
    return desk.redirect("users/", flash=message)


@router.post("/users/{user_id}/password")
async def set_password(user_id: int, desk: Writer) -> Response:
    """A typed password, or a made-up one shown once; every desk session of the user ends
    (the service's rule for any new password)."""
    _administrator(desk)
    user = await _user(desk, user_id)
    if user is None:
        return await render_users(
            desk, status=404, problem=gettext(desk.language, "No such user or role.")
        )
    form = await desk.request.form()
    typed = str(form.get("password", ""))
    password = typed or secrets.token_urlsafe(MADE_UP_PASSWORD_BYTES)
    try:
        await _accounts(desk).set_account_password(user.login, password)
    except UserError:
        problem = gettext(
            desk.language,
            "An account password has %(min)d to %(max)d characters.",
            min=MIN_LENGTH,
            max=MAX_LENGTH,
        )
        return await render_users(desk, status=400, problem=problem)
    if typed:
        message = gettext(
            desk.language, "The account password of %(login)s is set.", login=user.login
        )
        return desk.redirect("users/", flash=message)
    shown = {"login": user.login, "password": password, "kind": "account"}
    return await render_users(desk, shown=shown)


@router.post("/users/{user_id}/revoke")
async def revoke_app_passwords(user_id: int, desk: Writer) -> Response:
    _administrator(desk)
    user = await _user(desk, user_id)
    if user is None:
        return await render_users(
            desk, status=404, problem=gettext(desk.language, "No such user or role.")
        )
    count = await _accounts(desk).revoke_app_passwords(user.login)
    message = ngettext(
        desk.language,
        "%(num)d application password of %(login)s revoked.",
        "%(num)d application passwords of %(login)s revoked.",
        count,
        login=user.login,
    )
    return desk.redirect("users/", flash=message)


@router.post("/users/{user_id}/sessions")
async def end_sessions(user_id: int, desk: Writer) -> Response:
    _administrator(desk)
    user = await _user(desk, user_id)
    if user is None:
        return await render_users(
            desk, status=404, problem=gettext(desk.language, "No such user or role.")
        )
    # One's own sessions but this one: the administrator stays signed in here.
    keep = desk.session_id if user.id == desk.principal.id else None
    count = await DeskSessions(desk.db, desk.settings).end_all(user.id, keep)
    message = ngettext(
        desk.language,
        "%(num)d desk session of %(login)s ended.",
        "%(num)d desk sessions of %(login)s ended.",
        count,
        login=user.login,
    )
    return desk.redirect("users/", flash=message)


def role_name(desk: DeskContext, role: str) -> str:
    names = {
        "administrator": gettext(desk.language, "Administrator"),
        "editor": gettext(desk.language, "Editor"),
        "author": gettext(desk.language, "Author"),
        "contributor": gettext(desk.language, "Contributor"),
        "subscriber": gettext(desk.language, "Subscriber"),
    }
    return names.get(role, role)
