"""GET /events (and its calendar feed): the price, the local start's day of the week and time
of day (`cost_min`, `cost_max`, `weekday`, `time_of_day`: docs/design.md#event-list), alone,
combined with each other and the older filters, echoed in the links, refused by name."""

import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import icalendar
import pytest
from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.database.sql import refresh_statistics
from app.core.settings import get_settings
from app.core.web.urls import Urls
from app.events.listing import prepare
from app.events.query import EventQuery
from app.events.repository.day_query import DayQuery
from app.http.context import RequestContext
from tests.api.test_event_list import add, at, ids, today
from tests.factories import API, AuthFor
from tests.list_plans import dates_scan, list_plans


def next_monday(weeks: int = 2) -> date:
    day = today() + timedelta(weeks=weeks)
    return day - timedelta(days=day.weekday())


async def test_cost_bounds_and_free(client: AsyncClient, editor: AuthFor) -> None:
    day = next_monday()
    costs: list[tuple[str, Any]] = [
        ("free_word", "Free"),
        ("zero", "0"),
        ("ten", "$10"),
        ("range", "$5 - $20"),
        ("tiered", ["0", "30"]),
        ("none", None),
        ("word", "Donation"),
        ("decimal", "12,50 €"),
        ("thousand", "1,000"),
    ]
    made: dict[str, int] = {}
    for hour, (name, cost) in enumerate(costs):
        fields = {} if cost is None else {"cost": cost}
        made[name] = (await add(client, editor, at(day, 8 + hour), **fields))["id"]

    async def named(**params: Any) -> list[str]:
        found = await ids(client, start_date=str(day), end_date=str(day), **params)
        return [name for name, _ in costs if made[name] in found]

    # Free: a cost of 0 or the word Free; no cost, or only words, has no amount.
    assert await named(cost_max=0) == ["free_word", "zero", "tiered"]
    assert await named(cost_max="0.00") == ["free_word", "zero", "tiered"]
    assert await named(cost_min=0) == [
        "free_word", "zero", "ten", "range", "tiered", "decimal", "thousand",
    ]  # fmt: skip
    assert await named(cost_min="0.01") == ["ten", "range", "tiered", "decimal", "thousand"]
    # One of the event's amounts within the bounds (a range's two ends are two amounts).
    assert await named(cost_min=10) == ["ten", "range", "tiered", "decimal", "thousand"]
    assert await named(cost_min=6, cost_max=15) == ["ten", "decimal"]
    assert await named(cost_min="12.5", cost_max="12.5") == ["decimal"]
    assert await named(cost_max=5) == ["free_word", "zero", "range", "tiered"]
    assert await named(cost_min=999, cost_max=1000) == ["thousand"]
    assert await named(cost_min=31, cost_max=999) == []
    # With the other filters (AND) and the total.
    response = await client.get(
        f"{API}/events",
        params={"start_date": str(day), "end_date": str(day), "cost_max": 5, "per_page": 2},
    )
    assert response.headers["X-TEC-Total"] == "4"
    assert await named(cost_max=0, time_of_day="morning") == ["free_word", "zero"]  # 08, 09
    assert await named(cost_max=0, time_of_day="afternoon") == ["tiered"]  # 12:00
    assert await named(cost_max=0, time_of_day="evening") == []


