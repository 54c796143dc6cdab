"""`<almanac-events view="month">` in headless Chromium, in a browser east of UTC
(Europe/Berlin) and one west of it (America/Los_Angeles), Chromium's zone set per page
through CDP's `Emulation.setTimezoneOverride`: the widget shows the same events on the same
days as the public month page - the month's last day, an event that starts in the month
and ends after it, one that began before it, and not one that ends at the month's first
midnight."""

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from tests.live.desk_harness import chromium
from tests.live.harness import add_user, almanac_server, fresh_database, served_directory

API = "/calendar/events/v1"
ZONES = ("Europe/Berlin", "America/Los_Angeles")
SITE_ZONE = "Europe/Bratislava"
# A month of its own, far from today's: the reference's Grand Wine Masterclass over its end.
MONTH = date(2031, 11, 1)
Days = dict[str, list[str]]


def _at(day: date, hour: int, minute: int = 0) -> str:
    return f"{day.isoformat()} {hour:02}:{minute:02}:00"


def _month_events(first: date) -> list[dict[str, Any]]:
    """Events around the month starting `first`: on its first and last day, over its end,
    from before it, and one ending at its first midnight (on none of its days)."""
    last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    return [
        {"title": f"Brunch {first:%m}", "start_date": _at(first, 10), "end_date": _at(first, 12)},
        {
            "title": f"Late Concert {first:%m}",
            "start_date": _at(last, 21),
            "end_date": _at(last, 23),
        },
        {
            "title": f"Grand Wine Masterclass {first:%m}",
            "start_date": _at(last - timedelta(days=1), 18),
            "end_date": _at(last + timedelta(days=3), 22),
        },
        {
            "title": f"Carry-over Fair {first:%m}",
            "start_date": _at(first - timedelta(days=2), 10),
            "end_date": _at(first + timedelta(days=1), 18),
        },
        {
            "title": f"Night Before {first:%m}",
            "start_date": _at(first - timedelta(days=1), 20),
            "end_date": _at(first, 0),
        },
    ]


@pytest.fixture(scope="module")
def embedding_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A plain static server on a second local port: the other site that embeds."""
    root = tmp_path_factory.mktemp("embedding-month")
    with served_directory(root) as origin:
        yield origin, root


@pytest.fixture(scope="module")
async def site(database_url: str, embedding_site: tuple[str, Path]) -> AsyncIterator[str]:
    origin, _ = embedding_site
    async with fresh_database(database_url, "almanac_embed_month", migrated=True) as url:
        _, password = await add_user(url, "embed-editor", "editor")
        env = {"CORS_ORIGINS": origin, "SITE_TIMEZONE": SITE_ZONE}
        async with almanac_server(url, **env) as base:
            # The fixed month, and the months around today in both zones (the element
            # without a month shows the visitor's own).
            months = {MONTH} | {datetime.now(ZoneInfo(z)).date().replace(day=1) for z in ZONES}
            async with httpx.AsyncClient(timeout=30) as client:
                for first in sorted(months):
                    for event in _month_events(first):
                        response = await client.post(
                            f"{base}{API}/events", json=event, auth=("embed-editor", password)
                        )
                        assert response.status_code == 201, response.text
            yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


CELL = re.compile(r'<td class="([^"]*)">(.*?)</td>', re.S)


async def _month_page(base: str, month: date) -> Days:
    """The month page's days of the month (not the grid's days of other months): titles."""
    async with httpx.AsyncClient(timeout=30) as client:
        response = await client.get(f"{base}/events/month/{month:%Y-%m}/")
    assert response.status_code == 200
    days: Days = {}
    for classes, cell in CELL.findall(response.text):
        day = re.search(r"/events/(\d{4}-\d{2}-\d{2})/", cell)
        assert day is not None
        titles = re.findall(r"<li><a [^>]*>([^<]*)</a></li>", cell)
        if "other-month" not in classes and titles:
            days[day.group(1)] = titles
    return days


WIDGET = """
const element = document.querySelector(arguments[0]);
if (!element || !element.shadowRoot) return null;
const days = {};
for (const heading of element.shadowRoot.querySelectorAll("h3")) {
  const time = heading.querySelector("time");
  const key = time ? time.dateTime : heading.textContent;
  days[key] = [...heading.nextElementSibling.querySelectorAll("a")].map(a => a.textContent);
}
return days;
"""


def _widget(driver: WebDriver, zone: str, page: str) -> tuple[Days, Days, str]:
    """The two elements' days (the fixed month's, the visitor's own month's) in `zone`,
    and the month the browser itself is in."""
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": zone})  # type: ignore[attr-defined]
    driver.get(page)
    wait = WebDriverWait(driver, 60)
    wait.until(lambda d: d.execute_script(WIDGET, "#fixed") and d.execute_script(WIDGET, "#own"))
    own_month = str(
        driver.execute_script(
            "const n = new Date(); return `${n.getFullYear()}-${String(n.getMonth() + 1).padStart(2, '0')}`;"
        )
    )
    return driver.execute_script(WIDGET, "#fixed"), driver.execute_script(WIDGET, "#own"), own_month


@pytest.mark.parametrize("zone", ZONES)
async def test_the_widgets_month_is_the_month_pages(
    site: str, browser: WebDriver, embedding_site: tuple[str, Path], zone: str
) -> None:
    origin, root = embedding_site
    (root / "month.html").write_text(
        '<!doctype html><html lang="en"><head><title>Another site</title></head><body>'
        f'<script src="{site}/embed.js" async></script>'
        f'<almanac-events id="fixed" view="month" month="{MONTH:%Y-%m}"></almanac-events>'
        '<almanac-events id="own" view="month"></almanac-events></body></html>',
        encoding="utf-8",
    )
    fixed, own, own_month = await asyncio.to_thread(_widget, browser, zone, f"{origin}/month.html")
    assert own_month == f"{datetime.now(ZoneInfo(zone)):%Y-%m}"  # the override took
    expected = await _month_page(site, MONTH)
    assert fixed == expected
    assert expected == {
        "2031-11-01": ["Carry-over Fair 11", "Brunch 11"],
        "2031-11-02": ["Carry-over Fair 11"],
        "2031-11-29": ["Grand Wine Masterclass 11"],
        "2031-11-30": ["Grand Wine Masterclass 11", "Late Concert 11"],
    }
    # The visitor's own month (no attribute): the same as that month's page, its last day
    # and the event over its end included.
    month = date.fromisoformat(f"{own_month}-01")
    page = await _month_page(site, month)
    assert own == page
    last = (month + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    assert f"Grand Wine Masterclass {month:%m}" in own[last.isoformat()]
    assert f"Late Concert {month:%m}" in own[last.isoformat()]
