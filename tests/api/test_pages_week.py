"""The week view through HTTP: seven days from the language's first weekday (WEEK_START
overrides), timed events placed on the time grid by their hours (side by side where they
overlap), all-day and multi-day events in the band above it, a busy day's "+N more", the
list's rules (visibility, category, tag, search), previous / next / this week, the view
switcher, DEFAULT_VIEW, and /de/, /sk/. The events are made through the API."""

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient

from app.core.app_services import app_services
from app.pages.week import week_bounds
from tests.factories import AuthFor, create_record

# A Monday a few weeks ahead, so that nothing of its week is past.
_AHEAD = datetime.now(UTC).date() + timedelta(days=28)
MONDAY = _AHEAD - timedelta(days=_AHEAD.weekday())


def on(offset: int, clock: str) -> str:
    """The week's day `offset` (0 Monday) at `clock`."""
    return f"{(MONDAY + timedelta(days=offset)).isoformat()} {clock}:00"


async def event(
    client: AsyncClient, editor: AuthFor, title: str, start: str, end: str, **fields: Any
) -> dict[str, Any]:
    return await create_record(
        client, editor, "events", title, start_date=start, end_date=end, **fields
    )


async def week_page(client: AsyncClient, path: str = "/events", **query: str) -> str:
    response = await client.get(f"{path}/week/{MONDAY.isoformat()}/", params=query)
    assert response.status_code == 200, response.text[:300]
    return response.text


def placed(html: str) -> dict[str, dict[str, int]]:
    """Each timed event's grid placement (its custom properties), by title."""
    found = re.findall(
        r'<li style="--from: (\d+); --to: (\d+); --lane: (\d+); --span: (\d+)">'
        r'<a href="[^"]*"><span class="when">.*?</span> ([^<]*)</a>',
        html,
    )
    return {
        title: {"from": int(a), "to": int(b), "lane": int(lane), "span": int(span)}
        for a, b, lane, span, title in found
    }


def band(html: str) -> dict[str, tuple[str, int, int, int]]:
    """Each band event's classes, columns and row, by title."""
    section = html.split('<section class="week-band"', 1)[1].split("</section>", 1)[0]
    found = re.findall(
        r'<li class="([^"]*)" style="--from: (\d+); --to: (\d+); --row: (\d+)">'
        r'<a href="[^"]*">([^<]*)<span',
        section,
    )
    return {title: (cls.strip(), int(a), int(b), int(row)) for cls, a, b, row, title in found}


def days(html: str) -> list[str]:
    """The seven days' markup, in order."""
    parts = html.split('<li class="week-day')[1:]
    assert len(parts) == 7
    return parts


