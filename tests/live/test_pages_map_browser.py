"""The map view and a venue's map in a real browser: Debian's headless Chromium against a
real `almanac serve` whose MAP_TILES_URL names a tile server this test starts on 127.0.0.1
(every other host unreachable): Leaflet, served by almanac, draws a marker per venue and
asks the tile server for tiles; a marker's popup names the venue's events. Without
JavaScript the same page is its list with each venue's OpenStreetMap link. axe-core finds no
WCAG 2.1 A/AA violation on the map view and the venue page (tests/live/desk_harness.py)."""

import asyncio
import functools
import threading
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.live.desk_harness import (
    assert_accessible,
    browser_errors,
    chromium,
    headless_chromium,
    wait,
)
from tests.live.harness import add_user, almanac_server, free_port, fresh_database
from tests.media_files import picture

API = "/calendar/events/v1"
TODAY = datetime.now(UTC).date()
TILE = picture("PNG", (256, 256))
ATTRIBUTION = "Tiles: the test's own server"
POINTS = {"Old Mill": (48.1439, 17.1097), "Castle Hall": (48.1423, 17.1000)}


class _Tiles(BaseHTTPRequestHandler):
    """A PNG for every /{z}/{x}/{y}.png; each path asked for is kept."""

    def __init__(self, asked: list[str], *args: Any) -> None:
        self.asked = asked
        super().__init__(*args)

    def do_GET(self) -> None:
        parts = self.path.strip("/").removesuffix(".png").split("/")
        if len(parts) != 3 or not all(part.isdigit() for part in parts):
            self.send_error(404)
            return
        self.asked.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(TILE)))
        self.end_headers()
        self.wfile.write(TILE)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def tile_server() -> Iterator[tuple[str, list[str]]]:
    asked: list[str] = []
    port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(_Tiles, asked))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{port}", asked
    finally:
        server.shutdown()
        server.server_close()


async def _seed(base: str, auth: tuple[str, str]) -> dict[str, Any]:
    records: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=f"{base}{API}", auth=auth, timeout=30) as client:

        async def create(plural: str, **fields: Any) -> dict[str, Any]:
            response = await client.post(f"/{plural}", json=fields)
            assert response.status_code == 201, response.text
            body: dict[str, Any] = response.json()
            return body

        for name, (lat, lng) in POINTS.items():
            records[name] = await create(
                "venues", venue=name, city="Bratislava", country="Slovakia", geo_lat=lat,
                geo_lng=lng,
            )  # fmt: skip
        records["Unmapped Barn"] = await create("venues", venue="Unmapped Barn", city="Nowhere")
        for offset, (title, venue) in enumerate(
            (
                ("Jazz at the Mill", "Old Mill"),
                ("Castle Play", "Castle Hall"),
                ("Mill Talk", "Old Mill"),
                ("Barn Dance", "Unmapped Barn"),
            ),
            start=1,
        ):
            start = TODAY + timedelta(days=offset)
            records[title] = await create(
                "events", title=title, venue=records[venue]["id"],
                start_date=f"{start} 18:00:00", end_date=f"{start} 20:00:00",
            )  # fmt: skip
    return records


@pytest.fixture(scope="module")
async def site(
    database_url: str, tile_server: tuple[str, list[str]]
) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    tiles, _ = tile_server
    async with fresh_database(database_url, "almanac_pages_map", migrated=True) as url:
        _, password = await add_user(url, "map-editor", "editor")
        env = {
            "MAP_TILES_URL": f"{tiles}/{{z}}/{{x}}/{{y}}.png",
            "MAP_TILES_ATTRIBUTION": ATTRIBUTION,
        }
        async with almanac_server(url, **env) as base:
            yield base, await _seed(base, ("map-editor", password))


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


def _map_view(driver: WebDriver, base: str) -> dict[str, Any]:
    driver.get(f"{base}/events/map/")
    wait(driver).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#map .leaflet-marker-icon")) == 2
    )
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map img.leaflet-tile-loaded"))
    seen: dict[str, Any] = {
        "map_shown": driver.find_element(By.ID, "map").is_displayed(),
        "titles": [m.get_attribute("title") for m in driver.find_elements(By.CSS_SELECTOR, ".leaflet-marker-icon")],
        "attribution": driver.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text,
        "listed": [a.text for a in driver.find_elements(By.CSS_SELECTOR, "ol.placed h2 a")],
    }  # fmt: skip
    assert_accessible(driver, "the map view")
    marker = driver.find_element(By.CSS_SELECTOR, '.leaflet-marker-icon[title="Old Mill"]')
    marker.click()
    popup = wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, ".leaflet-popup-content"))
    seen["popup"] = popup.text
    seen["popup_links"] = [a.get_attribute("href") for a in popup.find_elements(By.TAG_NAME, "a")]
    seen["errors"] = browser_errors(driver)
    return seen


