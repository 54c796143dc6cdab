"""The RSVP form of an event page in a real browser (Debian's headless Chromium against a real
`almanac serve`), with its scripts on and off: a person fills it in with the keyboard,
waits as a person does (the time trap), sends it and lands on their own page, then changes
and cancels their answer there; a form sent too soon, and one refused at a field, say so
where the person is. axe-core finds no WCAG 2.1 A/AA violation on any of these pages, in
light and dark, at desktop width and at 375 px. With scripts, a refused form is put in
place without a reload (static/rsvp.js), the focus on its message. The honeypot is never reached by the Tab
key. Over HTTP: a page with a ticket is never a cache hit, one without still is.

`ALMANAC_SCREENSHOTS=docs/img` writes screenshots of the form and the attendee's page."""

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from app.pages.rsvp_form import MIN_SECONDS
from tests.live.desk_harness import (
    axe_violations,
    browser_errors,
    headless_chromium,
    screenshot,
)
from tests.live.harness import add_user, almanac_server, fresh_database
from tests.live.test_pages_browser import API, FORMS

WAIT = 60
TOMORROW = datetime.now(UTC).date() + timedelta(days=1)


class Site:
    def __init__(self, base: str, auth: tuple[str, str]) -> None:
        self.base = base
        self.auth = auth

    async def post(self, client: httpx.AsyncClient, path: str, **fields: Any) -> dict[str, Any]:
        response = await client.post(f"{self.base}{API}/{path}", json=fields, auth=self.auth)
        assert response.status_code == 201, response.text
        body: dict[str, Any] = response.json()
        return body

    async def ticketed(self, title: str, **ticket: Any) -> dict[str, Any]:
        """A published event tomorrow with one ticket; the event's body."""
        async with httpx.AsyncClient(timeout=30) as client:
            event = await self.post(
                client, "events", title=title, start_date=f"{TOMORROW} 19:00:00",
                end_date=f"{TOMORROW} 21:00:00", description="<p>Readings by the river.</p>",
            )  # fmt: skip
            fields = {"name": "Entry", "capacity": 30, "max_per_person": 4, **ticket}
            await self.post(client, "tickets", event=event["id"], **fields)
        return event


@pytest.fixture(scope="module")
async def site(database_url: str) -> AsyncIterator[Site]:
    async with fresh_database(database_url, "almanac_pages_rsvp_browser", migrated=True) as url:
        _, password = await add_user(url, "rsvp-editor", "editor")
        async with almanac_server(url, SITE_NAME="Riverside Calendar") as base:
            yield Site(base, ("rsvp-editor", password))


@pytest.fixture(scope="module", params=["scripts", "no scripts"])
def browser(request: pytest.FixtureRequest) -> Iterator[WebDriver]:
    driver = headless_chromium(scripts=request.param == "scripts")
    driver.scripts = request.param == "scripts"  # type: ignore[attr-defined]
    try:
        yield driver
    finally:
        driver.quit()


