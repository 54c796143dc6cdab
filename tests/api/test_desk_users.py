"""The desk's Users screen through HTTP (app/desk/screens/users.py): administrators only;
add (the application password shown once), change a role, set an account password,
revoke application passwords, end desk sessions; all through the `almanac users` service."""

import re

import pytest
from httpx import AsyncClient
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.infra.settings import get_settings
from app.users.service import Accounts
from tests.desk_support import DeskUserFactory, csrf_token, desk_login, sign_in
from tests.factories import API, Auth, basic

USERS = "/desk/users/"
SHOWN_PASSWORD = re.compile(r'<code class="desk-password">([^<]+)</code>')


@pytest.mark.parametrize("role", ["subscriber", "contributor", "author", "editor"])
async def test_only_administrators_use_the_screen(
    client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession, role: str
) -> None:
    person = await desk_user(role)
    token = await desk_login(client, person)
    page = await client.get(USERS)
    assert page.status_code == 403
    added = await client.post(
        "/desk/users/add", data={"csrf_token": token, "login": "x", "role": "administrator"}
    )
    assert added.status_code == 403
    promoted = await client.post(
        f"/desk/users/{person.id}/role", data={"csrf_token": token, "role": "administrator"}
    )
    assert promoted.status_code == 403
    assert (await client.get(USERS)).status_code == 403  # not promoted: the role is read anew
    logins = {user.login for user in await Accounts(db, get_settings().app_password_pepper).list()}
    assert "x" not in logins  # nothing was added


