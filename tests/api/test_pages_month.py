"""The month page's days through HTTP: each day of the grid shows its first events (four
titles and "+N more" when it has more than five) and counts all of them, whatever the size
of the month, with the list's rules (multi-day events on each of their days, order,
visibility, category, tag and search filters). The events are made through the API."""

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from tests.factories import API, AuthFor, create_record

# A month ahead, so that nothing of it is past.
MONTH = (datetime.now(UTC).date().replace(day=1) + timedelta(days=45)).replace(day=1)


def on(day: int, clock: str) -> str:
    return f"{MONTH.replace(day=day).isoformat()} {clock}:00"


async def event(
    client: AsyncClient, editor: AuthFor, title: str, start: str, end: str, **fields: Any
) -> None:
    await create_record(client, editor, "events", title, start_date=start, end_date=end, **fields)


def cell(html: str, day: date, base: str = "") -> tuple[list[str], int]:
    """The titles a day's cell shows and its "+N more" (0 without)."""
    link = f'class="day-number" href="http://testserver{base}/{day.isoformat()}/"'
    cells = [part for part in html.split("<td")[1:] if link in part]
    assert len(cells) == 1, f"no cell for {day}"
    content = cells[0].split("</td>")[0]
    titles = re.findall(r'<li><a href="[^"]*">([^<]*)</a></li>', content)
    more = re.search(r"\+(\d+) (?:more|weitere)", content)
    return titles, int(more.group(1)) if more else 0


async def month_page(client: AsyncClient, path: str = "/events", **query: str) -> str:
    response = await client.get(f"{path}/month/{MONTH:%Y-%m}/", params=query)
    assert response.status_code == 200, response.text[:300]
    return response.text


async def test_a_busy_day_shows_four_titles_and_how_many_more(
    client: AsyncClient, editor: AuthFor
) -> None:
    for n in range(7):
        await event(client, editor, f"Busy {n}", on(10, f"1{n}:00"), on(10, f"1{n}:30"))
    for n in range(5):
        await event(client, editor, f"Full {n}", on(11, f"1{n}:00"), on(11, f"1{n}:30"))
    for n in range(2):
        await event(client, editor, f"Quiet {n}", on(12, f"1{n}:00"), on(12, f"1{n}:30"))
    html = await month_page(client)
    assert cell(html, MONTH.replace(day=10), "/events") == ([f"Busy {n}" for n in range(4)], 3)
    # Five fit: a "+1 more" would take the fifth title's place.
    assert cell(html, MONTH.replace(day=11), "/events") == ([f"Full {n}" for n in range(5)], 0)
    assert cell(html, MONTH.replace(day=12), "/events") == (["Quiet 0", "Quiet 1"], 0)
    assert cell(html, MONTH.replace(day=13), "/events") == ([], 0)
    german = await month_page(client, "/de/events")
    assert cell(german, MONTH.replace(day=10), "/de/events")[1] == 3


async def test_a_multi_day_event_shows_on_each_of_its_days_behind_a_full_month(
    client: AsyncClient, editor: AuthFor
) -> None:
    """Forty daily classes fill the month's first 26 days (1,040 dates, more than the grid
    once read in one list): every day still shows its own titles, and an event starting
    late on the 23rd leads the 24th and the 25th (it began before their classes)."""
    for n in range(40):
        rule = ["RRULE:FREQ=DAILY;COUNT=26"]
        start, end = on(1, f"07:{n:02}"), on(1, f"07:{n + 1:02}")
        await event(client, editor, f"Class {n:02}", start, end, recurrence=rule)
    await event(client, editor, "Long fair", on(23, "20:00"), on(25, "12:00"))
    # Ends at midnight: on its first day alone.
    await event(client, editor, "Night shift", on(26, "20:00"), on(27, "00:00"))
    html = await month_page(client)
    classes = [f"Class {n:02}" for n in range(4)]
    for day, more in ((1, 36), (22, 36), (23, 37), (26, 37)):
        assert cell(html, MONTH.replace(day=day), "/events") == (classes, more), day
    for day in (24, 25):
        assert cell(html, MONTH.replace(day=day), "/events") == (["Long fair", *classes[:3]], 37)
    assert cell(html, MONTH.replace(day=27), "/events") == ([], 0)


