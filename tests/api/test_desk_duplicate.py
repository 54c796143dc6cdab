"""Duplicate an event from the desk (app/desk/events/duplicate.py): a POST with the desk's
CSRF token, from the Events table and the editor, makes a draft copy through the API's event
service - texts and their translations, dates, recurrence, venue, organizers, terms, image -
and opens it in the editor; the read and create rules are the services'."""

import re
from typing import Any

from httpx import AsyncClient

from tests.api.test_desk_events import add_event
from tests.desk_support import DeskUserFactory, csrf_token, desk_login
from tests.factories import API
from tests.media_files import picture

DESK = "/desk/events/"
EDIT = re.compile(r"/desk/events/(\d+)/edit$")


async def _post(client: AsyncClient, who: Any, plural: str, **fields: Any) -> int:
    answer = await client.post(f"{API}/{plural}", json=fields, headers=who.basic)
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


async def _event(client: AsyncClient, who: Any, event_id: int, language: str = "") -> Any:
    prefix = f"/{language}" if language else ""
    answer = await client.get(f"{prefix}{API}/events/{event_id}", headers=who.basic)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_a_copy_is_a_draft_with_everything_opened_in_the_editor(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    venue = await _post(client, editor, "venues", venue="Old Mill", city="Bratislava")
    organizer = await _post(client, editor, "organizers", organizer="Wine Guild")
    image = await client.post(
        f"{API}/media",
        files={"file": ("glass.png", picture("PNG"), "image/png")},
        headers=editor.basic,
    )
    assert image.status_code == 201
    original = await add_event(
        client, editor, "Grand Wine Masterclass", start="2027-11-29 18:00:00",
        end_date="2027-11-29 21:00:00", description="<p>Six wines.</p>", excerpt="Taste.",
        status="publish", venue=venue, organizer=[organizer], categories=["Wine"],
        tags=["tasting"], image=image.json()["id"], cost="45", featured=True,
        recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"],
    )  # fmt: skip
    german = await client.post(
        f"/de{API}/events/{original}", json={"title": "Große Weinprobe"}, headers=editor.basic
    )
    assert german.status_code == 200, german.text

    # From the table: each row has its own form (the page's token).
    table = await client.get(DESK)
    action = f"/desk/events/{original}/duplicate"
    assert f'action="{action}"' in table.text
    made = await client.post(action, data={"csrf_token": csrf_token(table)})
    assert made.status_code == 303, made.text
    found = EDIT.search(made.headers["location"])
    assert found is not None
    copy_id = int(found.group(1))
    assert copy_id != original
    editor_page = await client.get(made.headers["location"])
    assert editor_page.status_code == 200
    assert "A copy was made as a draft" in editor_page.text
    assert f'action="/desk/events/{copy_id}/duplicate"' in editor_page.text  # and again

    source, copy = await _event(client, editor, original), await _event(client, editor, copy_id)
    assert copy["status"] == "draft"
    assert copy["slug"] != source["slug"]
    same = ("title", "description", "excerpt", "start_date", "end_date", "timezone", "all_day",
            "cost", "featured", "recurrence")  # fmt: skip
    assert {name: copy.get(name) for name in same} == {name: source.get(name) for name in same}
    assert copy["venue"]["id"] == venue
    assert [o["id"] for o in copy["organizer"]] == [organizer]
    assert [t["name"] for t in copy["categories"]] == ["Wine"]
    assert [t["name"] for t in copy["tags"]] == ["tasting"]
    assert copy["image"]["id"] == image.json()["id"]
    assert (await _event(client, editor, copy_id, "de"))["title"] == "Große Weinprobe"
    assert (await _event(client, editor, copy_id, "sk"))["title"] == "Grand Wine Masterclass"
    dates = await client.get(
        f"{API}/events",
        params={"post_parent": copy_id, "status": "draft", "start_date": "2027-01-01"},
        headers=editor.basic,
    )
    assert dates.json()["total"] == 3  # the series' dates, from the copied rule
    del token


async def test_the_token_is_checked_and_the_read_rule_is_the_apis(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    author = await desk_user("author")
    secret = await add_event(client, editor, "Editors' draft", status="draft")
    await desk_login(client, author)
    page = await client.get(DESK)
    token = csrf_token(page)
    no_token = await client.post(f"/desk/events/{secret}/duplicate", data={})
    assert no_token.status_code == 403
    refused = await client.post(f"/desk/events/{secret}/duplicate", data={"csrf_token": token})
    assert refused.status_code in (401, 403, 404)  # another's draft: the API's read refusal
    assert "<html" in refused.text
    listed = await client.get(
        f"{API}/events", params={"status": "draft", "search": "Editors"}, headers=editor.basic
    )
    assert listed.json()["total"] == 1  # no copy was made
