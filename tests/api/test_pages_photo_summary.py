"""The photo and summary views, the list's designed cards and the event page's picture
through HTTP (docs/pages-and-desk.md, Public pages): their routes per category and tag and
in every language, paging, the search kept, visibility as the API's, a write seen on the
next load, images with the media library's sizes (real uploads), and "this event has
passed"."""

import re
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient

from app.core.app_services import app_services
from app.core.database.engine import get_sessionmaker
from app.core.settings import Settings
from app.main import create_app
from app.pages.showcase import PHOTO_PAGE_SIZE, SUMMARY_PAGE_SIZE
from tests.api.test_pages import TODAY, day, event
from tests.factories import API, AuthFor, asgi_client, create_record
from tests.media_files import picture


async def upload(client: AsyncClient, editor: AuthFor, alt: str = "") -> dict[str, Any]:
    answer = await client.post(
        f"{API}/media",
        files={"file": ("stage.jpg", picture("JPEG", (1600, 1000)), "image/jpeg")},
        data={"alt_text": alt},
        headers=editor.basic,
    )
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def cards(html: str) -> list[str]:
    return re.findall(r'<article class="photo-card[^"]*">.*?</article>', html, re.S)


def images(html: str) -> list[str]:
    return re.findall(r"<img [^>]*>", html)


async def test_photo_cards_with_their_pictures_date_venue_and_cost(
    client: AsyncClient, editor: AuthFor
) -> None:
    image = await upload(client, editor, "The stage at night")
    hall = await create_record(client, editor, "venues", "Blue Hall", city="Bratislava")
    await event(
        client,
        editor,
        "Stage night",
        image=image["id"],
        venue=hall["id"],
        cost="15",
        featured=True,
        start_date=f"{day(1)} 19:00:00",
        end_date=f"{day(1)} 21:00:00",
    )
    await event(client, editor, "Poetry without a picture")
    await event(
        client,
        editor,
        "Second picture",
        image=image["id"],
        start_date=f"{day(3)} 19:00:00",
        end_date=f"{day(3)} 21:00:00",
    )
    await event(client, editor, "Draft gallery", status="draft", image=image["id"])
    await event(client, editor, "Hidden gallery", hide_from_listings=True)
    response = await client.get("/events/photo/")
    assert response.status_code == 200, response.text
    html = response.text
    assert "Draft gallery" not in html
    assert "Hidden gallery" not in html
    shown = cards(html)
    assert [re.search(r"<h2><a [^>]*>([^<]+)</a>", c).group(1) for c in shown] == [  # type: ignore[union-attr]
        "Poetry without a picture",
        "Stage night",
        "Second picture",
    ]
    poetry, stage, second = shown
    # No picture: a placeholder of the same frame, with the day as a badge.
    assert "<img" not in poetry
    assert 'class="photo-placeholder"' in poetry
    assert 'class="photo-frame"' in poetry
    assert 'class="photo-frame"' in stage
    # The picture from the library's sizes of its shape (no square crop), its box's size.
    img = images(stage)[0]
    assert 'alt="The stage at night"' in img
    widths = [int(w) for w in re.findall(r" (\d+)w", re.search(r'srcset="([^"]+)"', img).group(1))]  # type: ignore[union-attr]
    assert widths == sorted(widths)
    assert 150 not in widths
    assert len(widths) >= 3
    assert re.search(r' width="\d+" height="\d+"', img)
    # Only the page's first picture loads at once; the others wait to be near.
    assert 'loading="lazy"' not in img
    assert 'loading="lazy"' in images(second)[0]
    assert "Blue Hall, Bratislava" in stage
    assert "15" in re.search(r'<p class="cost">([^<]+)</p>', stage).group(1)  # type: ignore[union-attr]
    assert 'class="featured-mark">Featured<' in stage
    assert "featured" not in poetry
    assert "<time" in stage  # the date and time


async def test_photo_and_summary_routes_per_term_language_and_display(
    client: AsyncClient, editor: AuthFor
) -> None:
    await event(client, editor, "Choir evening", categories=["Music"], tags=["Voices"])
    await event(client, editor, "Chess club", categories=["Games"])
    for view in ("photo", "summary"):
        for path in (
            f"/events/{view}/",
            f"/de/events/{view}/",
            f"/sk/events/{view}/",
            f"/events/?eventDisplay={view}",
            f"/events/category/music/{view}/",
            f"/events/tag/voices/{view}/",
            f"/de/events/category/music/{view}/",
        ):
            response = await client.get(path)
            assert response.status_code == 200, (path, response.text[:300])
            assert "Choir evening" in response.text, path
            # The switcher names the view as the current one.
            current = re.search(r'<a href="([^"]+)" aria-current="page">', response.text)
            assert current, path
            assert f"/{view}/" in current.group(1), path
        assert "Chess club" not in (await client.get(f"/events/category/music/{view}/")).text
        assert (await client.get(f"/events/category/nothing-here/{view}/")).status_code == 404
    german = (await client.get("/de/events/photo/")).text
    assert ">Foto<" in german
    assert ">Übersicht<" in german
    slovak = (await client.get("/sk/events/summary/")).text
    assert ">Prehľad<" in slovak
    assert ">Fotografie<" in slovak