async def test_timed_events_on_the_grid_and_the_band_above_it(
    client: AsyncClient, editor: AuthFor
) -> None:
    await event(client, editor, "Morning yoga", on(1, "09:00"), on(1, "10:00"))
    await event(client, editor, "Coffee talk", on(1, "09:30"), on(1, "11:00"))
    await event(client, editor, "Lunch lecture", on(1, "12:00"), on(1, "12:10"))
    await event(client, editor, "Late jazz", on(2, "20:00"), on(2, "22:00"))
    await event(client, editor, "Night shift", on(4, "20:00"), on(5, "00:00"))  # one day
    await event(client, editor, "Flea market", on(3, "00:00"), on(3, "23:59"), all_day="true")
    await event(client, editor, "Open day", on(0, "00:00"), on(0, "23:59"), all_day="true")
    await event(client, editor, "Book fair", on(-2, "10:00"), on(1, "18:00"))
    await event(client, editor, "Long festival", on(5, "10:00"), on(9, "18:00"))
    html = await week_page(client)
    assert re.search(r"<h1>[^<]*\d{4}</h1>", html)
    timed = placed(html)
    # The grid runs from 08:00 (its first hour) to 22:00 (the late concert's end) in
    # 15-minute rows: 09:00 is line 5; side by side while they overlap.
    assert timed["Morning yoga"] == {"from": 5, "to": 9, "lane": 1, "span": 1}
    assert timed["Coffee talk"] == {"from": 7, "to": 13, "lane": 2, "span": 1}
    # Alone at noon: the whole width of the day; ten minutes get two rows (a target's size).
    assert timed["Lunch lecture"] == {"from": 17, "to": 19, "lane": 1, "span": 2}
    assert timed["Late jazz"] == {"from": 49, "to": 57, "lane": 1, "span": 1}
    assert timed["Night shift"] == {"from": 49, "to": 65, "lane": 1, "span": 1}
    assert "--week-rows: 64;" in html  # 08:00 to 24:00
    assert html.count('<li class="week-day') == 7
    # The band: columns 1 to 7 of the week (`to` the line after the last day), the fair
    # from before the week, the festival on past it, stacked where they meet.
    assert band(html) == {
        "Book fair": ("before", 1, 3, 1),
        "Open day": ("", 1, 2, 2),
        "Flea market": ("", 4, 5, 1),
        "Long festival": ("after", 6, 8, 1),
    }
    assert '--week-band-rows: 2"' in html
    monday, tuesday, _, thursday, _, saturday, sunday = days(html)
    # The phone's list of each day: its all-day and multi-day events first, in words.
    assert "Open day" in monday.split('class="week-times"')[0]
    assert "Book fair" in tuesday.split('class="week-times"')[0]
    assert 'Flea market</a> <span class="when">All day</span>' in thursday
    assert "Long festival" in sunday.split('class="week-times"')[0]
    assert "Night shift" not in saturday  # an end at midnight stays on its day
    assert '<p class="none">No events</p>' not in sunday
    empty = await client.get(f"/events/week/{(MONDAY + timedelta(days=70)).isoformat()}/")
    assert empty.text.count('<p class="none">No events</p>') == 7
    assert "--week-rows: 40;" in empty.text  # the working hours, 08:00 to 18:00


async def test_a_busy_day_shows_its_first_ten_and_links_the_rest(
    client: AsyncClient, editor: AuthFor
) -> None:
    for n in range(12):
        await event(
            client, editor, f"Talk {n:02}", on(2, f"{8 + n:02}:00"), on(2, f"{8 + n:02}:45")
        )
    html = await week_page(client)
    wednesday = days(html)[2]
    assert re.findall(r"Talk \d\d", wednesday) == [f"Talk {n:02}" for n in range(10)]
    day = (MONDAY + timedelta(days=2)).isoformat()
    assert f'<a class="more" href="http://testserver/events/{day}/">+2 more</a>' in wednesday
    # A category's "+N more" leads to its own day view.
    for n in range(11):
        await event(
            client,
            editor,
            f"Jazz {n:02}",
            on(3, f"{8 + n:02}:00"),
            on(3, f"{8 + n:02}:30"),
            categories=["Jazz"],
        )
    jazz = days(await week_page(client, "/events/category/jazz"))[3]
    thursday = (MONDAY + timedelta(days=3)).isoformat()
    assert f'href="http://testserver/events/category/jazz/day/{thursday}/">+1 more</a>' in jazz


