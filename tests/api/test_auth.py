"""Application passwords over Basic and Bearer, and what wrong credentials get."""

import base64

from fastapi import FastAPI
from httpx import AsyncClient

from app.core.app_services import app_services
from tests.factories import API, Auth, asgi_client, basic


async def test_basic_and_bearer_authenticate(client: AsyncClient, auth: Auth) -> None:
    editor = await auth("editor")
    for headers in (editor.basic, editor.bearer):
        response = await client.post(f"{API}/tags", json={"name": str(headers)}, headers=headers)
        assert response.status_code == 201


async def test_grouped_password_and_case_insensitive_login(client: AsyncClient, auth: Auth) -> None:
    editor = await auth("editor")
    grouped = " ".join(editor.password[i : i + 4] for i in range(0, len(editor.password), 4))
    response = await client.post(
        f"{API}/tags", json={"name": "Grouped"}, headers=basic(editor.login.upper(), grouped)
    )
    assert response.status_code == 201


async def test_wrong_credentials_are_401_on_every_route(
    client: AsyncClient, auth: Auth, app: FastAPI
) -> None:
    editor = await auth("editor")
    other = await auth("subscriber")
    cases = {
        "incorrect_password": [
            basic(editor.login, "not-the-password"),
            basic(editor.login, other.password),  # someone else's password
            {"Authorization": "Bearer not-a-password"},
            basic("nobody-here", editor.password),  # the same answer: no login is revealed
        ],
        "invalid_username": [
            {"Authorization": "Basic !!!not-base64"},
            {"Authorization": "Basic " + base64.b64encode(b"no-colon").decode()},
        ],
    }
    for code, headers_list in cases.items():
        for headers in headers_list:
            for method, path in (("GET", f"{API}/categories"), ("POST", f"{API}/tags")):
                await app_services(app).failed_logins.clear()  # throttling has its own test
                response = await client.request(method, path, json={"name": "x"}, headers=headers)
                assert response.status_code == 401, (code, headers, method)
                body = response.json()
                assert body["code"] == code
                assert body["data"] == {"status": 401}
                assert editor.password not in response.text


async def test_messages_of_auth_errors(client: AsyncClient, auth: Auth) -> None:
    editor = await auth("editor")
    response = await client.get(f"{API}/tags", headers=basic(editor.login, "wrong"))
    assert response.json()["message"] == "The login or the application password is wrong."
    german = await client.get(f"/de{API}/tags", headers=basic(editor.login, "wrong"))
    assert german.json()["message"] == "Der Login oder das Anwendungspasswort ist falsch."


async def test_an_unknown_login_and_a_wrong_password_answer_alike(
    client: AsyncClient, auth: Auth
) -> None:
    """Which logins exist is not for anybody to find out (WordPress tells them apart)."""
    editor = await auth("editor")
    wrong_password = await client.get(f"{API}/tags", headers=basic(editor.login, "wrong"))
    unknown_login = await client.get(f"{API}/tags", headers=basic("nobody-here", "wrong"))
    assert wrong_password.status_code == unknown_login.status_code == 401
    assert wrong_password.json() == unknown_login.json()


async def test_unknown_scheme_or_no_header_is_anonymous(client: AsyncClient) -> None:
    response = await client.get(f"{API}/tags", headers={"Authorization": "Negotiate abc"})
    assert response.status_code == 200
    write = await client.post(
        f"{API}/tags", json={"name": "x"}, headers={"Authorization": "Digest x"}
    )
    assert write.status_code == 401
    assert write.json()["code"] == "rest_forbidden"


async def test_failed_logins_are_throttled_per_client(
    client: AsyncClient, auth: Auth, app: FastAPI
) -> None:
    editor = await auth("editor")
    for _ in range(10):
        response = await client.get(f"{API}/tags", headers=basic(editor.login, "wrong"))
        assert response.status_code == 401
    throttled = await client.get(f"{API}/tags", headers=basic(editor.login, "wrong"))
    assert throttled.status_code == 429
    assert throttled.json()["code"] == "rest_too_many_requests"
    assert 1 <= int(throttled.headers["Retry-After"]) <= 61
    # While throttled even the right password waits: guessing gains nothing.
    assert (await client.get(f"{API}/tags", headers=editor.basic)).status_code == 429
    # Anonymous reads are not throttled, and other clients are not affected.
    assert (await client.get(f"{API}/tags")).status_code == 200
    async with asgi_client(app, client=("192.0.2.10", 5000)) as elsewhere:
        assert (await elsewhere.get(f"{API}/tags", headers=editor.basic)).status_code == 200
