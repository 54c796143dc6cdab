"""The public pages in a real browser: Debian's headless Chromium (Selenium through
chromedriver, from `make system-deps`) against a real `almanac serve`, with every other host
unreachable (no CDN can stand in). Every view renders and its navigation works without
console errors; axe-core (4.x, `make node-tools`, run through axe-selenium-python) finds no
WCAG 2.1 A/AA violation at desktop width and at 375 px; `<almanac-events>` works on a page
of another origin; a write shows on the next load through the response cache.

`ALMANAC_SCREENSHOTS=docs/img` writes the screenshots of the README and docs/pages-and-desk.md."""

import asyncio
import os
import re
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from tests.live.desk_harness import axe_violations, chromium
from tests.live.harness import add_user, almanac_server, fresh_database, served_directory

API = "/calendar/events/v1"
WAIT = 60
# (width, height, colour scheme): desktop and a 375 px phone, and the dark scheme's contrast.
FORMS = {
    "desktop": (1280, 1000, "light"),
    "phone": (375, 812, "light"),
    "desktop, dark": (1280, 1000, "dark"),
}
TODAY = datetime.now(UTC).date()
PAGES = ("list", "month", "day", "event", "venue", "organizer")  # _pages: their paths


def at(day: date, hour: int, minute: int = 0) -> str:
    return f"{day.isoformat()} {hour:02}:{minute:02}:00"


class Site:
    """The served site, its editor and what was seeded."""

    def __init__(self, base: str, embed_base: str, auth: tuple[str, str]) -> None:
        self.base = base
        self.embed_base = embed_base
        self.auth = auth
        self.records: dict[str, dict[str, Any]] = {}

    async def create(self, client: httpx.AsyncClient, plural: str, key: str, **fields: Any) -> None:
        response = await client.post(f"{self.base}{API}/{plural}", json=fields, auth=self.auth)
        assert response.status_code == 201, response.text
        self.records[key] = response.json()


async def _seed(site: Site) -> None:
    """A month that looks like a real calendar: a festival over three days, a busy day,
    a weekly series, a venue and an organizer."""
    first = TODAY.replace(day=1)
    async with httpx.AsyncClient(timeout=30) as client:
        await site.create(
            client, "venues", "venue", venue="Old Mill", address="Mlynská 12", city="Bratislava",
            zip="81101", country="Slovakia", phone="+421 2 1234 5678",
        )  # fmt: skip
        await site.create(
            client, "organizers", "organizer", organizer="Riverside Jazz Club",
            email="hello@jazz.example.org", website="https://jazz.example.org/",
        )  # fmt: skip
        venue, organizer = site.records["venue"]["id"], site.records["organizer"]["id"]
        await site.create(
            client, "events", "event", title="Jazz on the River",
            description="<p>An evening of <strong>live jazz</strong> on the terrace, "
            "with the Riverside Trio and guests.</p>",
            excerpt="Live jazz on the terrace.", start_date=at(TODAY + timedelta(days=1), 19),
            end_date=at(TODAY + timedelta(days=1), 22), venue=venue, organizer=[organizer],
            categories=["Music"], tags=["outdoor"], cost="12",
        )  # fmt: skip
        festival = first + timedelta(days=11)
        await site.create(
            client, "events", "festival", title="Harvest Festival", venue=venue,
            start_date=at(festival, 10), end_date=at(festival + timedelta(days=2), 18),
            categories=["Family"],
        )  # fmt: skip
        busy = first + timedelta(days=19)
        for number, title in enumerate(
            ("Morning Yoga", "Book Swap", "Chess Club", "Film Night", "Open Mic", "Quiz Night")
        ):
            await site.create(
                client, "events", f"busy{number}", title=title,
                start_date=at(busy, 9 + 2 * number), end_date=at(busy, 10 + 2 * number),
            )  # fmt: skip
        tuesday = first + timedelta(days=(1 - first.weekday()) % 7)  # the rule's first date
        await site.create(
            client, "events", "series", title="Tuesday Run Club",
            start_date=at(tuesday, 7), end_date=at(tuesday, 8),
            recurrence=["RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=12"], categories=["Sport"],
        )  # fmt: skip
        for number, offset in enumerate((4, 8, 15, 24)):
            await site.create(
                client, "events", f"talk{number}", title=f"City Talk {number + 1}",
                start_date=at(first + timedelta(days=offset), 18),
                end_date=at(first + timedelta(days=offset), 19, 30), venue=venue,
            )  # fmt: skip


