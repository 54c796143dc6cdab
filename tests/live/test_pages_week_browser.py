"""The week view in a real browser: Debian's headless Chromium against a real `almanac
serve` (tests/live/desk_harness.py), with and without JavaScript. At 1280 px the days are
seven columns on a time grid: a timed event's box lies at its hours (overlapping ones side
by side), all-day and multi-day events are bars over their days' columns in a band above the
grid; at 375 px the same page is a list of the seven days, each with its all-day events
first, nothing wider than the screen. axe-core finds no WCAG 2.2 A/AA violation at either
width (with scripts on: axe is one); the previous and next week are reached by keyboard.

`ALMANAC_SCREENSHOTS=docs/img` writes docs/img/week.png and week-phone.png."""

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.live.desk_harness import (
    assert_accessible,
    browser_errors,
    headless_chromium,
    screenshot,
    wait,
)
from tests.live.harness import add_user, almanac_server, fresh_database

API = "/calendar/events/v1"
_AHEAD = datetime.now(UTC).date() + timedelta(days=14)
MONDAY = _AHEAD - timedelta(days=_AHEAD.weekday())  # the first weekday of English


def on(offset: int, clock: str) -> str:
    return f"{(MONDAY + timedelta(days=offset)).isoformat()} {clock}:00"


EVENTS: list[dict[str, Any]] = [
    {"title": "Morning Yoga", "start_date": on(1, "09:00"), "end_date": on(1, "10:00")},
    {"title": "Coffee Talk", "start_date": on(1, "09:30"), "end_date": on(1, "11:00")},
    {"title": "Film Night", "start_date": on(1, "19:00"), "end_date": on(1, "21:00")},
    {"title": "Chess Club", "start_date": on(3, "14:00"), "end_date": on(3, "16:00")},
    {"title": "Harvest Festival", "start_date": on(2, "10:00"), "end_date": on(4, "18:00")},
    {
        "title": "Flea Market",
        "start_date": on(5, "00:00"),
        "end_date": on(5, "23:59"),
        "all_day": True,
    },
]


@pytest.fixture(scope="module")
async def site(database_url: str) -> AsyncIterator[str]:
    async with fresh_database(database_url, "almanac_pages_week_browser", migrated=True) as url:
        _, password = await add_user(url, "week-editor", "editor")
        async with almanac_server(url, SITE_NAME="Riverside Calendar") as base:
            async with httpx.AsyncClient(timeout=30) as client:
                for body in EVENTS:
                    answer = await client.post(
                        f"{base}{API}/events", json=body, auth=("week-editor", password)
                    )
                    assert answer.status_code == 201, answer.text
            yield base


@pytest.fixture(scope="module", params=[True, False], ids=["scripts", "no scripts"])
def browser(request: pytest.FixtureRequest) -> Iterator[tuple[WebDriver, bool]]:
    driver = headless_chromium(scripts=request.param)
    try:
        yield driver, request.param
    finally:
        driver.quit()


def _box(driver: WebDriver, text: str) -> dict[str, float]:
    """The rectangle of the list item holding the link `text` (as shown: the band's bar or
    the grid's box, whichever is displayed)."""
    items = driver.find_elements(By.XPATH, f"//li[a[contains(normalize-space(), '{text}')]]")
    shown = [item for item in items if item.is_displayed()]
    assert len(shown) >= 1, text
    rect: dict[str, float] = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width};",
        shown[0],
    )
    return rect


