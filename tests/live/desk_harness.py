"""The desk in a real browser: the harness every desk browser test uses (a pytest plugin,
loaded by tests/conftest.py, so its fixtures need no import).

- `desk_site` (module scope): a real `almanac serve` on a fresh database of the module's own,
  with one user per role, each with an account password (set through
  `almanac users set-password`, from standard input) and an application password (for
  seeding through the API: `site.api_auth("editor")`).
- `desk_browser` (module scope): Debian's headless Chromium (selenium + chromedriver), with
  every host but 127.0.0.1 unreachable.
- `sign_in(driver, site, role)`: through the sign-in form, with the keyboard.
- `assert_accessible(driver, name)`: axe-core (WCAG 2.1 A/AA) finds nothing on the current
  page, at desktop width and at 375 px.
- `screenshot(driver, name)`: `docs/img/<name>.png` when ALMANAC_SCREENSHOTS=docs/img is set.

One server and one browser per module: keep the browser tests of an area in one module.
"""

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from app.core.rules.permissions import Role
from tests.desk_support import ACCOUNT_PASSWORD, CHEAP_HASH
from tests.live.harness import accounts_of, almanac_server, fresh_database

WAIT = 60
ROLES = ("administrator", "editor", "author", "contributor", "subscriber")
AXE = Path(__file__).resolve().parents[1] / "browser" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
    # Every node of every violation, but only one example of what passed or could not be
    # decided: axe's documented way to run faster (the tests read the violations only).
    "resultTypes": ["violations"],
}
# (width, height): a desktop and a 375 px phone.
SIZES = {"desktop": (1280, 1000), "phone": (375, 812)}


@dataclass
class DeskPerson:
    login: str
    role: str
    account_password: str
    app_password: str


@dataclass
class DeskSite:
    """The served desk: its base URL, database URL and people (one per role, by role)."""

    base: str
    database_url: str
    people: dict[str, DeskPerson] = field(default_factory=dict)

    def url(self, path: str = "") -> str:
        """`/desk/<path>` of the site (`site.url("events/")`)."""
        return f"{self.base}/desk/{path.lstrip('/')}"

    def api_auth(self, role: str) -> tuple[str, str]:
        """(login, application password) of the role's person, for httpx's `auth=`."""
        person = self.people[role]
        return person.login, person.app_password


async def set_account_password(url: str, login: str, password: str) -> str:
    """`almanac users set-password LOGIN` with the password on standard input."""
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "app.cli", "users", "set-password", login),
        env={**os.environ, "DATABASE_URL": url},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate(f"{password}\n".encode())
    assert process.returncode == 0, err.decode()
    return out.decode()


async def add_desk_user(accounts: Any, login: str, role: str) -> str:
    """A user of `role` who signs in to the desk with ACCOUNT_PASSWORD, made in this process
    through `accounts` (`accounts_of`); its application password. tests/live/test_desk_cli.py
    runs the real `users set-password`."""
    user, app_password = await accounts.add(login, Role(role))
    # At argon2's lowest cost (tests/desk_support.py says why).
    await accounts.users.set_account_password(user.id, CHEAP_HASH)
    return str(app_password)


async def _add_people(url: str) -> dict[str, DeskPerson]:
    """One person per role, in this process (five `almanac` commands would take seconds)."""
    people = {}
    async with accounts_of(url) as accounts:
        for role in ROLES:
            login = f"desk-{role}"
            app_password = await add_desk_user(accounts, login, role)
            people[role] = DeskPerson(login, role, ACCOUNT_PASSWORD, app_password)
    return people


@pytest.fixture(scope="module")
async def desk_site(database_url: str, request: pytest.FixtureRequest) -> AsyncIterator[DeskSite]:
    """`almanac serve` on a fresh database named after the test module, with its people."""
    module = request.module.__name__.rsplit(".", 1)[-1][:40]
    async with fresh_database(database_url, f"almanac_{module}", migrated=True) as url:
        site = DeskSite(base="", database_url=url, people=await _add_people(url))
        async with almanac_server(url, SITE_NAME="Riverside Calendar") as base:
            site.base = base
            yield site


