"""Issue 42's second pass in headless Chromium against a real server: the desk's Events
table with its Duplicate buttons and a series expanded into its dates, the home's counts, a
duplicate made with the keyboard from the table and from the editor; the public pages as a
signed-in editor sees them (what visitors would not see marked), a search kept across
views, the phone's month list and the 404 page - axe-core clean at desktop width and
375 px on each."""

import asyncio
from typing import Any

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.live.desk_harness import (
    DeskSite,
    assert_accessible,
    browser_errors,
    sign_in,
    wait,
)

API = "/calendar/events/v1"


async def _seed(site: DeskSite) -> dict[str, dict[str, Any]]:
    made: dict[str, dict[str, Any]] = {}
    async with httpx.AsyncClient(base_url=site.base, timeout=60) as client:

        async def post(title: str, start: str, **extra: Any) -> None:
            body = {"title": title, "start_date": start, "end_date": f"{start[:10]} 22:00:00"}
            answer = await client.post(
                f"{API}/events", json={**body, **extra}, auth=site.api_auth("editor")
            )
            assert answer.status_code == 201, answer.text
            made[title] = answer.json()

        hall = await client.post(
            f"{API}/venues", json={"venue": "Riverside Hall"}, auth=site.api_auth("editor")
        )
        await post("Harbour concert", "2027-05-14 20:00:00", venue=hall.json()["id"])
        await post("Rehearsal", "2027-05-15 18:00:00", status="draft", venue=hall.json()["id"])
        await post("Submitted talk", "2027-05-16 18:00:00", status="pending")
        await post("Weekly choir", "2027-05-05 19:00:00", recurrence=["RRULE:FREQ=WEEKLY;COUNT=24"])
    return made


def _session(driver: WebDriver, site: DeskSite, made: dict[str, Any]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.delete_all_cookies()
    sign_in(driver, site, "editor")
    assert_accessible(driver, "home")
    seen["home"] = driver.find_element(By.CSS_SELECTOR, "ul.counts").text
    driver.get(site.url("events/"))
    assert_accessible(driver, "events with Duplicate")
    # A series expanded into its dates, paged.
    driver.find_element(By.PARTIAL_LINK_TEXT, "All dates").click()
    wait(driver).until(lambda d: "post_parent=" in d.current_url)
    seen["caption"] = driver.find_element(By.ID, "events-caption").text
    assert_accessible(driver, "a series' dates")
    # Duplicate from the table, with the keyboard.
    driver.get(site.url("events/"))
    button = driver.find_element(
        By.XPATH,
        "//tr[th//a[normalize-space()='Harbour concert']]//button[starts-with(., 'Duplicate')]",
    )
    button.send_keys(Keys.ENTER)
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"))
    seen["flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    seen["copy_url"] = driver.current_url
    assert_accessible(driver, "the copy's editor")
    # And from the editor.
    driver.find_element(By.XPATH, "//form[contains(@action, '/duplicate')]/button").click()
    wait(driver).until(lambda d: d.current_url != seen["copy_url"])
    seen["second_copy_url"] = driver.current_url
    # The public pages as the signed-in editor sees them.
    driver.get(f"{site.base}/events/month/2027-05/")
    seen["month_marks"] = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".unseen")]
    assert_accessible(driver, "month, signed in")
    driver.set_window_size(375, 812)
    seen["phone_day"] = driver.find_element(
        By.CSS_SELECTOR, "td:not(.other-month):has(ul) .in-list"
    ).text
    driver.set_window_size(1280, 1000)
    driver.get(made["Rehearsal"]["url"])
    seen["event_mark"] = driver.find_element(By.CSS_SELECTOR, "h1 .unseen").text
    assert_accessible(driver, "a draft's page, signed in")
    driver.get(f"{site.base}/events/month/?tribe-bar-search=concert&tribe-bar-date=2027-05-02")
    driver.find_element(By.CSS_SELECTOR, "nav.views").find_element(By.LINK_TEXT, "List").click()
    wait(driver).until(lambda d: "/events/list/" in d.current_url)
    seen["list_heading"] = driver.find_element(By.TAG_NAME, "h1").text
    assert_accessible(driver, "a search's list")
    driver.get(f"{site.base}/fr/events/list/")
    seen["missing_heading"] = driver.find_element(By.TAG_NAME, "h1").text
    assert_accessible(driver, "404")
    seen["errors"] = [e for e in browser_errors(driver) if "404" not in e]
    return seen


async def test_the_second_pass_screens_work_and_are_accessible(
    desk_site: DeskSite, desk_browser: WebDriver
) -> None:
    made = await _seed(desk_site)
    seen = await asyncio.to_thread(_session, desk_browser, desk_site, made)
    assert "2\nPublished" in seen["home"]  # the concert and the choir (a series once)
    assert seen["caption"].startswith("24 dates of a series, page 1 of 2")
    assert seen["flash"] == "A copy was made as a draft: this is the copy."
    assert seen["copy_url"].endswith("/edit")
    assert seen["second_copy_url"] != seen["copy_url"]
    assert seen["second_copy_url"].endswith("/edit")
    assert any(mark.startswith("Draft") for mark in seen["month_marks"])
    assert any(mark.startswith("Waiting for review") for mark in seen["month_marks"])
    assert seen["phone_day"].endswith("2027")
    assert seen["event_mark"].startswith("Draft")
    assert seen["list_heading"] == "Events matching “concert” from Sunday, May 2, 2027"
    assert seen["missing_heading"] == "Page not found"
    assert seen["errors"] == []
