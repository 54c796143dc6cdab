"""The desk's venues, organizers, categories and tags through HTTP: every screen and action
per role, the CSRF token on every POST, a refused form that keeps what was typed, the 412
conflict that loses nothing, translations side by side, and the category tree's parent rule
(all decided by the API's services, which the screens call)."""

import html
import re
from typing import Any

import pytest
from httpx import AsyncClient, Response

from tests.desk_support import DeskUser, DeskUserFactory, desk_login
from tests.factories import API, AuthFor, create_record

DESK = "/desk"


@pytest.fixture
async def editor(desk_user: DeskUserFactory) -> DeskUser:
    """An editor who may sign in to the desk (and call the API)."""
    return await desk_user("editor")


def field_value(page: str, name: str) -> str:
    """The value of the form input `name` on `page` (a textarea's text too)."""
    found = re.search(
        rf'<input id="f-{re.escape(name)}" name="{re.escape(name)}"[^>]*?value="([^"]*)"', page
    )
    if found:
        return html.unescape(found.group(1))
    area = re.search(rf'<textarea id="f-{re.escape(name)}"[^>]*>([^<]*)</textarea>', page)
    assert area is not None, f"no field {name}"
    return html.unescape(area.group(1))


def version_of(page: str) -> str:
    found = re.search(r'name="version" value="([^"]*)"', page)
    assert found is not None
    return html.unescape(found.group(1))


async def post(client: AsyncClient, path: str, token: str | None, **fields: str) -> Response:
    data = dict(fields)
    if token is not None:
        data["csrf_token"] = token
    return await client.post(f"{DESK}/{path}", data=data)


def created_id(response: Response, plural: str) -> int:
    assert response.status_code == 303, response.text
    found = re.search(rf"/desk/{plural}/(\d+)/edit$", response.headers["location"])
    assert found is not None, response.headers["location"]
    return int(found.group(1))


async def api_get(client: AsyncClient, who: AuthFor, path: str, **query: Any) -> dict[str, Any]:
    response = await client.get(f"{API}/{path}", params=query, headers=who.basic)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


# ---- venues and organizers ------------------------------------------------------------------


async def test_an_editor_creates_a_venue_with_every_field_and_its_translations(
    client: AsyncClient, editor: DeskUser
) -> None:
    token = await desk_login(client, editor)
    page = await client.get(f"{DESK}/venues/new")
    assert page.status_code == 200
    assert 'name="de-venue"' in page.text
    assert 'name="sk-description"' in page.text
    response = await post(
        client,
        "venues/new",
        token,
        venue="Blue Hall",
        description="<p>Big <em>room</em></p>",
        address="Main Street 1",
        city="Bratislava",
        zip="811 01",
        country="Slovakia",
        phone="+421 2 1234",
        website="https://blue.example",
        show_map="true",
        status="publish",
        **{"de-venue": "Blauer Saal", "sk-venue": "Modrá sála"},
    )
    venue_id = created_id(response, "venues")
    body = await api_get(client, editor, f"venues/{venue_id}")
    assert (body["venue"], body["city"], body["zip"]) == ("Blue Hall", "Bratislava", "811 01")
    assert body["show_map"] is True
    assert body["show_map_link"] is False
    assert body["website"] == "https://blue.example"
    assert body["status"] == "publish"
    german = await api_get(client, editor, f"venues/{venue_id}", i18n_language="de")
    slovak = await api_get(client, editor, f"venues/{venue_id}", i18n_language="sk")
    assert (german["venue"], slovak["venue"]) == ("Blauer Saal", "Modrá sála")
    # The editor shows the saved values, the translations beside the source.
    editor_page = (await client.get(f"{DESK}/venues/{venue_id}/edit")).text
    assert field_value(editor_page, "venue") == "Blue Hall"
    assert field_value(editor_page, "de-venue") == "Blauer Saal"
    assert field_value(editor_page, "city") == "Bratislava"
    # The list finds it.
    listed = await client.get(f"{DESK}/venues/", params={"search": "Blue"})
    assert "Blue Hall" in listed.text