async def test_the_week_keeps_the_lists_filters_and_visibility(
    client: AsyncClient, editor: AuthFor
) -> None:
    jazz = {"categories": ["Jazz"], "tags": ["late"]}
    await event(client, editor, "Jazz night", on(4, "20:00"), on(4, "23:00"), **jazz)
    await event(client, editor, "Poetry reading", on(4, "18:00"), on(4, "19:00"))
    await event(client, editor, "Hidden jam", on(4, "09:00"), on(4, "10:00"), hide_from_listings=True, **jazz)  # fmt: skip
    await event(client, editor, "Draft jam", on(4, "09:00"), on(4, "10:00"), status="draft", **jazz)
    site = await week_page(client)
    assert "Jazz night" in site
    assert "Poetry reading" in site
    category = await week_page(client, "/events/category/jazz")
    assert "Jazz night" in category
    assert "Poetry reading" not in category
    assert "<h1>Jazz: " in category
    tag = await week_page(client, "/events/tag/late")
    assert "Jazz night" in tag
    assert "Poetry reading" not in tag
    searched = await week_page(client, **{"tribe-bar-search": "poetry"})
    assert "Poetry reading" in searched
    assert "Jazz night" not in searched
    assert "Events matching “poetry”" in searched
    for html in (site, category, tag, searched):
        assert "Hidden jam" not in html
        assert "Draft jam" not in html
    assert (await client.get(f"/events/category/nothing/week/{MONDAY}/")).status_code == 404
    # A write shows on the next load (the response cache is under the data version).
    await event(client, editor, "Added later", on(4, "12:00"), on(4, "13:00"))
    assert "Added later" in await week_page(client)


async def test_weeks_links_switcher_and_search_bar(client: AsyncClient, editor: AuthFor) -> None:
    await event(client, editor, "Chess club", on(2, "10:00"), on(2, "11:00"))
    wednesday = (MONDAY + timedelta(days=2)).isoformat()
    # Any day of the week shows the whole week from its first day.
    mid = await client.get(f"/events/week/{wednesday}/")
    assert mid.status_code == 200
    assert "Chess club" in mid.text
    assert (
        f'href="http://testserver/events/{MONDAY.isoformat()}/"><span class="in-grid"' in mid.text
    )
    query = {"tribe-bar-search": "chess"}
    html = await week_page(client, **query)
    previous, following = MONDAY - timedelta(days=7), MONDAY + timedelta(days=7)
    assert (
        f'rel="prev" href="http://testserver/events/week/{previous}/?tribe-bar-search=chess"'
        in html
    )
    assert (
        f'rel="next" href="http://testserver/events/week/{following}/?tribe-bar-search=chess"'
        in html
    )
    assert '<a href="http://testserver/events/week/?tribe-bar-search=chess">This week</a>' in html
    # The switcher names every view, the week current; the search is kept.
    views = html.split('<nav class="views"', 1)[1].split("</nav>", 1)[0]
    assert (
        'href="http://testserver/events/week/?tribe-bar-search=chess" aria-current="page">Week'
        in views
    )
    assert 'href="http://testserver/events/month/?tribe-bar-search=chess">Month' in views
    # The search bar searches this view; its day names the week.
    assert 'action="http://testserver/events/week/"' in html
    by_date = await client.get("/events/week/", params={"tribe-bar-date": wednesday})
    assert "Chess club" in by_date.text
    assert f'href="http://testserver/events/week/?tribe-bar-date={wednesday}"' in by_date.text
    # "This week" leaves the day out; today's column and the link are marked.
    assert '<a href="http://testserver/events/week/">This week</a>' in by_date.text
    today = await client.get("/events/week/")
    assert today.status_code == 200
    assert 'aria-current="date">This week</a>' in today.text
    assert today.text.count('class="week-day today"') == 1
    chosen = await client.get(
        "/events/", params={"eventDisplay": "week", "tribe-bar-date": wednesday}
    )
    assert "Chess club" in chosen.text
    assert 'class="week"' in chosen.text
    for path in ("/events/week/2027-13-01/", "/events/week/someday/", "/events/tag/x/week/1/"):
        assert (await client.get(path)).status_code == 404, path
    assert (await client.get("/events/week/", params={"tribe-bar-date": "soon"})).status_code == 400
    # The other views name the week.
    month = (await client.get("/events/month/")).text
    assert 'href="http://testserver/events/week/">Week</a>' in month