async def test_the_switcher_lists_every_view_and_keeps_the_search(
    client: AsyncClient, editor: AuthFor
) -> None:
    await event(client, editor, "Jazz on the roof")
    html = (await client.get("/events/photo/", params={"tribe-bar-search": "jazz"})).text
    nav = re.search(r'<nav class="views".*?</nav>', html, re.S)
    assert nav
    hrefs = re.findall(r'href="([^"]+)"', nav.group(0))
    assert all("tribe-bar-search=jazz" in href for href in hrefs), hrefs
    names = re.findall(r">([^<>]+)</a>", nav.group(0))
    order = ["List", "Month", "Week", "Day", "Photo", "Summary", "Map"]
    assert [name for name in names if name in order] == order
    # The search bar searches in the view it is on.
    assert 'action="http://testserver/events/photo/"' in html
    summary = (await client.get("/events/summary/", params={"tribe-bar-search": "jazz"})).text
    assert 'action="http://testserver/events/summary/"' in summary
    assert "Jazz on the roof" in summary
    assert (
        "Jazz on the roof"
        not in (await client.get("/events/photo/", params={"tribe-bar-search": "nothing"})).text
    )


@pytest.mark.parametrize(
    ("view", "size"), [("photo", PHOTO_PAGE_SIZE), ("summary", SUMMARY_PAGE_SIZE)]
)
async def test_photo_and_summary_are_paged_like_the_list(
    client: AsyncClient, editor: AuthFor, view: str, size: int
) -> None:
    for n in range(size + 1):
        await event(
            client,
            editor,
            f"Talk {n:02}",
            start_date=f"{day(1 + n // 3)} {10 + n % 3}:00:00",
            end_date=f"{day(1 + n // 3)} {10 + n % 3}:30:00",
        )
    first = (await client.get(f"/events/{view}/")).text
    assert "Talk 00" in first
    assert f"Talk {size:02}" not in first
    assert f'rel="next" href="http://testserver/events/{view}/page/2/"' in first
    second = await client.get(f"/events/{view}/page/2/")
    assert second.status_code == 200
    assert f"Talk {size:02}" in second.text
    assert "Talk 00" not in second.text
    assert f'rel="prev" href="http://testserver/events/{view}/"' in second.text
    assert (await client.get(f"/events/{view}/page/3/")).status_code == 404
    assert (await client.get(f"/events/{view}/page/0/")).status_code == 404
    too_deep = await client.get(f"/events/{view}/page/100000/")
    assert too_deep.status_code == 400
    assert "To see later events, choose a later date" in too_deep.text
    # Past events: this view's own past, its link kept on its pages.
    assert f'href="http://testserver/events/{view}/?eventDisplay=past"' in first


async def test_summary_groups_by_month_then_day_one_line_an_event(
    client: AsyncClient, editor: AuthFor
) -> None:
    hall = await create_record(client, editor, "venues", "Old Mill")
    late = TODAY + timedelta(days=36)  # a month later
    await event(
        client,
        editor,
        "Early talk",
        venue=hall["id"],
        start_date=f"{day(1)} 23:00:00",
        end_date=f"{day(1)} 23:30:00",
    )
    await event(
        client,
        editor,
        "Late concert",
        start_date=f"{late} 20:00:00",
        end_date=f"{late} 22:00:00",
        featured=True,
    )
    await event(
        client,
        editor,
        "Late lecture",
        start_date=f"{late} 09:00:00",
        end_date=f"{late} 10:00:00",
    )
    html = (await client.get("/events/summary/")).text
    months = re.findall(r'<section class="summary-month" aria-labelledby="month-([\d-]+)">', html)
    assert months == [day(1)[:7], f"{late:%Y-%m}"]
    days = re.findall(r'<h3 class="summary-day"><a href="[^"]*/events/([\d-]+)/">', html)
    assert days == [day(1), late.isoformat()]
    lines = re.findall(r"<li[^>]*><span class=\"when\">.*?</li>", html, re.S)
    assert len(lines) == 3
    early, lecture, concert = lines
    assert "Early talk" in early
    assert "Old Mill" in early
    assert "11:00\u202fPM" in early
    assert lecture.index("9:00\u202fAM") < lecture.index("Late lecture")  # time, then title
    assert "Late concert" in concert
    assert "Featured" in concert
    # Grouped under the month in words, in each language.
    german = (await client.get("/de/events/summary/")).text
    assert re.search(r"<h2 id=\"month-[\d-]+\">\w+ \d{4}</h2>", german)