async def test_the_days_keep_the_lists_filters_and_visibility(
    client: AsyncClient, editor: AuthFor
) -> None:
    for n in range(6):
        await event(
            client,
            editor,
            f"Jazz quartet {n}",
            on(8, f"1{n}:00"),
            on(8, f"1{n}:30"),
            categories=["Jazz"],
            tags=["late"] if n < 2 else [],
        )
    for n in range(3):
        await event(client, editor, f"Poetry reading {n}", on(8, f"0{n}:00"), on(8, f"0{n}:30"))
    jazz = {"categories": ["Jazz"], "tags": ["late"]}
    await event(
        client,
        editor,
        "Hidden jam",
        on(8, "09:00"),
        on(8, "10:00"),
        hide_from_listings=True,
        **jazz,
    )
    await event(client, editor, "Draft jam", on(8, "09:00"), on(8, "10:00"), status="draft", **jazz)
    eighth = MONTH.replace(day=8)
    site = await month_page(client)
    poetry = [f"Poetry reading {n}" for n in range(3)]
    assert cell(site, eighth, "/events") == ([*poetry, "Jazz quartet 0"], 5)
    category = await month_page(client, "/events/category/jazz")
    quartets = [f"Jazz quartet {n}" for n in range(4)]
    assert cell(category, eighth, "/events/category/jazz/day") == (quartets, 2)
    tag = await month_page(client, "/events/tag/late")
    assert cell(tag, eighth, "/events/tag/late/day") == (["Jazz quartet 0", "Jazz quartet 1"], 0)
    searched = await month_page(client, **{"tribe-bar-search": "poetry"})
    assert cell(searched, eighth, "/events") == (poetry, 0)
    for html in (site, category, tag, searched):
        assert "Hidden jam" not in html
        assert "Draft jam" not in html


async def listed_on(client: AsyncClient, day: date, **filters: str) -> int:
    """How many events the API's list has on a day (the same window as the day's cell)."""
    window = {"strict_dates": "1", "ends_after": f"{day} 00:00:00"}
    window["starts_before"] = f"{day + timedelta(days=1)} 00:00:00"
    response = await client.get(f"{API}/events", params={**window, **filters, "per_page": 1})
    if response.status_code == 404:  # the list's answer to a page past the last
        return 0
    assert response.status_code == 200, response.text
    return int(response.headers["x-wp-total"])


async def test_a_terms_month_counts_each_day_as_the_list_does(
    client: AsyncClient, editor: AuthFor
) -> None:
    """A category's and a tag's days are counted on the event each date shows: a series
    with a changed date (an override, which keeps the series' terms), a series whose dates
    from the fourth on left the category, dates of other categories, a multi-day event.
    Each day's titles and "+N more" add up to the list's count of the day under the term."""
    daily = ["RRULE:FREQ=DAILY;COUNT=6"]
    start, end = on(3, "18:00"), on(3, "19:00")
    ours = {"categories": ["Jazz"], "tags": ["late"]}
    for n in range(7):
        await event(client, editor, f"Jam {n}", start, end, recurrence=daily, **ours)
    for n in range(4):
        await event(client, editor, f"Choir {n}", start, end, recurrence=daily, categories=["Folk"])
    await event(client, editor, "Jazz weekend", on(4, "10:00"), on(6, "22:00"), **ours)
    changes = (("jam 0", 2, {"title": "Jam moved"}), ("jam 1", 3, {"categories": ["Folk"]}))
    for search, index, change in changes:
        found = await client.get(f"{API}/events", params={"search": search, "per_page": 10})
        dates = sorted(found.json()["events"], key=lambda item: str(item["start_date"]))
        scope = {"scope": "following"} if "categories" in change else {}
        changed = await client.patch(
            f"{API}/events/{dates[index]['id']}",
            params=scope,
            json={**change, "tags": []} if scope else change,
            headers=editor.basic,
        )
        assert changed.status_code == 200, changed.text
    for path, term in (("category/jazz", {"categories": "jazz"}), ("tag/late", {"tags": "late"})):
        html = await month_page(client, f"/events/{path}")
        base = f"/events/{path}/day"
        for day in (MONTH.replace(day=n) for n in range(2, 10)):
            titles, more = cell(html, day, base)
            assert len(titles) + more == await listed_on(client, day, **term), (path, day)
        # The 5th: seven jams (one changed) and the weekend; the 6th: one jam left.
        assert cell(html, MONTH.replace(day=5), base)[1] == 4
        assert cell(html, MONTH.replace(day=6), base)[1] == 3
    plain = await month_page(client)
    titles, more = cell(plain, MONTH.replace(day=6), "/events")
    assert len(titles) + more == await listed_on(client, MONTH.replace(day=6)) == 12