def _axe_everywhere(driver: WebDriver, name: str) -> dict[str, Any]:
    """axe's violations on the current page in each form (a resize and a colour scheme,
    which the page's media queries follow without a reload). axe runs in the page: not
    where the pages' scripts are off (the same HTML, audited with them on)."""
    found: dict[str, Any] = {}
    if not getattr(driver, "scripts", True):
        return found
    for form, (width, height, scheme) in FORMS.items():
        driver.set_window_size(width, height)
        media = {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", media)  # type: ignore[attr-defined]
        violations = axe_violations(driver)
        if violations:
            found[f"{name}, {form}"] = [
                (v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations
            ]
    light = {"features": [{"name": "prefers-color-scheme", "value": "light"}]}
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", light)  # type: ignore[attr-defined]
    driver.set_window_size(*FORMS["desktop"][:2])
    return found


def _fill(driver: WebDriver, name: str, email: str, places: str) -> None:
    """The form with the keyboard: the name field first, then Tab from field to field."""
    field = driver.find_element(By.CSS_SELECTOR, "form.rsvp input[name=name]")
    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(name, Keys.TAB)
    active = driver.switch_to.active_element
    active.send_keys(Keys.CONTROL, "a")
    active.send_keys(email, Keys.TAB)
    active = driver.switch_to.active_element
    active.send_keys(Keys.CONTROL, "a")
    active.send_keys(places)


def _tab_order(driver: WebDriver) -> list[str]:
    """The names of the form's controls the Tab key reaches, from its name field on."""
    driver.find_element(By.CSS_SELECTOR, "form.rsvp input[name=name]").click()
    reached = []
    for _ in range(12):
        active = driver.switch_to.active_element
        reached.append(active.get_attribute("name") or active.tag_name)
        if active.tag_name == "button":
            break
        active.send_keys(Keys.TAB)
    return reached


def _send(driver: WebDriver) -> None:
    button = driver.find_element(By.CSS_SELECTOR, "form.rsvp button[type=submit]")
    button.send_keys(Keys.ENTER)


def _journey(driver: WebDriver, base: str, event: dict[str, Any]) -> dict[str, Any]:
    """A person's way through the form and their page; what they saw."""
    seen: dict[str, Any] = {}
    wait = WebDriverWait(driver, WAIT)
    driver.get(f"{base}/event/{event['slug']}/")
    seen["axe"] = _axe_everywhere(driver, "form")
    seen["tab order"] = _tab_order(driver)
    screenshot(driver, "rsvp-form")
    # At once (a fresh page: the audit took seconds): the time trap's message, the answer
    # kept.
    driver.get(f"{base}/event/{event['slug']}/")
    _fill(driver, "Ada Lovelace", "ada@example.org", "2")
    driver.execute_script("window.almanacSamePage = true")  # gone with a reload
    _send(driver)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".ticket [role=alert]"))
    seen["too soon"] = driver.find_element(By.CSS_SELECTOR, ".ticket [role=alert]").text
    seen["inline"] = driver.execute_script("return window.almanacSamePage === true")
    seen["focus, too soon"] = driver.switch_to.active_element.get_attribute("class")
    seen["kept"] = driver.find_element(By.CSS_SELECTOR, "form.rsvp input[name=name]").get_attribute(
        "value"
    )
    seen["axe"].update(_axe_everywhere(driver, "too soon"))
    # As a person would: a few seconds later, the same form again.
    time.sleep(MIN_SECONDS + 0.5)
    driver.find_element(By.CSS_SELECTOR, "form.rsvp input[name=email]").clear()
    driver.find_element(By.CSS_SELECTOR, "form.rsvp input[name=email]").send_keys("ada@example.org")
    _send(driver)
    wait.until(lambda d: "/rsvp/" in d.current_url)
    seen["landed"] = driver.current_url
    seen["notice"] = driver.find_element(By.CSS_SELECTOR, "[role=status]").text
    seen["axe"].update(_axe_everywhere(driver, "attendee page"))
    screenshot(driver, "rsvp-attendee")
    mine = driver.current_url.split("?")[0]
    # A second answer of the same address beyond what one person may hold: at its field.
    driver.get(f"{base}/event/{event['slug']}/")
    time.sleep(MIN_SECONDS + 0.5)
    _fill(driver, "Ada Lovelace", "ada@example.org", "3")
    _send(driver)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".field-error"))
    seen["field error"] = driver.find_element(By.CSS_SELECTOR, ".field-error").text
    seen["focus, field error"] = driver.switch_to.active_element.get_attribute("name")
    places = driver.find_element(By.CSS_SELECTOR, "form.rsvp input[name=quantity]")
    seen["invalid"] = places.get_attribute("aria-invalid")
    seen["axe"].update(_axe_everywhere(driver, "field error"))
    # Their own page: one place fewer, then cancelled.
    driver.get(mine)
    places = driver.find_element(By.ID, "change-quantity")
    places.send_keys(Keys.CONTROL, "a")
    places.send_keys("1", Keys.ENTER)
    wait.until(lambda d: "done=changed" in d.current_url)
    seen["changed"] = driver.find_element(By.CSS_SELECTOR, "[role=status]").text
    driver.find_element(By.CSS_SELECTOR, "form.cancel button").send_keys(Keys.ENTER)
    wait.until(lambda d: "done=cancelled" in d.current_url)
    seen["cancelled"] = driver.find_element(By.CSS_SELECTOR, "[role=status]").text
    seen["forms left"] = len(driver.find_elements(By.CSS_SELECTOR, "form.rsvp, form.cancel"))
    seen["axe"].update(_axe_everywhere(driver, "cancelled"))
    # A refused form is answered with its status (400): the console notes the page's own
    # status, which is no error of the page.
    seen["errors"] = [
        message
        for message in browser_errors(driver)
        if "Failed to load resource: the server responded with a status of 400" not in message
    ]
    return seen


