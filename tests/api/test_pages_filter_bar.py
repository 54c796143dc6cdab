"""The filter bar on the pages through HTTP (app/pages/filter_bar.py): what it offers (what
upcoming events a visitor may see have, with counts; a category's children under it), how
its values narrow every view (the reference Filter Bar add-on's parameter names, by ID or
slug, repeated or by commas), the views' links keeping them, the search keeping them and
they the search, bad values as the 400 page, and a write seen on the next load. The events
are made through the API."""

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

from httpx import AsyncClient

from tests.factories import API, AuthFor, create_record

# A week ahead: its Monday, so that each event's weekday is known.
TODAY = datetime.now(UTC).date()
MONDAY = TODAY + timedelta(days=14 - TODAY.weekday())


def at(day: date, clock: str, hours: int = 1) -> dict[str, str]:
    start = datetime.fromisoformat(f"{day.isoformat()} {clock}")
    end = start + timedelta(hours=hours)
    return {"start_date": f"{start:%Y-%m-%d %H:%M:%S}", "end_date": f"{end:%Y-%m-%d %H:%M:%S}"}


async def category(client: AsyncClient, editor: AuthFor, name: str, **fields: Any) -> int:
    response = await client.post(
        f"{API}/categories", json={"name": name, **fields}, headers=editor.basic
    )
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


async def event(client: AsyncClient, editor: AuthFor, title: str, **fields: Any) -> int:
    body = await create_record(client, editor, "events", title, **fields)
    return int(body["id"])


def bar(html: str) -> str:
    found = re.search(r'<form class="filter-bar".*?</form>', html, re.S)
    assert found, "no filter bar"
    return found.group(0)


def choices(html: str, name: str) -> dict[str, tuple[str, int]]:
    """A facet's checkboxes: value -> (label, count)."""
    pattern = (
        rf'<input type="checkbox" name="{re.escape(name)}" value="([^"]+)"[^>]*> '
        r"([^<]*?) <span class=\"count\">\((\d+)\)</span>"
    )
    return {v: (label, int(n)) for v, label, n in re.findall(pattern, bar(html))}


def titles(html: str) -> set[str]:
    main = html.split('<main id="main">', 1)[1]
    return set(re.findall(r'<h[23]><a href="[^"]*">([^<]*)</a>', main))


async def page(client: AsyncClient, path: str, **params: Any) -> str:
    response = await client.get(path, params=params)
    assert response.status_code == 200, response.text[:400]
    return response.text


async def programme(client: AsyncClient, editor: AuthFor) -> dict[str, int]:
    """A small programme: music with a jazz child, a tag, a venue, an organizer, a featured
    event, at known weekdays and times; a past event and a draft a visitor does not see."""
    music = await category(client, editor, "Music")
    jazz = await category(client, editor, "Jazz", parent=music)
    hall = await create_record(client, editor, "venues", "Blue Hall")
    club = await create_record(client, editor, "organizers", "Film Club")
    await event(client, editor, "Organ recital", categories=[music], **at(MONDAY, "10:00"))
    await event(
        client,
        editor,
        "Late jazz",
        categories=[jazz],
        tags=["outdoor"],
        venue=hall["id"],
        **at(MONDAY + timedelta(days=2), "22:00"),
    )
    await event(
        client,
        editor,
        "Silent film",
        organizer=[club["id"]],
        featured=True,
        **at(MONDAY + timedelta(days=5), "18:00"),
    )
    past = TODAY - timedelta(days=30)
    await event(client, editor, "Old fair", categories=["Bygone"], **at(past, "10:00"))
    await event(client, editor, "Secret gig", categories=["Hidden"], status="draft")
    return {"music": music, "jazz": jazz, "hall": hall["id"], "club": club["id"]}


