"""The desk's event editor through HTTP (in-process): every action per role, the CSRF token,
the service's refusals shown on the form with the values sent, the 412 conflict page, the
dates preview, one date of a series, translations and an uploaded image. What is written is
read back through the API."""

import html
import re
from datetime import date, timedelta
from typing import Any

from httpx import AsyncClient, Response

from tests.desk_support import DeskUser, DeskUserFactory, desk_login
from tests.factories import API, create_post
from tests.media_files import picture

NEW = "/desk/events/new"
DAY = (date.today() + timedelta(days=7)).isoformat()


def _form(token: str, **values: Any) -> dict[str, Any]:
    form: dict[str, Any] = {
        "csrf_token": token,
        "title": "Jazz night",
        "description": "<p>Live <strong>music</strong></p>",
        "start_day": DAY,
        "start_time": "19:00",
        "end_day": DAY,
        "end_time": "21:00",
        "timezone": "Europe/Bratislava",
        "status": "draft",
    }
    form.update(values)
    return form


def _edited_id(answer: Response) -> int:
    assert answer.status_code == 303, answer.text
    found = re.search(r"/desk/events/(\d+)/edit$", answer.headers["location"])
    assert found is not None, answer.headers["location"]
    return int(found.group(1))


async def _event(client: AsyncClient, who: DeskUser, event_id: int, **query: str) -> Any:
    answer = await client.get(f"{API}/events/{event_id}", params=query, headers=who.basic)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def _total(client: AsyncClient, who: DeskUser) -> int:
    answer = await client.get(f"{API}/events", params={"status": "any"}, headers=who.basic)
    return int(answer.headers["x-wp-total"])


def _version(page: Response) -> str:
    found = re.search(r'name="version" value="([^"]*)"', page.text)
    assert found is not None
    return html.unescape(found.group(1))  # an ETag has quotes: escaped in the attribute


# ---- who sees what ------------------------------------------------------------------------