async def test_languages_and_the_first_weekday(
    client: AsyncClient, editor: AuthFor, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    await event(client, editor, "Sommerfest", on(6, "15:00"), on(6, "18:00"))
    german = await week_page(client, "/de/events")
    assert german.count('<li class="week-day') == 7
    assert ">Diese Woche</a>" in german
    assert ">Woche</a>" in german
    assert "Sommerfest" in days(german)[6]  # Monday first: Sunday last
    assert '<span class="in-list">Montag, ' in days(german)[0]
    slovak = await week_page(client, "/sk/events")
    assert ">Tento týždeň</a>" in slovak
    assert 'href="http://testserver/sk/event/sommerfest/"' in slovak
    assert '<span class="in-list">pondelok ' in days(slovak)[0]
    # WEEK_START: a week from Sunday holds the Sunday first.
    monkeypatch.setattr(app_services(app).settings, "week_start", 6)
    sunday = MONDAY + timedelta(days=6)
    html = (await client.get(f"/events/week/{sunday + timedelta(days=1)}/")).text
    assert "Sommerfest" in days(html)[0]
    assert week_bounds(sunday, 6) == (sunday, sunday + timedelta(days=6))
    assert week_bounds(date(2026, 12, 3), 0) == (date(2026, 11, 30), date(2026, 12, 6))


async def test_default_view_week(
    client: AsyncClient, editor: AuthFor, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    await event(client, editor, "Chosen view", on(1, "10:00"), on(1, "11:00"))
    monkeypatch.setattr(app_services(app).settings, "default_view", "week")
    html = (await client.get("/events/", params={"tribe-bar-date": MONDAY.isoformat()})).text
    assert 'class="week"' in html
    assert "Chosen view" in html


async def test_the_filter_bar_narrows_the_week_and_its_links_keep_it(
    client: AsyncClient, editor: AuthFor
) -> None:
    """The reference add-on's parameters (app/pages/filter_bar.py) on the week: its days'
    events and totals under them, its links keeping them."""
    await event(client, editor, "Evening choir", on(2, "19:00"), on(2, "21:00"))
    await event(client, editor, "Morning swim", on(2, "07:00"), on(2, "08:00"), featured=True)
    for n in range(11):
        await event(client, editor, f"Noon talk {n:02}", on(3, "12:00"), on(3, "12:30"))
    evening = await week_page(client, **{"tribe_timeofday[]": "evening"})
    assert "Evening choir" in evening
    assert "Morning swim" not in evening
    assert "Noon talk" not in evening
    featured = await week_page(client, tribe_featuredevent="1")
    assert "Morning swim" in featured
    assert "Evening choir" not in featured
    following = (MONDAY + timedelta(days=7)).isoformat()
    assert (
        f'rel="next" href="http://testserver/events/week/{following}/?tribe_featuredevent=1"'
        in featured
    )
    assert (
        '<a href="http://testserver/events/week/?tribe_featuredevent=1">This week</a>' in featured
    )
    # The busy day's "+N more" counts under the filter too.
    noon = days(await week_page(client, **{"tribe_timeofday[]": "afternoon"}))[3]
    assert ">+1 more</a>" in noon


async def test_a_full_week_stays_a_small_page(client: AsyncClient, editor: AuthFor) -> None:
    """A hundred events in one week: ten a day on the grid, "+N more" for the rest, the
    page under 60 KB of HTML."""
    for offset in range(7):
        for n in range(13):
            clock = f"{8 + n:02}:00"
            await event(client, editor, f"Workshop {offset}-{n:02}", on(offset, clock), on(offset, f"{8 + n:02}:50"))  # fmt: skip
    for n in range(9):
        await event(client, editor, f"Exhibition {n}", on(-3, "10:00"), on(10, "18:00"))
    response = await client.get(f"/events/week/{MONDAY.isoformat()}/")
    assert response.status_code == 200
    html = response.text
    assert len(html.encode()) < 60_000, len(html.encode())
    shown = re.findall(r"Workshop \d-\d\d</a>", html)
    assert len(shown) == 7  # Nine exhibitions fill each day's ten: one workshop a day.
    assert html.count(">+12 more</a>") == 7
    assert band(html)["Exhibition 0"] == ("before after", 1, 8, 1)