async def test_the_bar_offers_what_upcoming_events_have_with_counts(
    client: AsyncClient, editor: AuthFor
) -> None:
    ids = await programme(client, editor)
    html = await page(client, "/events/list/")
    categories = choices(html, "tribe_eventcategory[]")
    # The parent counts its child's dates; the child stands under it.
    assert categories == {str(ids["music"]): ("Music", 2), str(ids["jazz"]): ("Jazz", 1)}
    assert (
        f'<li class="depth-1"><label><input type="checkbox" name="tribe_eventcategory[]" value="{ids["jazz"]}"'
        in html
    )
    assert "Bygone" not in bar(html)
    assert "Hidden" not in bar(html)
    assert list(choices(html, "tribe_tags[]").values()) == [("outdoor", 1)]
    assert choices(html, "tribe_venues[]") == {str(ids["hall"]): ("Blue Hall", 1)}
    assert choices(html, "tribe_organizers[]") == {str(ids["club"]): ("Film Club", 1)}
    assert choices(html, "tribe_dayofweek[]") == {
        "1": ("Monday", 1),
        "3": ("Wednesday", 1),
        "6": ("Saturday", 1),
    }
    assert choices(html, "tribe_timeofday[]") == {
        "morning": ("Morning", 1),
        "evening": ("Evening", 1),
        "night": ("Night", 1),
    }
    assert (
        'name="tribe_featuredevent" value="1"> Featured events only <span class="count">(1)</span>'
        in html
    )
    # Every view shows it, in every language (the weekday names in the page's language).
    for path in ("/events/month/", "/events/map/", f"/events/{MONDAY.isoformat()}/"):
        assert choices(await page(client, path), "tribe_venues[]")
    german = await page(client, "/de/events/list/")
    assert choices(german, "tribe_dayofweek[]")["1"] == ("Montag", 1)
    assert 'action="http://testserver/de/events/list/"' in german
    slovak = await page(client, "/sk/events/list/")
    assert choices(slovak, "tribe_dayofweek[]")["1"] == ("pondelok", 1)
    assert "Filtrovať podujatia" in bar(slovak)


async def test_the_bar_names_no_venue_or_organizer_a_visitor_may_not_see(
    client: AsyncClient, editor: AuthFor
) -> None:
    """As the API's bodies: a venue behind a password, a draft organizer are not named,
    though their published events are listed."""
    locked = await create_record(client, editor, "venues", "Locked Hall", password="secret")
    draft = await create_record(client, editor, "organizers", "Draft Club", status="draft")
    open_hall = await create_record(client, editor, "venues", "Open Hall")
    await event(client, editor, "Behind doors", venue=locked["id"], **at(MONDAY, "18:00"))
    await event(client, editor, "Drafted", organizer=[draft["id"]], **at(MONDAY, "19:00"))
    await event(client, editor, "In the open", venue=open_hall["id"], **at(MONDAY, "20:00"))
    html = await page(client, "/events/list/")
    assert titles(html) == {"Behind doors", "Drafted", "In the open"}
    assert choices(html, "tribe_venues[]") == {str(open_hall["id"]): ("Open Hall", 1)}
    assert choices(html, "tribe_organizers[]") == {}
    assert "Locked Hall" not in bar(html)
    assert "Draft Club" not in bar(html)


async def test_filters_narrow_the_views_by_the_add_ons_names(
    client: AsyncClient, editor: AuthFor
) -> None:
    ids = await programme(client, editor)
    everything = {"Organ recital", "Late jazz", "Silent film"}
    assert titles(await page(client, "/events/list/")) == everything
    cases: list[tuple[dict[str, Any], set[str]]] = [
        ({"tribe_eventcategory[]": ids["music"]}, {"Organ recital", "Late jazz"}),
        ({"tribe_eventcategory[]": "jazz"}, {"Late jazz"}),  # a slug as well as an ID
        ({"tribe_tags[]": "outdoor"}, {"Late jazz"}),
        ({"tribe_venues[]": ids["hall"]}, {"Late jazz"}),
        ({"tribe_organizers[]": ids["club"]}, {"Silent film"}),
        ({"tribe_featuredevent": "1"}, {"Silent film"}),
        # Repeated (a form's) or by commas (the views' links): any of them.
        ({"tribe_venues[]": ids["hall"], "tribe_organizers": str(ids["club"])}, set()),
        (
            {"tribe_eventcategory[]": [str(ids["jazz"]), str(ids["music"])]},
            {"Organ recital", "Late jazz"},
        ),
    ]
    for params, expected in cases:
        assert titles(await page(client, "/events/list/", **params)) == expected, params
    # A category's page keeps its own category; the bar's tags narrow it further.
    jazz = await page(client, "/events/list/", **{"tribe_eventcategory[]": ids["jazz"]})
    assert f'name="tribe_eventcategory[]" value="{ids["jazz"]}" checked>' in bar(jazz)
    music_page = await page(client, "/events/category/music/list/", **{"tribe_tags[]": "outdoor"})
    assert titles(music_page) == {"Late jazz"}
    assert "tribe_eventcategory[]" not in bar(music_page)