async def test_a_refused_form_keeps_what_was_typed(client: AsyncClient, editor: DeskUser) -> None:
    token = await desk_login(client, editor)
    response = await post(
        client, "venues/new", token, venue="Typed name", city="Kept city", website="not a url"
    )
    assert response.status_code == 400
    assert field_value(response.text, "venue") == "Typed name"
    assert field_value(response.text, "city") == "Kept city"
    assert field_value(response.text, "website") == "not a url"
    assert 'aria-invalid="true"' in response.text
    assert 'role="alert"' in response.text
    listed = await api_get(client, editor, "venues", search="Typed name")
    assert listed["venues"] == []  # nothing of it was written


async def test_the_lists_search_has_the_apis_bound(client: AsyncClient, editor: DeskUser) -> None:
    """Every fragment of a search is one more condition: the desk's search is held to the
    length the API's `search` allows (500), refused on the page, not run."""
    await desk_login(client, editor)
    words = "a " * 300  # 600 characters, 300 fragments
    listed = await client.get(f"{DESK}/venues/", params={"search": words})
    assert listed.status_code == 400
    assert 'role="alert"' in listed.text
    api = await client.get(f"{API}/venues", params={"search": words}, headers=editor.basic)
    assert api.status_code == 400
    assert api.json()["data"]["params"]["search"] in html.unescape(listed.text)
    shown = await client.get(f"{DESK}/venues/", params={"search": "a " * 200})
    assert shown.status_code == 200


async def test_a_save_after_somebody_elses_shows_both_versions_and_loses_nothing(
    client: AsyncClient, editor: DeskUser
) -> None:
    venue = await create_record(client, editor, "venues", "Old name", city="Old city")
    token = await desk_login(client, editor)
    page = (await client.get(f"{DESK}/venues/{venue['id']}/edit")).text
    stale = version_of(page)
    # Somebody else saves meanwhile (through the API).
    changed = await client.post(
        f"{API}/venues/{venue['id']}", json={"city": "Their city"}, headers=editor.basic
    )
    assert changed.status_code == 200
    mine = {"venue": "My name", "city": "My city", "status": "publish", "version": stale}
    response = await post(client, f"venues/{venue['id']}/edit", token, **mine)
    assert response.status_code == 412
    assert field_value(response.text, "city") == "My city"  # mine, still in the form
    assert field_value(response.text, "venue") == "My name"
    assert "Their city" in response.text  # theirs, beside it
    assert (await api_get(client, editor, f"venues/{venue['id']}"))["city"] == "Their city"
    # Saving again (the form now carries their version) keeps mine, knowingly.
    again = await post(
        client,
        f"venues/{venue['id']}/edit",
        token,
        **{**mine, "version": version_of(response.text)},
    )
    assert again.status_code == 303
    assert (await api_get(client, editor, f"venues/{venue['id']}"))["city"] == "My city"


