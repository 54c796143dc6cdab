"""The desk's event editor through HTTP (in-process): every action per role, the CSRF token,
the service's refusals shown on the form with the values sent, the 412 conflict page, the
dates preview, one date of a series, translations and an uploaded image. What is written is
read back through the API."""

import html
import re
from datetime import date, timedelta
from typing import Any

from httpx import AsyncClient, Response

from tests.desk_editor_forms import (
    NEW,
    edited_id,
    editor_form,
    event_total,
    read_event,
    shown_form,
)
from tests.desk_support import DeskUser, DeskUserFactory, desk_login
from tests.factories import API, create_post
from tests.media_files import picture


async def _edit(client: AsyncClient, event_id: int, **changes: Any) -> Response:
    """Open the editor, change `changes` and save, as a person would."""
    page = await client.get(f"/desk/events/{event_id}/edit")
    assert page.status_code == 200, page.text
    form = {**shown_form(page), "action": "save", **changes}
    return await client.post(f"/desk/events/{event_id}/edit", data=form)


def _version(page: Response) -> str:
    found = re.search(r'name="version" value="([^"]*)"', page.text)
    assert found is not None
    return html.unescape(found.group(1))  # an ETag has quotes: escaped in the attribute


# ---- who sees what ------------------------------------------------------------------------


