"""The desk's event editor as a test posts it (in-process, the `client` fixture): a filled
form, the ID a save redirects to, the event read back through the API, the count of events,
and the values a browser would send for the form as a page shows it."""

import re
from datetime import date, timedelta
from html.parser import HTMLParser
from typing import Any

from httpx import AsyncClient, Response

from tests.desk_support import DeskUser
from tests.factories import API

NEW = "/desk/events/new"
DAY = (date.today() + timedelta(days=7)).isoformat()


def editor_form(token: str, **values: Any) -> dict[str, Any]:
    form: dict[str, Any] = {
        "csrf_token": token,
        "title": "Jazz night",
        "description": "<p>Live <strong>music</strong></p>",
        "start_day": DAY,
        "start_time": "19:00",
        "end_day": DAY,
        "end_time": "21:00",
        "timezone": "Europe/Bratislava",
        "status": "draft",
    }
    form.update(values)
    return form


def edited_id(answer: Response) -> int:
    assert answer.status_code == 303, answer.text
    found = re.search(r"/desk/events/(\d+)/edit$", answer.headers["location"])
    assert found is not None, answer.headers["location"]
    return int(found.group(1))


async def read_event(client: AsyncClient, who: DeskUser, event_id: int, **query: str) -> Any:
    answer = await client.get(f"{API}/events/{event_id}", params=query, headers=who.basic)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def event_total(client: AsyncClient, who: DeskUser) -> int:
    answer = await client.get(f"{API}/events", params={"status": "any"}, headers=who.basic)
    return int(answer.headers["x-wp-total"])


class _ShownForm(HTMLParser):
    """The values a browser would send for the editor's form as the page shows it."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, list[str]] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def _add(self, name: str | None, value: str | None) -> None:
        if name:
            self.values.setdefault(name, []).append(value or "")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        kind = found.get("type") or "text"
        if tag == "input":
            checkable = kind in ("checkbox", "radio")
            if ("checked" in found) if checkable else kind not in ("file", "submit"):
                self._add(found.get("name"), found.get("value"))
        elif tag == "select":
            self._select = found.get("name")
        elif tag == "option" and self._select and "selected" in found:
            self._add(self._select, found.get("value"))
        elif tag == "textarea":
            self._textarea = found.get("name")
            self._add(self._textarea, "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.values[self._textarea][-1] += data


def shown_form(page: Response) -> dict[str, Any]:
    parser = _ShownForm()
    parser.feed(page.text)
    return {name: items[0] if len(items) == 1 else items for name, items in parser.values.items()}
