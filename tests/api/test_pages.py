"""The public pages through HTTP (docs/design.md, Public pages): every route, in every
language, with the API's visibility rules, the reference's query parameters, the sitemap and
robots.txt. Records are made through the API, as an editor would."""

import json
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient

from app.core.app_services import app_services
from app.core.database.engine import get_sessionmaker
from app.i18n.dates import first_weekday
from app.main import create_app
from app.pages.calendar import month_bounds
from app.pages.pictures import page_picture
from tests.factories import API, AuthFor, asgi_client, create_record
from tests.media_files import picture

TODAY = datetime.now(UTC).date()


def day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


async def event(client: AsyncClient, editor: AuthFor, title: str, **fields: Any) -> dict[str, Any]:
    fields.setdefault("start_date", f"{day(1)} 18:00:00")
    fields.setdefault("end_date", f"{day(1)} 20:00:00")
    return await create_record(client, editor, "events", title, **fields)


def json_ld(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/ld\+json"[^>]*>(.*?)</script>', html, re.S)
    assert match, "no JSON-LD"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


async def test_list_month_and_day_show_published_events(
    client: AsyncClient, editor: AuthFor
) -> None:
    await event(client, editor, "Jazz by the river")
    await event(client, editor, "Draft concert", status="draft")
    await event(client, editor, "Hidden rehearsal", hide_from_listings=True)
    for path in (
        "/events/",
        "/events/list/",
        f"/events/month/{day(1)[:7]}/",
        f"/events/{day(1)}/",
    ):
        response = await client.get(path)
        assert response.status_code == 200, (path, response.text[:500])
        assert response.headers["content-type"].startswith("text/html")
        assert "Jazz by the river" in response.text, path
        assert "Draft concert" not in response.text
        assert "Hidden rehearsal" not in response.text


async def test_event_page_has_everything_and_the_apis_json_ld(
    client: AsyncClient, editor: AuthFor
) -> None:
    venue = await create_record(
        client, editor, "venues", "Blue Hall", address="Main St 1", city="Bratislava", zip="81101"
    )
    organizer = await create_record(
        client, editor, "organizers", "Jazz Club", email="club@example.org", phone="+421 2 123"
    )
    image = "https://images.example.org/river.jpg"
    body = await event(
        client,
        editor,
        "River Jazz",
        description="<p>Live <strong>jazz</strong> &amp; more</p>",
        venue=venue["id"],
        organizer=[organizer["id"]],
        categories=["Music"],
        tags=["outdoor"],
        cost="10",
        image=image,
        website="https://jazz.example.org/",
    )
    response = await client.get(f"/event/{body['slug']}/")
    assert response.status_code == 200
    html = response.text
    api = (await client.get(f"{API}/events/{body['id']}")).json()
    assert json_ld(html) == api["json_ld"]
    assert list(json_ld(html)) == list(api["json_ld"])  # in the same order
    data = json_ld(html)
    assert data["name"] == "River Jazz"
    assert re.search(r"[+-]\d\d:\d\d$", data["startDate"])
    assert data["endDate"]
    assert data["eventStatus"]
    assert data["url"] == body["url"]
    assert data["location"]["address"]["addressLocality"] == "Bratislava"
    assert data["image"] == image
    for piece in (
        "<strong>jazz</strong>",
        "Blue Hall",
        "Main St 1",
        "openstreetmap.org/?mlat=48.14",  # the venue placed in Bratislava by the gazetteer
        "mailto:club@example.org",
        'href="http://testserver/events/category/music/"',
        'href="http://testserver/events/tag/outdoor/"',
        f'href="http://testserver{API}/events/{body["id"]}.ics"',
        "https://calendar.google.com/calendar/render?action=TEMPLATE",
        f"webcal://testserver{API}/events.ics?categories=music",
        '<meta property="og:title" content="River Jazz">',
        '<meta name="twitter:card" content="summary_large_image">',
        f'<link rel="canonical" href="http://testserver/event/{body["slug"]}/">',
        f'hreflang="de" href="http://testserver/de/event/{body["slug"]}/"',
        f'hreflang="sk" href="http://testserver/sk/event/{body["slug"]}/"',
        "https://jazz.example.org/",
    ):
        assert piece in html, piece
    assert "<script src" not in html  # no script is needed, none is loaded
    # Google Calendar's link carries the event's UTC times (from its record).
    utc = [
        api[name].replace("-", "").replace(":", "").replace(" ", "T") + "Z"
        for name in ("utc_start_date", "utc_end_date")
    ]
    assert f"dates={utc[0]}%2F{utc[1]}" in html, html


async def test_an_all_day_events_google_link_gives_its_days(
    client: AsyncClient, editor: AuthFor
) -> None:
    """Whole days, the last one exclusive, as Google Calendar takes them."""
    first, last = day(3), day(4)
    body = await event(
        client,
        editor,
        "Book Fair",
        all_day="true",
        start_date=f"{first} 00:00:00",
        end_date=f"{last} 23:59:59",
    )
    html = (await client.get(f"/event/{body['slug']}/")).text
    after = date.fromisoformat(last) + timedelta(days=1)
    assert f"dates={first.replace('-', '')}%2F{after:%Y%m%d}" in html, html


async def test_event_page_links_previous_and_next(client: AsyncClient, editor: AuthFor) -> None:
    first = await event(
        client, editor, "First", start_date=f"{day(2)} 10:00:00", end_date=f"{day(2)} 11:00:00"
    )
    second = await event(
        client, editor, "Second", start_date=f"{day(3)} 10:00:00", end_date=f"{day(3)} 11:00:00"
    )
    third = await event(
        client, editor, "Third", start_date=f"{day(4)} 10:00:00", end_date=f"{day(4)} 11:00:00"
    )
    html = (await client.get(f"/event/{second['slug']}/")).text
    assert f'rel="prev" href="{first["url"]}"' in html
    assert f'rel="next" href="{third["url"]}"' in html


async def test_series_pages_describe_the_rule_and_the_next_dates(
    client: AsyncClient, editor: AuthFor
) -> None:
    until = (TODAY + timedelta(days=60)).strftime("%Y%m%dT235959Z")
    series = await event(
        client, editor, "Yoga", recurrence=[f"RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL={until}"]
    )
    html = (await client.get(f"/event/{series['slug']}/")).text
    assert "every Tuesday and Thursday until" in html
    dates = (await client.get(f"{API}/events", params={"post_parent": series["id"]})).json()
    later = dates["events"][1]
    assert later["url"] in html  # the next dates are listed
    on_day = later["start_date"][:10]
    response = await client.get(f"/event/{series['slug']}/{on_day}/")
    assert response.status_code == 200
    assert json_ld(response.text)["startDate"].startswith(on_day)
    german = (await client.get(f"/de/event/{series['slug']}/")).text
    assert "wöchentlich am Dienstag und Donnerstag bis" in german
    assert (await client.get(f"/event/{series['slug']}/2001-01-01/")).status_code == 404
    assert (await client.get(f"/event/{series['slug']}/not-a-day/")).status_code == 404


async def test_visibility_is_the_apis(client: AsyncClient, editor: AuthFor) -> None:
    draft = await event(client, editor, "Draft", status="draft")
    private = await event(client, editor, "Private", status="private")
    trashed = await event(client, editor, "Trashed")
    await client.delete(f"{API}/events/{trashed['id']}", headers=editor.basic)
    hidden = await event(client, editor, "Hidden one", hide_from_listings=True)
    for record in (draft, private, trashed):
        response = await client.get(f"/event/{record['slug']}/", headers=editor.basic)
        assert response.status_code == 404, record["title"]
        assert response.headers["content-type"].startswith("text/html")
        assert 'name="tribe-bar-search"' in response.text  # the 404 page has a search box
        assert record["title"] not in response.text
    response = await client.get(f"/event/{hidden['slug']}/")
    assert response.status_code == 200  # absent from the views, open at its URL
    assert "Hidden one" in response.text
    draft_venue = await create_record(client, editor, "venues", "Secret Hall", status="draft")
    for path in (
        f"/venue/{draft_venue['slug']}/",
        "/venue/no-such-venue/",
        "/organizer/no-such-organizer/",
        "/events/category/no-such-category/",
        "/events/nothing/here/at/all/",
        "/de/events/tag/no-such-tag/month/",
    ):
        missing = await client.get(path)
        assert missing.status_code == 404, path
        assert missing.headers["content-type"].startswith("text/html"), path
    for path in (
        "/events/2026-13-45/",
        "/events/20260101/",
        "/events/0001-01-01/",
        "/events/month/9999-12/",
        "/events/month/2026-1/",
    ):
        assert (await client.get(path)).status_code == 404, path


async def test_password_protected_events_show_a_form_until_given(
    client: AsyncClient, editor: AuthFor
) -> None:
    body = await event(
        client, editor, "Members night", description="Secret agenda", password="s3cret"
    )
    path = f"/event/{body['slug']}/"
    page = await client.get(path)
    assert page.status_code == 200
    assert 'name="post_password"' in page.text
    assert "Secret agenda" not in page.text
    assert "application/ld+json" not in page.text
    wrong = await client.post(path, data={"post_password": "nope"})
    assert wrong.status_code == 403
    assert "Secret agenda" not in wrong.text
    right = await client.post(path, data={"post_password": "s3cret"})
    assert right.status_code == 200
    assert "Secret agenda" in right.text


async def test_venue_organizer_and_term_pages(client: AsyncClient, editor: AuthFor) -> None:
    venue = await create_record(client, editor, "venues", "Old Mill", city="Brno")
    organizer = await create_record(
        client, editor, "organizers", "Film Society", website="https://film.example.org/"
    )
    await event(
        client,
        editor,
        "Film night",
        venue=venue["id"],
        organizer=[organizer["id"]],
        categories=["Cinema"],
        tags=["night"],
    )
    await event(client, editor, "Other thing")
    for path in (
        f"/venue/{venue['slug']}/",
        f"/organizer/{organizer['slug']}/",
        "/events/category/cinema/",
        "/events/tag/night/",
        "/events/category/cinema/month/",
        f"/events/tag/night/month/{day(1)[:7]}/",
    ):
        response = await client.get(path)
        assert response.status_code == 200, path
        assert "Film night" in response.text, path
        assert "Other thing" not in response.text, path
    assert (
        "https://film.example.org/" in (await client.get(f"/organizer/{organizer['slug']}/")).text
    )
    assert "Brno" in (await client.get(f"/venue/{venue['slug']}/")).text


async def test_languages_translate_content_and_chrome(client: AsyncClient, editor: AuthFor) -> None:
    body = await event(client, editor, "Summer party")
    response = await client.post(
        f"/de{API}/events/{body['id']}", json={"title": "Sommerfest"}, headers=editor.basic
    )
    assert response.status_code == 200
    month = day(1)[:7]
    german = await client.get(f"/de/events/month/{month}/")
    assert german.status_code == 200
    assert german.headers["content-language"] == "de"
    assert '<html lang="de">' in german.text
    assert "Sommerfest" in german.text
    assert f'href="http://testserver/de/event/{body["slug"]}/"' in german.text
    slovak = await client.get(f"/sk/events/month/{month}/")
    assert "Summer party" in slovak.text  # no Slovak text: the default language's
    assert '<html lang="sk">' in slovak.text
    # Month and weekday names by Babel, the week from the language's first day (CLDR: Monday
    # for German and Slovak, and for English without a territory); WEEK_START overrides it.
    assert re.search(r'<thead>\s*<tr><th scope="col"><abbr title="Montag">', german.text)
    assert re.search(r'<thead>\s*<tr><th scope="col"><abbr title="pondelok">', slovak.text)
    for prefix, name in (("", "March 2026"), ("/de", "März 2026"), ("/sk", "Marec 2026")):
        assert f"<h1>{name}</h1>" in (await client.get(f"{prefix}/events/month/2026-03/")).text
    assert "Kommende Veranstaltungen" in (await client.get("/de/events/list/")).text
    assert "Nadchádzajúce podujatia" in (await client.get("/sk/events/list/")).text
    assert (await client.get("/fr/events/list/")).status_code == 404


async def test_reference_query_parameters(client: AsyncClient, editor: AuthFor) -> None:
    await event(
        client, editor, "Chess club", start_date=f"{day(1)} 10:00:00", end_date=f"{day(1)} 11:00:00"
    )
    await event(
        client,
        editor,
        "Poetry slam",
        start_date=f"{day(20)} 10:00:00",
        end_date=f"{day(20)} 11:00:00",
    )
    found = (await client.get("/events/list/", params={"tribe-bar-search": "chess"})).text
    assert "Chess club" in found
    assert "Poetry slam" not in found
    later = (await client.get("/events/list/", params={"tribe-bar-date": day(10)})).text
    assert "Poetry slam" in later
    assert "Chess club" not in later
    month = (await client.get("/events/", params={"eventDisplay": "month"})).text
    assert '<table class="month">' in month
    await event(
        client, editor, "Old fair", start_date=f"{day(-5)} 10:00:00", end_date=f"{day(-5)} 11:00:00"
    )
    past = (await client.get("/events/list/", params={"eventDisplay": "past"})).text
    assert "Old fair" in past
    assert "Chess club" not in past
    bad = await client.get("/events/list/", params={"tribe-bar-date": "someday"})
    assert bad.status_code == 400
    assert (
        await client.get("/events/month/", params={"tribe-bar-date": "9999-12"})
    ).status_code == 400
    assert "tribe-bar-date" in bad.text


async def test_month_grid_spans_days_and_overflows_into_more(
    client: AsyncClient, editor: AuthFor
) -> None:
    target = TODAY.replace(day=10) + timedelta(days=40)
    month = target.strftime("%Y-%m")
    at = target.isoformat()
    await event(
        client,
        editor,
        "Three day festival",
        start_date=f"{at} 10:00:00",
        end_date=f"{(target + timedelta(days=2)).isoformat()} 18:00:00",
    )
    for n in range(5):
        await event(
            client, editor, f"Busy {n}", start_date=f"{at} 1{n}:30:00", end_date=f"{at} 1{n}:45:00"
        )
    html = (await client.get(f"/events/month/{month}/")).text
    assert html.count("Three day festival") == 3
    assert "+2 more" in html  # six on the day: four titles
    assert f'class="more" href="http://testserver/events/{at}/"' in html
    day_page = (await client.get(f"/events/{at}/")).text
    assert all(f"Busy {n}" in day_page for n in range(5))
    previous = (target.replace(day=1) - timedelta(days=1)).strftime("%Y-%m")
    assert f'href="http://testserver/events/month/{previous}/"' in html


async def test_the_month_grid_links_what_the_list_shows(
    client: AsyncClient, editor: AuthFor
) -> None:
    """The grid reads a few columns of each event, through the list's own query: the same
    events, titles and URLs as the list's bodies (a series' dates, protected events)."""
    target = TODAY.replace(day=10) + timedelta(days=40)
    month, at = target.strftime("%Y-%m"), target.isoformat()
    when = {"start_date": f"{at} 09:00:00", "end_date": f"{at} 10:00:00"}
    series = await event(
        client, editor, "Weekly choir", recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"], **when
    )
    await event(client, editor, "Members evening", password="s3cret", **when)
    await event(client, editor, "Private rehearsal", status="private", **when)
    listed = await client.get(
        f"{API}/events",
        params={"start_date": f"{month}-01", "end_date": f"{at} 23:59:59", "per_page": 50},
    )
    bodies = {body["title"]: body for body in listed.json()["events"]}
    assert set(bodies) == {"Weekly choir", "Members evening"}
    html = (await client.get(f"/events/month/{month}/")).text
    for title, body in bodies.items():
        assert f'<a href="{body["url"]}">{title}</a>' in html
    assert f"/event/{series['slug']}/{at}/" in bodies["Weekly choir"]["url"]
    assert "Private rehearsal" not in html


async def test_a_terms_month_links_its_days_to_the_terms_day_view(
    client: AsyncClient, editor: AuthFor
) -> None:
    at = day(3)
    when = {"start_date": f"{at} 18:00:00", "end_date": f"{at} 20:00:00"}
    await event(client, editor, "Silent film", categories=["Cinema"], **when)
    await event(client, editor, "Street market", **when)
    for prefix in ("", "/de"):
        grid = (await client.get(f"{prefix}/events/category/cinema/month/{at[:7]}/")).text
        term_day = f"http://testserver{prefix}/events/category/cinema/day/{at}/"
        assert f'href="{term_day}"' in grid
        assert f'href="http://testserver{prefix}/events/{at}/"' not in grid
        page = await client.get(term_day)
        assert page.status_code == 200
        assert "Silent film" in page.text
        assert "Street market" not in page.text
        previous = (TODAY + timedelta(days=2)).isoformat()
        assert f'href="http://testserver{prefix}/events/category/cinema/day/{previous}/"' in (
            page.text
        )
    site_day = (await client.get(f"/events/{at}/")).text
    assert "Silent film" in site_day
    assert "Street market" in site_day
    for path in (
        f"/events/category/no-such-category/day/{at}/",
        "/events/category/cinema/day/2026-13-45/",
    ):
        assert (await client.get(path)).status_code == 404, path


async def test_a_long_event_that_began_weeks_ago_is_still_upcoming(
    client: AsyncClient, editor: AuthFor
) -> None:
    """The list of events not yet ended starts its walk at the longest duration before now:
    the longest event is the one that bound is made of."""
    await event(
        client,
        editor,
        "Summer exhibition",
        start_date=f"{day(-15)} 10:00:00",
        end_date=f"{day(5)} 18:00:00",
    )
    await event(
        client,
        editor,
        "Morning talk of yesterday",
        start_date=f"{day(-1)} 10:00:00",
        end_date=f"{day(-1)} 11:00:00",
    )
    upcoming = (await client.get("/events/list/")).text
    assert "Summer exhibition" in upcoming
    assert "Morning talk of yesterday" not in upcoming
    grid = (await client.get(f"/events/month/{day(2)[:7]}/")).text
    assert "Summer exhibition" in grid


async def test_list_pages(client: AsyncClient, editor: AuthFor) -> None:
    for n in range(13):
        await event(
            client,
            editor,
            f"Talk {n:02}",
            start_date=f"{day(1 + n)} 10:00:00",
            end_date=f"{day(1 + n)} 11:00:00",
        )
    first = (await client.get("/events/list/")).text
    assert "Talk 00" in first
    assert "Talk 12" not in first
    assert 'rel="next" href="http://testserver/events/list/page/2/"' in first
    second = await client.get("/events/list/page/2/")
    assert second.status_code == 200
    assert "Talk 12" in second.text
    beyond = await client.get("/events/list/page/9/")
    assert beyond.status_code == 404
    assert beyond.headers["content-type"].startswith("text/html")


async def test_sitemap_and_robots(client: AsyncClient, editor: AuthFor) -> None:
    shown = await event(client, editor, "In the sitemap", categories=["Mapped"])
    draft = await event(client, editor, "Not in the sitemap", status="draft")
    protected = await event(client, editor, "Protected one", password="x")
    venue = await create_record(client, editor, "venues", "Mapped Hall")
    head = await client.head(f"/event/{shown['slug']}/")
    assert head.status_code == 200
    assert head.headers["content-type"].startswith("text/html")
    robots = await client.get("/robots.txt")
    assert robots.status_code == 200
    assert "Sitemap: http://testserver/sitemap.xml" in robots.text
    sitemap = await client.get("/sitemap.xml")
    assert sitemap.headers["content-type"].startswith("application/xml")
    text = sitemap.text
    assert f"<loc>{shown['url']}</loc>" in text
    assert f"<loc>{venue['url']}</loc>" in text
    assert "<loc>http://testserver/events/category/mapped/</loc>" in text
    assert draft["slug"] not in text
    assert protected["slug"] not in text


async def test_assets_are_served_by_almanac(client: AsyncClient) -> None:
    css = await client.get("/assets/almanac.css")
    assert css.status_code == 200
    assert css.headers["content-type"].startswith("text/css")
    assert "--almanac-accent" in css.text
    assert "prefers-color-scheme: dark" in css.text
    assert "@media print" in css.text
    assert (await client.get("/assets/nothing.css")).status_code == 404


async def test_api_errors_stay_json(client: AsyncClient) -> None:
    response = await client.get(f"{API}/nothing")
    assert response.status_code == 404
    assert response.json()["code"] == "rest_no_route"


def test_week_start_overrides_the_languages_first_day() -> None:
    assert first_weekday("de", None) == 0
    assert first_weekday("en", 6) == 6
    # March 2026 begins on a Sunday: a grid from Sunday starts on 1 March, from Monday on
    # 23 February; both end with whole weeks.
    assert month_bounds(date(2026, 3, 1), 6) == (date(2026, 3, 1), date(2026, 4, 4))
    assert month_bounds(date(2026, 3, 1), 0) == (date(2026, 2, 23), date(2026, 4, 5))


async def test_a_sitemap_index_past_the_limit(
    client: AsyncClient, editor: AuthFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(3):
        await event(client, editor, f"Indexed {n}")
    # 50,000 in production: the same code, a smaller number.
    monkeypatch.setattr("app.pages.sitemap.SITEMAP_LIMIT", 2)
    index = (await client.get("/sitemap.xml")).text
    parts = re.findall(r"<loc>http://testserver/sitemap-(\d+)\.xml</loc>", index)
    assert "<sitemapindex" in index
    assert len(parts) >= 2
    urls = []
    for number in parts:
        part = await client.get(f"/sitemap-{number}.xml")
        assert part.status_code == 200
        urls += re.findall(r"<loc>(.*?)</loc>", part.text)
    assert len(urls) == len(set(urls))
    assert sum("/event/" in url for url in urls) >= 3
    assert (await client.get(f"/sitemap-{len(parts) + 1}.xml")).status_code == 404


async def test_templates_dir_overrides_templates_and_the_stylesheet(
    app: FastAPI, maker: Any, tmp_path: Path
) -> None:
    (tmp_path / "base.html").write_text(
        '{% extends "builtin/base.html" %}'
        "{% block head %}{{ super() }}<style>:root { --almanac-accent: #8a2be2; }</style>"
        "{% endblock %}",
        encoding="utf-8",
    )
    (tmp_path / "almanac.css").write_text(":root { --almanac-bg: black; }", encoding="utf-8")
    themed = create_app(app_services(app).settings.model_copy(update={"templates_dir": tmp_path}))
    themed.dependency_overrides[get_sessionmaker] = lambda: maker
    try:
        async with asgi_client(themed) as themed_client:
            page = await themed_client.get("/events/list/")
            css = await themed_client.get("/assets/almanac.css")
    finally:
        await app_services(themed).failed_logins.close()
    assert page.status_code == 200
    assert "--almanac-accent: #8a2be2" in page.text
    assert '<form class="search"' in page.text  # the rest is the built-in layout
    assert css.text == ":root { --almanac-bg: black; }"


async def test_times_are_the_events_own_and_its_zone_is_named(
    client: AsyncClient, editor: AuthFor
) -> None:
    body = await event(
        client,
        editor,
        "Broadway night",
        start_date=f"{day(3)} 19:30:00",
        end_date=f"{day(3)} 22:00:00",
        timezone="America/New_York",
    )
    html = (await client.get(f"/event/{body['slug']}/")).text
    assert "7:30" in html  # the event's wall-clock time, not UTC's
    assert "(Eastern Time" in html  # not the site's zone: named
    german = (await client.get(f"/de/event/{body['slug']}/")).text
    assert "19:30" in german
    assert "Nordamerikanische Ostküstenzeit" in german
    local = await event(client, editor, "Local gig")
    assert "(Coordinated" not in (await client.get(f"/event/{local['slug']}/")).text


async def test_today_is_the_day_view(client: AsyncClient, editor: AuthFor) -> None:
    await event(
        client,
        editor,
        "Today's lunch talk",
        start_date=f"{day(0)} 23:00:00",
        end_date=f"{day(0)} 23:30:00",
    )
    response = await client.get("/events/today/")
    assert response.status_code == 200
    assert "Today's lunch talk" in response.text.replace("&#39;", "'")
    assert "Today's lunch talk" in (await client.get("/sk/events/today/")).text.replace(
        "&#39;", "'"
    )


def test_the_event_pages_srcset_from_the_images_sizes_of_its_shape() -> None:
    image = {
        "url": "https://img.example.org/a.jpg",
        "width": 600,
        "height": 400,
        "sizes": {
            "medium": {
                "width": 300,
                "height": 200,
                "mime-type": "image/jpeg",
                "url": "https://img.example.org/a-300.jpg",
            },
            "thumbnail": {  # a square crop: drawn into the image's box, it would be squeezed
                "width": 150,
                "height": 150,
                "mime-type": "image/jpeg",
                "url": "https://img.example.org/a-150.jpg",
            },
            "full": {"width": 600, "height": 400, "url": "https://img.example.org/a.jpg"},
            "odd": {"width": "wide", "height": 0, "url": "https://img.example.org/odd.jpg"},
        },
    }
    shown = page_picture(image)
    assert shown is not None
    assert (
        shown.srcset == "https://img.example.org/a-300.jpg 300w, https://img.example.org/a.jpg 600w"
    )
    assert (shown.src, shown.width, shown.height) == ("https://img.example.org/a.jpg", 600, 400)
    # Never a slot wider than the image itself.
    assert shown.sizes == "(max-width: 600px) 100vw, 600px"
    bare = page_picture({"url": "https://img.example.org/a.jpg"})
    assert bare is not None
    assert (bare.srcset, bare.width) == ("", None)
    assert page_picture(False) is None


async def test_an_uploaded_image_is_shown_with_srcset_and_alt(
    client: AsyncClient, editor: AuthFor
) -> None:
    # The test app stores uploads in a directory of this run (tests/conftest.py).
    upload = await client.post(
        f"{API}/media",
        files={"file": ("stage.jpg", picture("JPEG", (1600, 1000)), "image/jpeg")},
        data={"alt_text": "The stage at night"},
        headers=editor.basic,
    )
    assert upload.status_code == 201, upload.text
    image = upload.json()
    body = await event(client, editor, "Stage night", image=image["id"])
    html = (await client.get(f"/event/{body['slug']}/")).text
    assert 'alt="The stage at night"' in html
    # The library's sizes of the image's shape (not the square thumbnail), one a width.
    widths = sorted(
        {
            size["width"]
            for size in image["sizes"].values()
            if abs(size["width"] / size["height"] - 1.6) < 0.05
        }
    )
    assert len(widths) > 2  # the library made sizes
    srcset_value = re.search(r'srcset="([^"]+)"', html)
    assert srcset_value
    assert [int(w) for w in re.findall(r" (\d+)w", srcset_value.group(1))] == widths
