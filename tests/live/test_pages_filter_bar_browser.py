"""The filter bar in headless Chromium against a real server (app/pages/filter_bar.py,
static/filter-bar.js): opened, ticked and applied by keyboard; with scripts, the view
changes without a reload (the same document, the address in the history, Back restoring
the view, the focus kept on the button, the live region saying so); without scripts, the
form's GET opens the filtered view; axe-core clean at 1280 and 375 px (the bar closed and
open, the view filtered)."""

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.live.desk_harness import (
    DeskSite,
    assert_accessible,
    browser_errors,
    chromium,
    headless_chromium,
    wait,
)

API = "/calendar/events/v1"
SOON = datetime.now(UTC).date() + timedelta(days=3)
LATE_MONTH = (SOON + timedelta(days=1)).strftime("%Y-%m")  # the late jazz's


async def _seed(site: DeskSite) -> dict[str, int]:
    auth = site.api_auth("editor")
    async with httpx.AsyncClient(base_url=site.base, timeout=60) as client:

        async def post(path: str, **body: Any) -> int:
            answer = await client.post(f"{API}/{path}", json=body, auth=auth)
            assert answer.status_code == 201, answer.text
            return int(answer.json()["id"])

        music = await post("categories", name="Music")
        jazz = await post("categories", name="Jazz", parent=music)
        hall = await post("venues", venue="Riverside Hall")
        for title, day, hour, fields in (
            ("Organ recital", 0, 10, {"categories": [music]}),
            ("Late jazz", 1, 22, {"categories": [jazz], "venue": hall}),
            ("Street market", 2, 9, {"cost": "Free"}),
        ):
            start = datetime.combine(SOON + timedelta(days=day), datetime.min.time())
            start += timedelta(hours=hour)
            end = start + timedelta(hours=1)
            await post(
                "events",
                title=title,
                start_date=f"{start:%Y-%m-%d %H:%M:%S}",
                end_date=f"{end:%Y-%m-%d %H:%M:%S}",
                **fields,
            )
    return {"jazz": jazz}


def _titles(driver: WebDriver) -> set[str]:
    main = driver.find_element(By.ID, "main")
    return {link.text for link in main.find_elements(By.CSS_SELECTOR, "article h2 a, article h3 a")}


def _tick_jazz_by_keyboard(driver: WebDriver, jazz: int) -> None:
    """Open the bar (its summary, Enter), Tab to the Jazz box, Space, then Enter on Apply."""
    summary = driver.find_element(By.CSS_SELECTOR, ".filter-bar summary")
    summary.send_keys(Keys.ENTER)
    wait(driver).until(
        lambda d: (
            d.find_element(By.CSS_SELECTOR, ".filter-bar details").get_attribute("open") is not None
        )
    )
    box = f'.filter-bar input[name="tribe_eventcategory[]"][value="{jazz}"]'
    for _ in range(10):  # the categories come first: Music, then Jazz under it
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.switch_to.active_element == driver.find_element(By.CSS_SELECTOR, box):
            break
    assert driver.switch_to.active_element == driver.find_element(By.CSS_SELECTOR, box)
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    button = driver.find_element(By.CSS_SELECTOR, ".filter-bar button[type=submit]")
    button.send_keys(Keys.ENTER)


def _with_scripts(driver: WebDriver, site: DeskSite, ids: dict[str, int]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.set_window_size(1280, 1000)
    driver.get(f"{site.base}/events/month/{LATE_MONTH}/")
    assert_accessible(driver, "the month with its bar")
    driver.get(f"{site.base}/events/list/")
    seen["all"] = _titles(driver)
    assert_accessible(driver, "the list with its bar")
    driver.execute_script("window.sameDocument = true")
    _tick_jazz_by_keyboard(driver, ids["jazz"])
    wait(driver).until(lambda d: "tribe_eventcategory" in d.current_url)
    wait(driver).until(lambda d: _titles(d) == {"Late jazz"})
    seen["same_document"] = driver.execute_script("return window.sameDocument === true")
    seen["focus"] = driver.switch_to.active_element.get_attribute("type")
    wait(driver).until(
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-filter-status]").get_attribute(
            "textContent"
        )
    )
    seen["status"] = driver.find_element(By.CSS_SELECTOR, "[data-filter-status]").get_attribute(
        "textContent"
    )
    seen["checked"] = driver.find_element(
        By.CSS_SELECTOR, f'.filter-bar input[name="tribe_eventcategory[]"][value="{ids["jazz"]}"]'
    ).is_selected()
    assert_accessible(driver, "the filtered list, bar open")
    # The view switcher keeps the filter.
    seen["month_link"] = (
        driver.find_element(By.CSS_SELECTOR, "nav.views")
        .find_element(By.LINK_TEXT, "Month")
        .get_attribute("href")
    )
    driver.back()
    wait(driver).until(lambda d: "tribe_eventcategory" not in d.current_url)
    wait(driver).until(lambda d: _titles(d) == seen["all"])
    seen["back_same_document"] = driver.execute_script("return window.sameDocument === true")
    seen["errors"] = browser_errors(driver)
    return seen


def _without_scripts(site: DeskSite, ids: dict[str, int]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver = headless_chromium(scripts=False)
    try:
        # axe runs as an asynchronous script, which a page without scripts never ends:
        # the HTML is the one the session with scripts checked (the script adds none).
        driver.get(f"{site.base}/events/month/{LATE_MONTH}/")
        _tick_jazz_by_keyboard(driver, ids["jazz"])
        wait(driver).until(lambda d: "tribe_eventcategory" in d.current_url)
        seen["url"] = driver.current_url
        seen["month_text"] = driver.find_element(By.ID, "main").text
    finally:
        driver.quit()
    return seen


async def test_the_filter_bar_by_keyboard_with_and_without_scripts(desk_site: DeskSite) -> None:
    ids = await _seed(desk_site)
    with chromium() as driver:
        seen = await asyncio.to_thread(_with_scripts, driver, desk_site, ids)
    assert seen["all"] == {"Organ recital", "Late jazz", "Street market"}
    assert seen["same_document"] is True  # no full reload
    assert seen["focus"] == "submit"
    assert seen["status"].startswith("The events shown were updated.")
    assert seen["checked"] is True
    assert f"tribe_eventcategory%5B%5D={ids['jazz']}" in seen["month_link"]
    assert seen["back_same_document"] is True
    assert seen["errors"] == []
    bare = await asyncio.to_thread(_without_scripts, desk_site, ids)
    assert f"/events/month/{LATE_MONTH}/?" in bare["url"]
    assert "Late jazz" in bare["month_text"]
    assert "Organ recital" not in bare["month_text"]
