"""The event editor in headless Chromium against a real server (tests/live/desk_harness.py):
an editor creates a weekly event with a new venue, two organizers, a category and an
uploaded image, changes one date only, and the public month view shows both; a contributor
submits for review and an editor publishes; two windows edit the same event and the second
save shows the conflict and loses nothing; axe-core on the editor at desktop width and
375 px. What the screens wrote is read back through the API."""

import asyncio
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from tests.factories import API
from tests.live.desk_harness import (
    DeskSite,
    assert_accessible,
    browser_errors,
    headless_chromium,
    page_replaced,
    screenshot,
    sign_in,
    sign_out,
    wait,
)
from tests.media_files import noise_jpeg, picture


def _first_tuesday_next_month() -> date:
    first = (date.today().replace(day=1) + timedelta(days=32)).replace(day=1)
    return first + timedelta(days=(1 - first.weekday()) % 7)


START = _first_tuesday_next_month()  # four Tuesdays of one month: days 1-7, +7, +14, +21


def _api(site: DeskSite, role: str = "editor") -> httpx.Client:
    return httpx.Client(base_url=f"{site.base}{API}", auth=site.api_auth(role), timeout=30)


def _set(driver: WebDriver, element_id: str, value: str) -> None:
    """A date or time input's value (typing into them depends on the browser's locale)."""
    element = driver.find_element(By.ID, element_id)
    driver.execute_script(
        "arguments[0].value = arguments[1];"
        "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
        element,
        value,
    )


def _type(driver: WebDriver, element_id: str, text: str) -> None:
    element = driver.find_element(By.ID, element_id)
    element.clear()
    element.send_keys(text)


def _save(driver: WebDriver, action: str) -> None:
    """Press the button with this `action` and wait for the next page."""
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, f"button[name=action][value={action}]").click()
    wait(driver).until(page_replaced(old))


def _create_weekly_event(
    driver: WebDriver, site: DeskSite, image: Path, category: int
) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.delete_all_cookies()
    sign_in(driver, site, "editor")
    driver.get(site.url("events/new"))
    assert_accessible(driver, "editor (new)")
    _type(driver, "title", "Riverside Jazz")
    editor = driver.find_element(By.ID, "description-editor")  # the rich-text box
    editor.click()
    editor.send_keys("Live music every week. ")
    driver.find_element(By.CSS_SELECTOR, ".desk-tool[data-tag=strong]").click()
    editor.send_keys("Free entry")
    seen["toolbar"] = [b.text for b in driver.find_elements(By.CSS_SELECTOR, ".desk-tool")]
    for field, value in (
        ("start_day", START.isoformat()),
        ("start_time", "19:00"),
        ("end_day", START.isoformat()),
        ("end_time", "21:00"),
    ):
        _set(driver, field, value)
    _type(driver, "timezone", "Europe/Bratislava")
    Select(driver.find_element(By.ID, "venue")).select_by_value("new")
    _type(driver, "venue_name", "Old Market Hall")
    _type(driver, "venue_city", "Bratislava")
    _type(driver, "organizer-name-1", "Jazz Club")
    _type(driver, "organizer-email-1", "club@example.org")
    _type(driver, "organizer-name-2", "City Culture")
    driver.find_element(By.ID, f"category-{category}").click()
    _type(driver, "tags", "jazz, weekly")
    driver.find_element(By.ID, "image_file").send_keys(str(image))
    _type(driver, "image_alt", "The band on the riverside stage")
    wait(driver).until(lambda d: d.find_element(By.ID, "image-preview").is_displayed())
    Select(driver.find_element(By.ID, "repeat")).select_by_value("weekly")
    for box in driver.find_elements(By.CSS_SELECTOR, "input[name=repeat_weekdays]"):
        if box.is_selected() != (box.get_attribute("value") == "TU"):
            box.click()
    driver.find_element(By.ID, "repeat-ends-after").click()
    _type(driver, "repeat_count", "4")
    driver.find_element(By.ID, "preview-button").click()  # fetched and shown in place
    wait(driver).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#repeat-preview time")) > 0)
    seen["preview"] = [
        t.get_attribute("datetime")
        for t in driver.find_elements(By.CSS_SELECTOR, "#repeat-preview time")
    ]
    driver.set_window_size(1280, 1600)  # the texts, the dates and the start of the builder
    driver.execute_script("window.scrollTo(0, 0)")
    screenshot(driver, "desk-editor")
    driver.set_window_size(1280, 1000)
    _save(driver, "publish")
    seen["flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    seen["edit_url"] = driver.current_url
    seen["errors"] = browser_errors(driver)
    return seen


def _change_one_date(driver: WebDriver, site: DeskSite, date_id: int) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.get(site.url(f"events/{date_id}/edit"))
    seen["scope"] = driver.find_element(By.CSS_SELECTOR, "input[name=scope]:checked").get_attribute(
        "value"
    )
    assert_accessible(driver, "editor (a date of a series)")
    _type(driver, "title", "Riverside Jazz: guest band")
    _set(driver, "start_time", "20:00")
    _set(driver, "end_time", "22:00")
    _save(driver, "publish")
    seen["flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    driver.get(f"{site.base}/events/month/{START:%Y-%m}/")
    seen["month"] = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "main td li a")]
    return seen