@pytest.fixture(scope="module")
def embed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A plain static server on a second local port: the other site that embeds."""
    root = tmp_path_factory.mktemp("embedding-site")
    with served_directory(root) as origin:
        yield origin, root


@pytest.fixture(scope="module")
async def site(database_url: str, embed_server: tuple[str, Path]) -> AsyncIterator[Site]:
    origin, _ = embed_server
    async with fresh_database(database_url, "almanac_pages_browser", migrated=True) as url:
        _, password = await add_user(url, "pages-editor", "editor")
        env = {"CORS_ORIGINS": origin, "SITE_NAME": "Riverside Calendar"}
        async with almanac_server(url, **env) as base:
            site = Site(base, origin, ("pages-editor", password))
            await _seed(site)
            yield site


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


def _errors(driver: WebDriver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def _pages(site: Site) -> dict[str, str]:
    busy = TODAY.replace(day=1) + timedelta(days=19)
    records = site.records
    return {
        "list": "/events/list/",
        "month": "/events/month/",
        "day": f"/events/{busy.isoformat()}/",
        "event": f"/event/{records['event']['slug']}/",
        "venue": f"/venue/{records['venue']['slug']}/",
        "organizer": f"/organizer/{records['organizer']['slug']}/",
    }


def _axe_in_each_form(driver: WebDriver, url: str) -> dict[str, tuple[list[Any], str]]:
    """Per form: axe's violations on the page and the page's background colour. The page is
    loaded once and axe injected once: a form is a window size and a colour scheme, which
    the page's media queries follow without a reload."""
    driver.get(url)
    seen = {}
    for form, (width, height, scheme) in FORMS.items():
        driver.set_window_size(width, height)
        media = {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", media)  # type: ignore[attr-defined]
        violations = axe_violations(driver)
        background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        seen[form] = (violations, str(background))
    driver.set_window_size(*FORMS["desktop"][:2])  # the test sets the light scheme back
    return seen


@pytest.mark.parametrize("page", PAGES)
async def test_axe_finds_no_wcag_21_aa_violation(site: Site, browser: WebDriver, page: str) -> None:
    seen = await asyncio.to_thread(_axe_in_each_form, browser, f"{site.base}{_pages(site)[page]}")
    found = {
        form: [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
        for form, (violations, _) in seen.items()
        if violations
    }
    assert found == {}
    backgrounds = {form: background for form, (_, background) in seen.items()}
    assert backgrounds == {
        form: "rgb(18, 18, 22)" if scheme == "dark" else "rgb(255, 255, 255)"
        for form, (_, _, scheme) in FORMS.items()
    }
    assert await asyncio.to_thread(_errors, browser) == []
    light = {"features": [{"name": "prefers-color-scheme", "value": "light"}]}
    await asyncio.to_thread(browser.execute_cdp_cmd, "Emulation.setEmulatedMedia", light)  # type: ignore[attr-defined]


def _navigate(driver: WebDriver, base: str, shots: Path) -> dict[str, Any]:
    """Open each view, follow its links the way a visitor does; what was seen."""
    seen: dict[str, Any] = {}
    wait = WebDriverWait(driver, WAIT)
    driver.set_window_size(1280, 1100)
    driver.get(f"{base}/events/month/")
    seen["month_title"] = driver.find_element(By.TAG_NAME, "h1").text
    seen["festival_cells"] = len(driver.find_elements(By.LINK_TEXT, "Harvest Festival"))
    seen["more"] = driver.find_element(By.CSS_SELECTOR, "a.more").text
    driver.save_screenshot(str(shots / "month.png"))
    driver.find_element(By.CSS_SELECTOR, "a.more").click()
    wait.until(lambda d: "Open Mic" in d.page_source)
    seen["day_events"] = len(driver.find_elements(By.CSS_SELECTOR, "article.event"))
    driver.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
    wait.until(lambda d: "Open Mic" not in d.page_source)
    driver.get(f"{base}/events/month/")
    driver.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text != seen["month_title"])
    seen["next_month_title"] = driver.find_element(By.TAG_NAME, "h1").text
    driver.get(f"{base}/events/list/")
    driver.find_element(By.LINK_TEXT, "Jazz on the River").click()
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Jazz on the River")
    driver.set_window_size(1280, 1500)
    driver.save_screenshot(str(shots / "event.png"))
    seen["venue_link"] = driver.find_element(By.LINK_TEXT, "Old Mill").get_attribute("href")
    driver.find_element(By.LINK_TEXT, "Music").click()
    wait.until(lambda d: d.find_element(By.TAG_NAME, "h1").text == "Music")
    driver.find_element(By.LINK_TEXT, "DE").click()
    wait.until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de")
    seen["german_heading"] = driver.find_element(By.TAG_NAME, "h1").text
    search = driver.find_element(By.ID, "tribe-bar-search")
    search.send_keys("jazz")
    search.submit()
    wait.until(lambda d: "tribe-bar-search=jazz" in d.current_url)
    seen["search_results"] = [
        a.text for a in driver.find_elements(By.CSS_SELECTOR, "article.event h3 a")
    ]
    seen["errors"] = _errors(driver)
    return seen


async def test_views_render_and_navigate(site: Site, browser: WebDriver, tmp_path: Path) -> None:
    shots = Path(os.environ.get("ALMANAC_SCREENSHOTS") or tmp_path)
    seen = await asyncio.to_thread(_navigate, browser, site.base, shots)
    assert seen["month_title"] == TODAY.strftime("%B %Y")
    assert seen["festival_cells"] == 3  # over its three days
    assert seen["more"] == "+2 more"
    assert seen["day_events"] == 6
    assert seen["next_month_title"] != seen["month_title"]
    assert seen["venue_link"] == site.records["venue"]["url"]
    assert seen["german_heading"] == "Music"  # the term has no German name: the default's
    assert seen["search_results"] == ["Jazz on the River"]
    assert seen["errors"] == []
    for name in ("month.png", "event.png"):
        assert (shots / name).stat().st_size > 10_000


def _embedded(driver: WebDriver, page: str) -> list[str]:
    driver.get(page)
    wait = WebDriverWait(driver, WAIT)
    script = (
        "const e = document.querySelector(arguments[0]);"
        "return e.shadowRoot ? [...e.shadowRoot.querySelectorAll('a')].map(a => a.textContent) : null;"
    )
    wait.until(lambda d: d.execute_script(script, "#music"))
    return [
        *driver.execute_script(script, "#music"),
        "|",
        *(driver.execute_script(script, "#all") or []),
    ]


async def test_the_embed_element_on_another_origin(
    site: Site, browser: WebDriver, embed_server: tuple[str, Path]
) -> None:
    _, root = embed_server
    (root / "index.html").write_text(
        '<!doctype html><html lang="en"><head><title>Another site</title></head><body>'
        f'<script src="{site.base}/embed.js" async></script>'
        '<almanac-events id="music" category="music" lang="de"><a href="x">Calendar</a></almanac-events>'
        '<almanac-events id="all" limit="3"></almanac-events></body></html>',
        encoding="utf-8",
    )
    shown = await asyncio.to_thread(_embedded, browser, f"{site.embed_base}/index.html")
    music, _, every = "|".join(shown).partition("|")
    assert music.strip("|") == "Jazz on the River"
    assert len([title for title in every.split("|") if title]) == 3


def _nonce(response: httpx.Response) -> str:
    """The nonce of the page's policy, after checking every script of the page has it."""
    found = re.search(r"'nonce-([^']+)'", response.headers["content-security-policy"])
    assert found is not None
    scripts = re.findall(r"<script\b[^>]*>", response.text)
    assert scripts
    assert all(f'nonce="{found.group(1)}"' in script for script in scripts)
    return found.group(1)


async def test_a_write_shows_on_the_next_load(site: Site) -> None:
    event = site.records["talk0"]
    path = f"{site.base}/event/{event['slug']}/"
    async with httpx.AsyncClient(timeout=30) as client:
        first = await client.get(path)
        again = await client.get(path)
        assert again.headers["x-almanac-cache"] == "hit"
        # The same page, each response with a nonce of its own in its policy and its scripts.
        nonces = [_nonce(response) for response in (first, again)]
        assert nonces[0] != nonces[1]
        assert again.text.replace(nonces[1], nonces[0]) == first.text
        changed = await client.post(
            f"{site.base}{API}/events/{event['id']}",
            json={"title": "City Talk, moved"},
            auth=site.auth,
        )
        assert changed.status_code == 200
        after = await client.get(path)
        listing = await client.get(f"{site.base}/events/month/{event['start_date'][:7]}/")
    assert after.headers["x-almanac-cache"] == "miss"
    # A hit of a page without a language prefix keeps the page's language, whatever the
    # Accept-Language of the request that hits it.
    async with httpx.AsyncClient(timeout=30) as client:
        for _ in range(2):
            german = await client.get(path, headers={"Accept-Language": "de"})
    assert german.headers["x-almanac-cache"] == "hit"
    assert german.headers["content-language"] == "en"
    assert "City Talk, moved" in after.text
    assert "City Talk, moved" in listing.text
