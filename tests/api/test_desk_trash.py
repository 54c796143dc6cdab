"""The desk's Trash screen through HTTP (app/desk/screens/trash.py): trashed events, venues
and organizers as the API lists them to the person, restored as drafts or deleted
permanently (after a confirmation page) through the API's services."""

import re
from typing import Any

from httpx import AsyncClient

from tests.api.test_desk_events import add_event, status_of
from tests.desk_support import DeskUserFactory, desk_login
from tests.factories import API, Auth, AuthFor

TRASH = "/desk/trash/"


async def trashed(client: AsyncClient, who: AuthFor, kind: str, name: str) -> int:
    """A venue or organizer (`kind`) created and trashed through the API by `who`."""
    made = await client.post(f"{API}/{kind}s", json={kind: name}, headers=who.basic)
    assert made.status_code == 201, made.text
    record_id = int(made.json()["id"])
    gone = await client.delete(f"{API}/{kind}s/{record_id}", headers=who.basic)
    assert gone.status_code == 200, gone.text
    return record_id


async def trashed_event(client: AsyncClient, who: AuthFor, title: str, **fields: Any) -> int:
    event_id = await add_event(client, who, title, **fields)
    gone = await client.delete(f"{API}/events/{event_id}", headers=who.basic)
    assert gone.status_code == 200, gone.text
    return event_id


def listed(html: str) -> set[str]:
    """The `kind:id` of every row (a checkbox each)."""
    return set(re.findall(r'name="items" value="(\w+:\d+)"', html))


def rows(html: str) -> set[str]:
    return {name.strip() for name in re.findall(r'<th scope="row">([^<]*)</th>', html)}


async def status(client: AsyncClient, who: AuthFor, kind: str, record_id: int) -> str:
    if kind == "event":
        return await status_of(client, who, record_id)
    answer = await client.get(f"{API}/{kind}s/{record_id}", headers=who.basic)
    return str(answer.json()["status"]) if answer.status_code == 200 else str(answer.status_code)


