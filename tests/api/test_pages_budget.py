"""Every view's weight with 100 events (issue 46, "still this fast"): under 60 KB of HTML and
at most 6 requests, counted from the HTML as a browser would make them on load (the page,
its stylesheets and scripts, and each image not loaded lazily: `loading="lazy"` ones wait
until they scroll into view; a `data:` URL is no request). The 100 events are on one day,
each with a venue, organizers, categories, a tag, an excerpt and a picture of the media
library, and the site has its logo: the heaviest day, week and month a visitor can open."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient

from app.core.app_services import app_services
from tests.factories import API, AuthFor, create_record
from tests.media_files import picture

EVENTS = 100
MAX_HTML = 60 * 1024
MAX_REQUESTS = 6
DAY = datetime.now(UTC).date() + timedelta(days=3)

# What a page asks for as it loads: stylesheets, scripts, images (eager ones), icons,
# embedded frames and media.
SUBRESOURCES = re.compile(
    r"<link\b[^>]*\brel=\"(?:stylesheet|icon|preload|modulepreload)\"[^>]*>"
    r"|<script\b[^>]*\bsrc=[^>]*>|<img\b[^>]*>|<iframe\b[^>]*>|<(?:video|audio)\b[^>]*>",
)
URL = re.compile(r"\b(?:href|src)=\"([^\"]*)\"")


def requests_of(html: str) -> list[str]:
    """The page itself and every distinct URL it fetches on load."""
    fetched: list[str] = []
    for tag in SUBRESOURCES.finditer(html):
        element = tag.group(0)
        if 'loading="lazy"' in element:
            continue
        found = URL.search(element)
        if found and not found.group(1).startswith("data:") and found.group(1) not in fetched:
            fetched.append(found.group(1))
    return ["(the page)", *fetched]


async def _upload(client: AsyncClient, editor: AuthFor, name: str, size: tuple[int, int]) -> Any:
    response = await client.post(
        f"{API}/media",
        files={"file": (name, picture("JPEG", size), "image/jpeg")},
        headers=editor.basic,
    )
    assert response.status_code == 201, response.text
    return response.json()


@pytest.fixture
async def busy_day(
    client: AsyncClient, editor: AuthFor, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Any]:
    logo = await _upload(client, editor, "logo.jpg", (600, 200))
    monkeypatch.setattr(app_services(app).settings, "site_logo", logo["id"])
    photos = [await _upload(client, editor, f"p{n}.jpg", (1200, 800)) for n in range(3)]
    venue = await create_record(client, editor, "venues", "Harbour Hall", city="Bratislava")
    organizers = [
        (await create_record(client, editor, "organizers", f"Crew {n}"))["id"] for n in range(2)
    ]
    terms = {"categories": ["Music", "Outdoor"], "tags": ["free-entry"]}
    first: dict[str, Any] = {}
    for n in range(EVENTS):
        start = datetime.combine(DAY, datetime.min.time()) + timedelta(hours=6, minutes=10 * n)
        body = await create_record(
            client,
            editor,
            "events",
            f"Harbour evening number {n} with a longer title",
            start_date=f"{start:%Y-%m-%d %H:%M:%S}",
            end_date=f"{start + timedelta(hours=2):%Y-%m-%d %H:%M:%S}",
            excerpt="<p>Brass, strings and a choir on the quay; bring a blanket and a friend.</p>",
            venue=venue["id"],
            organizer=organizers,
            image=photos[n % len(photos)]["id"],
            cost="10",
            featured=n % 5 == 0,
            **terms,
        )
        first = first or body
    return {"event": first, "venue": venue, "organizer": organizers[0]}


def _pages(records: dict[str, Any]) -> dict[str, str]:
    day, month = DAY.isoformat(), DAY.strftime("%Y-%m")
    filtered = "tribe_featuredevent=1&tribe_timeofday%5B%5D=evening&tribe_eventcategory%5B%5D=music"
    return {
        "list": "/events/list/",
        "month": f"/events/month/{month}/",
        "week": f"/events/week/{day}/",
        "day": f"/events/{day}/",
        "photo": "/events/photo/",
        "summary": "/events/summary/",
        "map": "/events/map/",
        "filtered list": f"/events/list/?{filtered}",
        "filtered month": f"/events/month/{month}/?{filtered}",
        "category week": f"/events/category/music/week/{day}/",
        "German photo": "/de/events/photo/",
        "event": f"/event/{records['event']['slug']}/",
        "venue": f"/venue/{records['venue']['slug']}/",
    }


async def test_every_view_of_100_events_is_light(
    client: AsyncClient, busy_day: dict[str, Any]
) -> None:
    measured = {}
    for name, path in _pages(busy_day).items():
        response = await client.get(path)
        assert response.status_code == 200, (name, response.text[:300])
        measured[name] = (len(response.content), requests_of(response.text))
    heavy = {name: size for name, (size, _) in measured.items() if size >= MAX_HTML}
    assert heavy == {}
    many = {name: urls for name, (_, urls) in measured.items() if len(urls) > MAX_REQUESTS}
    assert many == {}
    # The counts count: the day shows its 100 events, the logo and the stylesheet load, the
    # photo view's first picture loads at once and the others lazily.
    day_page = (await client.get(_pages(busy_day)["day"])).text
    assert day_page.count('<article class="event') == EVENTS
    list_requests = measured["list"][1]
    assert any(url.endswith("almanac.css") for url in list_requests)
    assert any("/media/" in url for url in list_requests)  # the logo
    photo_page = (await client.get("/events/photo/")).text
    pictures = re.findall(r"<img\b[^>]*>", photo_page)
    assert len(pictures) > 2
    assert sum('loading="lazy"' not in img for img in pictures) <= 2  # the logo, the first


def test_requests_are_counted_as_a_browser_makes_them() -> None:
    html = (
        '<link rel="stylesheet" href="/a.css"><link rel="icon" href="data:,">'
        '<script src="/b.js" defer></script><script type="application/ld+json">{}</script>'
        '<img src="/c.jpg" alt=""><img src="/c.jpg" alt=""><img src="/d.jpg" loading="lazy">'
        '<link rel="canonical" href="/x/"><a href="/y/">y</a>'
    )
    assert requests_of(html) == ["(the page)", "/a.css", "/b.js", "/c.jpg"]
