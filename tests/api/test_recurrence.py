"""Recurring events through HTTP: series, their dates (occurrences), overrides, scopes."""

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr
from httpx import AsyncClient

from tests.api.test_events import EVENT_KEYS, WRITER_KEYS
from tests.factories import API, AuthFor

WIDE = {"start_date": "2026-01-01", "end_date": "2029-12-31", "per_page": 50}


async def create(client: AsyncClient, who: AuthFor, **fields: Any) -> dict[str, Any]:
    payload = {
        "title": "Yoga",
        "start_date": "2027-03-02 19:00:00",
        "end_date": "2027-03-02 20:30:00",
        "timezone": "Europe/Berlin",
        **fields,
    }
    response = await client.post(f"{API}/events", json=payload, headers=who.basic)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def dates(client: AsyncClient, series_id: int, **params: Any) -> list[dict[str, Any]]:
    """Every date of a series, through the list (all pages)."""
    found: list[dict[str, Any]] = []
    page = 1
    while True:
        query = {**WIDE, "post_parent": series_id, "page": page, **params}
        response = await client.get(f"{API}/events", params=query)
        if response.status_code == 404 and found:
            return found
        assert response.status_code == 200, response.text
        body = response.json()
        found.extend(body["events"])
        if page >= body["total_pages"]:
            return found
        page += 1


def starts(items: list[dict[str, Any]]) -> list[str]:
    return [item["start_date"] for item in items]


async def test_a_weekly_series_keeps_its_wall_time_across_dst_in_berlin(
    client: AsyncClient, editor: AuthFor
) -> None:
    # Berlin leaves winter time on 28 March 2027: 19:00 stays 19:00, UTC moves by an hour.
    series = await create(
        client, editor, recurrence=["RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270406T235959Z"]
    )
    assert series["recurrence"] == ["RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270406T235959Z"]
    assert series["series_id"] == series["id"]
    items = await dates(client, series["id"])
    assert starts(items) == [
        "2027-03-02 19:00:00",
        "2027-03-09 19:00:00",
        "2027-03-16 19:00:00",
        "2027-03-23 19:00:00",
        "2027-03-30 19:00:00",
        "2027-04-06 19:00:00",
    ]
    assert [item["utc_start_date"][11:] for item in items] == ["18:00:00"] * 4 + ["17:00:00"] * 2
    assert [item["end_date"][11:] for item in items] == ["20:30:00"] * 6
    assert [item["timezone_abbr"] for item in items][:1] == ["CET"]
    # Each date is its own event: its ID, URL and rest_url; the first has the series' ID.
    ids = [item["id"] for item in items]
    assert ids[0] == series["id"]
    assert len(set(ids)) == 6
    second = items[1]
    assert second["url"] == "http://testserver/event/yoga/2027-03-09/"
    assert second["rest_url"] == f"http://testserver{API}/events/{second['id']}"
    assert second["series_id"] == series["id"]
    read = await client.get(f"{API}/events/{second['id']}")
    assert read.status_code == 200
    assert read.json()["start_date"] == "2027-03-09 19:00:00"
    by_day = await client.get(f"{API}/events/by-slug/yoga/2027-03-30")
    assert by_day.status_code == 200
    assert by_day.json()["id"] == items[4]["id"]
    missing = await client.get(f"{API}/events/by-slug/yoga/2027-03-31")
    assert missing.status_code == 404
    assert "2027-03-31" in missing.json()["message"]


async def test_new_york_dst_and_the_last_friday_of_the_month(
    client: AsyncClient, editor: AuthFor
) -> None:
    series = await create(
        client,
        editor,
        title="Last Friday",
        start_date="2027-01-29 18:00:00",
        end_date="2027-01-29 21:00:00",
        timezone="America/New_York",
        recurrence=["RRULE:FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1;COUNT=4"],
    )
    items = await dates(client, series["id"])
    assert starts(items) == [
        "2027-01-29 18:00:00",
        "2027-02-26 18:00:00",
        "2027-03-26 18:00:00",  # after New York's DST change (14 March)
        "2027-04-30 18:00:00",
    ]
    assert [item["utc_start_date"][11:] for item in items] == [
        "23:00:00",
        "23:00:00",
        "22:00:00",
        "22:00:00",
    ]


