"""The desk's Events screen through HTTP (app/desk/screens/events.py): the table shows what
the API's list shows the person, its filters, sort and pages are GET parameters, and bulk
publish, trash and restore go through the API's event service record by record."""

import re
from typing import Any

import pytest
from httpx import AsyncClient

from tests.desk_support import DeskUserFactory, desk_login
from tests.factories import API, Auth, AuthFor

DESK = "/desk/events/"
EVERY_STATUS = "publish,future,draft,pending,private,trash"
ROW = re.compile(r'<th scope="row">(?:<a href="[^"]*">)?([^<]*)<')


async def add_event(
    client: AsyncClient,
    who: AuthFor,
    title: str,
    start: str = "2027-01-15 18:00:00",
    **fields: Any,
) -> int:
    """An event created through the API by `who` (its own rules: a contributor's is pending
    or a draft)."""
    day = start[:10]
    payload = {"title": title, "start_date": start, "end_date": f"{day} 20:00:00", **fields}
    answer = await client.post(f"{API}/events", json=payload, headers=who.basic)
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def titles(html: str) -> list[str]:
    """The table's rows, by title, in order."""
    return [title.strip() for title in ROW.findall(html)]


async def status_of(client: AsyncClient, who: AuthFor, event_id: int) -> str:
    answer = await client.get(
        f"{API}/events", params={"include": event_id, "status": EVERY_STATUS}, headers=who.basic
    )
    events = answer.json()["events"]
    return str(events[0]["status"]) if events else "gone"


