"""The desk's venues, organizers, categories, tags and media in headless Chromium against a
real server (tests/live/desk_harness.py): a venue created with its German name, a category
with a parent, an image uploaded with a plain file input and given its alt text, and
axe-core (WCAG 2.1 AA) on every one of these screens at desktop width and at 375 px."""

import asyncio
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
    screenshot,
    sign_in,
    wait,
)
from tests.media_files import picture


def _type(driver: WebDriver, field_id: str, text: str) -> None:
    element = driver.find_element(By.ID, field_id)
    element.clear()
    element.send_keys(text)


def _save(driver: WebDriver, path_part: str) -> None:
    """Press the form's Save and wait for the editor the save leads to."""
    driver.find_element(By.CSS_SELECTOR, "main form:not(.danger-zone) button[type=submit]").click()
    wait(driver).until(lambda d: path_part in d.current_url and d.current_url.endswith("/edit"))


def _visit(driver: WebDriver, site: DeskSite, seen: dict[str, Any]) -> None:
    """Every screen of the area as an editor; what it showed goes to `seen`."""
    sign_in(driver, site, "editor")
    # A venue with its German name beside the English one.
    driver.get(site.url("venues/"))
    assert_accessible(driver, "venues")
    driver.get(site.url("venues/new"))
    assert_accessible(driver, "new venue")
    _type(driver, "f-venue", "Riverside Hall")
    _type(driver, "f-city", "Bratislava")
    _type(driver, "f-de-venue", "Flusshalle")
    _save(driver, "/desk/venues/")
    seen["venue_flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    seen["venue_heading"] = driver.find_element(By.TAG_NAME, "h1").text
    assert_accessible(driver, "venue editor")
    # Organizers.
    driver.get(site.url("organizers/"))
    assert_accessible(driver, "organizers")
    driver.get(site.url("organizers/new"))
    assert_accessible(driver, "new organizer")
    # A category below another, chosen in the parent select.
    driver.get(site.url("categories/new"))
    _type(driver, "f-name", "Music")
    _save(driver, "/desk/categories/")
    driver.get(site.url("categories/new"))
    Select(driver.find_element(By.ID, "f-parent")).select_by_visible_text("Music")
    _type(driver, "f-name", "Jazz")
    _save(driver, "/desk/categories/")
    assert_accessible(driver, "category editor")
    driver.get(site.url("categories/"))
    seen["tree"] = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "tbody th")]
    assert_accessible(driver, "categories")
    driver.get(site.url("tags/"))
    assert_accessible(driver, "tags")
    driver.get(site.url("tags/new"))
    assert_accessible(driver, "new tag")
    # An image: a plain file input, then its alt text on the editor it leads to.
    driver.get(site.url("media/"))
    driver.find_element(By.ID, "f-file").send_keys(seen["image_path"])
    driver.find_element(By.CSS_SELECTOR, "form.upload button[type=submit]").click()
    wait(driver).until(
        lambda d: "/desk/media/" in d.current_url and d.current_url.endswith("/edit")
    )
    _type(driver, "f-alt_text", "The river at dusk")
    _type(driver, "f-de-alt_text", "Der Fluss in der Dämmerung")
    _save(driver, "/desk/media/")
    seen["media_id"] = int(driver.current_url.rsplit("/", 2)[-2])
    assert_accessible(driver, "media editor")
    driver.get(site.url("media/"))
    seen["grid_alt"] = driver.find_element(By.CSS_SELECTOR, ".media-card img").get_attribute("alt")
    assert_accessible(driver, "media")
    seen["grid_title"] = driver.find_element(By.CSS_SELECTOR, ".media-card .media-title").text
    driver.set_window_size(1280, 1150)  # the upload form and the grid's first row
    screenshot(driver, "desk-media")
    driver.set_window_size(1280, 1000)
    seen["errors"] = browser_errors(driver)


async def test_venues_categories_and_media_in_a_browser(
    desk_site: DeskSite, desk_browser: WebDriver, tmp_path: Path
) -> None:
    image = tmp_path / "river.jpg"
    image.write_bytes(picture("JPEG", (640, 400)))
    seen: dict[str, Any] = {"image_path": str(image)}
    await asyncio.to_thread(_visit, desk_browser, desk_site, seen)
    assert seen["venue_flash"] == "Saved."
    assert seen["venue_heading"] == "Edit venue: Riverside Hall"
    music_row, jazz_row = seen["tree"]  # the tree: Jazz below Music, marked as such
    assert music_row == "Music"
    assert jazz_row.startswith("—")
    assert "Jazz" in jazz_row
    assert seen["grid_alt"] == "The river at dusk"
    assert seen["grid_title"] == "river"  # the file's name, as the API makes it
    assert seen["errors"] == []  # nothing refused by the CSP
    auth = desk_site.api_auth("editor")
    async with httpx.AsyncClient(base_url=f"{desk_site.base}{API}", auth=auth) as api:
        venues = (await api.get("/venues", params={"search": "Riverside"})).json()["venues"]
        german = (
            await api.get(f"/venues/{venues[0]['id']}", params={"i18n_language": "de"})
        ).json()
        jazz = (
            await api.get("/categories", params={"search": "Jazz", "hide_empty": "false"})
        ).json()
        music = (
            await api.get("/categories", params={"search": "Music", "hide_empty": "false"})
        ).json()
        image = (await api.get(f"/media/{seen['media_id']}", params={"i18n_language": "de"})).json()
    assert german["venue"] == "Flusshalle"
    assert jazz["categories"][0]["parent"] == music["categories"][0]["id"]
    assert image["alt_text"] == "Der Fluss in der Dämmerung"
