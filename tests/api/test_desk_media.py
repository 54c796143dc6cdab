"""The desk's media screen through HTTP: the grid, an upload with a plain file input, alt
texts in every language, and deleting only what nothing shows, per role (the API's media
service decides every one of these)."""

import html
import re

import pytest
from httpx import AsyncClient, Response

from tests.desk_support import DeskUser, DeskUserFactory, desk_login
from tests.factories import API, AuthFor, create_record
from tests.media_files import picture

DESK = "/desk"


@pytest.fixture
async def editor(desk_user: DeskUserFactory) -> DeskUser:
    """An editor who may sign in to the desk (and call the API)."""
    return await desk_user("editor")


async def upload(
    client: AsyncClient, token: str, alt_text: str = "", name: str = "stage.png"
) -> Response:
    return await client.post(
        f"{DESK}/media/",
        data={"csrf_token": token, "alt_text": alt_text, "title": ""},  # as the form sends it
        files={"file": (name, picture("PNG", (320, 240)), "image/png")},
    )


def uploaded_id(response: Response) -> int:
    assert response.status_code == 303, response.text
    found = re.search(r"/desk/media/(\d+)/edit$", response.headers["location"])
    assert found is not None
    return int(found.group(1))


def uses_on(card: str) -> int:
    """How many records the grid says show the image of `card` (the card's markup on)."""
    found = re.search(r"showing it</dt>\s*<dd>(\d+)</dd>", card)
    assert found is not None
    return int(found.group(1))


def version_of(page: str) -> str:
    found = re.search(r'name="version" value="([^"]*)"', page)
    assert found is not None
    return html.unescape(found.group(1))


async def media_body(client: AsyncClient, who: AuthFor, media_id: int, **query: str) -> Response:
    return await client.get(f"{API}/media/{media_id}", params=query, headers=who.basic)


