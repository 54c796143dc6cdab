"""The photo and summary views, the list's cards and the event page's image in headless
Chromium against a real `almanac serve`, pictures uploaded to its media library: at 1280
and 375 px, in the light and dark schemes, with and without JavaScript, axe-core finds no
WCAG 2.1 A/AA violation, nothing is wider than a phone's screen, every photo card has the
same frame (a picture's or a placeholder's), the first picture loads at once from the
library's sizes, and the event page's image is never a box bigger than what loaded.

`ALMANAC_SCREENSHOTS=docs/img` writes the photo view's screenshot (docs/img/photo.png)."""

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.live.desk_harness import axe_violations, headless_chromium
from tests.live.harness import add_user, almanac_server, fresh_database
from tests.media_files import picture

API = "/calendar/events/v1"
TODAY = datetime.now(UTC).date()
# (width, height, colour scheme): a desktop, a 375 px phone, and the dark scheme's contrast.
FORMS = {
    "desktop": (1280, 1000, "light"),
    "phone": (375, 812, "light"),
    "desktop, dark": (1280, 1000, "dark"),
}


def at(offset: int, hour: int) -> str:
    return f"{(TODAY + timedelta(days=offset)).isoformat()} {hour:02}:00:00"


class Site:
    def __init__(self, base: str, auth: tuple[str, str]) -> None:
        self.base = base
        self.auth = auth
        self.records: dict[str, dict[str, Any]] = {}


async def _seed(site: Site) -> None:
    """A programme with pictures (a wide one, a small one), events without, one featured,
    costs and excerpts, and one that has passed."""
    async with httpx.AsyncClient(base_url=site.base, auth=site.auth, timeout=60) as client:

        async def upload(size: tuple[int, int], alt: str) -> int:
            answer = await client.post(
                f"{API}/media",
                files={"file": ("picture.jpg", picture("JPEG", size), "image/jpeg")},
                data={"alt_text": alt},
            )
            assert answer.status_code == 201, answer.text
            return int(answer.json()["id"])

        wide = await upload((1600, 1000), "The stage lit in red and blue")
        small = await upload((300, 200), "")
        hall = await client.post(f"{API}/venues", json={"venue": "Old Mill", "city": "Bratislava"})
        venue = hall.json()["id"]

        async def event(key: str, title: str, offset: int, hour: int, **fields: Any) -> None:
            body = {
                "title": title,
                "start_date": at(offset, hour),
                "end_date": at(offset, hour + 2),
            }
            answer = await client.post(f"{API}/events", json={**body, **fields})
            assert answer.status_code == 201, answer.text
            site.records[key] = answer.json()

        await event("stage", "Stage Night", 1, 19, image=wide, venue=venue, cost="15",
                     featured=True, excerpt="<p>Three bands, one stage, a long night.</p>")  # fmt: skip
        await event("poetry", "Poetry Reading", 1, 17, venue=venue, cost="0")
        await event("small", "Small Print Fair", 2, 10, image=small, excerpt="Zines and posters.")
        for number in range(6):
            image = {"image": wide} if number % 2 else {}
            await event(f"talk{number}", f"City Talk {number + 1}", 3 + number * 9, 18,
                        venue=venue, **image)  # fmt: skip
        await event("past", "Last Week's Market", -7, 9, image=wide)


@pytest.fixture(scope="module")
async def site(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Site]:
    data_dir = tmp_path_factory.mktemp("photo-data")
    async with fresh_database(database_url, "almanac_pages_photo", migrated=True) as url:
        _, password = await add_user(url, "photo-editor", "editor")
        async with almanac_server(url, ALMANAC_DATA_DIR=str(data_dir)) as base:
            site = Site(base, ("photo-editor", password))
            await _seed(site)
            yield site


@pytest.fixture(scope="module", params=[True, False], ids=["scripts", "no scripts"])
def browser(request: pytest.FixtureRequest) -> Iterator[WebDriver]:
    driver = headless_chromium(scripts=request.param)
    # axe runs as a page's script (it waits forever where scripts are off): the pages'
    # markup is the same with and without them (their scripts add no content), so axe
    # checks it with scripts on; without, the layout is checked.
    driver.scripts_on = request.param  # type: ignore[attr-defined]
    try:
        yield driver
    finally:
        driver.quit()


def _pages(site: Site) -> dict[str, str]:
    return {
        "photo": "/events/photo/",
        "photo, German": "/de/events/photo/",
        "summary": "/events/summary/",
        "summary, Slovak": "/sk/events/summary/",
        "list": "/events/list/",
        "event": f"/event/{site.records['stage']['slug']}/",
        "small image": f"/event/{site.records['small']['slug']}/",
        "past event": f"/event/{site.records['past']['slug']}/",
    }


def _in_each_form(driver: WebDriver, url: str) -> dict[str, dict[str, Any]]:
    """Per form: axe's violations and how wide the page is against its window."""
    driver.get(url)
    seen = {}
    for form, (width, height, scheme) in FORMS.items():
        driver.set_window_size(width, height)
        media = {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", media)  # type: ignore[attr-defined]
        violations = axe_violations(driver) if driver.scripts_on else []  # type: ignore[attr-defined]
        seen[form] = {
            "violations": [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations],
            "overflow": driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
            ),
        }
    light = {"features": [{"name": "prefers-color-scheme", "value": "light"}]}
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", light)  # type: ignore[attr-defined]
    driver.set_window_size(*FORMS["desktop"][:2])
    return seen


