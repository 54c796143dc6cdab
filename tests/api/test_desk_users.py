"""The Users screen (administrators only): add, change a role, reset an account password,
issue and revoke application passwords, end a person's desk sessions."""

import re

from fastapi import FastAPI
from httpx import AsyncClient

from tests.desk_support import DeskUserFactory, desk_login, sign_in
from tests.factories import API, asgi_client, basic

SHOWN_ONCE = re.compile(r'<code class="password">([^<]+)</code>')


async def test_only_administrators_use_it(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    home = await client.get("/desk/")
    assert 'href="/desk/users/"' not in home.text
    page = await client.get("/desk/users/")
    assert page.status_code == 403
    assert "You may not use this screen." in page.text
    add = await client.post(
        "/desk/users", data={"csrf_token": token, "login": "sneaky", "role": "administrator"}
    )
    assert add.status_code == 403
    assert (await sign_in(client, "sneaky", "whatever")).status_code == 401


async def test_add_a_user_and_manage_their_passwords(
    app: FastAPI, client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    admin = await desk_user("administrator")
    token = await desk_login(client, admin)
    page = await client.get("/desk/users/")
    assert page.status_code == 200
    assert admin.login in page.text

    added = await client.post(
        "/desk/users", data={"csrf_token": token, "login": "newcomer", "role": "author"}
    )
    assert added.status_code == 200
    app_password = SHOWN_ONCE.findall(added.text)
    assert len(app_password) == 1
    me = await client.get(f"{API}/events", headers=basic("newcomer", app_password[0]))
    assert me.status_code == 200
    taken = await client.post(
        "/desk/users", data={"csrf_token": token, "login": "NEWCOMER", "role": "editor"}
    )
    assert taken.status_code == 400
    assert "That login is taken." in taken.text
    bad = await client.post(
        "/desk/users", data={"csrf_token": token, "login": "has space", "role": "editor"}
    )
    assert bad.status_code == 400
    assert 'value="has space"' in bad.text  # kept for correction

    user_id = int(re.findall(r'action="/desk/users/(\d+)/role"', added.text)[-1])
    reset = await client.post(f"/desk/users/{user_id}/account-password", data={"csrf_token": token})
    assert reset.status_code == 200
    account_password = SHOWN_ONCE.findall(reset.text)[0]
    async with asgi_client(app) as newcomer:
        signed_in = await sign_in(newcomer, "newcomer", account_password)
        assert signed_in.status_code == 303
        assert (await newcomer.get("/desk/")).status_code == 200

        # The administrator ends the newcomer's desk sessions ...
        ended = await client.post(f"/desk/users/{user_id}/sessions/end", data={"csrf_token": token})
        assert ended.status_code == 303
        assert "Desk sessions ended for newcomer: 1." in (await client.get("/desk/users/")).text
        assert (await newcomer.get("/desk/")).status_code == 303

    # ... changes their role ...
    role = await client.post(
        f"/desk/users/{user_id}/role", data={"csrf_token": token, "role": "editor"}
    )
    assert role.status_code == 303
    assert "newcomer is now: Editor." in (await client.get("/desk/users/")).text
    # ... and revokes their application passwords.
    issued = await client.post(f"/desk/users/{user_id}/app-passwords", data={"csrf_token": token})
    second = SHOWN_ONCE.findall(issued.text)[0]
    revoked = await client.post(
        f"/desk/users/{user_id}/app-passwords/revoke", data={"csrf_token": token}
    )
    assert revoked.status_code == 303
    listing = await client.get("/desk/users/")
    assert "Application passwords revoked for newcomer: 2." in listing.text
    for secret in (app_password[0], second):
        gone = await client.get(f"{API}/events", headers=basic("newcomer", secret))
        assert gone.status_code == 401


async def test_an_administrator_keeps_their_own_role(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    admin = await desk_user("administrator")
    token = await desk_login(client, admin)
    own = await client.post(
        f"/desk/users/{admin.id}/role", data={"csrf_token": token, "role": "subscriber"}
    )
    assert own.status_code == 400
    assert "You cannot change your own role." in own.text
    assert 'href="/desk/users/"' in (await client.get("/desk/")).text  # still an administrator
    unknown = await client.post("/desk/users/999999/app-passwords", data={"csrf_token": token})
    assert unknown.status_code == 404
