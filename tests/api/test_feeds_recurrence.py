"""Recurring events in calendar feeds: a series is one VEVENT with its rules, an edited date
a VEVENT with the series' UID and a RECURRENCE-ID, a cancelled date an EXDATE; and a
calendar that expands the feed over its window sees the dates the JSON list gives for the
same query (recurring_ical_events does the expanding, as calendar apps would)."""

from datetime import UTC, date, datetime, timedelta
from typing import Any

import icalendar
import recurring_ical_events
from httpx import AsyncClient

from tests.api.test_feeds import FEED, Feed
from tests.api.test_recurrence import create, dates
from tests.factories import API, AuthFor

WINDOW = {"start_date": "2027-03-01", "end_date": "2027-06-30"}
# recurring_ical_events' between() takes [start, end): the day after the list's end date.
BETWEEN = (date(2027, 3, 1), date(2027, 7, 1))

Pair = tuple[str, str]


def _when(value: date | datetime) -> str:
    """A start as both sides can say it: the UTC instant, or the day of an all-day date."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
    return value.isoformat()


def expanded(raw: bytes, between: tuple[date, date] = BETWEEN) -> list[Pair]:
    calendar = icalendar.Calendar.from_ical(raw)
    found = recurring_ical_events.of(calendar).between(*between)
    return sorted((_when(event["DTSTART"].dt), str(event["SUMMARY"])) for event in found)


async def listed(client: AsyncClient, **params: Any) -> list[Pair]:
    response = await client.get(f"{API}/events", params={"per_page": 50, **params})
    assert response.status_code == 200, response.text
    return sorted(
        (item["start_date"][:10] if item["all_day"] else item["utc_start_date"], item["title"])
        for item in response.json()["events"]
    )


async def feed(client: AsyncClient, **params: Any) -> Feed:
    return Feed(await client.get(FEED, params=params))


def vevents(parsed: Feed, series_id: int) -> list[icalendar.Event]:
    return [e for e in parsed.ical.events if str(e["UID"]) == f"{series_id}@testserver"]


async def test_a_weekly_series_across_dst_is_one_vevent_with_its_rule(
    client: AsyncClient, editor: AuthFor
) -> None:
    rule = "RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270406T235959Z"
    series = await create(client, editor, recurrence=[rule])
    parsed = await feed(client, **WINDOW)
    assert parsed.uids == [f"{series['id']}@testserver"]
    raw = parsed.raw
    assert b"\r\nDTSTART;TZID=Europe/Berlin:20270302T190000\r\n" in raw
    assert b"\r\nDTEND;TZID=Europe/Berlin:20270302T203000\r\n" in raw
    # icalendar writes the rule's parts in its own order.
    assert b"\r\nRRULE:FREQ=WEEKLY;UNTIL=20270406T235959Z;BYDAY=TU\r\n" in raw
    assert b"EXDATE" not in raw
    assert b"RECURRENCE-ID" not in raw
    # vobject reads the same rule: six Tuesdays at 19:00 Berlin time.
    (vevent,) = parsed.vobj.contents["vevent"]
    assert len(list(vevent.getrruleset())) == 6
    # Expanded: 19:00 local stays, the UTC hour moves with Berlin's DST (28 March).
    assert expanded(raw) == [
        ("2027-03-02 18:00:00", "Yoga"),
        ("2027-03-09 18:00:00", "Yoga"),
        ("2027-03-16 18:00:00", "Yoga"),
        ("2027-03-23 18:00:00", "Yoga"),
        ("2027-03-30 17:00:00", "Yoga"),
        ("2027-04-06 17:00:00", "Yoga"),
    ]
    assert expanded(raw) == await listed(client, **WINDOW)


async def test_an_edited_date_is_a_vevent_with_a_recurrence_id(
    client: AsyncClient, editor: AuthFor
) -> None:
    series = await create(client, editor, recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"])
    third = (await dates(client, series["id"]))[2]
    changed = await client.patch(
        f"{API}/events/{third['id']}",
        json={"title": "Yoga outdoors", "start_date": "2027-03-16 10:00:00",
              "end_date": "2027-03-16 11:00:00"},
        headers=editor.basic,
    )  # fmt: skip
    assert changed.status_code == 200, changed.text
    parsed = await feed(client, **WINDOW)
    main, override = vevents(parsed, series["id"])
    assert "RECURRENCE-ID" not in main
    assert main["RRULE"].to_ical() == b"FREQ=WEEKLY;COUNT=3"
    assert str(main["SUMMARY"]) == "Yoga"
    assert str(override["SUMMARY"]) == "Yoga outdoors"
    assert b"\r\nRECURRENCE-ID;TZID=Europe/Berlin:20270316T190000\r\n" in parsed.raw
    assert b"\r\nDTSTART;TZID=Europe/Berlin:20270316T100000\r\n" in parsed.raw
    assert "RRULE" not in override
    assert expanded(parsed.raw) == [
        ("2027-03-02 18:00:00", "Yoga"),
        ("2027-03-09 18:00:00", "Yoga"),
        ("2027-03-16 09:00:00", "Yoga outdoors"),
    ]
    assert expanded(parsed.raw) == await listed(client, **WINDOW)
    # The feed of one date is the whole series: its VEVENT and the edited date.
    single = Feed(await client.get(f"{API}/events/{third['id']}.ics"))
    assert single.uids == [f"{series['id']}@testserver"] * 2
    assert expanded(single.raw) == expanded(parsed.raw)


async def test_a_cancelled_date_is_an_exdate(client: AsyncClient, editor: AuthFor) -> None:
    series = await create(client, editor, recurrence=["RRULE:FREQ=WEEKLY;COUNT=4"])
    second = (await dates(client, series["id"]))[1]
    deleted = await client.delete(f"{API}/events/{second['id']}", headers=editor.basic)
    assert deleted.status_code == 200, deleted.text
    parsed = await feed(client, **WINDOW)
    assert parsed.uids == [f"{series['id']}@testserver"]
    # Stored as a UTC EXDATE, written as DTSTART is: Berlin wall time with its TZID.
    assert b"\r\nEXDATE;TZID=Europe/Berlin:20270309T190000\r\n" in parsed.raw
    assert expanded(parsed.raw) == [
        ("2027-03-02 18:00:00", "Yoga"),
        ("2027-03-16 18:00:00", "Yoga"),
        ("2027-03-23 18:00:00", "Yoga"),
    ]
    single = Feed(await client.get(f"{API}/events/{series['id']}.ics"))
    assert expanded(single.raw) == expanded(parsed.raw)


async def test_the_expanded_feed_is_the_list(client: AsyncClient, editor: AuthFor) -> None:
    park = await client.post(f"{API}/venues", json={"venue": "Park"}, headers=editor.basic)
    assert park.status_code == 201, park.text
    tai_chi = await create(
        client, editor, title="Tai chi", recurrence=["RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=8"]
    )
    items = await dates(client, tai_chi["id"])
    moved = await client.patch(
        f"{API}/events/{items[3]['id']}",
        json={"venue": park.json()["id"], "title": "Tai chi in the park"},
        headers=editor.basic,
    )
    assert moved.status_code == 200, moved.text
    await create(
        client, editor, title="Festival", start_date="2027-05-07", end_date="2027-05-08",
        all_day=True, recurrence=["RRULE:FREQ=WEEKLY;UNTIL=20270522", "RDATE:20270601"],
    )  # fmt: skip
    await create(
        client, editor, title="Lecture", start_date="2027-03-04 12:00:00",
        end_date="2027-03-04 13:00:00",
    )  # fmt: skip
    queries: list[dict[str, Any]] = [
        WINDOW,
        {**WINDOW, "venue": park.json()["id"]},
        {**WINDOW, "search": "tai"},
        {**WINDOW, "start_date": "2027-03-10"},  # cuts the series
        {**WINDOW, "hide_subsequent_recurrences": "1"},
    ]
    for query in queries:
        parsed = await feed(client, **query)
        between = (
            date.fromisoformat(query["start_date"]),
            date.fromisoformat(query["end_date"]) + timedelta(days=1),
        )
        expansion = expanded(parsed.raw, between)
        assert expansion == await listed(client, **query), query
        assert expansion, query
    # Real values: the moved date alone under its venue; the all-day dates and the RDATE.
    in_park = await feed(client, **queries[1])
    assert expanded(in_park.raw) == [("2027-03-11 18:00:00", "Tai chi in the park")]
    assert b"EXDATE;TZID=Europe/Berlin:20270302T190000," in in_park.raw
    everything = expanded((await feed(client, **WINDOW)).raw)
    assert [pair for pair in everything if pair[1] == "Festival"] == [
        ("2027-05-07", "Festival"),
        ("2027-05-14", "Festival"),
        ("2027-05-21", "Festival"),
        ("2027-06-01", "Festival"),
    ]
    assert len(everything) == 8 + 4 + 1
    # The feed's limit is the list's first page: the dates beyond it are excluded.
    limited = await feed(client, **WINDOW, limit=3)
    assert expanded(limited.raw) == await listed(client, **WINDOW, per_page=3)
    assert len(expanded(limited.raw)) == 3