@pytest.mark.parametrize(
    "page",
    [
        "photo",
        "photo, German",
        "summary",
        "summary, Slovak",
        "list",
        "event",
        "small image",
        "past event",
    ],  # fmt: skip
)
async def test_every_view_is_accessible_and_fits_a_phone(
    site: Site, browser: WebDriver, page: str
) -> None:
    seen = await asyncio.to_thread(_in_each_form, browser, f"{site.base}{_pages(site)[page]}")
    assert {form: s["violations"] for form, s in seen.items() if s["violations"]} == {}
    assert {form: s["overflow"] for form, s in seen.items() if s["overflow"] > 0} == {}
    errors = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


FRAMES = """
const frames = [...document.querySelectorAll('.photo-frame')].map(f => {
  const r = f.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; });
const first = document.querySelector('img.photo');
const report = () => done({
  frames, titles: [...document.querySelectorAll('.photo-card h2 a')].map(a => a.textContent),
  placeholders: document.querySelectorAll('.photo-placeholder').length,
  first: {loaded: first.naturalWidth, src: first.currentSrc, lazy: first.loading},
  lazy: [...document.querySelectorAll('img.photo')].slice(1).map(i => i.loading),
  featured: [...document.querySelectorAll('.photo-card.featured h2 a')].map(a => a.textContent),
});
const done = arguments[arguments.length - 1];
if (first.complete) report(); else { first.onload = report; first.onerror = report; }
"""


def _photo_cards(driver: WebDriver, url: str, width: int, shot: str | None) -> dict[str, Any]:
    driver.set_window_size(width, 1000)
    driver.get(url)
    seen = dict(driver.execute_async_script(FRAMES))
    if shot:
        driver.save_screenshot(shot)
    driver.set_window_size(*FORMS["desktop"][:2])
    return seen


@pytest.mark.parametrize("width", [1280, 375])
async def test_photo_cards_share_one_frame_and_the_first_picture_loads(
    site: Site, browser: WebDriver, width: int
) -> None:
    folder = os.environ.get("ALMANAC_SCREENSHOTS")
    shot = str(Path(folder) / "photo.png") if folder and width == 1280 else None
    seen = await asyncio.to_thread(_photo_cards, browser, f"{site.base}/events/photo/", width, shot)
    assert seen["titles"][:3] == ["Poetry Reading", "Stage Night", "Small Print Fair"]
    assert "Last Week's Market" not in seen["titles"]
    assert len(set(map(tuple, seen["frames"]))) == 1, seen["frames"]  # one shape for all
    frame_width, frame_height = seen["frames"][0]
    assert abs(frame_width / frame_height - 1.5) < 0.02
    assert seen["placeholders"] == 4  # Poetry Reading and the talks without a picture
    assert seen["first"]["loaded"] > 0
    assert seen["first"]["lazy"] == "auto"
    assert "/media/" in seen["first"]["src"]
    assert set(seen["lazy"]) == {"lazy"}
    assert seen["featured"] == ["Stage Night"]


IMAGE = """
const img = document.querySelector('img.image');
const done = arguments[arguments.length - 1];
const report = () => { const r = img.getBoundingClientRect();
  done({natural: img.naturalWidth, width: r.width, height: r.height, src: img.currentSrc,
        passed: !!document.querySelector('.passed')}); };
if (img.complete) report(); else { img.onload = report; img.onerror = report; }
"""


def _event_image(driver: WebDriver, url: str, width: int) -> dict[str, Any]:
    driver.set_window_size(width, 1000)
    driver.get(url)
    seen = dict(driver.execute_async_script(IMAGE))
    driver.set_window_size(*FORMS["desktop"][:2])
    return seen


@pytest.mark.parametrize("width", [1280, 375])
async def test_the_event_pages_image_is_never_bigger_than_what_loaded(
    site: Site, browser: WebDriver, width: int
) -> None:
    pages = _pages(site)
    for page, natural in (("event", 1600), ("small image", 300), ("past event", 1600)):
        seen = await asyncio.to_thread(_event_image, browser, f"{site.base}{pages[page]}", width)
        assert seen["natural"] > 0, (page, seen)
        # Drawn at most at the size of the candidate that loaded, and of the image's shape.
        assert seen["width"] <= seen["natural"] + 0.5, (page, seen)
        shape = 1.6 if natural == 1600 else 1.5
        assert abs(seen["width"] / seen["height"] - shape) < 0.05, (page, seen)
        assert seen["passed"] == (page == "past event")
    small = await asyncio.to_thread(
        _event_image, browser, f"{site.base}{pages['small image']}", 1280
    )
    assert small["width"] == 300  # its own size, not the column's


def _list_cards(driver: WebDriver, url: str, width: int) -> dict[str, Any]:
    driver.set_window_size(width, 1000)
    driver.get(url)
    card = driver.find_element(By.CSS_SELECTOR, "article.event-rich.featured")
    badge = card.find_element(By.CSS_SELECTOR, ".date-badge").rect
    thumb = card.find_element(By.CSS_SELECTOR, ".event-thumb").rect
    title = card.find_element(By.CSS_SELECTOR, "h3").rect
    seen = {
        "badge_left_of_title": badge["x"] + badge["width"] <= title["x"],
        "thumb_right_of_title": thumb["x"] >= title["x"],
        "thumb": (thumb["width"], thumb["height"]),
        "mark": card.find_element(By.CSS_SELECTOR, ".featured-mark").text,
    }
    driver.set_window_size(*FORMS["desktop"][:2])
    return seen


@pytest.mark.parametrize("width", [1280, 375])
async def test_a_list_card_has_its_badge_text_and_thumbnail_side_by_side(
    site: Site, browser: WebDriver, width: int
) -> None:
    seen = await asyncio.to_thread(_list_cards, browser, f"{site.base}/events/list/", width)
    assert seen["badge_left_of_title"]
    assert seen["thumb_right_of_title"]
    assert seen["thumb"][0] == seen["thumb"][1] >= 64  # a square
    assert seen["mark"] == "Featured"