async def test_weekday_and_time_of_day_of_the_local_start(
    client: AsyncClient, editor: AuthFor
) -> None:
    monday = next_monday()

    def on(days: int, hour: int, minute: int = 0) -> datetime:
        return at(monday + timedelta(days=days), hour, minute)

    made = {
        "mon_morning": await add(client, editor, on(0, 6)),
        "mon_noon": await add(client, editor, on(0, 12)),
        "tue_evening": await add(client, editor, on(1, 17, 30)),
        "wed_night": await add(client, editor, on(2, 21)),
        "thu_small_hours": await add(client, editor, on(3, 4, 59), hours=0.5),
        "thu_five": await add(client, editor, on(3, 5)),
        "fri_tokyo": await add(client, editor, on(4, 9), timezone="Asia/Tokyo"),
        "sat_all_day": await add(client, editor, on(5, 0), hours=23, all_day=True),
        "sun_late": await add(client, editor, on(6, 23, 59), hours=0.01),
    }
    week = {"start_date": str(monday), "end_date": str(monday + timedelta(days=6))}

    async def named(**params: Any) -> list[str]:
        found = await ids(client, **week, per_page=50, **params)
        return [name for name, event in made.items() if event["id"] in found]

    assert await named(weekday=1) == ["mon_morning", "mon_noon"]
    assert await named(weekday="6,7") == ["sat_all_day", "sun_late"]
    assert await named(weekday=["2", "3"]) == ["tue_evening", "wed_night"]
    assert await named(**{"weekday[]": [5, 4]}) == ["thu_small_hours", "thu_five", "fri_tokyo"]
    assert await named(weekday="1,2,3,4,5,6,7") == list(made)
    # Each part of the day by the hours it holds (morning from 05:00 to 11:59...); an event
    # in another zone by its own wall clock; all-day events in none of them but `all_day`.
    assert await named(time_of_day="morning") == ["mon_morning", "thu_five", "fri_tokyo"]
    assert await named(time_of_day="afternoon") == ["mon_noon"]
    assert await named(time_of_day="Evening") == ["tue_evening"]
    assert await named(time_of_day="night") == ["wed_night", "thu_small_hours", "sun_late"]
    assert await named(time_of_day="all_day") == ["sat_all_day"]
    assert await named(time_of_day="morning,all_day") == [
        "mon_morning", "thu_five", "fri_tokyo", "sat_all_day",
    ]  # fmt: skip
    assert await named(time_of_day="morning,afternoon,evening,night") == [
        name for name in made if name != "sat_all_day"
    ]
    assert await named(weekday=4, time_of_day="night") == ["thu_small_hours"]
    assert await named(weekday=4, time_of_day="morning", featured="false") == ["thu_five"]


async def test_a_series_date_by_its_own_start(client: AsyncClient, editor: AuthFor) -> None:
    monday = next_monday(3)
    series = await add(
        client, editor, at(monday, 19), recurrence=["RRULE:FREQ=DAILY;COUNT=7"], cost="8"
    )
    window = {"start_date": str(monday), "end_date": str(monday + timedelta(days=6))}
    response = await client.get(f"{API}/events", params={**window, "weekday": "3,6"})
    starts = [event["start_date"] for event in response.json()["events"]]
    assert starts == [
        f"{monday + timedelta(days=2)} 19:00:00",
        f"{monday + timedelta(days=5)} 19:00:00",
    ]
    assert response.headers["X-TEC-Total"] == "2"
    evening = await client.get(
        f"{API}/events", params={**window, "time_of_day": "evening", "cost_min": 8}
    )
    assert evening.headers["X-TEC-Total"] == "7"
    assert {e["id"] for e in evening.json()["events"]} >= {series["id"]}
    night = await client.get(f"{API}/events", params={**window, "time_of_day": "night"})
    assert night.json()["events"] == []


async def test_links_and_the_feed_keep_the_filters(client: AsyncClient, editor: AuthFor) -> None:
    monday = next_monday()
    free_morning = await add(client, editor, at(monday, 9), cost="Free", title="Free morning")
    await add(client, editor, at(monday, 19), cost="Free", title="Free evening")
    await add(client, editor, at(monday, 10), cost="15", title="Paid morning")
    params = {
        "cost_min": "0",
        "cost_max": "0.50",
        "weekday": "1",
        "time_of_day": "morning",
        "per_page": 1,
    }
    response = await client.get(f"{API}/events", params=params)
    body = response.json()
    assert [event["id"] for event in body["events"]] == [free_morning["id"]]
    assert body["rest_url"].endswith("&cost_min=0&cost_max=0.5&weekday=1&time_of_day=morning"), (
        body["rest_url"]
    )
    assert "cost_max=0.5&weekday=1&time_of_day=morning" in response.headers["Link"]
    feed = await client.get(f"{API}/events.ics", params={"time_of_day": "morning", "cost_max": 0})
    assert feed.status_code == 200, feed.text
    calendar = icalendar.Calendar.from_ical(feed.content)
    titles = [str(event["SUMMARY"]) for event in calendar.walk("VEVENT")]
    assert titles == ["Free morning"]


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"cost_min": "-1"}, "cost_min"),
        ({"cost_max": "cheap"}, "cost_max"),
        ({"cost_max": "NaN"}, "cost_max"),
        ({"cost_min": "1e400"}, "cost_min"),
        ({"cost_min": "true"}, "cost_min"),
        ({"cost_min": "20", "cost_max": "10"}, "cost_min"),
        ({"weekday": "0"}, "weekday"),
        ({"weekday": "8"}, "weekday"),
        ({"weekday": "monday"}, "weekday"),
        ({"weekday": "1,,9"}, "weekday"),
        ({"weekday": ""}, "weekday"),
        ({"time_of_day": "noon"}, "time_of_day"),
        ({"time_of_day": "morning,lunch"}, "time_of_day"),
        ({"time_of_day": ""}, "time_of_day"),
    ],
)
async def test_bad_values_are_refused_by_name(
    client: AsyncClient, params: dict[str, str], named: str
) -> None:
    for path in ("/events", "/events.ics"):
        response = await client.get(f"{API}{path}", params=params)
        assert response.status_code == 400, (path, params, response.text)
        body = response.json()
        assert body["code"] == "rest_invalid_param"
        assert list(body["data"]["params"]) == [named]


