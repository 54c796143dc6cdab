"""The desk's tickets and attendees in headless Chromium against a real server
(tests/live/desk_harness.py): a ticket added from the event editor with the keyboard, the
attendees' list and its check-in button, the check-in a ticket's QR code opens (once, then
"already checked in"), the outbox; axe-core on each screen at desktop width and 375 px.
`ALMANAC_SCREENSHOTS=docs/img` writes docs/img/desk-tickets.png and desk-attendees.png."""

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.core.settings import get_settings
from app.tickets.links import link_key, sign
from tests.live.desk_harness import (
    DeskSite,
    assert_accessible,
    browser_errors,
    headless_chromium,
    screenshot,
    sign_in,
    wait,
)

API = "/calendar/events/v1"
DAY = (datetime.now(UTC) + timedelta(days=60)).date()


async def _event(site: DeskSite, title: str = "Jazz on the river") -> int:
    async with httpx.AsyncClient(base_url=site.base, timeout=60) as client:
        body = {
            "title": title,
            "start_date": f"{DAY} 20:00:00",
            "end_date": f"{DAY} 22:00:00",
            "status": "publish",
        }
        answer = await client.post(f"{API}/events", json=body, auth=site.api_auth("editor"))
        assert answer.status_code == 201, answer.text
        return int(answer.json()["id"])


async def _answers(site: DeskSite, event_id: int, **new_ticket: Any) -> dict[str, int]:
    """Ann's two places and Bob's one on the event's ticket (made here when `new_ticket`
    says how), as visitors answer through the API."""
    ids = {}
    async with httpx.AsyncClient(base_url=site.base, timeout=60) as client:
        if new_ticket:
            body = {"event": event_id, "name": "Entry", **new_ticket}
            made = await client.post(f"{API}/tickets", json=body, auth=site.api_auth("editor"))
            assert made.status_code == 201, made.text
        tickets = await client.get(f"{API}/tickets", params={"event": event_id})
        [ticket] = tickets.json()["tickets"]
        for name, quantity in (("Ann", 2), ("Bob", 1)):
            body = {"name": name, "email": f"{name.lower()}@example.org", "quantity": quantity}
            answer = await client.post(f"{API}/tickets/{ticket['id']}/rsvp", json=body)
            assert answer.status_code == 201, answer.text
            ids[name] = int(answer.json()["id"])
    return ids


async def _check_in_path(site: DeskSite, attendee_id: int) -> str:
    """The desk path of the attendee's QR link (its code signed with the server's key)."""
    engine = create_async_engine(site.database_url)
    try:
        async with engine.connect() as conn:
            query = text("SELECT secret FROM attendees WHERE id = :id")
            secret = str((await conn.execute(query, {"id": attendee_id})).scalar_one())
    finally:
        await engine.dispose()
    code = sign(link_key(get_settings().app_password_pepper), "check_in", attendee_id, secret)
    return f"check-in/{attendee_id}/{code}/"


def _add_ticket(driver: WebDriver, site: DeskSite, event_id: int) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.delete_all_cookies()
    sign_in(driver, site, "editor", f"events/{event_id}/edit")
    driver.find_element(By.LINK_TEXT, "Tickets and RSVP").click()
    wait(driver).until(lambda d: d.current_url.endswith(f"/events/{event_id}/tickets"))
    assert_accessible(driver, "tickets (none yet)")
    name = driver.find_element(By.ID, "f-name")
    name.send_keys("Entry", Keys.TAB)
    driver.switch_to.active_element.send_keys("Free entry, first come first served.")
    capacity = driver.find_element(By.ID, "f-capacity")
    capacity.send_keys("3")
    driver.find_element(By.ID, "f-waitlist").send_keys(Keys.SPACE)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").send_keys(Keys.ENTER)
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"))
    seen["flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    seen["rows"] = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "table tbody td")]
    assert_accessible(driver, "tickets")
    screenshot(driver, "desk-tickets")
    seen["errors"] = browser_errors(driver)
    return seen


def _attendees(driver: WebDriver, site: DeskSite, event_id: int, qr: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    driver.get(site.url(f"events/{event_id}/attendees"))
    seen["names"] = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "table tbody th")]
    seen["going"] = driver.find_element(By.CSS_SELECTOR, "ul.attendance li .number").text
    assert_accessible(driver, "attendees")
    screenshot(driver, "desk-attendees")
    row = "//tr[th[normalize-space(.)='Ann']]"
    driver.find_element(By.XPATH, f"{row}//form[contains(@action, '/check-in')]//button").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"))
    seen["checked_flash"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
    seen["buttons_left"] = len(driver.find_elements(By.CSS_SELECTOR, "form[action$='/check-in']"))
    seen["errors"] = browser_errors(driver)
    # A message without its texts: refused at its fields (a 400 the console reports), the
    # page still accessible.
    driver.find_element(By.XPATH, "//button[normalize-space(.)='Send to all attendees']").click()
    wait(driver).until(lambda d: d.find_elements(By.ID, "f-subject-error"))
    assert_accessible(driver, "attendees, a refused message")
    browser_errors(driver)
    # The QR code's link, opened on a phone signed in to the desk.
    driver.set_window_size(375, 812)
    driver.get(site.url(qr))
    seen["qr_heading"] = driver.find_element(By.TAG_NAME, "h1").text
    assert_accessible(driver, "check-in")
    driver.set_window_size(375, 812)
    driver.find_element(By.CSS_SELECTOR, "button.big").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".checked-in"))
    seen["checked_in"] = driver.find_element(By.CSS_SELECTOR, ".checked-in").text
    driver.get(site.url(qr))  # a second scan
    seen["second_scan"] = driver.find_element(By.CSS_SELECTOR, ".checked-in").text
    assert_accessible(driver, "check-in, second scan")
    driver.get(site.url("outbox/"))
    seen["outbox_notice"] = driver.find_element(By.CSS_SELECTOR, ".mail-not-set-up").text
    assert_accessible(driver, "outbox")
    seen["errors"] += browser_errors(driver)
    return seen


