"""The documentation page in a real browser: Debian's headless Chromium (driven by Selenium
through chromedriver, both installed by `make system-deps`) against a real `almanac serve`.

The page lists the operations of the OpenAPI document, and its "Try it out" calls the running
server. Every asset comes from almanac itself: the browser is started with every other host
unreachable, so a page that needed a CDN would show nothing.
"""

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

from tests.live.desk_harness import headless_chromium
from tests.live.harness import almanac_server, fresh_database

API = "/calendar/events/v1"
DOC = f"{API}/doc"
WAIT = 60  # seconds a page may take to get somewhere (two busy cores, a cold browser)


@pytest.fixture(scope="module")
async def served(database_url: str) -> AsyncIterator[str]:
    async with (
        fresh_database(database_url, "almanac_docs_page", migrated=True) as url,
        almanac_server(url) as base,
    ):
        yield base


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    driver = headless_chromium()  # every host but the test server's unreachable: no CDN
    driver.set_window_size(1280, 1600)
    try:
        yield driver
    finally:
        driver.quit()


def _use_the_page(driver: WebDriver, base: str, screenshot: Path) -> dict[str, object]:
    """Open the page, read its operations, try GET /categories; what the page showed."""
    wait = WebDriverWait(driver, WAIT)
    driver.get(f"{base}{DOC}")
    wait.until(ready.presence_of_element_located((By.CSS_SELECTOR, ".opblock")))
    operations = {
        (
            block.find_element(By.CSS_SELECTOR, ".opblock-summary-method").text,
            block.find_element(By.CSS_SELECTOR, ".opblock-summary-path").get_attribute("data-path"),
        )
        for block in driver.find_elements(By.CSS_SELECTOR, ".opblock")
    }
    driver.save_screenshot(str(screenshot))
    summary = (
        "//div[contains(@class, 'opblock-get')]"
        "[.//*[contains(@class, 'opblock-summary-path') and @data-path='/categories']]"
    )
    block = driver.find_element(By.XPATH, summary)
    block.find_element(By.CSS_SELECTOR, ".opblock-summary").click()
    wait.until(lambda _: block.find_elements(By.CSS_SELECTOR, ".try-out__btn"))
    block.find_element(By.CSS_SELECTOR, ".try-out__btn").click()
    wait.until(lambda _: block.find_elements(By.CSS_SELECTOR, ".execute"))
    block.find_element(By.CSS_SELECTOR, ".execute").click()
    live = ".live-responses-table tr.response .response-col_status"
    wait.until(lambda _: block.find_elements(By.CSS_SELECTOR, live))
    status = block.find_element(By.CSS_SELECTOR, live).text
    body = block.find_element(By.CSS_SELECTOR, ".live-responses-table .microlight").text
    return {"title": driver.title, "operations": operations, "status": status, "body": body}


async def test_the_docs_page_lists_operations_and_tries_one(
    served: str, browser: WebDriver, tmp_path: Path
) -> None:
    shown = await asyncio.to_thread(_use_the_page, browser, served, tmp_path / "doc.png")
    assert shown["title"] == "almanac API documentation"
    operations = shown["operations"]
    assert isinstance(operations, set)
    for expected in (
        ("GET", "/events"),
        ("POST", "/events"),
        ("GET", "/events/{id}"),
        ("DELETE", "/venues/{id}"),
        ("GET", "/categories"),
        ("GET", "/tags/{id}"),
        ("GET", "/organizers"),
    ):
        assert expected in operations
    # The call went to the running server: its answer names that server's own URL.
    assert shown["status"] == "200"
    assert f'"rest_url": "{served}/calendar/events/v1/categories/' in str(shown["body"])
    assert '"categories": []' in str(shown["body"])
    assert (tmp_path / "doc.png").stat().st_size > 10_000  # a page was drawn


async def test_other_clients_still_get_json(served: str) -> None:
    async with httpx.AsyncClient() as client:
        plain = await client.get(f"{served}{DOC}")
        explicit = await client.get(f"{served}{DOC}", headers={"Accept": "application/json"})
        page = await client.get(f"{served}{DOC}", headers={"Accept": "text/html"})
        script = await client.get(f"{served}{DOC}/assets/swagger-ui-bundle.js")
        unknown = await client.get(f"{served}{DOC}/assets/secrets.txt")
        redirects = [await client.get(f"{served}{path}") for path in ("/docs", f"{API}/docs")]
    for response in (plain, explicit):
        assert response.headers["content-type"].startswith("application/json")
        assert response.json()["openapi"].startswith("3.1")
        assert "Accept" in response.headers["vary"]
    assert page.headers["content-type"].startswith("text/html")
    assert "Accept" in page.headers["vary"]
    assert f"{served}{DOC}/assets/swagger-ui-bundle.js" in page.text
    assert "cdn" not in page.text.lower()
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "rest_no_route"
    for redirect in redirects:
        assert redirect.status_code == 308
        assert redirect.headers["location"] == f"{served}{DOC}"