async def test_create_a_weekly_event_and_change_one_date(
    desk_site: DeskSite, desk_browser: WebDriver, tmp_path: Path
) -> None:
    image = tmp_path / "stage.png"
    image.write_bytes(picture("PNG"))
    with _api(desk_site) as api:
        category = api.post("/categories", json={"name": "Concerts"}).json()["id"]
    seen = await asyncio.to_thread(_create_weekly_event, desk_browser, desk_site, image, category)
    assert seen["errors"] == []  # nothing refused by the CSP, no script error
    assert seen["toolbar"][:2] == ["Bold", "Italic"]
    assert [stamp[:10] for stamp in seen["preview"]] == [
        (START + timedelta(weeks=n)).isoformat() for n in range(4)
    ]
    assert seen["flash"] == "Published."
    series_id = int(seen["edit_url"].rstrip("/").split("/")[-2])
    with _api(desk_site) as api:
        body = api.get(f"/events/{series_id}").json()
        dates = api.get("/events", params={"post_parent": series_id}).json()["events"]
    assert body["title"] == "Riverside Jazz"
    assert "<b>Free entry</b>" in body["description"] or "<strong>Free entry" in body["description"]
    assert body["venue"]["venue"] == "Old Market Hall"
    assert [o["organizer"] for o in body["organizer"]] == ["Jazz Club", "City Culture"]
    assert [c["name"] for c in body["categories"]] == ["Concerts"]
    assert body["image"]["alt"] == "The band on the riverside stage"
    assert body["recurrence"] == ["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=4"]
    assert len(dates) == 4

    changed = await asyncio.to_thread(_change_one_date, desk_browser, desk_site, dates[2]["id"])
    assert changed["scope"] == "this"
    assert changed["flash"] == "Saved."  # published already: an update
    assert changed["month"].count("Riverside Jazz") == 3
    assert changed["month"].count("Riverside Jazz: guest band") == 1
    with _api(desk_site) as api:
        moved = api.get(f"/events/{dates[2]['id']}").json()
    assert moved["start_date"].endswith("20:00:00")


def _buttons(driver: WebDriver) -> list[str]:
    """The form's save buttons (not "Preview dates")."""
    buttons = driver.find_elements(By.CSS_SELECTOR, "button[name=action]")
    return [b.text for b in buttons if b.get_attribute("value") != "preview"]


