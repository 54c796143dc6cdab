"""The event editor's saves an editor can trust (issue 42), through HTTP: a phone photo
uploads from the editor, a form too large is a desk page that says the limit, Weekly
repeats on the start date's weekday, a form for a new event saves once, refusals speak the
person's language at the field they see, a save says what it did, and a series' editor
lists its dates (the one-date editor says which date it edits)."""

import re
from datetime import date, timedelta
from typing import Any

from httpx import AsyncClient, Response

from tests.desk_editor_forms import NEW, edited_id, editor_form, event_total, read_event, shown_form
from tests.desk_support import DeskUserFactory, desk_login
from tests.factories import API
from tests.media_files import noise_jpeg

MAX_UPLOAD = 10_485_760  # the default MAX_UPLOAD_BYTES (docs/configuration.md: 10 MB)
MAX_BODY = 1_048_576  # the default MAX_BODY_BYTES


def _file(data: bytes, name: str = "phone.jpg") -> dict[str, Any]:
    return {"image_file": (name, data, "image/jpeg")}


def _error_at(page: Response, field: str) -> str:
    """The text of the message shown at `field` ('' when none)."""
    found = re.search(
        rf'<p class="desk-field-error" id="{field}-error"[^>]*>([^<]*)</p>', page.text
    )
    return found.group(1).strip() if found else ""


def _day_after(weekday: int) -> date:
    """A day some weeks ahead on `weekday` (0: Monday)."""
    day = date.today() + timedelta(days=14)
    return day + timedelta(days=(weekday - day.weekday()) % 7)


# ---- 1. an image from the editor --------------------------------------------------------