async def test_an_organizer_per_role(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    author, other, contributor = (
        await desk_user("author"),
        await desk_user("author"),
        await desk_user("contributor"),
    )
    token = await desk_login(client, author)
    response = await post(
        client, "organizers/new", token, organizer="Ada", email="ada@example.org", status="publish"
    )
    organizer_id = created_id(response, "organizers")
    assert (await api_get(client, author, f"organizers/{organizer_id}"))[
        "email"
    ] == "ada@example.org"
    # Another author sees it read-only: no save, no trash, and a forced save is refused.
    token = await desk_login(client, other)
    page = await client.get(f"{DESK}/organizers/{organizer_id}/edit")
    assert page.status_code == 200
    assert ">Save<" not in page.text
    assert f"/desk/organizers/{organizer_id}/trash" not in page.text
    forced = await post(client, f"organizers/{organizer_id}/edit", token, organizer="Taken")
    assert forced.status_code == 403
    forced_trash = await post(client, f"organizers/{organizer_id}/trash", token)
    assert forced_trash.status_code == 403
    assert (await api_get(client, author, f"organizers/{organizer_id}"))["organizer"] == "Ada"
    # A contributor's organizer is a draft whatever the form asks (the service scales it).
    token = await desk_login(client, contributor)
    new_page = await client.get(f"{DESK}/organizers/new")
    assert 'value="publish"' not in new_page.text
    response = await post(client, "organizers/new", token, organizer="Con", status="publish")
    mine = created_id(response, "organizers")
    assert (await api_get(client, contributor, f"organizers/{mine}"))["status"] == "pending"
    # The author trashes their own.
    token = await desk_login(client, author)
    trashed = await post(client, f"organizers/{organizer_id}/trash", token)
    assert trashed.status_code == 303
    assert (await api_get(client, author, f"organizers/{organizer_id}"))["status"] == "trash"


async def test_a_subscriber_is_offered_no_screen_and_refused_every_action(
    client: AsyncClient, desk_user: DeskUserFactory, editor: DeskUser
) -> None:
    subscriber = await desk_user("subscriber")
    venue = await create_record(client, editor, "venues", "Public hall")
    token = await desk_login(client, subscriber)
    home = await client.get(f"{DESK}/")
    for screen in ("venues/", "organizers/", "categories/", "tags/", "media/"):
        assert f'href="/desk/{screen}"' not in home.text  # not offered
        assert (await client.get(f"{DESK}/{screen}")).status_code == 403  # nor shown
    for path, fields in (
        ("venues/new", {"venue": "Nope"}),
        (f"venues/{venue['id']}/edit", {"venue": "Nope"}),
        (f"venues/{venue['id']}/trash", {}),
        ("categories/new", {"name": "Nope"}),
        ("tags/new", {"name": "Nope"}),
    ):
        response = await post(client, path, token, **fields)
        assert response.status_code == 403, (path, response.status_code)
    assert (await api_get(client, editor, f"venues/{venue['id']}"))["venue"] == "Public hall"


# ---- categories and tags ----------------------------------------------------------------


async def test_categories_form_a_tree_whose_parent_cannot_loop(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    author = await desk_user("author")
    token = await desk_login(client, author)
    top = created_id(await post(client, "categories/new", token, name="Music"), "categories")
    child = created_id(
        await post(client, "categories/new", token, name="Jazz", parent=str(top)), "categories"
    )
    grandchild = created_id(
        await post(client, "categories/new", token, name="Bebop", parent=str(child)), "categories"
    )
    body = await api_get(client, author, f"categories/{grandchild}")
    assert body["parent"] == child
    # The tree lists each below its parent.
    tree = (await client.get(f"{DESK}/categories/")).text
    assert tree.index(">Music<") < tree.index(">Jazz<") < tree.index(">Bebop<")
    # The parent select of Music offers neither itself nor anything below it.
    page = (await client.get(f"{DESK}/categories/{top}/edit")).text
    options = re.findall(r'<option value="(\d+)"', page)
    assert str(top) not in options
    assert str(child) not in options
    assert str(grandchild) not in options
    assert "0" in options
    # Forced anyway: the service's refusal, on the form, with what was typed.
    version = version_of(page)
    response = await post(
        client,
        f"categories/{top}/edit",
        token,
        name="Music typed",
        parent=str(grandchild),
        version=version,
    )
    assert response.status_code == 400
    assert field_value(response.text, "name") == "Music typed"
    assert (await api_get(client, author, f"categories/{top}"))["parent"] == 0
    # Rename with a German translation; then delete the middle one: Bebop moves up.
    renamed = await post(
        client, f"categories/{child}/edit", token, name="Jazz & Blues", parent=str(top),
        version=version_of((await client.get(f"{DESK}/categories/{child}/edit")).text),
        **{"de-name": "Jazz und Blues"},
    )  # fmt: skip
    assert renamed.status_code == 303
    assert (await api_get(client, author, f"categories/{child}", i18n_language="de"))[
        "name"
    ] == "Jazz und Blues"
    deleted = await post(client, f"categories/{child}/delete", token)
    assert deleted.status_code == 303
    assert (await api_get(client, author, f"categories/{grandchild}"))["parent"] == top


async def test_tags_are_an_editors_to_manage(
    client: AsyncClient, desk_user: DeskUserFactory, editor: DeskUser
) -> None:
    author = await desk_user("author")
    token = await desk_login(client, author)
    assert 'href="/desk/tags/"' not in (await client.get(f"{DESK}/")).text
    assert (await client.get(f"{DESK}/tags/")).status_code == 403
    assert (await client.get(f"{DESK}/tags/new")).status_code == 403
    assert (await post(client, "tags/new", token, name="outdoor")).status_code == 403
    token = await desk_login(client, editor)
    tag = created_id(await post(client, "tags/new", token, name="outdoor"), "tags")
    duplicate = await post(client, "tags/new", token, name="outdoor")
    assert duplicate.status_code == 400
    assert field_value(duplicate.text, "name") == "outdoor"
    page = (await client.get(f"{DESK}/tags/{tag}/edit")).text
    assert 'name="parent"' not in page  # tags have no parents
    renamed = await post(
        client, f"tags/{tag}/edit", token, name="open air", version=version_of(page)
    )
    assert renamed.status_code == 303
    assert (await api_get(client, editor, f"tags/{tag}"))["name"] == "open air"
    assert (await post(client, f"tags/{tag}/delete", token)).status_code == 303
    gone = await client.get(f"{API}/tags/{tag}")
    assert gone.status_code == 404


async def test_a_term_saved_meanwhile_is_a_conflict(client: AsyncClient, editor: DeskUser) -> None:
    token = await desk_login(client, editor)
    tag = created_id(await post(client, "tags/new", token, name="first"), "tags")
    stale = version_of((await client.get(f"{DESK}/tags/{tag}/edit")).text)
    assert (
        await post(client, f"tags/{tag}/edit", token, name="second", version=stale)
    ).status_code == 303
    response = await post(client, f"tags/{tag}/edit", token, name="third", version=stale)
    assert response.status_code == 412
    assert field_value(response.text, "name") == "third"
    assert "second" in response.text


# ---- every POST needs the token -------------------------------------------------------------


@pytest.mark.parametrize("token", [None, "forged"])
async def test_every_post_needs_the_csrf_token(
    client: AsyncClient, editor: DeskUser, token: str | None
) -> None:
    venue = await create_record(client, editor, "venues", "Guarded")
    organizer = await create_record(client, editor, "organizers", "Guarded")
    await desk_login(client, editor)
    paths = [
        "venues/new", f"venues/{venue['id']}/edit", f"venues/{venue['id']}/trash",
        "organizers/new", f"organizers/{organizer['id']}/edit",
        f"organizers/{organizer['id']}/trash", "categories/new", "categories/1/edit",
        "categories/1/delete", "tags/new", "tags/1/edit", "tags/1/delete", "media/",
        "media/1/edit", "media/1/delete",
    ]  # fmt: skip
    for path in paths:
        response = await post(client, path, token, venue="X", organizer="X", name="X")
        assert response.status_code == 403, path
    assert (await api_get(client, editor, f"venues/{venue['id']}"))["status"] == "publish"


async def test_the_desk_meets_the_apis_limits_on_the_values_it_sends(
    client: AsyncClient, editor: DeskUser
) -> None:
    """The desk hands the service typed values, which no door read: the service checks them
    by the write models' own limits (http/params.refused_values), with the API's notes."""
    token = await desk_login(client, editor)
    response = await post(client, "venues/new", token, venue="V" * 501, website="ftp://x")
    assert response.status_code == 400
    assert 'id="f-venue-error"' in response.text
    assert 'id="f-website-error"' in response.text
    listed = await client.get(f"{DESK}/venues/", params={"search": "VVVV"})
    assert "V" * 100 not in listed.text  # nothing written