async def test_contributor_sees_submit_for_review_author_sees_publish(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    await desk_login(client, await desk_user("contributor"))
    page = await client.get(NEW, follow_redirects=True)
    assert page.status_code == 200
    assert "Submit for review" in page.text
    assert 'value="publish"' not in page.text  # neither the button nor the status
    assert page.headers["cache-control"] == "no-store"
    german = await client.get("/de/desk/events/new", follow_redirects=True)
    assert "Zur Prüfung einreichen" in german.text
    assert "Wiederholung" in german.text
    slovak = await client.get("/sk/desk/events/new", follow_redirects=True)
    assert "Odoslať na kontrolu" in slovak.text

    await desk_login(client, await desk_user("author"))
    page = await client.get(NEW, follow_redirects=True)
    assert 'name="action" value="publish"' in page.text
    assert "Submit for review" not in page.text


async def test_subscriber_may_not_add_events(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    subscriber = await desk_user("subscriber")
    token = await desk_login(client, subscriber)
    assert (await client.get(NEW)).status_code == 403
    answer = await client.post(NEW, data=editor_form(token))
    assert answer.status_code == 403


async def test_signed_out_goes_to_sign_in(client: AsyncClient) -> None:
    answer = await client.get(NEW)
    assert answer.status_code == 303
    assert "/desk/signin" in answer.headers["location"]


async def test_a_post_without_the_csrf_token_writes_nothing(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    before = await event_total(client, editor)
    form = editor_form(token)
    del form["csrf_token"]
    assert (await client.post(NEW, data=form)).status_code == 403
    assert (await client.post(NEW, data=editor_form("forged"))).status_code == 403
    assert await event_total(client, editor) == before


# ---- creating -----------------------------------------------------------------------------


async def test_create_with_new_venue_organizers_category_tags_and_repetition(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    known = await create_post(client, editor, "organizers", organizer="City Culture")
    category = await client.post(
        f"{API}/categories", json={"name": "Concerts"}, headers=editor.basic
    )
    form = editor_form(
        token,
        action="publish",
        venue="new",
        venue_name="Old Market Hall",
        venue_city="Bratislava",
        organizers=["", str(known["id"]), ""],
        organizer_name=["Jazz Club", "", ""],
        organizer_email=["club@example.org", "", ""],
        organizer_phone=["", "", ""],
        categories=[str(category.json()["id"])],
        tags="jazz, brand new tag",
        cost="10",
        repeat="weekly",
        repeat_weekdays=["TU", "TH"],
        repeat_ends="after",
        repeat_count="6",
        title_de="Jazzabend",
    )
    event_id = edited_id(await client.post(NEW, data=form))
    body = await read_event(client, editor, event_id)
    assert body["title"] == "Jazz night"
    assert body["status"] == "publish"
    assert body["venue"]["venue"] == "Old Market Hall"
    assert [o["organizer"] for o in body["organizer"]] == ["Jazz Club", "City Culture"]
    assert [c["name"] for c in body["categories"]] == ["Concerts"]
    assert sorted(t["name"] for t in body["tags"]) == ["brand new tag", "jazz"]
    assert body["recurrence"] == ["RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6"]
    assert body["start_date"].endswith("19:00:00")
    german = await read_event(client, editor, event_id, i18n_language="de")
    assert german["title"] == "Jazzabend"

    page = await client.get(f"/desk/events/{event_id}/edit")
    assert page.status_code == 200
    assert 'value="Jazzabend"' in page.text
    assert "Published." in page.text  # the flash, once: what the save did


async def test_a_refused_save_keeps_every_value_and_writes_nothing(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    author = await desk_user("author")
    token = await desk_login(client, author)
    before = await event_total(client, author)
    form = editor_form(
        token,
        title="",
        venue="new",
        venue_name="Hall Kept",
        end_day=(date.today() + timedelta(days=6)).isoformat(),  # before the start
        excerpt="An excerpt kept",
    )
    answer = await client.post(NEW, data=form)
    assert answer.status_code == 400
    assert 'value="Hall Kept"' in answer.text
    assert "An excerpt kept" in answer.text
    assert 'id="title-error"' in answer.text or 'id="end_day-error"' in answer.text
    assert await event_total(client, author) == before


async def test_builder_errors_are_named_before_the_service_is_asked(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    token = await desk_login(client, await desk_user("author"))
    form = editor_form(token, repeat="daily", repeat_ends="after", repeat_count="zero")
    answer = await client.post(NEW, data=form)
    assert answer.status_code == 400
    assert 'id="repeat_count-error"' in answer.text
    assert 'value="zero"' in answer.text


async def test_an_uploaded_image_with_its_alt_text(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    author = await desk_user("author")
    token = await desk_login(client, author)
    answer = await client.post(
        NEW,
        data=editor_form(token, image_alt="The band on stage"),
        files={"image_file": ("band.png", picture("PNG"), "image/png")},
    )
    event_id = edited_id(answer)
    image = (await read_event(client, author, event_id))["image"]
    assert image["id"] > 0
    assert image["alt"] == "The band on stage"


async def test_an_image_of_the_library_a_schedule_and_a_password(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    author = await desk_user("author")
    token = await desk_login(client, author)
    uploaded = await client.post(
        f"{API}/media",
        files={"file": ("poster.png", picture("PNG"), "image/png")},
        headers=author.basic,
    )
    assert uploaded.status_code == 201
    media_id = uploaded.json()["id"]
    page = await client.get(NEW, follow_redirects=True)
    assert f'<option value="{media_id}">' in page.text  # offered in the editor
    later = (date.today() + timedelta(days=3)).isoformat()
    form = editor_form(
        token,
        image=str(media_id),
        action="publish",
        status="future",
        publish_day=later,
        publish_time="08:00",
        password="members only",
    )
    event_id = edited_id(await client.post(NEW, data=form))
    body = await read_event(client, author, event_id)
    assert body["image"]["id"] == media_id
    assert body["status"] == "future"
    assert body["date"].startswith(later)
    page = await client.get(f"/desk/events/{event_id}/edit")
    assert 'value="members only"' in page.text  # stored (the API never shows it)
    edited_id(await _edit(client, event_id, image_remove="1"))
    assert (await read_event(client, author, event_id))["image"] is False


# ---- roles and statuses -------------------------------------------------------------------


async def test_contributor_submits_for_review_and_an_editor_publishes(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    contributor = await desk_user("contributor")
    token = await desk_login(client, contributor)
    event_id = edited_id(await client.post(NEW, data=editor_form(token, action="review")))
    assert (await read_event(client, contributor, event_id))["status"] == "pending"
    # Forcing "publish" past the missing button: the service scales it, as for the API.
    page = await client.get(f"/desk/events/{event_id}/edit")
    answer = await client.post(
        f"/desk/events/{event_id}/edit",
        data=editor_form(token, action="publish", status="publish", version=_version(page)),
    )
    edited_id(answer)
    assert (await read_event(client, contributor, event_id))["status"] == "pending"

    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    page = await client.get(f"/desk/events/{event_id}/edit")
    assert 'name="action" value="publish"' in page.text
    answer = await client.post(
        f"/desk/events/{event_id}/edit",
        data=editor_form(token, action="publish", status="pending", version=_version(page)),
    )
    edited_id(answer)
    assert (await read_event(client, editor, event_id))["status"] == "publish"

    # Published: no longer the contributor's to change.
    token = await desk_login(client, contributor)
    assert (await client.get(f"/desk/events/{event_id}/edit")).status_code == 403
    answer = await client.post(f"/desk/events/{event_id}/edit", data=editor_form(token))
    assert answer.status_code == 403


async def test_an_author_cannot_open_anothers_draft(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    owner = await desk_user("author")
    token = await desk_login(client, owner)
    event_id = edited_id(await client.post(NEW, data=editor_form(token, action="draft")))
    other = await desk_user("author")
    token = await desk_login(client, other)
    assert (await client.get(f"/desk/events/{event_id}/edit")).status_code == 403
    answer = await client.post(
        f"/desk/events/{event_id}/edit", data=editor_form(token, title="Mine")
    )
    assert answer.status_code == 403
    assert (await read_event(client, owner, event_id))["title"] == "Jazz night"


async def test_an_unknown_event_is_404(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    await desk_login(client, await desk_user("editor"))
    assert (await client.get("/desk/events/999999/edit")).status_code == 404


# ---- the conflict -------------------------------------------------------------------------


async def test_a_save_after_someone_elses_shows_both_and_loses_nothing(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    event_id = edited_id(await client.post(NEW, data=editor_form(token, action="publish")))
    opened = await client.get(f"/desk/events/{event_id}/edit")
    version = _version(opened)
    # Meanwhile, somebody else saves (through the API).
    other = await client.post(
        f"{API}/events/{event_id}", json={"title": "Their title"}, headers=editor.basic
    )
    assert other.status_code == 200
    mine = editor_form(token, title="My title", version=version, action="publish")
    answer = await client.post(f"/desk/events/{event_id}/edit", data=mine)
    assert answer.status_code == 412
    assert "Their title" in answer.text  # the saved version
    assert 'value="My title"' in answer.text  # the user's, still in the form
    assert (await read_event(client, editor, event_id))["title"] == "Their title"
    # Saving again from the conflict page writes the user's text deliberately.
    again = {**mine, "version": _version(answer)}
    edited_id(await client.post(f"/desk/events/{event_id}/edit", data=again))
    assert (await read_event(client, editor, event_id))["title"] == "My title"


# ---- series -------------------------------------------------------------------------------


async def _series(client: AsyncClient, who: DeskUser, token: str, count: int) -> list[int]:
    """A weekly series of `count` dates made in the editor; the dates' IDs."""
    form = editor_form(
        token, action="publish", repeat="weekly", repeat_ends="after", repeat_count=str(count)
    )
    series_id = edited_id(await client.post(NEW, data=form))
    dates = await client.get(f"{API}/events", params={"post_parent": series_id}, headers=who.basic)
    return [event["id"] for event in dates.json()["events"]]


async def test_one_date_of_a_series_changes_alone(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    ids = await _series(client, editor, token, 3)
    assert len(ids) == 3
    page = await client.get(f"/desk/events/{ids[1]}/edit")
    assert re.search(r'value="this" checked', page.text)  # a date: "this date only" first
    answer = await _edit(client, ids[1], title="Jazz night: guest band", start_time="20:00")
    edited_id(answer)
    shown = [await read_event(client, editor, event_id) for event_id in ids]
    assert [body["title"] for body in shown] == [
        "Jazz night",
        "Jazz night: guest band",
        "Jazz night",
    ]
    assert [body["start_date"][11:16] for body in shown] == ["19:00", "20:00", "19:00"]


async def test_this_and_the_following_dates_split_the_series(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    ids = await _series(client, editor, token, 4)
    edited_id(await _edit(client, ids[2], title="Jazz night (new band)", scope="following"))
    titles = [(await read_event(client, editor, event_id))["title"] for event_id in ids]
    assert titles == ["Jazz night", "Jazz night", "Jazz night (new band)", "Jazz night (new band)"]
    assert (await read_event(client, editor, ids[0]))["recurrence"][0].count("UNTIL=") == 1


async def test_a_date_refuses_what_only_the_series_has(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    ids = await _series(client, editor, token, 2)
    answer = await _edit(client, ids[1], featured="1", scope="this", title="Kept")
    assert answer.status_code == 400
    assert 'id="featured-error"' in answer.text
    assert 'value="Kept"' in answer.text
    assert (await read_event(client, editor, ids[1]))["title"] == "Jazz night"


# ---- the preview --------------------------------------------------------------------------


async def test_preview_of_the_next_ten_dates(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    before = await event_total(client, editor)
    form = editor_form(
        token,
        start_day="2027-03-09",
        end_day="2027-03-09",
        repeat="monthly",
        repeat_monthly="weekday",
        repeat_week="2",
        repeat_weekday="TU",
    )
    fragment = await client.post("/desk/events/preview", data=form)
    assert fragment.status_code == 200
    stamps = re.findall(r'<time datetime="([^"]+)"', fragment.text)
    assert stamps[:3] == ["2027-03-09T19:00", "2027-04-13T19:00", "2027-05-11T19:00"]
    assert len(stamps) == 10
    assert "<html" not in fragment.text

    # Without scripts: the form's own button, the whole page, nothing saved.
    page = await client.post(NEW, data={**form, "action": "preview"})
    assert page.status_code == 200
    assert re.findall(r'<time datetime="([^"]+)"', page.text)[:1] == ["2027-03-09T19:00"]
    assert 'value="Jazz night"' in page.text
    assert await event_total(client, editor) == before

    bad = await client.post(
        "/desk/events/preview", data={**form, "repeat": "custom", "repeat_lines": "RRULE:FREQ=NOPE"}
    )
    assert bad.status_code == 400
    assert 'role="alert"' in bad.text

    unsigned = await client.post("/desk/events/preview", data={**form, "csrf_token": "x"})
    assert unsigned.status_code == 403


async def test_the_editor_meets_the_apis_limits_on_an_inline_venue_and_the_title(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    """The editor's typed write is checked by the API's own limits: an overlong title, and
    an inline venue whose name is too long, are refused at their fields."""
    author = await desk_user("author")
    token = await desk_login(client, author)
    before = await event_total(client, author)
    form = editor_form(token, title="T" * 501, venue="new", venue_name="H" * 501)
    answer = await client.post(NEW, data=form)
    assert answer.status_code == 400
    assert 'id="title-error"' in answer.text
    assert 'id="venue-error"' in answer.text or 'id="venue_name-error"' in answer.text
    assert await event_total(client, author) == before