async def test_exdate_and_rdate_remove_and_add_dates(client: AsyncClient, editor: AuthFor) -> None:
    series = await create(
        client,
        editor,
        start_date="2027-12-21 19:00:00",
        end_date="2027-12-21 20:00:00",
        recurrence=[
            "RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20271231T000000Z",
            "EXDATE;TZID=Europe/Berlin:20271223T190000",
            "RDATE;TZID=Europe/Berlin:20280102T190000",
        ],
    )
    assert starts(await dates(client, series["id"])) == [
        "2027-12-21 19:00:00",
        "2027-12-28 19:00:00",
        "2027-12-30 19:00:00",
        "2028-01-02 19:00:00",
    ]


async def test_all_day_and_multi_day_series(client: AsyncClient, editor: AuthFor) -> None:
    festival = await create(
        client,
        editor,
        title="Festival",
        start_date="2027-06-04",
        end_date="2027-06-06",
        all_day=True,
        recurrence=["RRULE:FREQ=YEARLY;COUNT=2"],
    )
    items = await dates(client, festival["id"])
    assert [(i["start_date"], i["end_date"]) for i in items] == [
        ("2027-06-04 00:00:00", "2027-06-06 23:59:59"),
        ("2028-06-04 00:00:00", "2028-06-06 23:59:59"),
    ]
    assert all(item["all_day"] is True for item in items)


async def test_an_endless_rule_is_stored_up_to_the_horizon(
    client: AsyncClient, editor: AuthFor
) -> None:
    series = await create(
        client, editor, start_date="2026-12-01 08:00:00", end_date="2026-12-01 09:00:00",
        recurrence=["RRULE:FREQ=WEEKLY"],
    )  # fmt: skip
    horizon = datetime.now(ZoneInfo("Europe/Berlin")).replace(tzinfo=None) + timedelta(days=730)
    rule = rrulestr("FREQ=WEEKLY", dtstart=datetime(2026, 12, 1, 8))
    expected = list(rule.between(datetime(2026, 12, 1), horizon, inc=True))
    query = {"start_date": "2026-11-01", "end_date": "2040-01-01", "post_parent": series["id"]}
    response = await client.get(f"{API}/events", params={**query, "per_page": 1})
    assert response.json()["total"] == len(expected)
    assert len(expected) > 100


async def test_bad_rules_are_a_400_that_says_why(client: AsyncClient, editor: AuthFor) -> None:
    payload = {"title": "X", "start_date": "2027-03-02 19:00", "end_date": "2027-03-02 20:00"}
    cases = {
        "RRULE:FREQ=SOMETIMES": "cannot read",
        "RRULE:FREQ=MINUTELY": "more often than hourly",
        "RRULE:FREQ=DAILY;UNTIL=20200101": "yields no date",
        "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30": "yields no date",
        "EXDATE;TZID=Europe/Berlin:20270302T190000": "without any date",
        "hello": "cannot read",
    }
    for line, why in cases.items():
        body = {**payload, "timezone": "Europe/Berlin", "recurrence": [line]}
        response = await client.post(f"{API}/events", json=body, headers=editor.basic)
        assert response.status_code == 400, (line, response.text)
        assert why in response.json()["data"]["params"]["recurrence"], (line, response.json())
    listed = await client.get(f"{API}/events", params={**WIDE, "search": "X"})
    assert listed.json()["events"] == []  # nothing half-written