@pytest.mark.parametrize(
    ("language", "params", "words"),
    [
        ("en", {"weekday": "9"}, "1 (Monday) to 7 (Sunday)"),
        ("de", {"weekday": "9"}, "1 (Montag) bis 7 (Sonntag)"),
        ("sk", {"weekday": "9"}, "1 (pondelok) až 7 (nedeľa)"),
        ("de", {"cost_min": "5", "cost_max": "1"}, "cost_min darf nicht größer als cost_max"),
        ("sk", {"cost_min": "5", "cost_max": "1"}, "cost_min nesmie byť väčšie ako cost_max"),
        ("de", {"cost_max": "-2"}, "cost_max muss größer oder gleich 0"),
        ("sk", {"time_of_day": "noon"}, "morning, afternoon, evening, night, all_day"),
    ],
)
async def test_refusals_in_each_language(
    client: AsyncClient, language: str, params: dict[str, str], words: str
) -> None:
    response = await client.get(f"{API}/events", params={**params, "i18n_language": language})
    assert response.status_code == 400
    message = " ".join(response.json()["data"]["params"].values())
    assert words in message, message


async def test_the_document_describes_them(client: AsyncClient) -> None:
    doc = (await client.get(f"{API}/doc")).json()
    listed = {p["name"]: p for p in doc["paths"]["/events"]["get"]["parameters"]}
    assert "0: free events" in listed["cost_max"]["description"]
    assert listed["cost_min"]["schema"]["anyOf"][0] == {
        "type": "number", "minimum": 0, "maximum": 10**12,
    }  # fmt: skip
    weekday_items = listed["weekday"]["schema"]["anyOf"][0]["items"]
    assert (weekday_items["minimum"], weekday_items["maximum"]) == (1, 7)
    times = listed["time_of_day"]["schema"]["anyOf"][0]["items"]["enum"]
    assert times == ["morning", "afternoon", "evening", "night", "all_day"]
    feed = {p["name"] for p in doc["paths"]["/events.ics"]["get"]["parameters"]}
    assert {"cost_min", "cost_max", "weekday", "time_of_day"} <= feed


# Six dates a day, at 00, 04, ... 20 h; every twelfth all-day; a third free, the others $10.
BULK_EVENTS = """
    INSERT INTO events (title, slug, status, start_at, end_at, start_local, end_local,
        timezone, timezone_abbr, all_day, cost, cost_details, show_map, show_map_link,
        hide_from_listings, sticky, featured, published_at, modified_at, description, excerpt)
    SELECT 'Bulk ' || n, 'bulk-' || n, 'publish', s, e, s, e, 'UTC', 'UTC', n % 12 = 0,
        CASE WHEN n % 3 = 0 THEN 'Free' ELSE '$10' END,
        CASE WHEN n % 3 = 0 THEN '{"values": ["free"]}' ELSE '{"values": ["10"]}' END::jsonb,
        false, false, false, false, false, now(), now(), '', ''
    FROM (SELECT n, s, CASE WHEN n % 12 = 0 THEN s + interval '86399 seconds'
                       ELSE s + interval '2 hours' END AS e
          FROM (SELECT n, CAST(CAST(now() AS date) AS timestamp) + (n / 6) * interval '1 day'
                          + (n % 6) * interval '4 hours' AS s
                FROM generate_series(CAST(:first AS int), CAST(:last AS int)) AS n) AS starts)
         AS dates
"""


