"""The desk's foundation in headless Chromium against a real server (tests/live/desk_harness.py):
signing in with the keyboard and out, a revoked session signed out on its next request, a
cross-site form refused, and axe-core on the sign-in, home and sessions screens at desktop
width and 375 px."""

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.live.desk_harness import (
    DeskSite,
    assert_accessible,
    browser_errors,
    screenshot,
    sign_in,
    sign_out,
    wait,
)
from tests.live.harness import served_directory

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture(scope="module")
def other_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A plain static server on another local port: the site a cross-site form comes from."""
    root = tmp_path_factory.mktemp("other-site")
    with served_directory(root) as origin:
        yield origin, root


def _sign_in_out(driver: WebDriver, site: DeskSite) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.delete_all_cookies()
    driver.get(site.url("signin"))
    assert_accessible(driver, "sign-in")
    screenshot(driver, "desk-signin")
    sign_in(driver, site, "editor")
    seen["home_heading"] = driver.find_element(By.TAG_NAME, "h1").text
    seen["nav"] = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "nav.screens a")]
    assert_accessible(driver, "home")
    screenshot(driver, "desk-home")
    driver.find_element(By.LINK_TEXT, "My sessions").click()
    wait(driver).until(lambda d: d.current_url.endswith("/desk/sessions/"))
    seen["sessions"] = len(driver.find_elements(By.CSS_SELECTOR, "main tbody tr"))
    assert_accessible(driver, "sessions")
    driver.find_element(By.LINK_TEXT, "DE").click()
    wait(driver).until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de")
    seen["german_heading"] = driver.find_element(By.TAG_NAME, "h1").text
    sign_out(driver)
    seen["signed_out_notice"] = driver.find_element(By.CSS_SELECTOR, ".notice").text
    driver.get(site.url())
    wait(driver).until(lambda d: "/signin" in d.current_url)
    seen["after_sign_out"] = driver.current_url
    seen["errors"] = browser_errors(driver)
    return seen


async def test_sign_in_with_the_keyboard_and_out(
    desk_site: DeskSite, desk_browser: WebDriver
) -> None:
    seen = await asyncio.to_thread(_sign_in_out, desk_browser, desk_site)
    assert seen["home_heading"] == "Welcome, desk-editor"
    assert seen["nav"][:3] == ["Home", "Events", "Add event"]
    assert "Users" not in seen["nav"]  # administrators only
    assert seen["sessions"] == 1
    assert seen["german_heading"] == "Meine Sitzungen"
    assert seen["signed_out_notice"] == "Sie haben sich abgemeldet."
    assert "next=" in seen["after_sign_out"]
    assert seen["errors"] == []  # no script or style refused by the CSP


async def _sign_in_over_http(client: httpx.AsyncClient, site: DeskSite, role: str) -> str:
    """Sign the role's person in with `client`; the session's CSRF token."""
    person = site.people[role]
    answer = await client.post(
        "/desk/signin", data={"login": person.login, "password": person.account_password}
    )
    assert answer.status_code == 303
    found = CSRF.search((await client.get("/desk/sessions/")).text)
    assert found is not None
    return found.group(1)


async def test_a_revoked_session_is_signed_out_on_its_next_request(
    desk_site: DeskSite, desk_browser: WebDriver
) -> None:
    await asyncio.to_thread(desk_browser.delete_all_cookies)
    await asyncio.to_thread(sign_in, desk_browser, desk_site, "author")
    # The same person elsewhere ends every other session: the browser's among them.
    async with httpx.AsyncClient(base_url=desk_site.base, timeout=30) as client:
        token = await _sign_in_over_http(client, desk_site, "author")
        ended = await client.post("/desk/sessions/end-others", data={"csrf_token": token})
        assert ended.status_code == 303
        still = await client.get("/desk/sessions/")
    assert still.status_code == 200

    def next_request(driver: WebDriver) -> tuple[str, str]:
        driver.get(desk_site.url("sessions/"))
        wait(driver).until(lambda d: "/signin" in d.current_url)
        return driver.current_url, driver.find_element(By.CSS_SELECTOR, ".notice").text

    url, notice = await asyncio.to_thread(next_request, desk_browser)
    assert "ended=1" in url
    assert notice == "Your session has ended. Please sign in again."


async def test_a_cross_site_form_is_refused(
    desk_site: DeskSite, desk_browser: WebDriver, other_site: tuple[str, Path]
) -> None:
    """A page of another origin (another port of the same host: same-site, so the SameSite
    cookie goes along) posts a desk form with the right CSRF token: refused by its origin."""
    other, root = other_site

    def attack(driver: WebDriver) -> tuple[str, int]:
        driver.delete_all_cookies()
        sign_in(driver, desk_site, "contributor")
        driver.get(desk_site.url("sessions/"))
        token = driver.find_element(By.CSS_SELECTOR, "input[name=csrf_token]").get_attribute(
            "value"
        )
        (root / "attack.html").write_text(
            '<!doctype html><html lang="en"><head><title>Win a prize</title></head><body>'
            f'<form method="post" action="{desk_site.url("signout")}">'
            f'<input type="hidden" name="csrf_token" value="{token}">'
            '<button id="go" type="submit">Claim</button></form></body></html>',
            encoding="utf-8",
        )
        driver.get(f"{other}/attack.html")
        driver.find_element(By.ID, "go").click()
        wait(driver).until(lambda d: d.current_url.startswith(desk_site.base))
        refusal = driver.find_element(By.CSS_SELECTOR, "main .problem").text
        driver.get(desk_site.url("sessions/"))  # still signed in
        return refusal, len(driver.find_elements(By.CSS_SELECTOR, "main tbody tr"))

    refusal, sessions = await asyncio.to_thread(attack, desk_browser)
    assert refusal == "This form was sent from another site."
    assert sessions == 1


async def test_desk_cookie_reads_bypass_the_response_cache(desk_site: DeskSite) -> None:
    """A read with the desk's cookie is the person's own (drafts included): the response
    cache neither serves it the anonymous answer it holds nor stores it."""
    event = {"start_date": "2031-05-01 10:00:00", "end_date": "2031-05-01 12:00:00"}
    async with httpx.AsyncClient(base_url=desk_site.base, timeout=30) as anonymous:
        draft = await anonymous.post(
            "/calendar/events/v1/events",
            json={**event, "title": "Unannounced Gala", "status": "draft"},
            auth=desk_site.api_auth("editor"),
        )
        assert draft.status_code == 201
        listing = "/calendar/events/v1/events?start_date=2031-05-01&end_date=2031-05-02"
        page = f"/event/{draft.json()['slug']}/"
        for _ in range(2):
            public = await anonymous.get(listing)
            public_page = await anonymous.get(page)
        assert public.headers["x-almanac-cache"] == "hit"
        assert public.json()["events"] == []
        assert public_page.status_code == 404
    async with httpx.AsyncClient(base_url=desk_site.base, timeout=30) as editor:
        await _sign_in_over_http(editor, desk_site, "editor")
        for _ in range(2):
            mine = await editor.get(listing)
            mine_page = await editor.get(page)
        assert "x-almanac-cache" not in mine.headers
        assert [e["title"] for e in mine.json()["events"]] == ["Unannounced Gala"]
        assert mine.headers["cache-control"].startswith("private")
        assert mine_page.status_code == 200
        assert "Unannounced Gala" in mine_page.text
    async with httpx.AsyncClient(base_url=desk_site.base, timeout=30) as again:
        after = await again.get(listing)
    assert after.json()["events"] == []  # the editor's answer was not stored


async def test_the_users_screen_is_accessible(desk_site: DeskSite, desk_browser: WebDriver) -> None:
    def visit(driver: WebDriver) -> list[str]:
        driver.delete_all_cookies()
        sign_in(driver, desk_site, "administrator", next_path="users/")
        logins = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "tbody th")]
        assert_accessible(driver, "users")
        return logins

    logins = await asyncio.to_thread(visit, desk_browser)
    assert "desk-administrator you" in logins
    assert "desk-subscriber" in logins