async def test_a_person_answers_changes_and_cancels(site: Site, browser: WebDriver) -> None:
    event = await site.ticketed(f"Poetry Night {id(browser)}")
    seen = await asyncio.to_thread(_journey, browser, site.base, event)
    assert seen["axe"] == {}
    assert seen["tab order"] == ["name", "email", "quantity", "going", "button"]
    assert "quicker than a person fills in a form" in seen["too soon"]
    # With scripts, a refusal is put in place without a reload, the focus on its message.
    scripts = getattr(browser, "scripts", True)
    assert seen["inline"] is scripts
    if scripts:
        assert seen["focus, too soon"] == "error"
        assert seen["focus, field error"] == "quantity"
    assert seen["kept"] == "Ada Lovelace"
    assert "/rsvp/" in seen["landed"]
    assert seen["landed"].endswith("?done=answered#answer")
    assert "Thank you!" in seen["notice"]
    assert "Choose from 1 to 4 places" in seen["field error"]
    assert seen["invalid"] == "true"
    assert seen["changed"] == "Your answer is changed."
    assert seen["cancelled"] == "Your answer is cancelled."
    assert seen["forms left"] == 0
    assert seen["errors"] == []


async def test_a_page_with_a_ticket_is_never_a_cache_hit(site: Site) -> None:
    """A page with a form is never stored; one without is, until a ticket is added to its
    event (a ticket's write draws a new data version); an answer is seen at the next read."""
    event = await site.ticketed("Quiet Reading")
    async with httpx.AsyncClient(timeout=30) as client:
        plain = await site.post(
            client, "events", title="Open Stage", start_date=f"{TOMORROW} 18:00:00",
            end_date=f"{TOMORROW} 19:00:00",
        )  # fmt: skip
        ticketed = [await client.get(f"{site.base}/event/{event['slug']}/") for _ in range(2)]
        untouched = [await client.get(f"{site.base}/event/{plain['slug']}/") for _ in range(2)]
        ticket = await site.post(client, "tickets", event=plain["id"], name="Stage seats")
        added = await client.get(f"{site.base}/event/{plain['slug']}/")
        before = await client.get(f"{site.base}{API}/tickets/{ticket['id']}")
        answered = await client.post(
            f"{site.base}{API}/tickets/{ticket['id']}/rsvp",
            json={"name": "Ada", "email": "ada@example.org", "quantity": 2},
        )
        assert answered.status_code == 201, answered.text
        after = await client.get(f"{site.base}{API}/tickets/{ticket['id']}")
    assert [r.headers.get("x-almanac-cache") for r in ticketed] == ["miss", "miss"]
    assert all(r.headers["cache-control"] == "no-store" for r in ticketed)
    stamps = [r.text.split('name="stamp" value="')[1].split('"')[0] for r in ticketed]
    assert stamps[0] != stamps[1]  # a form made for each visitor
    assert untouched[1].headers["x-almanac-cache"] == "hit"
    assert added.headers.get("x-almanac-cache") == "miss"
    assert "Stage seats" in added.text
    assert (before.json()["taken"], after.json()["taken"]) == (0, 2)
