"""The venue editor's map in a real browser: headless Chromium against `almanac serve` whose
MAP_TILES_URL names the tile server of tests/live/test_pages_map_browser.py (127.0.0.1):
Leaflet draws the venue's marker at its position; a click on the map moves the marker and
writes the latitude and longitude fields, which Save sends (the position is then `exact`).
Without JavaScript the fields are the whole of it. axe-core finds no WCAG 2.1 A/AA
violation on the editor with its map."""

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.live.desk_harness import (
    ACCOUNT_PASSWORD,
    DeskPerson,
    DeskSite,
    add_desk_user,
    assert_accessible,
    browser_errors,
    chromium,
    headless_chromium,
    sign_in,
    wait,
)
from tests.live.harness import accounts_of, almanac_server, fresh_database
from tests.live.test_pages_map_browser import tile_server  # noqa: F401 (a fixture)

API = "/calendar/events/v1"


@pytest.fixture(scope="module")
async def site(database_url: str, tile_server: tuple[str, list[str]]) -> AsyncIterator[DeskSite]:  # noqa: F811
    tiles, _ = tile_server
    async with fresh_database(database_url, "almanac_desk_venue_map", migrated=True) as url:
        async with accounts_of(url) as accounts:
            app_password = await add_desk_user(accounts, "map-desk-editor", "editor")
        person = DeskPerson("map-desk-editor", "editor", ACCOUNT_PASSWORD, app_password)
        site = DeskSite(base="", database_url=url, people={"editor": person})
        env = {"MAP_TILES_URL": f"{tiles}/{{z}}/{{x}}/{{y}}.png", "MAP_TILES_ATTRIBUTION": "Tiles"}
        async with almanac_server(url, **env) as base:
            site.base = base
            yield site


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


async def venue(site: DeskSite) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=f"{site.base}{API}", auth=site.api_auth("editor")) as api:
        created = await api.post("/venues", json={"venue": "Old Mill", "city": "Bratislava"})
        assert created.status_code == 201, created.text
        body: dict[str, Any] = created.json()
        return body


async def read(site: DeskSite, venue_id: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=f"{site.base}{API}", auth=site.api_auth("editor")) as api:
        body: dict[str, Any] = (await api.get(f"/venues/{venue_id}")).json()
        return body


def _place_on_the_map(driver: WebDriver, site: DeskSite, venue_id: int) -> dict[str, Any]:
    sign_in(driver, site, "editor", f"venues/{venue_id}/edit")
    wait(driver).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#position-map .leaflet-marker-icon")
    )
    before = driver.find_element(By.ID, "f-geo_lat").get_attribute("value")
    assert_accessible(driver, "the venue editor with its map")
    box = driver.find_element(By.ID, "position-map")
    # A click 60 pixels right of and 40 above the map's centre (the marker stands there).
    ActionChains(driver).move_to_element_with_offset(box, 60, -40).click().perform()
    wait(driver).until(
        lambda d: d.find_element(By.ID, "f-geo_lat").get_attribute("value") != before
    )
    typed = {
        name: driver.find_element(By.ID, f"f-{name}").get_attribute("value")
        for name in ("geo_lat", "geo_lng")
    }
    errors = browser_errors(driver)
    driver.find_element(By.CSS_SELECTOR, "p.actions button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "[role=status], .flash"))
    return {"before": before, "typed": typed, "errors": errors}


async def test_a_click_on_the_map_places_the_venue(
    site: DeskSite,
    browser: WebDriver,
    tile_server: tuple[str, list[str]],  # noqa: F811
) -> None:
    created = await venue(site)
    assert created["geo_precision"] == "city"
    seen = await asyncio.to_thread(_place_on_the_map, browser, site, created["id"])
    assert seen["errors"] == []
    assert float(seen["before"]) == created["geo_lat"]
    saved = await read(site, created["id"])
    assert saved["geo_precision"] == "exact"
    assert (saved["geo_lat"], saved["geo_lng"]) == (
        float(seen["typed"]["geo_lat"]),
        float(seen["typed"]["geo_lng"]),
    )
    assert saved["geo_lat"] > created["geo_lat"]  # north of where it was
    assert saved["geo_lng"] > created["geo_lng"]  # and east
    _, asked = tile_server
    assert asked, "no tile was requested"


def _without_scripts(site: DeskSite, venue_id: int) -> dict[str, Any]:
    driver = headless_chromium(scripts=False)
    try:
        sign_in(driver, site, "editor", f"venues/{venue_id}/edit")
        return {
            "map_shown": driver.find_element(By.ID, "position-map").is_displayed(),
            "fields": [
                driver.find_element(By.ID, f"f-{name}").is_displayed()
                for name in ("geo_lat", "geo_lng")
            ],
        }
    finally:
        driver.quit()


async def test_without_javascript_the_fields_are_the_editor(site: DeskSite) -> None:
    created = await venue(site)
    seen = await asyncio.to_thread(_without_scripts, site, created["id"])
    assert seen == {"map_shown": False, "fields": [True, True]}