def headless_chromium(scripts: bool = True) -> WebDriver:
    """Debian's Chromium, headless, through chromedriver; every host but 127.0.0.1
    unreachable (no CDN can stand in), the console's messages kept. `scripts=False` turns
    the pages' scripts off (the driver's own `execute_script` still runs)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if not scripts:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2}
        )
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


@contextmanager
def chromium() -> Iterator[WebDriver]:
    """headless_chromium(), quit at the end (a module's `browser` fixture)."""
    driver = headless_chromium()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def desk_browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


def wait(driver: WebDriver, seconds: float = WAIT) -> WebDriverWait[WebDriver]:
    return WebDriverWait(driver, seconds)


def page_replaced(old: WebElement) -> Callable[[WebDriver], bool]:
    """A wait condition: the page `old` belonged to has been replaced by the next one.

    Selenium's `staleness_of` only counts StaleElementReferenceException; while the next page
    is being swapped in, chromedriver sometimes answers "Node with given id does not belong to
    the document" instead, a plain WebDriverException that would end the wait with an error.
    Both mean the same here."""

    def replaced(_: WebDriver) -> bool:
        try:
            old.is_enabled()
        except WebDriverException:  # StaleElementReferenceException included
            return True
        return False

    return replaced


def sign_in(driver: WebDriver, site: DeskSite, role: str, next_path: str = "") -> None:
    """Sign the role's person in with the keyboard (type, Tab, type, Enter) and wait for the
    desk (or `next_path`) to load."""
    person = site.people[role]
    query = f"?next=/desk/{next_path.lstrip('/')}" if next_path else ""
    driver.get(f"{site.url('signin')}{query}")
    login = driver.find_element(By.ID, "f-login")
    login.clear()
    login.send_keys(person.login, Keys.TAB)
    active = driver.switch_to.active_element
    assert active.get_attribute("id") == "f-password", "Tab does not lead to the password"
    active.send_keys(person.account_password, Keys.ENTER)
    wait(driver).until(lambda d: "/signin" not in d.current_url)


def sign_out(driver: WebDriver) -> None:
    """The nav's Sign out button."""
    driver.find_element(By.CSS_SELECTOR, "form.signout button").click()
    wait(driver).until(lambda d: "/signin" in d.current_url)


def browser_errors(driver: WebDriver) -> list[str]:
    """The console's errors since the last call (a CSP refusal shows here)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def axe_violations(driver: WebDriver) -> list[dict[str, Any]]:
    """axe's WCAG 2.1 AA violations on the current page (axe is injected once per page)."""
    axe = Axe(driver, script_url=str(AXE))
    if not driver.execute_script("return typeof window.axe === 'object'"):
        axe.inject()
    results = axe.run(options=json.dumps(WCAG_AA))
    violations: list[dict[str, Any]] = results["violations"]
    return violations


def assert_accessible(driver: WebDriver, name: str) -> None:
    """No WCAG 2.1 A/AA violation on the current page, as it is shown (a flash message
    included), at desktop width and at 375 px (`name` says which page in the failure).

    The window is resized, not the page reloaded: the pages' layouts are CSS media queries,
    which a resize applies as a reload would, and a browser's CPU (a load, axe injected
    again) is most of what these tests cost."""
    found = {}
    for size, (width, height) in SIZES.items():
        driver.set_window_size(width, height)
        violations = axe_violations(driver)
        if violations:
            found[size] = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations]
    driver.set_window_size(*SIZES["desktop"])
    assert found == {}, f"{name}: {found}"


def screenshot(driver: WebDriver, name: str) -> Path | None:
    """Save the current page as `<ALMANAC_SCREENSHOTS>/<name>.png` when that is set."""
    folder = os.environ.get("ALMANAC_SCREENSHOTS")
    if not folder:
        return None
    path = Path(folder) / f"{name}.png"
    driver.save_screenshot(str(path))
    return path