async def test_tickets_attendees_and_check_in(desk_site: DeskSite, desk_browser: WebDriver) -> None:
    event_id = await _event(desk_site)
    added = await asyncio.to_thread(_add_ticket, desk_browser, desk_site, event_id)
    assert added["flash"] == "Ticket added: Entry."
    assert added["rows"][:3] == ["0 / 3", "3", "10"]
    assert added["errors"] == []

    ids = await _answers(desk_site, event_id)
    qr = await _check_in_path(desk_site, ids["Bob"])
    seen = await asyncio.to_thread(_attendees, desk_browser, desk_site, event_id, qr)
    assert sorted(seen["names"]) == ["Ann", "Bob"]
    assert seen["going"] == "3"  # places
    assert seen["checked_flash"] == "Checked in: Ann."
    assert seen["buttons_left"] == 1  # Bob's
    assert seen["qr_heading"] == "Check-in: Bob"
    assert seen["checked_in"].startswith("Checked in at ")
    assert seen["second_scan"].startswith("Already checked in at ")
    assert "messages wait here until mail is set up" in seen["outbox_notice"]
    assert seen["errors"] == []


def _without_scripts(site: DeskSite, event_id: int) -> dict[str, Any]:
    """The attendees' forms as plain HTML: a message refused at its field, then sent; an
    answer cancelled by its row's button (no confirmation dialog without scripts)."""
    seen: dict[str, Any] = {}
    driver = headless_chromium(scripts=False)
    try:
        sign_in(driver, site, "editor", f"events/{event_id}/attendees")
        driver.find_element(By.ID, "f-body").send_keys("Doors open at 19:00.")
        driver.find_element(
            By.XPATH, "//button[normalize-space(.)='Send to all attendees']"
        ).click()
        wait(driver).until(lambda d: d.find_elements(By.ID, "f-subject-error"))
        seen["subject_error"] = driver.find_element(By.ID, "f-subject-error").text
        seen["body_kept"] = driver.find_element(By.ID, "f-body").get_attribute("value")
        driver.find_element(By.ID, "f-subject").send_keys("Doors", Keys.ENTER)
        wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"))
        seen["sent"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
        row = "//tr[th[normalize-space(.)='Ann']]"
        driver.find_element(By.XPATH, f"{row}//form[contains(@action, '/cancel')]//button").click()
        wait(driver).until(lambda d: "Cancelled" in d.find_element(By.TAG_NAME, "main").text)
        seen["cancelled"] = driver.find_element(By.CSS_SELECTOR, ".flash").text
        seen["bob"] = driver.find_element(By.XPATH, "//tr[th[normalize-space(.)='Bob']]/td[4]").text
    finally:
        driver.quit()
    return seen


async def test_the_attendees_forms_without_scripts(desk_site: DeskSite) -> None:
    event_id = await _event(desk_site, "Choir evening")
    await _answers(desk_site, event_id, capacity=2, waitlist=True)  # Bob waits
    seen = await asyncio.to_thread(_without_scripts, desk_site, event_id)
    assert seen["subject_error"] == "Fill this in."
    assert seen["body_kept"] == "Doors open at 19:00."
    assert seen["sent"] == "Message queued for 2 attendees."
    assert seen["cancelled"] == "Cancelled: Ann."
    assert seen["bob"] == "Going"  # moved up from the waitlist
