"""The site's face in a real browser (headless Chromium against `almanac serve`, the harness
of test_pages_browser.py): with a logo from the media library, a header and a footer text
with links, and an accent colour that is illegible as it is (a bright yellow), axe-core still
finds no WCAG 2.1 A/AA violation at desktop width, at 375 px and in the dark scheme; links
and the focus ring are drawn in the accent made legible, and the logo loads at its size."""

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from app.core.rules.contrast import contrast, parse_hex
from app.pages.face import accent_properties
from tests.live.desk_harness import chromium
from tests.live.harness import add_user, almanac_server, fresh_database
from tests.live.test_pages_browser import API, _axe_in_each_form
from tests.media_files import picture

YELLOW = "#ffd500"  # 1.4:1 on white: text in it is illegible
DAY = (datetime.now(UTC) + timedelta(days=2)).date().isoformat()


@pytest.fixture(scope="module")
async def face_site(
    database_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[dict[str, Any]]:
    async with fresh_database(database_url, "almanac_face_browser", migrated=True) as url:
        _, password = await add_user(url, "face-editor", "editor")
        env = {
            "SITE_NAME": "Harbour Days",
            "SITE_LOGO": "1",  # the first image of the new database: uploaded below
            "SITE_ACCENT": YELLOW,
            "SITE_HEADER_TEXT": '{"en": "What is on <a href=\\"https://example.org/\\">by the '
            'harbour</a>", "de": "Was am Hafen los ist"}',
            "SITE_FOOTER_TEXT": 'Run by <a href="https://example.org/about">the harbour</a>',
            "MEDIA_DIR": str(tmp_path_factory.mktemp("face-media")),
        }
        async with almanac_server(url, **env) as base:
            auth = ("face-editor", password)
            async with httpx.AsyncClient(base_url=base, auth=auth, timeout=30) as client:
                logo = await client.post(
                    f"{API}/media",
                    files={"file": ("logo.png", picture("PNG", (600, 200)), "image/png")},
                )
                assert logo.status_code == 201, logo.text
                assert logo.json()["id"] == 1
                event = await client.post(
                    f"{API}/events",
                    json={
                        "title": "Harbour Lights",
                        "start_date": f"{DAY} 19:00:00",
                        "end_date": f"{DAY} 21:00:00",
                        "excerpt": "Lanterns on the water.",
                        "categories": ["Festivals"],
                    },
                )
                assert event.status_code == 201, event.text
            yield {"base": base, "event": event.json()}


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


def _looks(driver: WebDriver, url: str) -> dict[str, Any]:
    driver.set_window_size(1280, 1000)
    driver.get(url)
    logo = driver.find_element(By.CSS_SELECTOR, ".brand img")
    link = driver.find_element(By.CSS_SELECTOR, ".site-text a")
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)  # the skip link
    body.send_keys(Keys.TAB)  # the brand: the first focus ring the accent draws
    focused = driver.switch_to.active_element
    return {
        "logo": driver.execute_script(
            "const i = arguments[0]; return [i.complete && i.naturalWidth > 0, i.height];", logo
        ),
        "link": link.value_of_css_property("color"),
        "ring": focused.value_of_css_property("outline-color"),
        "focused": focused.get_attribute("class"),
    }


def rgb(colour: str) -> str:
    red, green, blue = parse_hex(colour)
    return f"rgba({red}, {green}, {blue}, 1)"


@pytest.mark.parametrize("page", ["/events/list/", "/events/month/", "event"])
async def test_axe_is_clean_with_an_illegible_accent(
    face_site: dict[str, Any],
    browser: WebDriver,
    page: str,
) -> None:
    path = f"/event/{face_site['event']['slug']}/" if page == "event" else page
    url = f"{face_site['base']}{path}"
    seen = await asyncio.to_thread(_axe_in_each_form, browser, url)
    light = {"features": [{"name": "prefers-color-scheme", "value": "light"}]}
    await asyncio.to_thread(browser.execute_cdp_cmd, "Emulation.setEmulatedMedia", light)  # type: ignore[attr-defined]
    found = {
        form: [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
        for form, (violations, _) in seen.items()
        if violations
    }
    assert found == {}


async def test_the_face_is_drawn_in_the_legible_accent(
    face_site: dict[str, Any],
    browser: WebDriver,
) -> None:
    seen = await asyncio.to_thread(_looks, browser, f"{face_site['base']}/events/list/")
    light = dict(part.split(": ") for part in accent_properties(YELLOW).split("; "))
    accent = light["--site-accent"]
    assert accent != YELLOW
    assert contrast(parse_hex(accent), parse_hex("#ffffff")) >= 4.5
    assert seen["link"] == rgb(accent)
    assert seen["focused"] == "brand"
    assert seen["ring"] == rgb(accent)
    assert seen["logo"] == [True, 48]  # loaded, 3rem high
