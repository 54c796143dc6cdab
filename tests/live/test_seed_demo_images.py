"""`almanac seed --demo` puts real pictures in the media library (app/seed/demo_images.py),
with alternative texts in three languages, served by almanac: the demo's event pages show
them (loaded, in headless Chromium, axe-clean). An image that fails to load leaves no
empty box of the image's size, with or without an alternative text."""

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.seed.demo_images import KINDS
from tests.live.desk_harness import axe_violations, chromium
from tests.live.harness import add_user, almanac_server, fresh_database

API = "/calendar/events/v1"


async def _seed_demo(url: str, data_dir: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "app.cli", "seed", "--demo"),
        env={**os.environ, "DATABASE_URL": url, "ALMANAC_DATA_DIR": str(data_dir)},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await process.communicate()
    assert process.returncode == 0, err.decode()


class Demo:
    def __init__(self, base: str, auth: tuple[str, str], url: str) -> None:
        self.base = base
        self.auth = auth
        self.url = url


@pytest.fixture(scope="module")
async def demo(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Demo]:
    data_dir = tmp_path_factory.mktemp("demo-data")
    async with fresh_database(database_url, "almanac_demo_images", migrated=True) as url:
        await _seed_demo(url, data_dir)
        _, password = await add_user(url, "demo-editor", "editor")
        async with almanac_server(url, ALMANAC_DATA_DIR=str(data_dir)) as base:
            yield Demo(base, ("demo-editor", password), url)


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


async def _with_images(demo: Demo, prefix: str = "") -> list[dict[str, Any]]:
    async with httpx.AsyncClient(timeout=30) as client:
        answer = await client.get(f"{demo.base}{prefix}{API}/events", params={"per_page": 50})
    assert answer.status_code == 200
    return [event for event in answer.json()["events"] if event["image"]]


async def test_the_demos_images_are_real_and_described_in_three_languages(demo: Demo) -> None:
    events = await _with_images(demo)
    assert events, "the demo has events with images"
    async with httpx.AsyncClient(timeout=30) as client:
        media = await client.get(f"{demo.base}{API}/media", params={"per_page": 50}, auth=demo.auth)
        assert media.status_code == 200, media.text
        assert media.json()["total"] == len(KINDS)
        for event in events:
            image = await client.get(event["image"]["url"])
            assert image.status_code == 200, event["image"]["url"]
            assert image.headers["content-type"].startswith("image/")
            assert event["image"]["url"].startswith(demo.base)
    english = {event["id"]: event["image"]["alt"] for event in events}
    expected = {
        language: {texts[language][1] for *_, texts in KINDS} for language in ("en", "de", "sk")
    }
    assert set(english.values()) <= expected["en"]
    for language in ("de", "sk"):
        translated = {e["id"]: e["image"]["alt"] for e in await _with_images(demo, f"/{language}")}
        assert set(translated.values()) <= expected[language]
        assert translated.keys() == english.keys()


def _image_boxes(driver: WebDriver, url: str) -> dict[str, Any]:
    driver.get(url)
    driver.execute_script("return document.readyState")
    return dict(
        driver.execute_script(
            "const img = document.querySelector('img.image');"
            "return new Promise(done => {"
            "  const report = () => { const r = img.getBoundingClientRect();"
            "    done({loaded: img.naturalWidth, width: r.width, height: r.height, alt: img.alt}); };"
            "  if (img.complete) report(); else { img.onload = report; img.onerror = report; }"
            "});"
        )
    )


async def test_a_demo_event_page_shows_its_image(demo: Demo, browser: WebDriver) -> None:
    event = (await _with_images(demo))[0]
    seen = await asyncio.to_thread(_image_boxes, browser, event["url"])
    assert seen["loaded"] > 0
    assert seen["alt"]
    violations = await asyncio.to_thread(axe_violations, browser)
    assert [v["id"] for v in violations] == []


async def test_an_image_that_fails_to_load_leaves_no_empty_box(
    demo: Demo, browser: WebDriver
) -> None:
    """An image known by its size and a URL on a host that does not answer (as `almanac
    seed` without --demo writes them), without an alternative text."""
    engine = create_async_engine(demo.url)
    try:
        async with engine.begin() as conn:
            image_id = await conn.scalar(
                text(
                    "INSERT INTO images (url, extension, width, height, created_at) VALUES "
                    "('https://images.example.org/seed/missing.jpg', 'jpg', 1200, 800, now()) "
                    "RETURNING id"
                )
            )
    finally:
        await engine.dispose()
    async with httpx.AsyncClient(timeout=30) as client:
        made = await client.post(
            f"{demo.base}{API}/events", auth=demo.auth,
            json={"title": "Broken picture", "start_date": "2031-05-01 18:00:00",
                  "end_date": "2031-05-01 20:00:00", "image": image_id},
        )  # fmt: skip
    assert made.status_code == 201, made.text
    seen = await asyncio.to_thread(_image_boxes, browser, made.json()["url"])
    assert seen["loaded"] == 0
    assert seen["height"] < 50, seen  # not an empty 800 px box