def _review_then_publish(driver: WebDriver, site: DeskSite) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.delete_all_cookies()
    sign_in(driver, site, "contributor")
    driver.get(site.url("events/new"))
    seen["contributor_buttons"] = _buttons(driver)
    _type(driver, "title", "Poetry evening")
    driver.find_element(By.ID, "venue-search").send_keys("Cellar")  # the API, as you type
    wait(driver).until(
        lambda d: (
            Select(d.find_element(By.ID, "venue")).first_selected_option.text == "Poetry Cellar"
        )
    )
    _set(driver, "start_day", START.isoformat())
    _set(driver, "end_day", START.isoformat())
    _save(driver, "review")
    seen["event_id"] = int(driver.current_url.rstrip("/").split("/")[-2])
    sign_out(driver)
    sign_in(driver, site, "editor")
    driver.get(site.url(f"events/{seen['event_id']}/edit"))
    seen["editor_buttons"] = _buttons(driver)
    _save(driver, "publish")
    seen["flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    return seen


async def test_a_contributor_submits_for_review_and_an_editor_publishes(
    desk_site: DeskSite, desk_browser: WebDriver
) -> None:
    with _api(desk_site) as api:
        venue = api.post("/venues", json={"venue": "Poetry Cellar", "city": "Nitra"}).json()
    seen = await asyncio.to_thread(_review_then_publish, desk_browser, desk_site)
    assert seen["contributor_buttons"] == ["Save draft", "Submit for review"]
    assert seen["editor_buttons"] == ["Save", "Publish"]
    assert seen["flash"] == "Published."
    with _api(desk_site) as api:
        body = api.get(f"/events/{seen['event_id']}").json()
    assert body["status"] == "publish"
    assert body["venue"]["id"] == venue["id"]


# Whether the page's beforeunload handler asks to stay (it cancels the event).
LEAVING = (
    "var e = new Event('beforeunload', {cancelable: true});"
    "window.dispatchEvent(e); return e.defaultPrevented;"
)


def _two_windows(driver: WebDriver, site: DeskSite, event_id: int) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.delete_all_cookies()
    sign_in(driver, site, "editor")
    edit = site.url(f"events/{event_id}/edit")
    driver.get(edit)
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(edit)
    _type(driver, "title", "Title from the second window")
    _save(driver, "save")
    driver.close()
    driver.switch_to.window(first)
    _type(driver, "title", "Title from the first window")
    _type(driver, "excerpt", "An excerpt nobody else wrote")
    _save(driver, "save")
    seen["alert"] = driver.find_element(By.ID, "editor-problem").text
    seen["theirs"] = driver.find_element(By.CSS_SELECTOR, ".desk-conflict-theirs").text
    seen["mine"] = driver.find_element(By.ID, "title").get_attribute("value")
    seen["excerpt"] = driver.find_element(By.ID, "excerpt").get_attribute("value")
    _save(driver, "save")  # again, deliberately
    seen["flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    # Unsaved changes: leaving asks first (ChromeDriver answers the browser's own dialog
    # itself, so the page's beforeunload handler is asked directly).
    seen["leave_unchanged"] = driver.execute_script(LEAVING)
    _type(driver, "title", "Not saved")
    seen["leave_changed"] = driver.execute_script(LEAVING)
    return seen


async def test_two_windows_the_second_save_shows_the_conflict_and_loses_nothing(
    desk_site: DeskSite, desk_browser: WebDriver
) -> None:
    with _api(desk_site) as api:
        created = api.post(
            "/events",
            json={
                "title": "Open rehearsal",
                "start_date": f"{START} 18:00",
                "end_date": f"{START} 19:00",
            },
        )
    event_id = created.json()["id"]
    seen = await asyncio.to_thread(_two_windows, desk_browser, desk_site, event_id)
    assert "Someone else saved this event" in seen["alert"]
    assert seen["theirs"] == "Title from the second window"
    assert seen["mine"] == "Title from the first window"
    assert seen["excerpt"] == "An excerpt nobody else wrote"
    assert seen["flash"] == "Saved."
    assert (seen["leave_unchanged"], seen["leave_changed"]) == (False, True)
    with _api(desk_site) as api:
        body = api.get(f"/events/{event_id}").json()
    assert body["title"] == "Title from the first window"
    assert "An excerpt nobody else wrote" in body["excerpt"]


# ---- issue 42: saves an editor can trust --------------------------------------------------

WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def _thursday() -> date:
    """A Thursday some weeks ahead; a Wednesday on a Thursday, so that the start's weekday
    is never the day the page was opened (the default it must not keep)."""
    wanted = 2 if date.today().weekday() == 3 else 3
    day = date.today() + timedelta(days=14)
    return day + timedelta(days=(wanted - day.weekday()) % 7)


THURSDAY = _thursday()


def _ticked(driver: WebDriver) -> list[str]:
    boxes = driver.find_elements(By.CSS_SELECTOR, "input[name=repeat_weekdays]")
    return [str(b.get_attribute("value")) for b in boxes if b.is_selected()]


def _fill_weekly(driver: WebDriver, title: str) -> None:
    _type(driver, "title", title)
    for field in ("start_day", "end_day"):
        _set(driver, field, THURSDAY.isoformat())
    Select(driver.find_element(By.ID, "repeat")).select_by_value("weekly")
    driver.find_element(By.ID, "repeat-ends-after").click()
    _type(driver, "repeat_count", "4")


def _series_of(site: DeskSite, series_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    with _api(site) as api:
        body = api.get(f"/events/{series_id}").json()
        dates = api.get("/events", params={"post_parent": series_id}).json()["events"]
    return body, dates


def _photo_weekly_and_one_date(
    driver: WebDriver, site: DeskSite, photo: Path, too_big: Path
) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    browser_errors(driver)  # the console's messages of earlier tests: read and dropped
    driver.delete_all_cookies()
    sign_in(driver, site, "contributor")  # the editor is a contributor's only way to upload
    driver.get(site.url("events/new"))
    seen["ticked_before"] = _ticked(driver)
    _fill_weekly(driver, "Thursday choir")
    seen["ticked_after"] = _ticked(driver)  # the start's weekday, not today's
    driver.find_element(By.ID, "image_file").send_keys(str(too_big))
    error = driver.find_element(By.ID, "image_file-error")
    wait(driver).until(lambda d: error.is_displayed())
    seen["too_big"] = error.text
    seen["title_kept"] = driver.find_element(By.ID, "title").get_attribute("value")
    assert_accessible(driver, "editor (a file over the limit)")
    driver.find_element(By.ID, "image_file").send_keys(str(photo))
    seen["error_after"] = error.is_displayed()
    _type(driver, "image_alt", "The choir on stage")
    _save(driver, "review")
    seen["flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    seen["series_id"] = int(driver.current_url.rstrip("/").split("/")[-2])
    seen["errors"] = browser_errors(driver)

    # An editor publishes it, then reaches and edits one date from the series' editor.
    sign_out(driver)
    sign_in(driver, site, "editor")
    driver.get(site.url(f"events/{seen['series_id']}/edit"))
    _save(driver, "publish")
    seen["published"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    seen["public_link"] = driver.find_element(By.CSS_SELECTOR, ".desk-public-link a").get_attribute(
        "href"
    )
    assert_accessible(driver, "editor (a series, its dates listed)")
    section = driver.find_element(By.ID, "series-dates")
    links = section.find_elements(By.CSS_SELECTOR, "li a")
    seen["listed"] = [a.find_element(By.TAG_NAME, "time").get_attribute("datetime") for a in links]
    last = str(links[-1].get_attribute("href")).rstrip("/").split("/")[-2]
    old = driver.find_element(By.TAG_NAME, "html")
    links[1].click()
    wait(driver).until(page_replaced(old))
    seen["one_date_url"] = driver.current_url
    seen["one_date_heading"] = driver.find_element(By.ID, "one-date").text
    assert_accessible(driver, "editor (one date, its heading)")
    _type(driver, "title", "Thursday choir: open rehearsal")
    _set(driver, "start_time", "20:00")
    _set(driver, "end_time", "22:00")
    _save(driver, "publish")
    seen["one_date_flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    with _api(site) as api:  # the last date cancelled (an EXDATE)
        assert api.delete(f"/events/{last}").status_code == 200
    driver.find_element(By.CSS_SELECTOR, "#one-date a").click()  # back to the series
    wait(driver).until(lambda d: d.find_elements(By.ID, "series-dates"))
    seen["marks"] = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#series-dates li")]
    assert_accessible(driver, "editor (a series with a changed, a moved and a cancelled date)")
    driver.set_window_size(1280, 640)
    driver.execute_script("document.getElementById('series-dates').scrollIntoView()")
    screenshot(driver, "desk-series-dates")
    driver.set_window_size(1280, 1000)
    return seen


async def test_a_3_mb_photo_weekly_from_a_thursday_and_one_date_from_the_series_editor(
    desk_site: DeskSite, desk_browser: WebDriver, tmp_path: Path
) -> None:
    photo = tmp_path / "phone.jpg"
    photo.write_bytes(noise_jpeg((1800, 1450)))  # a phone photo: 3 MB of noise
    assert 3_000_000 < photo.stat().st_size < 10_485_760
    too_big = tmp_path / "camera.jpg"
    too_big.write_bytes(noise_jpeg((3000, 3000)))
    assert too_big.stat().st_size > 10_485_760
    seen = await asyncio.to_thread(
        _photo_weekly_and_one_date, desk_browser, desk_site, photo, too_big
    )
    weekday = WEEKDAY_CODES[THURSDAY.weekday()]
    assert seen["ticked_before"] == [WEEKDAY_CODES[date.today().weekday()]]
    assert seen["ticked_after"] == [weekday]
    assert "10 MB" in seen["too_big"]
    assert seen["title_kept"] == "Thursday choir"
    assert seen["error_after"] is False
    assert seen["flash"] == "Sent for review."
    assert seen["errors"] == []
    body, dates = _series_of(desk_site, seen["series_id"])  # the last date since cancelled
    assert body["recurrence"][0] == f"RRULE:FREQ=WEEKLY;BYDAY={weekday};COUNT=4"
    thursdays = [(THURSDAY + timedelta(weeks=n)).isoformat() for n in range(4)]
    assert [stamp[:10] for stamp in seen["listed"]] == thursdays  # as saved: four
    assert [d["start_date"][:10] for d in dates] == thursdays[:3]
    assert body["image"]["alt"] == "The choir on stage"
    assert seen["published"] == "Published."
    assert seen["public_link"] == body["url"]
    assert seen["one_date_url"].endswith(f"/desk/events/{dates[1]['id']}/edit")
    assert "One date of a series" in seen["one_date_heading"]
    assert str((THURSDAY + timedelta(weeks=1)).day) in seen["one_date_heading"]
    assert seen["one_date_flash"] == "Saved."  # published already: an update
    assert len(seen["marks"]) == 4
    assert "changed on its own" in seen["marks"][1]
    assert "moved" in seen["marks"][1]
    assert "changed on its own" not in seen["marks"][0]
    assert "cancelled" in seen["marks"][3]
    with _api(desk_site) as api:
        assert api.get(f"/events/{dates[1]['id']}").json()["title"] == (
            "Thursday choir: open rehearsal"
        )
        assert api.get(f"/events/{dates[2]['id']}").json()["title"] == "Thursday choir"


def _refusals(driver: WebDriver, site: DeskSite, too_big: Path) -> dict[str, Any]:
    """The editor's refused forms, as shown: a file over the image limit that the script
    did not stop (its limit taken off the page), an end before the start."""
    seen: dict[str, Any] = {}
    driver.delete_all_cookies()
    sign_in(driver, site, "editor")
    driver.get(site.url("events/new"))
    _type(driver, "title", "Refused")
    file = driver.find_element(By.ID, "image_file")
    driver.execute_script("arguments[0].removeAttribute('data-max-bytes')", file)
    file.send_keys(str(too_big))
    _save(driver, "save")
    seen["too_big"] = driver.find_element(By.ID, "image_file-error").text
    assert_accessible(driver, "editor (a form too large to be read)")
    _type(driver, "title", "Refused")
    _set(driver, "start_day", START.isoformat())
    _set(driver, "end_day", (START - timedelta(days=1)).isoformat())
    _save(driver, "save")
    seen["refused"] = driver.find_element(By.ID, "end_day-error").text
    seen["summary"] = driver.find_element(By.ID, "editor-problem").text
    assert_accessible(driver, "editor (a refusal at its field)")
    return seen


async def test_refusals_are_said_at_their_fields(
    desk_site: DeskSite, desk_browser: WebDriver, tmp_path: Path
) -> None:
    too_big = tmp_path / "camera.jpg"
    too_big.write_bytes(b"\xff\xd8" + bytes(12_000_000))
    seen = await asyncio.to_thread(_refusals, desk_browser, desk_site, too_big)
    assert "10 MB" in seen["too_big"]
    assert seen["refused"] == "End date is before the start date."
    assert "End date" in seen["summary"]
    assert "end_date" not in seen["summary"]


def _back_and_save_again(driver: WebDriver, site: DeskSite) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.delete_all_cookies()
    sign_in(driver, site, "editor")
    driver.get(site.url("events/new"))
    _type(driver, "title", "Saved once")
    for field in ("start_day", "end_day"):
        _set(driver, field, START.isoformat())
    _save(driver, "save")
    seen["first"] = driver.current_url
    old = driver.find_element(By.TAG_NAME, "html")
    driver.back()
    wait(driver).until(page_replaced(old))
    seen["back_at"] = driver.current_url
    seen["title_after_back"] = driver.find_element(By.ID, "title").get_attribute("value")
    if not seen["title_after_back"]:  # the browser kept nothing: the person types again
        _type(driver, "title", "Saved once")
        for field in ("start_day", "end_day"):
            _set(driver, field, START.isoformat())
    _save(driver, "save")
    seen["second"] = driver.current_url
    seen["flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    return seen


async def test_back_after_saving_and_saving_again_makes_one_event(
    desk_site: DeskSite, desk_browser: WebDriver
) -> None:
    with _api(desk_site) as api:
        before = int(api.get("/events", params={"status": "any"}).headers["x-wp-total"])
    seen = await asyncio.to_thread(_back_and_save_again, desk_browser, desk_site)
    assert "/desk/events/new?form=" in seen["back_at"]
    assert seen["second"] == seen["first"]
    assert seen["flash"] == "This form was saved already."
    with _api(desk_site) as api:
        found = api.get("/events", params={"status": "any", "search": "Saved once"}).json()
        after = int(api.get("/events", params={"status": "any"}).headers["x-wp-total"])
    assert [e["title"] for e in found["events"]] == ["Saved once"]
    assert after == before + 1


def _weekly_without_scripts(site: DeskSite) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver = headless_chromium(scripts=False)
    try:
        sign_in(driver, site, "editor")
        driver.get(site.url("events/new"))
        seen["scripts"] = driver.find_element(By.ID, "description-help").text
        seen["ticked_before"] = _ticked(driver)
        _fill_weekly(driver, "Thursday choir, no scripts")
        seen["ticked_unchanged"] = _ticked(driver)  # no script: the page cannot follow
        old = driver.find_element(By.TAG_NAME, "html")
        driver.find_element(By.ID, "preview-button").click()  # the whole form, sent
        wait(driver).until(page_replaced(old))
        seen["ticked_preview"] = _ticked(driver)  # the server's form: the start's weekday
        seen["preview"] = [
            t.get_attribute("datetime")
            for t in driver.find_elements(By.CSS_SELECTOR, "#repeat-preview time")
        ]
        _save(driver, "publish")
        seen["series_id"] = int(driver.current_url.rstrip("/").split("/")[-2])
        seen["flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    finally:
        driver.quit()
    return seen


def _weekly_saved_without_preview(site: DeskSite, too_big: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver = headless_chromium(scripts=False)
    try:
        sign_in(driver, site, "editor")
        driver.get(site.url("events/new"))
        _fill_weekly(driver, "Thursday choir, saved at once")
        # A camera file over the image limit: no script stops it, the server's page says so.
        driver.find_element(By.ID, "image_file").send_keys(str(too_big))
        _save(driver, "save")
        seen["too_big"] = driver.find_element(By.ID, "image_file-error").text
        seen["too_big_alert"] = driver.find_element(By.ID, "editor-problem").text
        _fill_weekly(driver, "Thursday choir, saved at once")
        _save(driver, "save")
        seen["series_id"] = int(driver.current_url.rstrip("/").split("/")[-2])
    finally:
        driver.quit()
    return seen


async def test_weekly_from_a_thursday_start_without_scripts(
    desk_site: DeskSite, tmp_path: Path
) -> None:
    seen = await asyncio.to_thread(_weekly_without_scripts, desk_site)
    weekday = WEEKDAY_CODES[THURSDAY.weekday()]
    today = WEEKDAY_CODES[date.today().weekday()]
    assert seen["ticked_before"] == seen["ticked_unchanged"] == [today]
    assert seen["ticked_preview"] == [weekday]
    assert [stamp[:10] for stamp in seen["preview"]] == [
        (THURSDAY + timedelta(weeks=n)).isoformat() for n in range(4)
    ]
    assert seen["flash"] == "Published."
    body, dates = _series_of(desk_site, seen["series_id"])
    assert body["recurrence"] == [f"RRULE:FREQ=WEEKLY;BYDAY={weekday};COUNT=4"]
    assert len(dates) == 4
    too_big = tmp_path / "camera.jpg"
    too_big.write_bytes(b"\xff\xd8" + bytes(12_000_000))  # over the image limit and its room
    seen = await asyncio.to_thread(_weekly_saved_without_preview, desk_site, too_big)
    assert "10 MB" in seen["too_big"]
    assert "nothing was saved" in seen["too_big_alert"]
    body, dates = _series_of(desk_site, seen["series_id"])
    assert body["recurrence"] == [f"RRULE:FREQ=WEEKLY;BYDAY={weekday};COUNT=4"]
    assert [d["start_date"][:10] for d in dates] == [
        (THURSDAY + timedelta(weeks=n)).isoformat() for n in range(4)
    ]