async def test_an_editor_sees_every_kind_and_restores_them_as_drafts(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    editor = await desk_user("editor")
    author = await auth("author")  # API only: no desk sign-in
    event = await trashed_event(client, author, "Old concert")
    venue = await trashed(client, editor, "venue", "Closed hall")
    organizer = await trashed(client, author, "organizer", "Gone society")
    token = await desk_login(client, editor)
    page = await client.get(TRASH)
    assert page.status_code == 200
    assert listed(page.text) == {f"event:{event}", f"venue:{venue}", f"organizer:{organizer}"}
    assert rows(page.text) == {"Old concert", "Closed hall", "Gone society"}
    items = [f"event:{event}", f"venue:{venue}", f"organizer:{organizer}"]
    answer = await client.post("/desk/trash/restore", data={"csrf_token": token, "items": items})
    assert answer.status_code == 303
    after = await client.get(TRASH)
    assert "3 items restored as drafts." in after.text
    assert listed(after.text) == set()
    assert await status(client, editor, "event", event) == "draft"
    assert await status(client, editor, "venue", venue) == "draft"
    assert await status(client, editor, "organizer", organizer) == "draft"


async def test_a_rows_own_button_restores_that_row_only(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    first = await trashed(client, editor, "venue", "First hall")
    second = await trashed(client, editor, "venue", "Second hall")
    token = await desk_login(client, editor)
    data = {"csrf_token": token, "items": [f"venue:{first}", f"venue:{second}"]}
    answer = await client.post("/desk/trash/restore", data={**data, "only": f"venue:{second}"})
    assert answer.status_code == 303
    assert await status(client, editor, "venue", first) == "trash"
    assert await status(client, editor, "venue", second) == "draft"


async def test_delete_permanently_asks_first(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    event = await trashed_event(client, editor, "Cancelled fair")
    organizer = await trashed(client, editor, "organizer", "Defunct club")
    token = await desk_login(client, editor)
    items = [f"event:{event}", f"organizer:{organizer}"]
    asked = await client.post("/desk/trash/delete", data={"csrf_token": token, "items": items})
    assert asked.status_code == 200
    assert "Delete permanently?" in asked.text
    assert "Cancelled fair" in asked.text
    assert 'name="confirmed" value="yes"' in asked.text
    assert await status(client, editor, "event", event) == "trash"  # nothing deleted yet
    confirmed = await client.post(
        "/desk/trash/delete", data={"csrf_token": token, "items": items, "confirmed": "yes"}
    )
    assert confirmed.status_code == 303
    page = await client.get(TRASH)
    assert "2 items deleted permanently." in page.text
    assert await status(client, editor, "event", event) == "gone"
    assert await status(client, editor, "organizer", organizer) == "404"


async def test_an_author_sees_and_handles_only_their_own_trash(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    editor = await auth("editor")
    author = await desk_user("author")
    own = await trashed_event(client, author, "My old event")
    others = await trashed(client, editor, "venue", "Editor's hall")
    token = await desk_login(client, author)
    page = await client.get(TRASH)
    assert listed(page.text) == {f"event:{own}"}
    forced = await client.post(
        "/desk/trash/delete",
        data={"csrf_token": token, "items": [f"venue:{others}"], "confirmed": "yes"},
    )
    assert forced.status_code == 403  # the service refuses; nothing changed
    assert f"#{others}" in forced.text  # a record the author may not read stays a number
    assert await status(client, editor, "venue", others) == "trash"
    answer = await client.post(
        "/desk/trash/delete",
        data={"csrf_token": token, "items": [f"event:{own}"], "confirmed": "yes"},
    )
    assert answer.status_code == 303
    assert await status(client, editor, "event", own) == "gone"


async def test_a_contributor_is_offered_nothing_for_their_trashed_draft(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    contributor = await desk_user("contributor")
    editor = await auth("editor")
    own = await trashed_event(client, contributor, "Withdrawn idea", status="draft")
    token = await desk_login(client, contributor)
    page = await client.get(TRASH)
    assert "Withdrawn idea" in rows(page.text)
    assert listed(page.text) == set()  # contributors change drafts and pending events only
    forced = await client.post(
        "/desk/trash/restore", data={"csrf_token": token, "items": [f"event:{own}"]}
    )
    assert forced.status_code == 403
    assert await status(client, editor, "event", own) == "trash"


async def test_subscribers_have_no_trash(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    subscriber = await desk_user("subscriber")
    token = await desk_login(client, subscriber)
    assert (await client.get(TRASH)).status_code == 403
    answer = await client.post(
        "/desk/trash/restore", data={"csrf_token": token, "items": ["venue:1"]}
    )
    assert answer.status_code == 403


async def test_every_post_needs_the_csrf_token(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    venue = await trashed(client, editor, "venue", "Hall")
    await desk_login(client, editor)
    for path in ("/desk/trash/restore", "/desk/trash/delete"):
        data = {"items": [f"venue:{venue}"], "confirmed": "yes"}
        assert (await client.post(path, data=data)).status_code == 403
        assert (await client.post(path, data={**data, "csrf_token": "x"})).status_code == 403
    assert await status(client, editor, "venue", venue) == "trash"


async def test_a_form_naming_no_trash_item_is_a_400(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    for items in ([], ["category:3"], ["venue:x"]):
        answer = await client.post(
            "/desk/trash/restore", data={"csrf_token": token, "items": items}
        )
        assert answer.status_code == 400, items
        assert 'class="desk-outcome"' in answer.text


async def test_the_trash_in_german(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    editor = await desk_user("editor")
    await trashed(client, editor, "venue", "Halle")
    await desk_login(client, editor)
    page = await client.get("/de/desk/trash/")
    assert "Papierkorb" in page.text
    assert "Endgültig löschen" in page.text