async def test_the_start_filters_plans_on_100k_events(db: AsyncSession) -> None:
    """Loaded as the seeder loads (tests/api/test_event_list_queries.py); one date in six
    starts at midnight, every twelfth is all-day (run with -s to read the plans)."""
    for first, last in ((1, 1000), (1001, 100_000)):
        await db.execute(text(BULK_EVENTS), {"first": first, "last": last})
        await refresh_statistics(db, "events", "occurrences")
    plain = await list_plans(db, EventQuery())
    # The day and the hour are read from the dates' index with the start: the count scans
    # as the plain list's does and reads no event, but a midnight start's (is it all-day?).
    for query in (
        EventQuery(weekdays=(6, 7)),
        EventQuery(times_of_day=("evening",)),
        EventQuery(weekdays=(1,), times_of_day=("night", "all_day")),
    ):
        plans = await list_plans(db, query)
        assert dates_scan(plans["count"]) == dates_scan(plain["count"]), query
        events = [line for line in plans["count"].splitlines() if re.search(r" on events\b", line)]
        assert all("events_pkey on events started_event" in line for line in events), events
        assert re.search(r"Index (Only )?Scan using occurrences_(start|listing)_idx", plans["page"])
    # The price is the event's: the page walks the list's index as ever.
    plans = await list_plans(db, EventQuery(cost_max=Decimal(0)))
    assert re.search(r"Index (Only )?Scan using occurrences_(start|listing)_idx", plans["page"])


async def test_a_months_days_by_weekday_count_from_the_stored_spans(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    """A visitor's month on some days of the week counts its days from `listed_spans` (a
    date's day of the week is its first day's) and subtracts the dates outside the window
    on those days alone: each day as counting its dates says (app/events/repository/
    day_counts.py), whichever zone the dates near the window's ends are in."""
    month = next_monday(5).replace(day=1) + timedelta(days=40)
    first = month.replace(day=1) - timedelta(days=month.replace(day=1).weekday())
    last = first + timedelta(days=34)
    for offset in range(-3, 38, 2):
        day = first + timedelta(days=offset)
        await add(client, editor, at(day, 10 + offset % 8))
    await add(client, editor, at(first + timedelta(days=4), 20), hours=60)  # three days
    # Outside the window (it ends on the grid's first day): subtracted on its weekday alone.
    await add(client, editor, at(first, 10))
    await add(client, editor, at(first - timedelta(days=3), 12), hours=90)  # Friday to Tuesday
    await add(client, editor, at(first, 1), timezone="Pacific/Auckland")
    await add(client, editor, at(first - timedelta(days=1), 23), timezone="America/Los_Angeles")
    await add(client, editor, at(last, 23, 30), timezone="Pacific/Kiritimati")
    await add(client, editor, at(last + timedelta(days=1), 0, 30), timezone="Pacific/Honolulu")
    zone = get_settings().site_zone

    def moment(day: date) -> datetime:
        return datetime.combine(day, datetime.min.time()).replace(tzinfo=zone)

    urls = Urls("http://test", "", "", "http://test")
    anonymous = RequestContext({}, "en", None, db, urls, get_settings())
    for weekdays in ((1,), (2, 5), (6, 7), (1, 2, 3, 4, 5, 6, 7)):
        query = EventQuery(
            ends_after=moment(first), starts_before=moment(last + timedelta(days=1)),
            weekdays=weekdays,
        )  # fmt: skip
        prepared = await prepare(anonymous, query)
        days = DayQuery(prepared.query, first, last, 5)
        assert days.stored, weekdays
        stored = [(d.day, d.total, [e.id for e in d.events]) for d in await days.days()]
        days.stored = False
        counted = [(d.day, d.total, [e.id for e in d.events]) for d in await days.days()]
        assert stored == counted, weekdays
        assert counted, weekdays
