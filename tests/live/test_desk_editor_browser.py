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
    page_replaced,
    screenshot,
    sign_in,
    sign_out,
    wait,
)
from tests.media_files import picture


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
    assert seen["flash"] == "Saved."
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
    assert changed["flash"] == "Saved."
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
    assert seen["flash"] == "Saved."
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