async def test_ids_stay_with_their_dates_across_rule_edits(
    client: AsyncClient, editor: AuthFor
) -> None:
    series = await create(client, editor, recurrence=["RRULE:FREQ=WEEKLY;COUNT=4"])
    before = {item["start_date"]: item["id"] for item in await dates(client, series["id"])}
    response = await client.post(
        f"{API}/events/{series['id']}",
        json={"recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=TU,FR;COUNT=6"]},
        headers=editor.basic,
    )
    assert response.status_code == 200, response.text
    after = {item["start_date"]: item["id"] for item in await dates(client, series["id"])}
    assert list(after) == [
        "2027-03-02 19:00:00",
        "2027-03-05 19:00:00",
        "2027-03-09 19:00:00",
        "2027-03-12 19:00:00",
        "2027-03-16 19:00:00",
        "2027-03-19 19:00:00",
    ]
    for start in set(before) & set(after):
        assert after[start] == before[start]
    assert before["2027-03-23 19:00:00"] not in after.values()
    gone = await client.get(f"{API}/events/{before['2027-03-23 19:00:00']}")
    assert gone.status_code == 404
    # No rules: a single event again, with its own ID.
    single = await client.post(
        f"{API}/events/{series['id']}", json={"recurrence": []}, headers=editor.basic
    )
    assert single.status_code == 200
    assert list(single.json()) == WRITER_KEYS
    assert [item["id"] for item in await dates(client, series["id"])] == []
    listed = await client.get(f"{API}/events", params={**WIDE, "include": series["id"]})
    assert [item["id"] for item in listed.json()["events"]] == [series["id"]]


async def test_an_override_survives_edits_of_the_series(
    client: AsyncClient, editor: AuthFor
) -> None:
    series = await create(
        client, editor, description="<p>Mats provided</p>", recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"]
    )
    items = await dates(client, series["id"])
    third = items[2]
    changed = await client.patch(
        f"{API}/events/{third['id']}",
        json={"title": "Yoga outdoors", "start_date": "2027-03-16 10:00:00",
              "end_date": "2027-03-16 11:00:00"},
        headers=editor.basic,
    )  # fmt: skip
    assert changed.status_code == 200, changed.text
    assert changed.json()["id"] == third["id"]
    assert changed.json()["title"] == "Yoga outdoors"
    # A field of the series is refused on one date, naming the way to change it.
    refused = await client.patch(
        f"{API}/events/{third['id']}", json={"featured": True}, headers=editor.basic
    )
    assert refused.status_code == 400
    assert "scope=all" in refused.json()["data"]["params"]["featured"]
    # The series changes: its title and description; the override keeps its own title
    # and dates, and follows the description it did not change.
    edited = await client.patch(
        f"{API}/events/{series['id']}",
        json={"title": "Hatha yoga", "description": "<p>Bring a mat</p>"},
        headers=editor.basic,
    )
    assert edited.status_code == 200, edited.text
    items = await dates(client, series["id"])
    assert [(i["title"], i["start_date"]) for i in items] == [
        ("Hatha yoga", "2027-03-02 19:00:00"),
        ("Hatha yoga", "2027-03-09 19:00:00"),
        ("Yoga outdoors", "2027-03-16 10:00:00"),
    ]
    assert [i["description"] for i in items] == ["<p>Bring a mat</p>"] * 3
    assert items[2]["id"] == third["id"]
    assert items[2]["url"] == "http://testserver/event/yoga/2027-03-16/"  # the series' slug


async def test_scope_following_splits_the_series(client: AsyncClient, editor: AuthFor) -> None:
    series = await create(client, editor, recurrence=["RRULE:FREQ=WEEKLY;COUNT=5"])
    items = await dates(client, series["id"])
    third = items[2]
    response = await client.patch(
        f"{API}/events/{third['id']}",
        json={"scope": "following", "title": "Evening yoga"},
        headers=editor.basic,
    )
    assert response.status_code == 200, response.text
    new_series = response.json()["series_id"]
    assert new_series != series["id"]
    old = await dates(client, series["id"])
    assert [(i["title"], i["start_date"]) for i in old] == [
        ("Yoga", "2027-03-02 19:00:00"),
        ("Yoga", "2027-03-09 19:00:00"),
    ]
    new = await dates(client, new_series)
    assert [(i["title"], i["start_date"]) for i in new] == [
        ("Evening yoga", "2027-03-16 19:00:00"),
        ("Evening yoga", "2027-03-23 19:00:00"),
        ("Evening yoga", "2027-03-30 19:00:00"),
    ]
    # The dates that moved to the new series kept their IDs.
    assert [i["id"] for i in new] == [i["id"] for i in items[2:]]
    assert new[0]["recurrence"] == ["RRULE:FREQ=WEEKLY;COUNT=3"]


