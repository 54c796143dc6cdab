"""The desk's sign-in, sessions and security rules, through HTTP (app/desk/, app/users/)."""

from httpx import AsyncClient

from tests.desk_support import DeskUserFactory, desk_login


async def test_sign_in_and_home(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    home = await client.get("/desk/")
    assert home.status_code == 200
    assert editor.login in home.text
    assert token


async def test_signin_page(client: AsyncClient) -> None:
    page = await client.get("/desk/signin")
    assert page.status_code == 200, page.text
    assert "<title>" in page.text