async def test_an_author_uploads_and_describes_an_image(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    author = await desk_user("author")
    token = await desk_login(client, author)
    grid = await client.get(f"{DESK}/media/")
    assert grid.status_code == 200
    assert 'type="file"' in grid.text
    assert 'enctype="multipart/form-data"' in grid.text
    media_id = uploaded_id(await upload(client, token, alt_text="The stage"))
    body = (await media_body(client, author, media_id)).json()
    assert body["alt_text"] == "The stage"
    assert body["title"] == "stage"  # the file's name, as the API makes it
    # The grid shows it with its alt text, its size and that nothing uses it.
    grid = await client.get(f"{DESK}/media/")
    card = grid.text[grid.text.index(f"/desk/media/{media_id}/edit") :]
    assert "The stage" in card
    assert "320 × 240" in card
    assert uses_on(card) == 0
    # Alt texts in English and German, side by side.
    page = await client.get(f"{DESK}/media/{media_id}/edit")
    assert 'name="de-alt_text"' in page.text
    saved = await client.post(
        f"{DESK}/media/{media_id}/edit",
        data={
            "csrf_token": token,
            "version": version_of(page.text),
            "alt_text": "The main stage, empty",
            "title": "stage",
            "caption": "",
            "de-alt_text": "Die Hauptbühne, leer",
        },
    )
    assert saved.status_code == 303
    assert (await media_body(client, author, media_id)).json()[
        "alt_text"
    ] == "The main stage, empty"
    german = (await media_body(client, author, media_id, i18n_language="de")).json()
    assert german["alt_text"] == "Die Hauptbühne, leer"


async def test_an_image_in_use_is_not_offered_for_deletion_and_refused_if_forced(
    client: AsyncClient, editor: DeskUser
) -> None:
    token = await desk_login(client, editor)
    used = uploaded_id(await upload(client, token, "Used"))
    unused = uploaded_id(await upload(client, token, "Unused", name="other.png"))
    await create_record(client, editor, "venues", "Shows it", image=used)
    page = await client.get(f"{DESK}/media/{used}/edit")
    assert f"/desk/media/{used}/delete" not in page.text
    assert "/desk/venues/" in page.text  # who uses it, linked
    forced = await client.post(f"{DESK}/media/{used}/delete", data={"csrf_token": token})
    assert forced.status_code == 409
    assert (await media_body(client, editor, used)).status_code == 200
    grid = await client.get(f"{DESK}/media/")
    card = grid.text[grid.text.index(f"/desk/media/{used}/edit") :]
    assert uses_on(card) == 1
    # What nothing shows is deleted.
    page = await client.get(f"{DESK}/media/{unused}/edit")
    assert f"/desk/media/{unused}/delete" in page.text
    deleted = await client.post(
        f"{DESK}/media/{unused}/delete",
        data={"csrf_token": token, "version": version_of(page.text)},
    )
    assert deleted.status_code == 303
    assert (await media_body(client, editor, unused)).status_code == 404


async def test_roles_on_the_media_screen(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    owner, other, contributor = (
        await desk_user("author"),
        await desk_user("author"),
        await desk_user("contributor"),
    )
    token = await desk_login(client, owner)
    media_id = uploaded_id(await upload(client, token, "Mine"))
    # Another author reads it but may neither change nor delete it.
    token = await desk_login(client, other)
    page = await client.get(f"{DESK}/media/{media_id}/edit")
    assert page.status_code == 200
    assert ">Save<" not in page.text
    assert f"/desk/media/{media_id}/delete" not in page.text
    forced = await client.post(
        f"{DESK}/media/{media_id}/edit", data={"csrf_token": token, "alt_text": "Taken"}
    )
    assert forced.status_code == 403
    forced = await client.post(f"{DESK}/media/{media_id}/delete", data={"csrf_token": token})
    assert forced.status_code == 403
    assert (await media_body(client, owner, media_id)).json()["alt_text"] == "Mine"
    # A contributor is offered no upload here, and one forced is refused (nothing stored).
    token = await desk_login(client, contributor)
    grid = await client.get(f"{DESK}/media/")
    assert grid.status_code == 200
    assert 'type="file"' not in grid.text
    refused = await upload(client, token, "Sneaky")
    assert refused.status_code == 403
    listed = await client.get(f"{API}/media", params={"search": "stage"}, headers=owner.basic)
    assert [item["id"] for item in listed.json()["media"]] == [media_id]


async def test_an_upload_without_a_file_says_so(client: AsyncClient, editor: DeskUser) -> None:
    token = await desk_login(client, editor)
    response = await client.post(
        f"{DESK}/media/",
        data={"csrf_token": token, "alt_text": "Nothing"},
        files={"file": ("", b"", "application/octet-stream")},
    )
    assert response.status_code == 400
    assert 'role="alert"' in response.text


async def test_alt_texts_saved_meanwhile_are_a_conflict(
    client: AsyncClient, editor: DeskUser
) -> None:
    token = await desk_login(client, editor)
    media_id = uploaded_id(await upload(client, token, "First"))
    stale = version_of((await client.get(f"{DESK}/media/{media_id}/edit")).text)
    changed = await client.post(
        f"{API}/media/{media_id}", json={"alt_text": "Theirs"}, headers=editor.basic
    )
    assert changed.status_code == 200
    response = await client.post(
        f"{DESK}/media/{media_id}/edit",
        data={"csrf_token": token, "version": stale, "alt_text": "Mine", "title": "stage"},
    )
    assert response.status_code == 412
    assert ">Mine</textarea>" in response.text
    assert "Theirs" in response.text
    assert (await media_body(client, editor, media_id)).json()["alt_text"] == "Theirs"


async def test_the_screens_show_an_image_as_the_api_does(
    client: AsyncClient, editor: DeskUser
) -> None:
    """The desk reads the library's records, not the API's bodies: what it shows of an image
    (its thumbnail, file, texts in the desk's language, the form's version, the event
    editor's choice) is what the API answers for it."""
    token = await desk_login(client, editor)
    media_id = uploaded_id(await upload(client, token, "The stage", name="stage.png"))
    german = await client.post(
        f"{API}/media/{media_id}",
        json={"alt_text": "Die Bühne", "i18n_language": "de"},
        headers=editor.basic,
    )
    assert german.status_code == 200
    read = await media_body(client, editor, media_id)
    body = read.json()
    thumbnail = body["sizes"]["thumbnail"]["url"]
    grid = await client.get(f"{DESK}/media/")
    card = grid.text[grid.text.index(f"/desk/media/{media_id}/edit") :]
    assert f'<img src="{thumbnail}" alt="The stage"' in grid.text
    assert ">stage</a>" in card  # the title the API made from the file's name
    german_grid = await client.get(f"/de{DESK}/media/")
    assert f'<img src="{thumbnail}" alt="Die Bühne"' in german_grid.text
    page = await client.get(f"{DESK}/media/{media_id}/edit")
    assert f'<img src="{thumbnail}" alt="The stage"' in page.text
    assert f'<a href="{body["url"]}">image/png</a>' in page.text
    assert version_of(page.text) == read.headers["ETag"]
    assert ">Die Bühne</textarea>" in page.text  # the German field: its own text
    editor_page = await client.get(f"{DESK}/events/new", follow_redirects=True)
    assert f'<option value="{media_id}">stage</option>' in editor_page.text