async def test_the_inner_days_counts_follow_every_write(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    """A plain month counts its inner days from `listed_spans`, which triggers keep: after
    dates are added, moved, hidden, unpublished, trashed, deleted and a series shortened,
    each day's titles and "+N more" still add up to the list's count of the day, and the
    table holds what the listed dates give."""
    made = []
    for n in range(7):
        made.append(await create_record(client, editor, "events", f"Talk {n}",
                                        start_date=on(10, f"1{n}:00"), end_date=on(10, f"1{n}:30")))  # fmt: skip
    fair = await create_record(client, editor, "events", "Fair", start_date=on(12, "10:00"),
                               end_date=on(14, "18:00"))  # fmt: skip
    daily = ["RRULE:FREQ=DAILY;COUNT=4"]
    series = await create_record(client, editor, "events", "Course", start_date=on(15, "09:00"),
                                 end_date=on(15, "11:00"), recurrence=daily)  # fmt: skip
    days = [MONTH.replace(day=n) for n in range(9, 20)]

    async def check() -> list[int]:
        html = await month_page(client)
        totals = []
        for day in days:
            titles, more = cell(html, day, "/events")
            assert len(titles) + more == await listed_on(client, day), day
            totals.append(len(titles) + more)
        kept = await db.execute(
            text("SELECT first_day, last_day, dates FROM listed_spans WHERE dates <> 0")
        )
        counted = await db.execute(text(RECOUNT))
        assert sorted(kept.all()) == sorted(counted.all())
        return totals

    assert await check() == [0, 7, 0, 1, 1, 1, 1, 1, 1, 1, 0]
    moved = {"start_date": on(11, "10:00"), "end_date": on(11, "11:00")}
    changes = [(made[0], moved), (made[1], {"hide_from_listings": True}),
               (made[2], {"status": "draft"}), (fair, {"end_date": on(13, "00:00")}),
               (series, {"recurrence": ["RRULE:FREQ=DAILY;COUNT=2"], "scope": "all"})]  # fmt: skip
    for record, change in changes:
        changed = await client.patch(
            f"{API}/events/{record['id']}", json=change, headers=editor.basic
        )
        assert changed.status_code == 200, changed.text
    trashed = await client.delete(f"{API}/events/{made[3]['id']}", headers=editor.basic)
    assert trashed.status_code == 200
    url = f"{API}/events/{made[4]['id']}"
    deleted = await client.delete(url, params={"force": "true"}, headers=editor.basic)
    assert deleted.status_code == 200, deleted.text
    # Talks 5 and 6 are left on the 10th; the fair now ends at midnight: the 12th alone.
    assert await check() == [0, 2, 1, 1, 0, 0, 1, 1, 0, 0, 0]


# What `listed_spans` should hold: the listed dates by first and last local day.
RECOUNT = """
    SELECT start_local::date, (end_local - interval '1 microsecond')::date, count(*)
    FROM occurrences WHERE listed GROUP BY 1, 2
"""
