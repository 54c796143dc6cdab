"""An editor's markup on the public pages, opened by a signed-in administrator in headless
Chromium against a real server (tests/live/desk_harness.py): the pages share the desk's
origin, so a script there would act as the administrator. An editor writes a description
whose script reads the desk's CSRF token and posts a role change (a subscriber made an
administrator), an image whose error handler and a link whose `javascript:` URL set
sentinels. The administrator opens the event's page and the list, and clicks the link:
nothing runs, and the subscriber stays one (asked through the API)."""

import asyncio
import time
from typing import Any

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.live.desk_harness import DeskSite, sign_in

API = "/calendar/events/v1"
# The escalation as it worked before pages sanitised an editor's markup: the desk's users
# screen gives the CSRF token, the role form takes it.
ESCALATION = """
window.almanacRan = true;
fetch('/desk/users').then(function (r) { return r.text(); }).then(function (page) {
  var token = page.match(/name="csrf_token" value="([^"]+)"/)[1];
  var form = new URLSearchParams({csrf_token: token, role: 'administrator'});
  return fetch('/desk/users/SUBSCRIBER/role', {method: 'POST', body: form});
}).then(function () { document.title = 'pwned'; });
"""


def _description(subscriber: int) -> str:
    return (
        "<p>Opening night of the season.</p>"
        f"<script>{ESCALATION.replace('SUBSCRIBER', str(subscriber))}</script>"
        '<img src="/no-such-image.png" onerror="window.almanacImage = true">'
        '<a id="trap" href="javascript:window.almanacLink = true">Programme</a>'
        '<svg onload="window.almanacSvg = true"></svg>'
    )


def _subscriber_id(driver: WebDriver, site: DeskSite) -> int:
    driver.get(site.url("users"))
    login = site.people["subscriber"].login
    label = driver.find_element(By.XPATH, f"//label[contains(., '{login}')]")
    return int(str(label.get_attribute("for")).removeprefix("role-"))


def _visit(driver: WebDriver, urls: list[str]) -> dict[str, list[Any]]:
    """Open each page, click the trap link where there is one, and give scripts time."""
    seen: dict[str, list[Any]] = {}
    for url in urls:
        driver.get(url)
        assert "Opening night" in driver.page_source, url  # the description is on the page
        for link in driver.find_elements(By.LINK_TEXT, "Programme"):
            link.click()
        time.sleep(2)  # the escalation's two fetches take milliseconds when they run
        seen[url] = driver.execute_script(
            "return [document.title, !!window.almanacRan, !!window.almanacImage,"
            " !!window.almanacLink, !!window.almanacSvg]"
        )
    return seen


async def _can_write(site: DeskSite, role: str) -> int:
    """The status of an event created through the API with the role's person's password."""
    async with httpx.AsyncClient(timeout=30) as client:
        answer = await client.post(
            f"{site.base}{API}/events",
            json={"title": "Who am I", "start_date": "+1 day", "end_date": "+2 days"},
            auth=site.api_auth(role),
        )
    return answer.status_code


async def test_an_editors_script_does_not_run_for_a_signed_in_administrator(
    desk_site: DeskSite, desk_browser: WebDriver
) -> None:
    assert await _can_write(desk_site, "subscriber") in (401, 403)
    await asyncio.to_thread(sign_in, desk_browser, desk_site, "administrator")
    subscriber = await asyncio.to_thread(_subscriber_id, desk_browser, desk_site)
    async with httpx.AsyncClient(timeout=30) as client:
        made = await client.post(
            f"{desk_site.base}{API}/events",
            json={
                "title": "Season opening",
                "start_date": "+1 day",
                "end_date": "+2 days",
                "description": _description(subscriber),
                "excerpt": _description(subscriber),
                "status": "publish",
            },
            auth=desk_site.api_auth("editor"),
        )
    assert made.status_code == 201, made.text
    assert "<script>" in made.json()["description"]  # kept as written (unfiltered_html)
    pages = [f"{desk_site.base}/event/{made.json()['slug']}/", f"{desk_site.base}/events/list/"]
    seen = await asyncio.to_thread(_visit, desk_browser, pages)
    # The subscriber is still one: the API refuses them a write, as before (an
    # administrator's would be 201).
    assert await _can_write(desk_site, "subscriber") in (401, 403)
    for url, (title, ran, image, link, svg) in seen.items():
        assert title != "pwned", url
        assert (ran, image, link, svg) == (False, False, False, False), url