async def test_a_phone_photo_uploads_from_the_editor(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("contributor")  # the editor is their only way to upload
    token = await desk_login(client, editor)
    photo = noise_jpeg((1750, 1300))  # 2.7 MB: over the general request limit
    assert MAX_BODY < len(photo) < MAX_UPLOAD
    form = editor_form(token, image_alt="The stage", action="review")
    answer = await client.post(NEW, data=form, files=_file(photo))
    event_id = edited_id(answer)
    body = await read_event(client, editor, event_id)
    assert body["image"]["alt"] == "The stage"
    assert body["image"]["filesize"] > 0 or body["image"]["width"] == 1750


async def test_a_file_over_the_image_limit_is_said_at_the_field_with_the_values_kept(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    before = await event_total(client, editor)
    just_over = b"\xff\xd8" + bytes(MAX_UPLOAD)  # read (within the form's room), refused
    form = editor_form(token, title="Kept title", excerpt="Kept excerpt")
    page = await client.post(NEW, data=form, files=_file(just_over))
    assert page.status_code == 413
    assert page.headers["content-type"].startswith("text/html")
    assert "10 MB" in _error_at(page, "image_file")
    assert shown_form(page)["title"] == "Kept title"
    assert shown_form(page)["excerpt"] == "Kept excerpt"
    assert await event_total(client, editor) == before


async def test_a_form_too_large_to_read_is_a_desk_page_saying_the_limit(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    before = await event_total(client, editor)
    far_over = b"\xff\xd8" + bytes(MAX_UPLOAD + 2_000_000)  # over even the upload limit
    page = await client.post(NEW, data=editor_form(token), files=_file(far_over))
    assert page.status_code == 413
    assert page.headers["content-type"].startswith("text/html")
    assert "rest_payload_too_large" not in page.text
    assert "10 MB" in _error_at(page, "image_file")
    assert "nothing was saved" in page.text
    assert 'id="event-editor"' in page.text  # the form again, to fill in
    german = await client.post(
        "/de/desk/events/new", data=editor_form(token), files=_file(far_over)
    )
    assert german.status_code == 413
    assert "10 MB" in _error_at(german, "image_file")
    assert "größer" in _error_at(german, "image_file")
    # An existing event's form: shown as saved, nothing written.
    event_id = edited_id(await client.post(NEW, data=editor_form(token, title="As saved")))
    edit = f"/desk/events/{event_id}/edit"
    page = await client.post(edit, data=editor_form(token, title="Lost"), files=_file(far_over))
    assert page.status_code == 413
    assert shown_form(page)["title"] == "As saved"
    assert (await read_event(client, editor, event_id))["title"] == "As saved"
    assert await event_total(client, editor) == before + 1
    # Another desk form too large: the desk's page, not the API's JSON.
    other = await client.post("/desk/venues/new", data={"csrf_token": token}, files=_file(far_over))
    assert other.status_code == 413
    assert other.headers["content-type"].startswith("text/html")


# ---- 2. Weekly on the start date's weekday -----------------------------------------------


async def test_weekly_follows_the_start_date_not_the_day_the_page_was_opened(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    await desk_login(client, editor)
    page = await client.get(NEW, follow_redirects=True)
    shown = shown_form(page)  # as the page shows it: today's weekday ticked
    today = date.fromisoformat(shown["start_day"])  # the day the page was opened
    start = _day_after((today.weekday() + 5) % 7)  # another weekday
    weekday = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][start.weekday()]
    assert shown["repeat_weekdays"] != weekday
    form = {
        **shown,
        "title": "Weekly",
        "start_day": start.isoformat(),
        "end_day": start.isoformat(),
        "repeat": "weekly",
        "repeat_ends": "after",
        "repeat_count": "4",
        "action": "save",
    }
    event_id = edited_id(await client.post(NEW, data=form))
    body = await read_event(client, editor, event_id)
    assert body["recurrence"] == [f"RRULE:FREQ=WEEKLY;BYDAY={weekday};COUNT=4"]
    dates = await client.get(
        f"{API}/events", params={"post_parent": event_id}, headers=editor.basic
    )
    starts = [date.fromisoformat(e["start_date"][:10]) for e in dates.json()["events"]]
    assert starts == [start + timedelta(weeks=n) for n in range(4)]


async def test_a_weekday_the_person_chose_is_kept_and_monthly_follows_too(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    await desk_login(client, editor)
    shown = shown_form(await client.get(NEW, follow_redirects=True))
    today = date.fromisoformat(shown["repeat_defaults"])
    start = _day_after((today.weekday() + 3) % 7)
    chosen = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][(today.weekday() + 1) % 7]
    base = {**shown, "title": "Kept", "start_day": start.isoformat(), "end_day": start.isoformat()}
    preview = await client.post(NEW, data={**base, "repeat": "weekly", "action": "preview"})
    again = shown_form(preview)  # the form shown again: the start's weekday now ticked
    assert again["repeat_weekdays"] == ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][start.weekday()]
    assert again["repeat_month_day"] == str(start.day)
    assert again["repeat_defaults"] == start.isoformat()
    kept = {**base, "repeat": "weekly", "repeat_weekdays": [chosen], "action": "save"}
    event_id = edited_id(await client.post(NEW, data=kept))
    assert (await read_event(client, editor, event_id))["recurrence"] == [
        f"RRULE:FREQ=WEEKLY;BYDAY={chosen}"
    ]
    monthly = {**base, "repeat": "monthly", "repeat_monthly": "weekday", "action": "save"}
    event_id = edited_id(await client.post(NEW, data={**monthly, "form_token": "x" * 20}))
    week = (start.day - 1) // 7 + 1
    weekday = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][start.weekday()]
    assert (await read_event(client, editor, event_id))["recurrence"] == [
        f"RRULE:FREQ=MONTHLY;BYDAY={-1 if week == 5 else week}{weekday}"
    ]


# ---- 4. a new event's form saves once ----------------------------------------------------


async def test_back_and_save_again_opens_the_event_made_the_first_time(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    await desk_login(client, editor)
    before = await event_total(client, editor)
    fresh = await client.get(NEW)  # "Add event": the form's own address, with its token
    assert fresh.status_code == 303
    address = fresh.headers["location"]
    assert re.search(r"/desk/events/new\?form=[\w-]{16,}$", address)
    page = await client.get(address)
    shown = shown_form(page)
    assert address.endswith(shown["form_token"])
    form = {**shown, "title": "Once", "action": "save"}
    first = await client.post(NEW, data=form)
    event_id = edited_id(first)  # post/redirect/get: a 303 to the saved event's editor
    again = await client.post(NEW, data={**form, "title": "Once, changed after Back"})
    assert edited_id(again) == event_id
    page = await client.get(again.headers["location"])
    assert "This form was saved already." in page.text
    assert await event_total(client, editor) == before + 1
    assert (await read_event(client, editor, event_id))["title"] == "Once"
    back = shown_form(await client.get(address))  # Back loads the form's address again
    assert back["form_token"] == shown["form_token"]
    third = await client.post(NEW, data={**back, "title": "Once", "action": "save"})
    assert edited_id(third) == event_id
    assert await event_total(client, editor) == before + 1
    other_form = shown_form(await client.get(NEW, follow_redirects=True))
    assert other_form["form_token"] != shown["form_token"]  # a new "Add event": a new form
    # Another person's same token is another form.
    other = await desk_login(client, await desk_user("editor"))
    assert edited_id(await client.post(NEW, data={**form, "csrf_token": other})) != event_id


async def test_a_refused_first_post_leaves_the_form_to_be_saved_once_fixed(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    await desk_login(client, editor)
    before = await event_total(client, editor)
    shown = shown_form(await client.get(NEW, follow_redirects=True))
    day = date.today() + timedelta(days=9)
    wrong = {**shown, "title": "Fixed", "start_day": day.isoformat(), "action": "save"}
    wrong["end_day"] = (day - timedelta(days=1)).isoformat()
    refused = await client.post(NEW, data=wrong)
    assert refused.status_code == 400
    assert shown_form(refused)["form_token"] == shown["form_token"]
    fixed = {**wrong, "end_day": day.isoformat()}
    event_id = edited_id(await client.post(NEW, data=fixed))
    assert (await read_event(client, editor, event_id))["title"] == "Fixed"
    assert await event_total(client, editor) == before + 1


# ---- 5. refusals at the field, in the person's words -------------------------------------


async def test_an_end_before_the_start_is_said_at_the_end_date_in_the_desks_words(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    day = date.today() + timedelta(days=9)
    form = editor_form(
        token, start_day=day.isoformat(), end_day=(day - timedelta(days=2)).isoformat()
    )
    page = await client.post(NEW, data=form)
    assert page.status_code == 400
    assert _error_at(page, "end_day") == "End date is before the start date."
    assert "Invalid parameter" not in page.text
    assert "end_date" not in page.text
    assert "start_date" not in page.text
    assert '<a href="#end_day">End date</a>' in page.text  # the summary names the label
    assert shown_form(page)["title"] == "Jazz night"  # the typed values kept
    german = await client.post("/de/desk/events/new", data=form)
    assert _error_at(german, "end_day") == "Das Enddatum liegt vor dem Startdatum."
    slovak = await client.post("/sk/desk/events/new", data=form)
    assert _error_at(slovak, "end_day") == "Dátum konca je pred dátumom začiatku."


async def test_a_recurrence_refused_by_the_api_is_said_at_the_rules(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    form = editor_form(token, repeat="custom", repeat_lines="RRULE:FREQ=DAILY;INTERVAL=0")
    page = await client.post(NEW, data=form)
    assert page.status_code == 400
    message = _error_at(page, "repeat_lines")
    assert "INTERVAL from 1 to" in message
    assert message.startswith("Custom rules")  # the field's label, not "recurrence"
    assert "Invalid parameter" not in page.text
    assert 'aria-invalid="true"' in page.text


# ---- 6. a save says what it did ----------------------------------------------------------


async def test_publish_says_published_and_links_the_public_page(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    answer = await client.post(NEW, data=editor_form(token, action="publish"))
    page = await client.get(answer.headers["location"])
    assert '<div class="flash"' in page.text or "flash" in page.text
    assert re.search(r'class="flash"[^>]*>\s*Published\.', page.text)
    body = await read_event(client, editor, edited_id(answer))
    assert f'href="{body["url"]}"' in page.text
    event_id = edited_id(answer)
    again = await client.post(
        f"/desk/events/{event_id}/edit", data=editor_form(token, action="publish")
    )
    page = await client.get(again.headers["location"])  # "Update" of a published event
    assert re.search(r'class="flash"[^>]*>\s*Saved\.', page.text)
    draft = await client.post(NEW, data=editor_form(token, action="save"))
    page = await client.get(draft.headers["location"])
    assert re.search(r'class="flash"[^>]*>\s*Saved\.', page.text)
    assert 'class="desk-public-link"' not in page.text  # a draft has no public page


async def test_submit_for_review_says_sent_for_review(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    token = await desk_login(client, await desk_user("contributor"))
    answer = await client.post(NEW, data=editor_form(token, action="review"))
    page = await client.get(answer.headers["location"])
    assert re.search(r'class="flash"[^>]*>\s*Sent for review\.', page.text)
    german = await client.post("/de/desk/events/new", data=editor_form(token, action="review"))
    page = await client.get(german.headers["location"])
    assert "Zur Prüfung gesendet." in page.text


# ---- 3. a series' dates on its editor ----------------------------------------------------


async def test_a_series_editor_lists_its_dates_each_linking_to_its_editor(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    start = date.today() + timedelta(days=10)
    form = editor_form(
        token,
        start_day=start.isoformat(),
        end_day=start.isoformat(),
        repeat="daily",
        repeat_ends="after",
        repeat_count="25",
        action="publish",
    )
    series_id = edited_id(await client.post(NEW, data=form))
    found = await client.get(
        f"{API}/events", params={"post_parent": series_id, "per_page": 50}, headers=editor.basic
    )
    ids = [e["id"] for e in found.json()["events"]]
    assert len(ids) == 25
    moved = await client.post(
        f"{API}/events/{ids[1]}",
        json={
            "start_date": f"{start + timedelta(days=1)} 20:00",
            "end_date": f"{start + timedelta(days=1)} 22:00",
            "scope": "this",
        },
        headers=editor.basic,
    )
    assert moved.status_code == 200, moved.text
    cancelled = await client.delete(f"{API}/events/{ids[2]}", headers=editor.basic)
    assert cancelled.status_code == 200, cancelled.text

    page = await client.get(f"/desk/events/{series_id}/edit")
    assert page.status_code == 200
    section = page.text[page.text.index('id="series-dates"') :]
    rows = re.findall(r"<li[^>]*>(.*?)</li>", section, re.S)
    assert len(rows) == 20  # a page of them
    assert f'/desk/events/{ids[0]}/edit"' in rows[0]
    assert f'/desk/events/{ids[1]}/edit"' in rows[1]
    assert "moved" in rows[1]
    assert "cancelled" in rows[2]
    assert "/edit" not in rows[2]
    assert "25 dates" in page.text
    second = await client.get(f"/desk/events/{series_id}/edit", params={"dates": 2})
    rows = re.findall(
        r"<li[^>]*>(.*?)</li>", second.text[second.text.index('id="series-dates"') :], re.S
    )
    assert len(rows) == 5
    assert f'/desk/events/{ids[-1]}/edit"' in rows[-1]
    for wrong in ("abc", "0", "9" * 20):  # a page no pager wrote: the first, never JSON
        odd = await client.get(f"/desk/events/{series_id}/edit", params={"dates": wrong})
        assert odd.status_code == 200
        assert f'/desk/events/{ids[0]}/edit"' in odd.text

    one = await client.get(f"/desk/events/{ids[3]}/edit")
    heading = re.search(r'<p class="desk-one-date" id="one-date">(.*?)</p>', one.text, re.S)
    assert heading is not None
    assert "One date of a series" in heading.group(1)
    shown_day = start + timedelta(days=3)
    assert str(shown_day.year) in heading.group(1)
    assert str(shown_day.day) in heading.group(1)
    assert f'/desk/events/{series_id}/edit#series-dates"' in heading.group(1)
    assert 'id="series-dates"' not in one.text
