"""The public pages, issue 42's second pass, through HTTP: a signed-in person sees what a
visitor would not (draft, pending, private, scheduled) marked wherever it shows; a venue's
and an organizer's upcoming events say their day; a zone is set apart from the time; a
phone's month list names its days; the search keeps its word across views and says what was
searched; a page under an unknown language segment and the 404 page."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from httpx import AsyncClient

from tests.desk_support import DeskUserFactory, desk_login
from tests.factories import AuthFor, create_record

TODAY = datetime.now(UTC).date()
UNSEEN = re.compile(r'<span class="unseen unseen-(\w+)">([^<]*)<span class="visually-hidden">')


def day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


async def event(client: AsyncClient, who: AuthFor, title: str, **fields: Any) -> dict[str, Any]:
    fields.setdefault("start_date", f"{day(1)} 18:00:00")
    fields.setdefault("end_date", f"{day(1)} 20:00:00")
    return await create_record(client, who, "events", title, **fields)


async def test_what_a_visitor_would_not_see_is_marked_for_a_signed_in_reader(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    venue = await create_record(client, editor, "venues", "Secret Hall", status="draft")
    later = (datetime.now(UTC) + timedelta(days=30)).strftime("%Y-%m-%d %H:%M:%S")
    marked = {
        "Open rehearsal": "draft",
        "Submitted talk": "pending",
        "Members' dinner": "private",
    }
    for title, status in marked.items():
        await event(client, editor, title, status=status, venue=venue["id"])
    await event(client, editor, "Announced gala", status="publish", date_utc=later)
    await event(client, editor, "Public concert", venue=venue["id"])
    marked["Announced gala"] = "future"
    await desk_login(client, editor)
    month = await client.get(f"/events/month/{day(1)[:7]}/")
    listing = await client.get("/events/list/")
    venue_page = await client.get(f"/venue/{venue['slug']}/")
    draft_page = await client.get("/event/open-rehearsal/")
    for page in (month, listing, venue_page, draft_page):
        assert page.status_code == 200, page.text
    shown = {status for status, _ in UNSEEN.findall(month.text)}
    assert shown == set(marked.values())
    assert {status for status, _ in UNSEEN.findall(listing.text)} == set(marked.values())
    labels = dict(UNSEEN.findall(listing.text))
    assert labels == {
        "draft": "Draft",
        "pending": "Waiting for review",
        "private": "Private",
        "future": "Scheduled",
    }
    h1 = re.search(r"<h1>(.*?)</h1>", venue_page.text, re.S)
    assert h1 is not None
    assert 'class="unseen unseen-draft"' in h1.group(1)
    venue_section = re.search(r'<section class="venue"(.*?)</section>', draft_page.text, re.S)
    assert venue_section is not None
    assert 'class="unseen unseen-draft"' in venue_section.group(1)  # its draft venue
    h1 = re.search(r"<h1>(.*?)</h1>", draft_page.text, re.S)
    assert h1 is not None
    assert 'class="unseen unseen-draft"' in h1.group(1)
    # In the reader's language.
    german = await client.get("/de/events/list/")
    assert "Entwurf" in dict(UNSEEN.findall(german.text)).values()
    # The published one is not marked; a visitor sees no mark at all.
    assert not re.search(r"Public concert</a> <span class=\"unseen", listing.text)
    client.cookies.clear()
    anonymous = await client.get("/events/list/")
    assert "Public concert" in anonymous.text
    assert UNSEEN.findall(anonymous.text) == []


async def test_a_venues_and_an_organizers_upcoming_events_say_their_day(
    client: AsyncClient, editor: AuthFor
) -> None:
    venue = await create_record(client, editor, "venues", "Old Mill")
    organizer = await create_record(client, editor, "organizers", "Film Society")
    start = TODAY + timedelta(days=3)
    await event(
        client, editor, "Film night", venue=venue["id"], organizer=[organizer["id"]],
        start_date=f"{start} 14:45:00", end_date=f"{start} 17:15:00",
    )  # fmt: skip
    for path in (f"/venue/{venue['slug']}/", f"/organizer/{organizer['slug']}/"):
        page = await client.get(path)
        when = re.search(r'<p class="when">(.*?)</p>', page.text, re.S)
        assert when is not None, path
        text = re.sub(r"<[^>]+>", "", when.group(1))
        assert text == f"{start:%b} {start.day}, {start.year}, 2:45\u202fPM – 5:15\u202fPM", path


async def test_a_zone_is_set_apart_from_the_time(client: AsyncClient, editor: AuthFor) -> None:
    await event(client, editor, "Call with New York", timezone="America/New_York")
    page = await client.get("/event/call-with-new-york/")
    assert re.search(r'PM</time> <span class="zone">\(Eastern', page.text), page.text


async def test_the_phone_month_list_names_its_days(client: AsyncClient, editor: AuthFor) -> None:
    await event(client, editor, "Market")
    page = await client.get(f"/events/month/{day(1)[:7]}/")
    first = datetime.fromisoformat(day(1))
    whole = f"{first:%A}, {first:%B} {first.day}, {first.year}"
    assert f'<span class="in-list">{whole}</span>' in page.text


async def test_a_page_under_an_unknown_language_is_the_html_404_page(client: AsyncClient) -> None:
    for path in ("/fr/events/list/", "/pt-br/event/anything/", "/xx/events"):
        page = await client.get(path, headers={"Accept": "text/html"})
        assert page.status_code == 404, path
        assert page.headers["content-type"].startswith("text/html"), path
        assert '<html lang="en">' in page.text
        assert 'name="tribe-bar-search"' in page.text  # the 404 page, with its search
    # The API's paths keep their JSON, whatever the segment.
    api = await client.get("/fr/calendar/events/v1/events")
    assert api.status_code == 404
    assert api.headers["content-type"].startswith("application/json")


async def test_the_404_page_names_no_canonical_or_alternates_of_the_missing_page(
    client: AsyncClient,
) -> None:
    for path in ("/de/event/no-such-event/", "/events/nothing/here/at/all/", "/fr/events/"):
        page = await client.get(path)
        assert page.status_code == 404
        assert 'rel="canonical"' not in page.text, path
        assert 'rel="alternate" hreflang' not in page.text, path
        # The language menu leads to each language's calendar, not to the missing page.
        menu = re.findall(r'<a href="([^"]+)" hreflang="(\w+)"', page.text)
        assert menu == [
            ("http://testserver/events/", "en"),
            ("http://testserver/de/events/", "de"),
            ("http://testserver/sk/events/", "sk"),
        ], path
    found = await client.get("/events/list/")
    assert '<link rel="canonical" href="http://testserver/events/list/">' in found.text
    assert found.text.count('rel="alternate" hreflang') == 3


def _form_action(html: str) -> str:
    found = re.search(r'<form class="search" role="search" method="get" action="([^"]+)">', html)
    assert found is not None
    return found.group(1)


def _view_links(html: str) -> dict[str, str]:
    nav = re.search(r'<nav class="views"[^>]*>(.*?)</nav>', html, re.S)
    assert nav is not None
    return {
        text: href.replace("&amp;", "&")
        for href, text in re.findall(r'<a href="([^"]+)"[^>]*>(\w+)</a>', nav.group(1))
    }


async def test_a_search_stays_in_its_view_and_says_what_was_searched(
    client: AsyncClient, editor: AuthFor
) -> None:
    start = TODAY + timedelta(days=40)
    await event(
        client, editor, "Jazz brunch", start_date=f"{start} 11:00:00", end_date=f"{start} 13:00:00"
    )
    await event(
        client, editor, "Chess club", start_date=f"{start} 15:00:00", end_date=f"{start} 16:00:00"
    )
    month = await client.get("/events/month/")
    # The month view's search is the month view's (of the chosen day's month).
    assert _form_action(month.text) == "http://testserver/events/month/"
    searched = await client.get(
        "/events/month/", params={"tribe-bar-search": "jazz", "tribe-bar-date": start.isoformat()}
    )
    assert searched.status_code == 200
    assert f"{start:%B %Y}" in re.search(r"<h1>(.*?)</h1>", searched.text, re.S).group(1)  # type: ignore[union-attr]
    assert "Jazz brunch" in searched.text
    assert "Chess club" not in searched.text
    assert "Events matching “jazz”" in searched.text
    # Switching views keeps the word and the day.
    links = _view_links(searched.text)
    query = f"tribe-bar-search=jazz&tribe-bar-date={start.isoformat()}"
    assert links["List"] == f"http://testserver/events/list/?{query}"
    assert links["Day"] == f"http://testserver/events/?{query}&eventDisplay=day"
    listing = await client.get(links["List"])
    h1 = re.search(r"<h1>(.*?)</h1>", listing.text, re.S)
    assert h1 is not None
    assert (
        h1.group(1)
        == f"Events matching “jazz” from {start:%A}, {start:%B} {start.day}, {start.year}"
    )
    assert "Chess club" not in listing.text
    day_view = await client.get(links["Day"])
    assert "Jazz brunch" in day_view.text
    assert "Chess club" not in day_view.text
    assert 'name="eventDisplay" value="day"' in day_view.text  # its search stays a day view
    assert (await client.get("/events/list/")).text.count("<h1>Upcoming events</h1>") == 1