async def test_a_filtered_views_links_keep_the_filters(
    client: AsyncClient, editor: AuthFor
) -> None:
    ids = await programme(client, editor)
    kept = f"tribe_venues%5B%5D={ids['hall']}"
    month = (MONDAY + timedelta(days=2)).strftime("%Y-%m")  # the late jazz's
    html = await page(client, f"/events/month/{month}/", **{"tribe_venues[]": ids["hall"]})
    assert "Late jazz" in html
    assert "Organ recital" not in html
    assert "Silent film" not in html
    # The month's arrows and the view switcher keep the filter.
    assert re.search(rf'rel="next" href="[^"]*/events/month/[0-9-]+/\?{re.escape(kept)}"', html)
    assert f'href="http://testserver/events/list/?{kept}"' in html
    # Its days link to their day views with the filter, whose arrows keep it.
    late = MONDAY + timedelta(days=2)
    assert f'href="http://testserver/events/{late.isoformat()}/?{kept}"' in html
    day = await page(client, f"/events/{late.isoformat()}/", **{"tribe_venues[]": ids["hall"]})
    following = late + timedelta(days=1)
    assert f'rel="next" href="http://testserver/events/{following.isoformat()}/?{kept}"' in day
    # The list's, the summary's and the week's day headings keep it too.
    day_link = f'href="http://testserver/events/{late.isoformat()}/?{kept}"'
    for view in ("list", "summary", f"week/{late.isoformat()}"):
        shown = await page(client, f"/events/{view}/", **{"tribe_venues[]": ids["hall"]})
        assert day_link in shown, view
    # The filter form goes to the month itself; the search keeps the filter, hidden.
    assert f'action="http://testserver/events/month/{month}/"' in bar(html)
    assert f'name="tribe_venues[]" value="{ids["hall"]}" checked>' in bar(html)
    assert f'<input type="hidden" name="tribe_venues[]" value="{ids["hall"]}">' in html
    # A search's words stay in the filter form (hidden) and in the clear link.
    searched = await page(
        client, "/events/list/", **{"tribe-bar-search": "jazz", "tribe_featuredevent": "1"}
    )
    form = bar(searched)
    assert '<input type="hidden" name="tribe-bar-search" value="jazz">' in form
    assert 'href="http://testserver/events/list/?tribe-bar-search=jazz" data-filter-clear>' in form
    assert titles(searched) == set()


async def test_bad_filter_values_are_the_400_page_naming_them(client: AsyncClient) -> None:
    bad = [
        ("tribe_venues[]", "hall"),
        ("tribe_dayofweek[]", "8"),
        ("tribe_timeofday[]", "noon"),
        ("tribe_featuredevent", "maybe"),
        ("cost_min", "cheap"),
        ("cost_max", "-1"),
    ]
    for name, value in bad:
        response = await client.get("/events/list/", params={name: value})
        assert response.status_code == 400, (name, value)
        assert name in response.text
    # An unknown venue of an old link: no such list (the 404 page, as the API's 400).
    response = await client.get("/events/list/", params={"tribe_venues[]": "999999"})
    assert response.status_code == 404


async def test_a_write_shows_in_the_bar_on_the_next_load(
    client: AsyncClient, editor: AuthFor
) -> None:
    await event(client, editor, "First", categories=["Theatre"], **at(MONDAY, "19:00"))
    html = await page(client, "/events/list/")
    assert [label for label, _ in choices(html, "tribe_eventcategory[]").values()] == ["Theatre"]
    await event(client, editor, "Second", categories=["Dance"], **at(MONDAY, "20:00"))
    html = await page(client, "/events/list/")
    shown = choices(html, "tribe_eventcategory[]").values()
    assert sorted(shown) == [("Dance", 1), ("Theatre", 1)]