async def test_every_post_needs_the_csrf_token(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    admin = await desk_user("administrator")
    other = await auth("author")
    await desk_login(client, admin)
    for path, data in [
        ("/desk/users/add", {"login": "newcomer", "role": "editor"}),
        (f"/desk/users/{other.id}/role", {"role": "editor"}),
        (f"/desk/users/{other.id}/password", {"password": "a long new password"}),
        (f"/desk/users/{other.id}/revoke", {}),
        (f"/desk/users/{other.id}/sessions", {}),
    ]:
        answer = await client.post(path, data=data)
        assert answer.status_code == 403, path
        wrong = await client.post(path, data={**data, "csrf_token": "not the token"})
        assert wrong.status_code == 403, path
    page = await client.get(USERS)
    assert "newcomer" not in page.text
    still = await client.get(f"{API}/events", params={"status": "draft"}, headers=other.basic)
    assert still.status_code == 200  # the application password was not revoked


async def test_add_shows_the_application_password_once_and_it_works(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    admin = await desk_user("administrator")
    token = await desk_login(client, admin)
    added = await client.post(
        "/desk/users/add", data={"csrf_token": token, "login": "newcomer", "role": "editor"}
    )
    assert added.status_code == 201, added.text
    assert added.headers["cache-control"] == "no-store"
    shown = SHOWN_PASSWORD.findall(added.text)
    assert len(shown) == 1
    drafts = await client.get(
        f"{API}/events", params={"status": "draft"}, headers=basic("newcomer", shown[0])
    )
    assert drafts.status_code == 200  # an editor's application password
    again = await client.get(USERS)
    assert "newcomer" in again.text
    assert shown[0] not in again.text  # shown once only


@pytest.mark.parametrize(
    ("login", "role", "status"),
    [("", "editor", 400), ("has space", "editor", 400), ("ok", "emperor", 400)],
)
async def test_add_refuses_bad_input_and_keeps_it(
    client: AsyncClient, desk_user: DeskUserFactory, login: str, role: str, status: int
) -> None:
    admin = await desk_user("administrator")
    token = await desk_login(client, admin)
    answer = await client.post(
        "/desk/users/add", data={"csrf_token": token, "login": login, "role": role}
    )
    assert answer.status_code == status
    assert 'aria-invalid="true"' in answer.text
    assert not SHOWN_PASSWORD.search(answer.text)


async def test_add_a_taken_login_is_a_conflict(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    admin = await desk_user("administrator")
    token = await desk_login(client, admin)
    answer = await client.post(
        "/desk/users/add",
        data={"csrf_token": token, "login": admin.login.upper(), "role": "editor"},
    )
    assert answer.status_code == 409
    assert "exists already" in answer.text


async def test_change_role_takes_effect_in_the_api(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    admin = await desk_user("administrator")
    author = await auth("author")
    token = await desk_login(client, admin)
    before = await client.get(f"{API}/events", params={"status": "draft"}, headers=author.basic)
    changed = await client.post(
        f"/desk/users/{author.id}/role", data={"csrf_token": token, "role": "subscriber"}
    )
    assert changed.status_code == 303
    page = await client.get(USERS)
    assert f"{author.login} is now: Subscriber." in page.text
    after = await client.get(f"{API}/events", params={"status": "draft"}, headers=author.basic)
    assert before.status_code == 200
    assert after.status_code == 400  # a subscriber may only ask for published events


async def test_the_last_administrator_keeps_the_role(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    admin = await desk_user("administrator")
    token = await desk_login(client, admin)
    answer = await client.post(
        f"/desk/users/{admin.id}/role", data={"csrf_token": token, "role": "editor"}
    )
    assert answer.status_code == 409
    assert "last administrator" in answer.text
    still = await client.get(USERS)
    assert still.status_code == 200


async def test_unknown_user_or_role(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    admin = await desk_user("administrator")
    token = await desk_login(client, admin)
    missing = await client.post(
        "/desk/users/999999/role", data={"csrf_token": token, "role": "editor"}
    )
    assert missing.status_code == 404
    bad = await client.post(
        f"/desk/users/{admin.id}/role", data={"csrf_token": token, "role": "emperor"}
    )
    assert bad.status_code == 400


async def test_set_a_typed_account_password_ends_the_sessions(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    admin = await desk_user("administrator")
    editor = await desk_user("editor")
    token = await desk_login(client, admin)
    short = await client.post(
        f"/desk/users/{editor.id}/password", data={"csrf_token": token, "password": "short"}
    )
    assert short.status_code == 400
    assert (await sign_in(client, editor.login, editor.account_password)).status_code == 303
    await desk_login(client, admin)  # the client's cookie is the administrator's again
    token = csrf_token(await client.get(USERS))
    answer = await client.post(
        f"/desk/users/{editor.id}/password",
        data={"csrf_token": token, "password": "a brand new password"},
    )
    assert answer.status_code == 303
    assert (await sign_in(client, editor.login, editor.account_password)).status_code != 303
    assert (await sign_in(client, editor.login, "a brand new password")).status_code == 303


async def test_a_made_up_account_password_is_shown_once(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    admin = await desk_user("administrator")
    editor = await desk_user("editor")
    token = await desk_login(client, admin)
    answer = await client.post(
        f"/desk/users/{editor.id}/password", data={"csrf_token": token, "password": ""}
    )
    assert answer.status_code == 200
    shown = SHOWN_PASSWORD.findall(answer.text)
    assert len(shown) == 1
    assert (await sign_in(client, editor.login, shown[0])).status_code == 303


async def test_revoke_application_passwords(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    admin = await desk_user("administrator")
    author = await auth("author")
    token = await desk_login(client, admin)
    assert (
        await client.get(f"{API}/events", params={"status": "draft"}, headers=author.basic)
    ).status_code == 200
    answer = await client.post(f"/desk/users/{author.id}/revoke", data={"csrf_token": token})
    assert answer.status_code == 303
    page = await client.get(USERS)
    assert f"1 application password of {author.login} revoked." in page.text
    refused = await client.get(f"{API}/events", params={"status": "draft"}, headers=author.basic)
    assert refused.status_code == 401


async def test_end_a_users_desk_sessions(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    admin = await desk_user("administrator")
    editor = await desk_user("editor")
    editor_token = await desk_login(client, editor)
    editor_cookies = dict(client.cookies)
    client.cookies.clear()
    token = await desk_login(client, admin)
    answer = await client.post(f"/desk/users/{editor.id}/sessions", data={"csrf_token": token})
    assert answer.status_code == 303
    page = await client.get(USERS)
    assert f"1 desk session of {editor.login} ended." in page.text
    client.cookies.clear()
    client.cookies.update(editor_cookies)
    after = await client.get("/desk/events/")
    assert after.status_code == 303  # signed out: to the sign-in page
    assert editor_token


async def test_in_german(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    admin = await desk_user("administrator")
    await desk_login(client, admin)
    page = await client.get("/de/desk/users/")
    assert page.status_code == 200
    assert "Benutzer hinzufügen" in page.text
    assert "Rolle ändern" in page.text
