"""The desk's Events and Trash screens in headless Chromium against a real server
(tests/live/desk_harness.py): the table filtered through its form, a bulk publish of the
review queue, a restore from the trash, and axe-core on both screens at desktop width and
375 px (the Users screen's is in test_desk_browser_base.py). `ALMANAC_SCREENSHOTS=docs/img`
writes docs/img/desk-events.png."""

import asyncio
from typing import Any

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from tests.live.desk_harness import (
    DeskSite,
    assert_accessible,
    browser_errors,
    screenshot,
    sign_in,
    wait,
)

API = "/calendar/events/v1"


async def _seed(site: DeskSite) -> dict[str, int]:
    """Events of several people through the API: some published, two waiting for review,
    one trashed."""
    ids: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=site.base, timeout=60) as client:

        async def post(role: str, path: str, body: dict[str, Any]) -> int:
            answer = await client.post(f"{API}{path}", json=body, auth=site.api_auth(role))
            assert answer.status_code == 201, answer.text
            return int(answer.json()["id"])

        jazz = await post("editor", "/categories", {"name": "Jazz"})
        hall = await post("editor", "/venues", {"venue": "Riverside Hall", "city": "Bratislava"})
        events = [
            ("editor", "Jazz on the river", "2027-05-14 20:00:00", {"categories": [jazz]}),
            ("editor", "Spring market", "2027-04-03 09:00:00", {}),
            ("author", "Poetry evening", "2027-04-20 19:00:00", {}),
            ("contributor", "Children's theatre", "2027-06-01 15:00:00", {"status": "pending"}),
            ("contributor", "Jazz workshop", "2027-06-08 15:00:00", {"status": "pending"}),
            ("editor", "Cancelled gala", "2027-03-01 19:00:00", {}),
        ]
        for role, title, start, extra in events:
            body = {"title": title, "start_date": start, "end_date": f"{start[:10]} 22:00:00"}
            ids[title] = await post(role, "/events", {"venue": hall, **body, **extra})
        gone = await client.delete(
            f"{API}/events/{ids['Cancelled gala']}", auth=site.api_auth("editor")
        )
        assert gone.status_code == 200
    return ids


async def _status(site: DeskSite, event_id: int) -> str:
    async with httpx.AsyncClient(base_url=site.base, timeout=60) as client:
        answer = await client.get(
            f"{API}/events",
            params={"include": event_id, "status": "publish,pending,draft,trash"},
            auth=site.api_auth("editor"),
        )
    events = answer.json()["events"]
    return str(events[0]["status"]) if events else "none"


def _rows(driver: WebDriver) -> list[str]:
    return [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "table tbody th")]


def _editor_session(driver: WebDriver, site: DeskSite) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.delete_all_cookies()
    sign_in(driver, site, "editor", "events/")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table tbody th"))
    seen["all"] = _rows(driver)
    seen["queue_tab"] = driver.find_element(By.PARTIAL_LINK_TEXT, "Waiting for review").text
    screenshot(driver, "desk-events")
    assert_accessible(driver, "events")
    # The filter form: a search word and a category, sent as GET parameters.
    driver.find_element(By.ID, "filter-search").send_keys("jazz")
    Select(driver.find_element(By.ID, "filter-categories")).select_by_visible_text("Jazz")
    driver.find_element(By.CSS_SELECTOR, "form.desk-filters button[type=submit]").click()
    wait(driver).until(lambda d: "search=jazz" in d.current_url)
    seen["filtered"] = _rows(driver)
    seen["filtered_url"] = driver.current_url
    # The review queue: select both, publish them.
    driver.find_element(By.PARTIAL_LINK_TEXT, "Waiting for review").click()
    wait(driver).until(lambda d: "status=pending" in d.current_url)
    seen["queue"] = sorted(_rows(driver))
    for box in driver.find_elements(By.CSS_SELECTOR, "input[name=ids]"):
        box.click()
    Select(driver.find_element(By.ID, "bulk-action")).select_by_value("publish")
    driver.find_element(By.CSS_SELECTOR, "form.desk-bulk p button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"))
    seen["published_flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    seen["queue_after"] = _rows(driver)
    # The trash: restore the gala with its row's own button.
    driver.find_element(By.CSS_SELECTOR, "nav.screens").find_element(By.LINK_TEXT, "Trash").click()
    wait(driver).until(lambda d: d.current_url.endswith("/desk/trash/"))
    seen["trash"] = _rows(driver)
    assert_accessible(driver, "trash")
    driver.find_element(
        By.XPATH, "//tr[th='Cancelled gala']//button[starts-with(., 'Restore')]"
    ).click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"))
    seen["restored_flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    seen["errors"] = browser_errors(driver)
    return seen


async def test_filter_bulk_publish_and_restore(
    desk_site: DeskSite, desk_browser: WebDriver
) -> None:
    ids = await _seed(desk_site)
    seen = await asyncio.to_thread(_editor_session, desk_browser, desk_site)
    assert set(seen["all"]) == set(ids) - {"Cancelled gala"}
    assert seen["queue_tab"] == "Waiting for review (2)"
    assert seen["filtered"] == ["Jazz on the river"]
    assert "categories=" in seen["filtered_url"]
    assert seen["queue"] == ["Children's theatre", "Jazz workshop"]
    assert seen["published_flash"] == "2 events published."
    assert seen["queue_after"] == []
    assert await _status(desk_site, ids["Jazz workshop"]) == "publish"
    assert (
        seen["trash"] == ["Cancelled gala", "Riverside Hall"] or "Cancelled gala" in seen["trash"]
    )
    assert seen["restored_flash"] == "1 item restored as a draft."
    assert await _status(desk_site, ids["Cancelled gala"]) == "draft"
    assert seen["errors"] == []