async def test_contributor_sees_submit_for_review_author_sees_publish(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    await desk_login(client, await desk_user("contributor"))
    page = await client.get(NEW)
    assert page.status_code == 200
    assert "Submit for review" in page.text
    assert 'value="publish"' not in page.text  # neither the button nor the status
    assert page.headers["cache-control"] == "no-store"
    german = await client.get("/de/desk/events/new")
    assert "Zur Prüfung einreichen" in german.text
    assert "Wiederholung" in german.text
    slovak = await client.get("/sk/desk/events/new")
    assert "Odoslať na kontrolu" in slovak.text

    await desk_login(client, await desk_user("author"))
    page = await client.get(NEW)
    assert 'name="action" value="publish"' in page.text
    assert "Submit for review" not in page.text


async def test_subscriber_may_not_add_events(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    subscriber = await desk_user("subscriber")
    token = await desk_login(client, subscriber)
    assert (await client.get(NEW)).status_code == 403
    answer = await client.post(NEW, data=_form(token))
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
    before = await _total(client, editor)
    form = _form(token)
    del form["csrf_token"]
    assert (await client.post(NEW, data=form)).status_code == 403
    assert (await client.post(NEW, data=_form("forged"))).status_code == 403
    assert await _total(client, editor) == before


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
    form = _form(
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
    event_id = _edited_id(await client.post(NEW, data=form))
    body = await _event(client, editor, event_id)
    assert body["title"] == "Jazz night"
    assert body["status"] == "publish"
    assert body["venue"]["venue"] == "Old Market Hall"
    assert [o["organizer"] for o in body["organizer"]] == ["Jazz Club", "City Culture"]
    assert [c["name"] for c in body["categories"]] == ["Concerts"]
    assert sorted(t["name"] for t in body["tags"]) == ["brand new tag", "jazz"]
    assert body["recurrence"] == ["RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=6"]
    assert body["start_date"].endswith("19:00:00")
    german = await _event(client, editor, event_id, i18n_language="de")
    assert german["title"] == "Jazzabend"

    page = await client.get(f"/desk/events/{event_id}/edit")
    assert page.status_code == 200
    assert 'value="Jazzabend"' in page.text
    assert "Saved." in page.text  # the flash, once


async def test_a_refused_save_keeps_every_value_and_writes_nothing(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    author = await desk_user("author")
    token = await desk_login(client, author)
    before = await _total(client, author)
    form = _form(
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
    assert await _total(client, author) == before


async def test_builder_errors_are_named_before_the_service_is_asked(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    token = await desk_login(client, await desk_user("author"))
    form = _form(token, repeat="daily", repeat_ends="after", repeat_count="zero")
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
        data=_form(token, image_alt="The band on stage"),
        files={"image_file": ("band.png", picture("PNG"), "image/png")},
    )
    event_id = _edited_id(answer)
    image = (await _event(client, author, event_id))["image"]
    assert image["id"] > 0
    assert image["alt"] == "The band on stage"


# ---- roles and statuses -------------------------------------------------------------------


async def test_contributor_submits_for_review_and_an_editor_publishes(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    contributor = await desk_user("contributor")
    token = await desk_login(client, contributor)
    event_id = _edited_id(await client.post(NEW, data=_form(token, action="review")))
    assert (await _event(client, contributor, event_id))["status"] == "pending"
    # Forcing "publish" past the missing button: the service scales it, as for the API.
    page = await client.get(f"/desk/events/{event_id}/edit")
    answer = await client.post(
        f"/desk/events/{event_id}/edit",
        data=_form(token, action="publish", status="publish", version=_version(page)),
    )
    _edited_id(answer)
    assert (await _event(client, contributor, event_id))["status"] == "pending"

    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    page = await client.get(f"/desk/events/{event_id}/edit")
    assert 'name="action" value="publish"' in page.text
    answer = await client.post(
        f"/desk/events/{event_id}/edit",
        data=_form(token, action="publish", status="pending", version=_version(page)),
    )
    _edited_id(answer)
    assert (await _event(client, editor, event_id))["status"] == "publish"

    # Published: no longer the contributor's to change.
    token = await desk_login(client, contributor)
    assert (await client.get(f"/desk/events/{event_id}/edit")).status_code == 403
    answer = await client.post(f"/desk/events/{event_id}/edit", data=_form(token))
    assert answer.status_code == 403


async def test_an_author_cannot_open_anothers_draft(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    owner = await desk_user("author")
    token = await desk_login(client, owner)
    event_id = _edited_id(await client.post(NEW, data=_form(token, action="draft")))
    other = await desk_user("author")
    token = await desk_login(client, other)
    assert (await client.get(f"/desk/events/{event_id}/edit")).status_code == 403
    answer = await client.post(f"/desk/events/{event_id}/edit", data=_form(token, title="Mine"))
    assert answer.status_code == 403
    assert (await _event(client, owner, event_id))["title"] == "Jazz night"


async def test_an_unknown_event_is_404(client: AsyncClient, desk_user: DeskUserFactory) -> None:
    await desk_login(client, await desk_user("editor"))
    assert (await client.get("/desk/events/999999/edit")).status_code == 404


# ---- the conflict -------------------------------------------------------------------------


async def test_a_save_after_someone_elses_shows_both_and_loses_nothing(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    event_id = _edited_id(await client.post(NEW, data=_form(token, action="publish")))
    opened = await client.get(f"/desk/events/{event_id}/edit")
    version = _version(opened)
    # Meanwhile, somebody else saves (through the API).
    other = await client.post(
        f"{API}/events/{event_id}", json={"title": "Their title"}, headers=editor.basic
    )
    assert other.status_code == 200
    mine = _form(token, title="My title", version=version, action="publish")
    answer = await client.post(f"/desk/events/{event_id}/edit", data=mine)
    assert answer.status_code == 412
    assert "Their title" in answer.text  # the saved version
    assert 'value="My title"' in answer.text  # the user's, still in the form
    assert (await _event(client, editor, event_id))["title"] == "Their title"
    # Saving again from the conflict page writes the user's text deliberately.
    again = {**mine, "version": _version(answer)}
    _edited_id(await client.post(f"/desk/events/{event_id}/edit", data=again))
    assert (await _event(client, editor, event_id))["title"] == "My title"


# ---- series -------------------------------------------------------------------------------


async def test_one_date_of_a_series_changes_alone(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    form = _form(token, action="publish", repeat="weekly", repeat_ends="after", repeat_count="3")
    series_id = _edited_id(await client.post(NEW, data=form))
    dates = await client.get(
        f"{API}/events", params={"post_parent": series_id}, headers=editor.basic
    )
    ids = [event["id"] for event in dates.json()["events"]]
    assert len(ids) == 3
    second = ids[1]
    page = await client.get(f"/desk/events/{second}/edit")
    assert 'name="scope" value="this"' in page.text
    values = _form(
        token,
        title="Jazz night: guest band",
        start_day=(date.today() + timedelta(days=14)).isoformat(),
        end_day=(date.today() + timedelta(days=14)).isoformat(),
        repeat="weekly",
        repeat_weekdays=re.findall(r'name="repeat_weekdays" value="(\w+)" checked', page.text),
        repeat_ends="after",
        repeat_count="3",
        scope="this",
        status="publish",
        action="publish",
        version=_version(page),
    )
    _edited_id(await client.post(f"/desk/events/{second}/edit", data=values))
    titles = [(await _event(client, editor, event_id))["title"] for event_id in ids]
    assert titles == ["Jazz night", "Jazz night: guest band", "Jazz night"]


async def test_a_date_refuses_what_only_the_series_has(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    form = _form(token, action="publish", repeat="daily", repeat_ends="after", repeat_count="2")
    series_id = _edited_id(await client.post(NEW, data=form))
    dates = await client.get(
        f"{API}/events", params={"post_parent": series_id}, headers=editor.basic
    )
    second = dates.json()["events"][1]["id"]
    page = await client.get(f"/desk/events/{second}/edit")
    values = {
        **_form(token, featured="1", scope="this", status="publish", version=_version(page)),
        "start_day": dates.json()["events"][1]["start_date"][:10],
        "end_day": dates.json()["events"][1]["end_date"][:10],
        "repeat": "daily",
        "repeat_ends": "after",
        "repeat_count": "2",
    }
    answer = await client.post(f"/desk/events/{second}/edit", data=values)
    assert answer.status_code == 400
    assert 'id="featured-error"' in answer.text


# ---- the preview --------------------------------------------------------------------------


async def test_preview_of_the_next_ten_dates(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    before = await _total(client, editor)
    form = _form(
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
    assert await _total(client, editor) == before

    bad = await client.post(
        "/desk/events/preview", data={**form, "repeat": "custom", "repeat_lines": "RRULE:FREQ=NOPE"}
    )
    assert bad.status_code == 400
    assert 'role="alert"' in bad.text

    unsigned = await client.post("/desk/events/preview", data={**form, "csrf_token": "x"})
    assert unsigned.status_code == 403