async def test_the_list_shows_thumbnail_badge_cost_excerpt_and_featured(
    client: AsyncClient, editor: AuthFor
) -> None:
    image = await upload(client, editor)
    await event(
        client,
        editor,
        "Pictured fair",
        image=image["id"],
        cost="5",
        excerpt="<p>Stalls, music and food for the whole family.</p>",
        featured=True,
    )
    await event(client, editor, "Plain meeting", start_date=f"{day(2)} 18:00:00", end_date=f"{day(2)} 19:00:00")  # fmt: skip
    await event(client, editor, "Early plain breakfast", start_date=f"{day(1)} 08:00:00", end_date=f"{day(1)} 09:00:00")  # fmt: skip
    await event(client, editor, "Second pictured", image=image["id"], start_date=f"{day(3)} 18:00:00", end_date=f"{day(3)} 19:00:00")  # fmt: skip
    html = (await client.get("/events/list/")).text
    cards_ = re.findall(r'<article class="event event-rich[^"]*">.*?</article>', html, re.S)
    assert len(cards_) == 4
    breakfast, fair, plain, second = cards_
    assert "<img" not in breakfast
    assert 'loading="lazy"' in images(second)[0]
    assert 'class="event event-rich featured"' in fair
    assert "featured" not in plain.split(">")[0]
    thumb = images(fair)[0]
    assert 'class="event-thumb"' in thumb
    # The square thumbnail among the candidates, a 96 px slot.
    assert re.search(r"-150x150\.jpg 150w", thumb)
    assert 'sizes="96px"' in thumb
    assert 'loading="lazy"' not in thumb  # the page's first picture
    assert "<img" not in plain
    badge = re.search(r'<p class="date-badge" aria-hidden="true">(.*?)</p>', fair, re.S)
    assert badge
    assert f'<span class="badge-day">{int(day(1)[8:])}</span>' in badge.group(1)
    assert re.search(r'<p class="cost">[^<]*5', fair)
    assert "Stalls, music and food" in fair


async def test_a_past_events_page_says_so_and_its_image_keeps_its_size(
    client: AsyncClient, editor: AuthFor
) -> None:
    image = await upload(client, editor, "A crowd")
    past = await event(
        client,
        editor,
        "Last year's fair",
        image=image["id"],
        start_date=f"{day(-3)} 10:00:00",
        end_date=f"{day(-3)} 12:00:00",
    )
    coming = await event(client, editor, "Next fair")
    html = (await client.get(f"/event/{past['slug']}/")).text
    assert "This event has passed." in html
    assert (
        "Diese Veranstaltung ist vorbei." in (await client.get(f"/de/event/{past['slug']}/")).text
    )
    assert "This event has passed." not in (await client.get(f"/event/{coming['slug']}/")).text
    img = re.search(r'<img class="image"[^>]*>', html)
    assert img
    assert 'width="1600" height="1000"' in img.group(0)
    assert 'sizes="(max-width: 768px) 100vw, 768px"' in img.group(0)
    assert 'loading="lazy"' not in img.group(0)


async def test_a_write_shows_on_the_next_load_of_photo_and_summary(
    client: AsyncClient, editor: AuthFor
) -> None:
    for view in ("photo", "summary"):
        await client.get(f"/events/{view}/")  # stored by the response cache
    await event(client, editor, "Added later")
    for view in ("photo", "summary"):
        assert "Added later" in (await client.get(f"/events/{view}/")).text


@pytest.mark.parametrize("view", ["photo", "summary", "map"])
async def test_default_view_accepts_the_new_views(
    app: FastAPI, maker: Any, editor: AuthFor, client: AsyncClient, view: str
) -> None:
    await event(client, editor, "Shown by default")
    settings = app_services(app).settings
    chosen_settings = Settings.model_validate(
        {**settings.model_dump(), "default_view": view.upper()}
    )
    assert chosen_settings.default_view == view
    chosen = create_app(settings.model_copy(update={"default_view": view}))
    chosen.dependency_overrides[get_sessionmaker] = lambda: maker
    try:
        async with asgi_client(chosen) as chosen_client:
            page = await chosen_client.get("/events/")
    finally:
        await app_services(chosen).failed_logins.close()
    assert page.status_code == 200
    current = re.search(r'<a href="([^"]+)" aria-current="page">', page.text)
    assert current
    assert f"/{view}/" in current.group(1)


@pytest.mark.parametrize("view", ["photo", "summary"])
async def test_the_filter_bar_narrows_photo_and_summary_and_their_pages_keep_it(
    client: AsyncClient, editor: AuthFor, view: str
) -> None:
    size = PHOTO_PAGE_SIZE if view == "photo" else SUMMARY_PAGE_SIZE
    for n in range(size + 1):
        await event(client, editor, f"Starred {n:02}", featured=True, start_date=f"{day(1 + n)} 10:00:00", end_date=f"{day(1 + n)} 11:00:00")  # fmt: skip
    await event(client, editor, "Ordinary evening")
    first = await client.get(f"/events/{view}/", params={"tribe_featuredevent": "1"})
    assert first.status_code == 200
    assert "Starred 00" in first.text
    assert "Ordinary evening" not in first.text
    assert (
        f'rel="next" href="http://testserver/events/{view}/page/2/?tribe_featuredevent=1"'
        in first.text
    )
    second = await client.get(f"/events/{view}/page/2/", params={"tribe_featuredevent": "1"})
    assert f"Starred {size:02}" in second.text
    assert "Ordinary evening" in (await client.get(f"/events/{view}/")).text