def _look(driver: WebDriver, base: str, scripts: bool) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.set_window_size(1280, 1000)
    driver.get(f"{base}/events/week/{MONDAY.isoformat()}/")
    seen["heading"] = driver.find_element(By.TAG_NAME, "h1").text
    columns = driver.find_elements(By.CSS_SELECTOR, "li.week-day")
    seen["columns"] = [column.rect for column in columns]
    for title in ("Morning Yoga", "Coffee Talk", "Film Night", "Chess Club"):
        seen[title] = _box(driver, title)
    seen["festival"] = _box(driver, "Harvest Festival")
    seen["flea"] = _box(driver, "Flea Market")
    times = driver.find_element(By.CSS_SELECTOR, ".week-times")
    seen["grid_top"] = times.rect["y"]
    seen["hour_rows"] = len(driver.find_elements(By.CSS_SELECTOR, ".week-hours li"))
    if scripts:
        screenshot(driver, "week")
        # axe runs as a script of the page: with scripts on (the week's markup and styles
        # are the same without them: it has no script of its own).
        assert_accessible(driver, "week")
    driver.set_window_size(375, 812)
    wait(driver).until(lambda d: d.execute_script("return window.innerWidth") <= 375)
    if scripts:
        driver.execute_script("document.querySelector('.week').scrollIntoView()")
        screenshot(driver, "week-phone")
    seen["phone_days"] = [
        (day.rect["x"], day.rect["y"], day.rect["width"])
        for day in driver.find_elements(By.CSS_SELECTOR, "li.week-day")
    ]
    seen["phone_band_shown"] = driver.find_element(By.CSS_SELECTOR, ".week-band").is_displayed()
    seen["phone_heading"] = driver.find_elements(By.CSS_SELECTOR, "li.week-day h2")[0].text
    seen["phone_all_day"] = [
        item.text
        for item in driver.find_elements(By.CSS_SELECTOR, ".week-all-day li")
        if item.is_displayed()
    ]
    seen["phone_empty"] = [
        item.text
        for item in driver.find_elements(By.CSS_SELECTOR, "li.week-day .none")
        if item.is_displayed()
    ]
    seen["phone_scroll_width"] = driver.execute_script(
        "return document.documentElement.scrollWidth"
    )
    driver.set_window_size(1280, 1000)
    # By keyboard: to the next week and back.
    following = driver.find_element(By.CSS_SELECTOR, "nav.pager a[rel=next]")
    following.send_keys(Keys.ENTER)
    wait(driver).until(lambda d: "/events/week/" in d.current_url and MONDAY.isoformat() not in d.current_url)  # fmt: skip
    seen["next_url"] = driver.current_url
    seen["next_empty"] = len(driver.find_elements(By.CSS_SELECTOR, ".week-times li"))
    driver.find_element(By.CSS_SELECTOR, "nav.pager a[rel=prev]").send_keys(Keys.ENTER)
    wait(driver).until(lambda d: MONDAY.isoformat() in d.current_url)
    seen["back"] = driver.find_element(By.TAG_NAME, "h1").text
    seen["errors"] = browser_errors(driver)
    return seen


async def test_the_week_on_a_desktop_and_a_phone(
    site: str, browser: tuple[WebDriver, bool]
) -> None:
    driver, scripts = browser
    seen = await asyncio.to_thread(_look, driver, site, scripts)
    assert seen["heading"].endswith(str((MONDAY + timedelta(days=6)).year))
    columns = seen["columns"]
    assert len(columns) == 7
    width = columns[0]["width"]
    assert all(abs(column["width"] - width) < 2 for column in columns)
    assert [column["x"] for column in columns] == sorted(column["x"] for column in columns)
    yoga, coffee = seen["Morning Yoga"], seen["Coffee Talk"]
    film, chess = seen["Film Night"], seen["Chess Club"]
    # Tuesday's column; side by side while they overlap; an hour is four rows of the grid.
    assert columns[1]["x"] - 1 <= yoga["left"] < coffee["left"] < columns[2]["x"]
    assert yoga["right"] <= coffee["left"] + 1
    hour = (film["top"] - yoga["top"]) / 10  # 09:00 to 19:00
    assert hour > 40
    assert abs((yoga["bottom"] - yoga["top"]) - hour) < 3
    assert abs((coffee["top"] - yoga["top"]) - hour / 2) < 3
    assert film["width"] > 1.5 * yoga["width"]  # alone in the evening: the whole day
    assert columns[3]["x"] - 1 <= chess["left"] < columns[4]["x"]
    assert abs((chess["top"] - yoga["top"]) - 5 * hour) < 5
    # The band: the festival over Wednesday to Friday, the market on Saturday, above the
    # grid's first hour.
    festival, flea = seen["festival"], seen["flea"]
    assert abs(festival["left"] - columns[2]["x"]) < 6
    assert abs(festival["right"] - (columns[4]["x"] + width)) < 6
    assert abs(flea["left"] - columns[5]["x"]) < 6
    assert festival["bottom"] <= seen["grid_top"] + 1
    assert flea["bottom"] <= seen["grid_top"] + 1
    assert seen["hour_rows"] == 13  # 08:00 to 21:00 (the film's end)
    # The phone: seven days one under another, the full width, nothing wider.
    days = seen["phone_days"]
    assert len(days) == 7
    assert [y for _, y, _ in days] == sorted(y for _, y, _ in days)
    assert len({x for x, _, _ in days}) == 1
    assert not seen["phone_band_shown"]
    assert seen["phone_heading"].startswith("Monday, ")
    assert [text.split(" ")[0] for text in seen["phone_all_day"]] == [
        "Harvest", "Harvest", "Harvest", "Flea"
    ]  # fmt: skip
    assert seen["phone_empty"] == ["No events", "No events"]  # Monday and Sunday
    assert seen["phone_scroll_width"] <= 375
    assert (MONDAY + timedelta(days=7)).isoformat() in seen["next_url"]
    assert seen["next_empty"] == 0
    assert seen["back"] == seen["heading"]
    assert seen["errors"] == []