async def test_scope_all_from_a_later_date_moves_the_whole_series(
    client: AsyncClient, editor: AuthFor
) -> None:
    series = await create(client, editor, recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"])
    second = (await dates(client, series["id"]))[1]
    response = await client.patch(
        f"{API}/events/{second['id']}",
        json={"scope": "all", "start_date": "2027-03-09 18:00:00",
              "end_date": "2027-03-09 19:30:00"},
        headers=editor.basic,
    )  # fmt: skip
    assert response.status_code == 200, response.text
    assert starts(await dates(client, series["id"])) == [
        "2027-03-02 18:00:00",
        "2027-03-09 18:00:00",
        "2027-03-16 18:00:00",
    ]


async def test_deleting_a_date_cancels_it(client: AsyncClient, editor: AuthFor) -> None:
    series = await create(client, editor, recurrence=["RRULE:FREQ=WEEKLY;COUNT=4"])
    items = await dates(client, series["id"])
    response = await client.delete(f"{API}/events/{items[1]['id']}", headers=editor.basic)
    assert response.status_code == 200, response.text
    assert response.json()["id"] == items[1]["id"]
    assert starts(await dates(client, series["id"])) == [
        "2027-03-02 19:00:00",
        "2027-03-16 19:00:00",
        "2027-03-23 19:00:00",
    ]
    read = await client.get(f"{API}/events/{series['id']}")
    assert read.json()["recurrence"] == [
        "RRULE:FREQ=WEEKLY;COUNT=4",
        "EXDATE:20270309T180000Z",
    ]
    assert (await client.get(f"{API}/events/{items[1]['id']}")).status_code == 404
    # Deleting the series trashes it, as for any event.
    trashed = await client.delete(f"{API}/events/{series['id']}", headers=editor.basic)
    assert trashed.status_code == 200
    assert trashed.json()["status"] == "trash"
    listed = await client.get(f"{API}/events", params={**WIDE, "search": "yoga"})
    assert listed.json()["events"] == []


async def test_dates_of_a_series_follow_its_roles(
    client: AsyncClient, editor: AuthFor, auth: Any
) -> None:
    author: AuthFor = await auth("author")
    other: AuthFor = await auth("author")
    series = await create(client, author, recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"])
    second = (await dates(client, series["id"]))[1]
    anonymous = await client.patch(f"{API}/events/{second['id']}", json={"title": "Mine"})
    assert anonymous.status_code == 401
    stranger = await client.patch(
        f"{API}/events/{second['id']}", json={"title": "Mine"}, headers=other.basic
    )
    assert stranger.status_code == 403
    deleting = await client.delete(f"{API}/events/{second['id']}", headers=other.basic)
    assert deleting.status_code == 403
    own = await client.patch(
        f"{API}/events/{second['id']}", json={"title": "Ours"}, headers=author.basic
    )
    assert own.status_code == 200
    by_editor = await client.patch(
        f"{API}/events/{second['id']}", json={"title": "Edited"}, headers=editor.basic
    )
    assert by_editor.status_code == 200


async def test_hide_subsequent_recurrences_keeps_the_first_date_of_each_series(
    client: AsyncClient, editor: AuthFor
) -> None:
    weekly = await create(
        client, editor, title="Weekly zumba", recurrence=["RRULE:FREQ=WEEKLY;COUNT=5"]
    )
    daily = await create(
        client, editor, title="Daily zumba", start_date="2027-03-10 07:00:00",
        end_date="2027-03-10 08:00:00", recurrence=["RRULE:FREQ=DAILY;COUNT=5"],
    )  # fmt: skip
    single = await create(client, editor, title="Zumba party", start_date="2027-03-11 20:00:00",
                          end_date="2027-03-11 23:00:00")  # fmt: skip
    query = {**WIDE, "search": "zumba", "start_date": "2027-03-05"}
    everything = await client.get(f"{API}/events", params=query)
    assert everything.status_code == 200, everything.text
    assert everything.json()["total"] == 4 + 5 + 1
    firsts = await client.get(
        f"{API}/events", params={**query, "hide_subsequent_recurrences": "true"}
    )
    assert firsts.status_code == 200, firsts.text
    body = firsts.json()
    assert body["total"] == 3
    assert [(i["title"], i["start_date"]) for i in body["events"]] == [
        ("Weekly zumba", "2027-03-09 19:00:00"),
        ("Daily zumba", "2027-03-10 07:00:00"),
        ("Zumba party", "2027-03-11 20:00:00"),
    ]
    assert "hide_subsequent_recurrences=1" in body["rest_url"]
    assert body["events"][0]["series_id"] == weekly["id"]
    assert body["events"][1]["series_id"] == daily["id"]
    assert body["events"][2]["id"] == single["id"]
    assert "series_id" not in body["events"][2]


async def test_single_events_look_as_they_always_did(client: AsyncClient, editor: AuthFor) -> None:
    single = await create(client, editor, title="Lecture")
    await create(client, editor, recurrence=["RRULE:FREQ=DAILY;COUNT=3"])
    read = await client.get(f"{API}/events/{single['id']}")
    assert list(read.json()) == [*EVENT_KEYS, "json_ld"]
    listed = await client.get(f"{API}/events", params={**WIDE, "search": "lecture"})
    (item,) = listed.json()["events"]
    assert list(item) == EVENT_KEYS
    assert item["url"] == "http://testserver/event/lecture/"
    assert {k: v for k, v in read.json().items() if k != "json_ld"} == item


async def test_a_series_date_in_filters(client: AsyncClient, editor: AuthFor) -> None:
    """The window, search, and venue of an override apply to occurrences."""
    venue = await client.post(f"{API}/venues", json={"venue": "Park"}, headers=editor.basic)
    series = await create(client, editor, title="Tai chi", recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"])
    items = await dates(client, series["id"])
    moved = await client.patch(
        f"{API}/events/{items[1]['id']}", json={"venue": venue.json()["id"]}, headers=editor.basic
    )
    assert moved.status_code == 200, moved.text
    in_park = await client.get(f"{API}/events", params={**WIDE, "venue": venue.json()["id"]})
    assert [i["id"] for i in in_park.json()["events"]] == [items[1]["id"]]
    window = {"start_date": "2027-03-08", "end_date": "2027-03-20", "search": "tai"}
    in_window = await client.get(f"{API}/events", params=window)
    assert starts(in_window.json()["events"]) == ["2027-03-09 19:00:00", "2027-03-16 19:00:00"]
    assert date.fromisoformat(in_window.json()["events"][0]["start_date"][:10]).isoweekday() == 2


async def test_a_trashed_series_takes_its_overrides_along(
    client: AsyncClient, editor: AuthFor
) -> None:
    series = await create(client, editor, recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"])
    second = (await dates(client, series["id"]))[1]
    await client.patch(
        f"{API}/events/{second['id']}", json={"title": "Moved"}, headers=editor.basic
    )
    trashed = await client.delete(f"{API}/events/{series['id']}", headers=editor.basic)
    assert trashed.status_code == 200
    read = await client.get(f"{API}/events/{second['id']}", headers=editor.basic)
    assert read.status_code == 403
    assert read.json()["code"] == "event-no-longer-available"
    # Editors see every status but the trash: none of the series' dates remain.
    listed = await client.get(f"{API}/events", params=WIDE, headers=editor.basic)
    assert series["id"] not in {item.get("series_id") for item in listed.json()["events"]}


async def test_the_docs_explain_series_and_scopes(client: AsyncClient) -> None:
    document = (await client.get(f"{API}/doc")).json()
    assert "Recurring events" in document["info"]["description"]
    paths = document["paths"]

    def names(operation: dict[str, Any]) -> set[str]:
        return {p["name"] for p in operation.get("parameters", [])}

    assert "hide_subsequent_recurrences" in names(paths["/events"]["get"])
    assert "scope" in names(paths["/events/{id}"]["delete"])
    body = paths["/events/{id}"]["patch"]["requestBody"]["content"]["application/json"]["schema"]
    if "$ref" in body:
        body = document["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    assert {"recurrence", "scope"} <= set(body["properties"])
    assert "/events/by-slug/{slug}/{day}" in paths


async def test_the_first_date_of_a_series_is_the_first_one_the_filters_keep(
    client: AsyncClient, editor: AuthFor
) -> None:
    series = await create(client, editor, title="Pilates", recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"])
    items = await dates(client, series["id"])
    renamed = await client.patch(
        f"{API}/events/{items[0]['id']}",
        json={"title": "Stretching", "scope": "this"},  # the series' own ID: `all` by default
        headers=editor.basic,
    )
    assert renamed.status_code == 200
    query = {**WIDE, "search": "pilates", "hide_subsequent_recurrences": "1"}
    listed = await client.get(f"{API}/events", params=query)
    assert [(i["id"], i["title"]) for i in listed.json()["events"]] == [(items[1]["id"], "Pilates")]
    assert listed.json()["total"] == 1


async def test_deleting_with_scope_following_ends_the_series_and_all_trashes_it(
    client: AsyncClient, editor: AuthFor
) -> None:
    series = await create(client, editor, recurrence=["RRULE:FREQ=WEEKLY;COUNT=5"])
    items = await dates(client, series["id"])
    ended = await client.delete(
        f"{API}/events/{items[3]['id']}", params={"scope": "following"}, headers=editor.basic
    )
    assert ended.status_code == 200, ended.text
    assert [i["id"] for i in await dates(client, series["id"])] == [i["id"] for i in items[:3]]
    rules = (await client.get(f"{API}/events/{series['id']}")).json()["recurrence"]
    assert rules == ["RRULE:FREQ=WEEKLY;UNTIL=20270323T175959Z"]
    trashed = await client.delete(
        f"{API}/events/{items[1]['id']}", params={"scope": "all"}, headers=editor.basic
    )
    assert trashed.status_code == 200, trashed.text
    assert trashed.json()["id"] == series["id"]
    assert trashed.json()["status"] == "trash"


async def test_an_override_goes_with_a_date_the_rules_no_longer_give(
    client: AsyncClient, editor: AuthFor
) -> None:
    series = await create(client, editor, recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"])
    third = (await dates(client, series["id"]))[2]
    await client.patch(f"{API}/events/{third['id']}", json={"title": "Late"}, headers=editor.basic)
    shorter = await client.patch(
        f"{API}/events/{series['id']}",
        json={"recurrence": ["RRULE:FREQ=WEEKLY;COUNT=2"]},
        headers=editor.basic,
    )
    assert shorter.status_code == 200, shorter.text
    assert [i["title"] for i in await dates(client, series["id"])] == ["Yoga", "Yoga"]
    assert (await client.get(f"{API}/events/{third['id']}")).status_code == 404
    # The date comes back with the rule, as the series shows it (the override is gone).
    await client.patch(
        f"{API}/events/{series['id']}",
        json={"recurrence": ["RRULE:FREQ=WEEKLY;COUNT=3"]},
        headers=editor.basic,
    )
    assert [i["title"] for i in await dates(client, series["id"])] == ["Yoga"] * 3


async def test_null_rules_make_a_series_one_event_again(
    client: AsyncClient, editor: AuthFor
) -> None:
    # As docs/api.md says: `[]` or `null`, from the series' ID or from a later date with
    # scope=all (which changes the whole series).
    for sent, later in ((None, False), (None, True), ([], True)):
        series = await create(client, editor, recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"])
        target = (await dates(client, series["id"]))[1]["id"] if later else series["id"]
        response = await client.patch(
            f"{API}/events/{target}",
            params={"scope": "all"},
            json={"recurrence": sent},
            headers=editor.basic,
        )
        assert response.status_code == 200, (sent, later, response.text)
        assert "recurrence" not in response.json()  # a single event's body, as ever
        assert [item["id"] for item in await dates(client, series["id"])] == []
        single = await client.get(f"{API}/events/{series['id']}")
        assert single.status_code == 200