async def test_the_map_view_draws_a_marker_per_venue_over_the_local_tiles(
    site: tuple[str, dict[str, Any]], browser: WebDriver, tile_server: tuple[str, list[str]]
) -> None:
    base, records = site
    seen = await asyncio.to_thread(_map_view, browser, base)
    assert seen["map_shown"]
    assert sorted(seen["titles"]) == ["Castle Hall", "Old Mill"]
    assert ATTRIBUTION in seen["attribution"]
    assert seen["listed"] == ["Jazz at the Mill", "Castle Play", "Mill Talk", "Barn Dance"]
    assert "Jazz at the Mill" in seen["popup"]
    assert "Mill Talk" in seen["popup"]
    assert "Castle Play" not in seen["popup"]
    assert seen["popup_links"] == [
        records["Old Mill"]["url"], records["Jazz at the Mill"]["url"], records["Mill Talk"]["url"]
    ]  # fmt: skip
    assert seen["errors"] == []
    _, asked = tile_server
    assert asked, "no tile was requested"
    assert all(path.endswith(".png") for path in asked)


def _venue_page(driver: WebDriver, base: str, slug: str) -> dict[str, Any]:
    driver.get(f"{base}/venue/{slug}/")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map .leaflet-marker-icon"))
    assert_accessible(driver, "a venue's page")
    return {"errors": browser_errors(driver)}


async def test_a_venues_page_has_its_map(
    site: tuple[str, dict[str, Any]], browser: WebDriver
) -> None:
    base, records = site
    seen = await asyncio.to_thread(_venue_page, browser, base, records["Old Mill"]["slug"])
    assert seen["errors"] == []


def _without_scripts(base: str) -> dict[str, Any]:
    driver = headless_chromium(scripts=False)
    try:
        driver.get(f"{base}/events/map/")
        links = driver.find_elements(
            By.CSS_SELECTOR, 'a[href^="https://www.openstreetmap.org/?mlat="]'
        )
        return {
            "map_shown": driver.find_element(By.ID, "map").is_displayed(),
            "listed": [a.text for a in driver.find_elements(By.CSS_SELECTOR, "ol.placed h2 a")],
            "links": [link.text for link in links],
        }
    finally:
        driver.quit()


async def test_without_javascript_the_map_view_is_its_list_with_openstreetmap_links(
    site: tuple[str, dict[str, Any]],
) -> None:
    base, _ = site
    seen = await asyncio.to_thread(_without_scripts, base)
    assert not seen["map_shown"]
    assert seen["listed"] == ["Jazz at the Mill", "Castle Play", "Mill Talk", "Barn Dance"]
    assert seen["links"] == [
        "Old Mill on OpenStreetMap", "Castle Hall on OpenStreetMap", "Old Mill on OpenStreetMap"
    ]  # fmt: skip


def _near(driver: WebDriver, base: str) -> dict[str, Any]:
    """The map view's search bar: a place typed into Near, sent with Enter."""
    driver.get(f"{base}/events/map/")
    field = driver.find_element(By.ID, "tribe-bar-geoloc")
    field.send_keys("Bratislava", Keys.ENTER)
    wait(driver).until(lambda d: "tribe-bar-geoloc=Bratislava" in d.current_url)
    wait(driver).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#map .leaflet-marker-icon")) == 2
    )
    return {
        "said": driver.find_element(By.CSS_SELECTOR, "p.near").text,
        "listed": [a.text for a in driver.find_elements(By.CSS_SELECTOR, "ol.placed h2 a")],
        "distances": [d.text for d in driver.find_elements(By.CSS_SELECTOR, ".distance")],
        "errors": browser_errors(driver),
    }


async def test_a_place_typed_near_lists_the_nearest_first(
    site: tuple[str, dict[str, Any]], browser: WebDriver
) -> None:
    base, _ = site
    seen = await asyncio.to_thread(_near, browser, base)
    assert seen["said"] == "Events within 25 km of “Bratislava”, nearest first."
    assert seen["listed"][0] in ("Jazz at the Mill", "Castle Play")
    assert "Barn Dance" not in seen["listed"]
    assert len(seen["distances"]) == 3
    assert all(text.endswith(" km away") for text in seen["distances"])
    assert seen["errors"] == []