async def test_cost_weekday_and_time_of_day_narrow_the_views(
    client: AsyncClient, editor: AuthFor
) -> None:
    await programme(client, editor)  # at no cost: none of them has one
    await event(client, editor, "Cheap talk", cost="5", **at(MONDAY + timedelta(days=1), "13:00"))
    await event(client, editor, "Gala", cost="40", **at(MONDAY + timedelta(days=1), "19:00"))
    await event(client, editor, "Open day", cost="Free", **at(MONDAY + timedelta(days=3), "09:00"))
    await event(
        client,
        editor,
        "Harvest fair",
        all_day=True,
        start_date=f"{MONDAY + timedelta(days=4)} 00:00:00",
        end_date=f"{MONDAY + timedelta(days=4)} 23:59:59",
    )
    cases: list[tuple[dict[str, Any], set[str]]] = [
        ({"free": "1"}, {"Open day"}),
        ({"cost_max": "0"}, {"Open day"}),
        ({"cost_max": "10"}, {"Open day", "Cheap talk"}),
        ({"cost_min": "10", "cost_max": "50"}, {"Gala"}),
        ({"tribe_cost": "1-10"}, {"Cheap talk"}),  # the add-on's range
        ({"tribe_dayofweek[]": "1"}, {"Organ recital"}),  # Monday, as the API's `weekday`
        ({"tribe_dayofweek[]": ["3", "6"]}, {"Late jazz", "Silent film"}),
        ({"tribe_timeofday[]": "night"}, {"Late jazz"}),
        ({"tribe_timeofday[]": "21-06"}, {"Late jazz"}),  # the add-on's value
        ({"tribe_timeofday[]": "morning,afternoon"}, {"Organ recital", "Cheap talk", "Open day"}),
        ({"tribe_timeofday[]": "allday"}, {"Harvest fair"}),
        ({"tribe_timeofday[]": "evening", "cost_min": "1"}, {"Gala"}),
    ]
    for params, expected in cases:
        assert titles(await page(client, "/events/list/", **params)) == expected, params
    html = await page(client, "/events/list/", **{"cost_min": "10", "cost_max": "50"})
    # The links keep the range; the form shows it.
    assert "cost_min=10&amp;cost_max=50" in html
    assert 'name="cost_min" min="0" step="any" inputmode="decimal" value="10"' in html
    times = choices(html, "tribe_timeofday[]")
    assert times["all_day"] == ("All day", 1)
    assert times["afternoon"] == ("Afternoon", 1)
    assert times["evening"] == ("Evening", 2)
    assert 'Free events only <span class="count">(1)</span>' in html
    free = await page(client, "/de/events/list/", free="1")
    assert 'name="free" value="1" checked' in free
    assert "cost_max=0" in free


async def test_each_facet_offers_at_most_twenty_values_and_the_bar_stays_small(
    client: AsyncClient, editor: AuthFor
) -> None:
    """25 of each: the 20 with the most dates are offered (the busiest first, whatever
    their names), and the bar stays a small part of the page's 60 KB."""
    for n in range(25):
        name = f"{n:02} " + "long name " * 5
        venue = await create_record(client, editor, "venues", f"Venue {name}")
        organizer = await create_record(client, editor, "organizers", f"Organizer {name}")
        # The first five have a second date: they are among the twenty.
        for day in range(2 if n < 5 else 1):
            await event(
                client,
                editor,
                f"Event {n:02}.{day}",
                venue=venue["id"],
                organizer=[organizer["id"]],
                categories=[f"Category {name}"],
                tags=[f"Tag {name}"],
                **at(MONDAY + timedelta(days=day), f"{8 + n % 12:02}:00"),
            )
    html = await page(client, "/events/list/")
    for name in ("tribe_eventcategory[]", "tribe_tags[]", "tribe_venues[]", "tribe_organizers[]"):
        offered = choices(html, name)
        assert len(offered) == 20, name
        twice = sorted(label.split()[1] for label, count in offered.values() if count == 2)
        assert twice == ["00", "01", "02", "03", "04"], name
    assert len(bar(html).encode()) < 20_000, len(bar(html).encode())