async def test_an_editor_sees_every_event_and_the_review_queue_with_its_count(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    editor = await desk_user("editor")
    contributor = await auth("contributor")  # API only: no desk sign-in
    await add_event(client, editor, "Published concert")
    await add_event(client, contributor, "Submitted talk", status="pending")
    await add_event(client, editor, "Old fair", start="2001-05-01 10:00:00")
    await desk_login(client, editor)
    page = await client.get(DESK)
    assert page.status_code == 200, page.text
    assert page.headers["cache-control"] == "no-store"
    assert set(titles(page.text)) >= {"Published concert", "Submitted talk", "Old fair"}
    assert "Waiting for review" in page.text
    assert re.search(r"Waiting for review <span class=\"desk-count\">\(1\)</span>", page.text)
    queue = await client.get(DESK, params={"status": "pending"})
    assert titles(queue.text) == ["Submitted talk"]


def bulk_actions(html: str) -> list[str]:
    """The actions the bulk form offers."""
    found = re.search(r'<select id="bulk-action" name="action">(.*?)</select>', html, re.S)
    assert found is not None, "no bulk form"
    return [value for value in re.findall(r'<option value="(\w*)">', found.group(1)) if value]


def checkboxes(html: str) -> set[int]:
    """The IDs the bulk form may post (rows the person may change)."""
    return {int(value) for value in re.findall(r'name="ids" value="(\d+)"', html)}


async def bulk(client: AsyncClient, token: str, action: str, *ids: int, back: str = "") -> Any:
    data: dict[str, Any] = {"csrf_token": token, "action": action, "ids": [str(i) for i in ids]}
    data["back"] = back
    return await client.post("/desk/events/bulk", data=data)


async def test_an_author_sees_own_drafts_and_others_published_events_only(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    editor = await auth("editor")
    author = await desk_user("author")
    others_draft = await add_event(client, editor, "Editor draft", status="draft")
    others_published = await add_event(client, editor, "Editor concert")
    own_draft = await add_event(client, author, "Author draft", status="draft")
    await desk_login(client, author)
    page = await client.get(DESK)
    assert page.status_code == 200
    shown = set(titles(page.text))
    assert {"Editor concert", "Author draft"} <= shown
    assert "Editor draft" not in shown
    assert 'class="desk-count"' not in page.text  # the review queue's count is for editors
    assert checkboxes(page.text) == {own_draft}  # an author changes only their own
    assert others_published not in checkboxes(page.text)
    drafts = await client.get(DESK, params={"status": "draft"})
    assert titles(drafts.text) == ["Author draft"]
    assert others_draft not in checkboxes(drafts.text)


async def test_a_contributor_is_offered_trash_but_not_publish(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    contributor = await desk_user("contributor")
    own = await add_event(client, contributor, "My idea", status="draft")
    await desk_login(client, contributor)
    page = await client.get(DESK)
    assert checkboxes(page.text) == {own}
    assert bulk_actions(page.text) == ["trash"]


async def test_subscribers_have_no_events_screen(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    subscriber = await desk_user("subscriber")
    token = await desk_login(client, subscriber)
    assert (await client.get(DESK)).status_code == 403
    assert (await bulk(client, token, "trash", 1)).status_code == 403


async def test_without_a_session_the_screen_asks_to_sign_in(client: AsyncClient) -> None:
    answer = await client.get(DESK, params={"status": "draft"})
    assert answer.status_code == 303
    assert "/desk/signin" in answer.headers["location"]
    assert "status%3Ddraft" in answer.headers["location"]  # back to the same filter


async def test_search_category_and_date_filters(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    made = await client.post(f"{API}/categories", json={"name": "Jazz"}, headers=editor.basic)
    jazz = made.json()["id"]
    await add_event(client, editor, "Jazz night", start="2027-03-10 20:00:00", categories=[jazz])
    await add_event(client, editor, "Poetry reading", start="2027-03-12 19:00:00")
    await add_event(client, editor, "Winter jazz", start="2026-12-01 19:00:00")
    await desk_login(client, editor)
    found = await client.get(DESK, params={"search": "jazz"})
    assert set(titles(found.text)) == {"Jazz night", "Winter jazz"}
    in_category = await client.get(DESK, params={"categories": str(jazz)})
    assert titles(in_category.text) == ["Jazz night"]
    assert f'<option value="{jazz}" selected>Jazz</option>' in in_category.text
    march = await client.get(DESK, params={"start_date": "2027-03-01", "end_date": "2027-03-31"})
    assert set(titles(march.text)) == {"Jazz night", "Poetry reading"}
    both = await client.get(DESK, params={"search": "jazz", "start_date": "2027-01-01"})
    assert titles(both.text) == ["Jazz night"]


async def test_a_bad_filter_is_a_400_naming_the_field_and_keeping_the_value(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    await desk_login(client, editor)
    answer = await client.get(DESK, params={"start_date": "someday", "search": "kept"})
    assert answer.status_code == 400
    assert 'id="error-start_date"' in answer.text
    assert 'value="someday" aria-invalid="true"' in answer.text
    assert 'value="kept"' in answer.text
    unknown = await client.get(DESK, params={"categories": "999999"})
    assert unknown.status_code == 400
    sort = await client.get(DESK, params={"orderby": "colour"})
    assert sort.status_code == 400
    # Distance is an order of lists near a place, which the desk's filter does not take.
    distance = await client.get(DESK, params={"orderby": "distance"})
    assert distance.status_code == 400
    assert "start_date, end_date, title" in distance.text  # the choices, without distance


async def test_sorting_by_title_date_and_modified(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    await add_event(client, editor, "Bravo", start="2027-02-01 10:00:00")
    await add_event(client, editor, "Alpha", start="2027-03-01 10:00:00")
    charlie = await add_event(client, editor, "Charlie", start="2027-01-01 10:00:00")
    await desk_login(client, editor)
    by_date = titles((await client.get(DESK)).text)  # the latest first by default
    assert by_date == ["Alpha", "Bravo", "Charlie"]
    by_title = await client.get(DESK, params={"orderby": "title", "order": "asc"})
    assert titles(by_title.text) == ["Alpha", "Bravo", "Charlie"]
    assert 'aria-sort="ascending"' in by_title.text
    title_desc = await client.get(DESK, params={"orderby": "title", "order": "desc"})
    assert titles(title_desc.text) == ["Charlie", "Bravo", "Alpha"]
    changed = await client.post(
        f"{API}/events/{charlie}", json={"excerpt": "changed"}, headers=editor.basic
    )
    assert changed.status_code == 200
    by_modified = await client.get(DESK, params={"orderby": "modified", "order": "desc"})
    assert titles(by_modified.text)[0] == "Charlie"


async def test_pages_follow_the_apis_rules(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    editor = await desk_user("editor")
    for number in range(3):
        await add_event(client, editor, f"Event {number}", start=f"2027-0{number + 1}-01 10:00:00")
    await desk_login(client, editor)
    first = await client.get(DESK, params={"per_page": "2", "orderby": "title", "order": "asc"})
    assert titles(first.text) == ["Event 0", "Event 1"]
    assert "page 1 of 2" in first.text
    assert 'rel="next"' in first.text
    second = await client.get(
        DESK, params={"per_page": "2", "page": "2", "orderby": "title", "order": "asc"}
    )
    assert titles(second.text) == ["Event 2"]
    assert 'rel="prev"' in second.text
    past = await client.get(DESK, params={"per_page": "2", "page": "3"})
    assert past.status_code == 404
    assert "There is no page 3" in past.text
    too_many = await client.get(DESK, params={"per_page": "101"})
    assert too_many.status_code == 400


async def test_a_series_is_one_row(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    editor = await desk_user("editor")
    await add_event(client, editor, "Weekly class", recurrence=["RRULE:FREQ=WEEKLY;COUNT=4"])
    await desk_login(client, editor)
    page = await client.get(DESK)
    assert titles(page.text) == ["Weekly class"]
    assert "(series)" in page.text


async def test_bulk_publish_the_review_queue(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    editor = await desk_user("editor")
    contributor = await auth("contributor")
    first = await add_event(client, contributor, "Talk one", status="pending")
    second = await add_event(client, contributor, "Talk two", status="pending")
    token = await desk_login(client, editor)
    answer = await bulk(client, token, "publish", first, second, back="status=pending")
    assert answer.status_code == 303
    assert answer.headers["location"] == "/desk/events/?status=pending"
    queue = await client.get(answer.headers["location"])
    assert "2 events published." in queue.text
    assert titles(queue.text) == []
    assert await status_of(client, editor, first) == "publish"
    assert await status_of(client, editor, second) == "publish"


async def test_bulk_with_a_partial_failure_reports_which_and_why(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    editor = await auth("editor")
    author = await desk_user("author")
    own = await add_event(client, author, "Own draft", status="draft")
    others = await add_event(client, editor, "Editor's draft", status="draft")
    published = await add_event(client, editor, "Editor's concert")
    token = await desk_login(client, author)
    answer = await bulk(client, token, "publish", own, others, published)
    assert answer.status_code == 200  # something was done: the report, not an error
    report = answer.text
    assert "1 record changed." in report
    assert "2 were not changed:" in report
    assert "Editor&#39;s concert" in report  # a record the author may read is named
    assert f"#{others}" in report  # one they may not read stays a number
    assert "Editor&#39;s draft" not in report
    assert await status_of(client, editor, own) == "publish"
    assert await status_of(client, editor, others) == "draft"
    assert await status_of(client, editor, published) == "publish"


async def test_a_bulk_action_refused_for_every_record_changes_nothing(
    client: AsyncClient, desk_user: DeskUserFactory, auth: Auth
) -> None:
    editor = await auth("editor")
    contributor = await desk_user("contributor")
    published = await add_event(client, editor, "Concert")
    token = await desk_login(client, contributor)
    answer = await bulk(client, token, "trash", published)
    assert answer.status_code == 403
    assert "Concert" in answer.text
    assert await status_of(client, editor, published) == "publish"


async def test_bulk_trash_and_restore(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    editor = await desk_user("editor")
    event = await add_event(client, editor, "Concert")
    series = await add_event(client, editor, "Class", recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"])
    token = await desk_login(client, editor)
    trashed = await bulk(client, token, "trash", event, series)
    assert trashed.status_code == 303
    page = await client.get(trashed.headers["location"])
    assert "2 events moved to the trash." in page.text
    assert titles(page.text) == []
    assert await status_of(client, editor, event) == "trash"
    in_trash = await client.get(DESK, params={"status": "trash"})
    assert set(titles(in_trash.text)) == {"Concert", "Class"}
    assert bulk_actions(in_trash.text) == ["restore"]
    restored = await bulk(client, token, "restore", event, back="status=trash")
    assert restored.status_code == 303
    after = await client.get(restored.headers["location"])
    assert "1 event restored as a draft." in after.text
    assert titles(after.text) == ["Class"]
    assert await status_of(client, editor, event) == "draft"


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"action": "explode", "ids": ["1"]}, 400),
        ({"action": "publish"}, 400),
        ({"action": "publish", "ids": ["abc"]}, 400),
    ],
)
async def test_a_bulk_form_without_a_valid_action_or_events_is_a_400(
    client: AsyncClient, desk_user: DeskUserFactory, data: dict[str, Any], status: int
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    answer = await client.post("/desk/events/bulk", data={"csrf_token": token, **data})
    assert answer.status_code == status
    assert 'class="desk-outcome"' in answer.text


async def test_bulk_needs_the_csrf_token_and_a_same_origin_form(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    event = await add_event(client, editor, "Concert")
    token = await desk_login(client, editor)
    data = {"action": "trash", "ids": [str(event)]}
    assert (await client.post("/desk/events/bulk", data=data)).status_code == 403
    wrong = await client.post("/desk/events/bulk", data={**data, "csrf_token": "nope"})
    assert wrong.status_code == 403
    cross = await client.post(
        "/desk/events/bulk",
        data={**data, "csrf_token": token},
        headers={"Origin": "https://elsewhere.example"},
    )
    assert cross.status_code == 403
    assert await status_of(client, editor, event) == "publish"


async def test_the_table_in_slovak(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    editor = await desk_user("editor")
    await add_event(client, editor, "Koncert")
    await desk_login(client, editor)
    page = await client.get("/sk/desk/events/")
    assert page.status_code == 200
    assert "Čaká na kontrolu" in page.text
    assert 'href="/sk/desk/events/' in page.text
