"""GET /events: the date window, every filter alone and combined, order, visibility."""

from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import pytest
from dateutil.relativedelta import relativedelta
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.app_services import app_services
from app.core.settings import get_settings
from tests.factories import API, Auth, AuthFor, make_event


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")


async def add(
    client: AsyncClient, who: AuthFor, start: datetime | str, hours: float = 2, **fields: Any
) -> dict[str, Any]:
    begin = datetime.fromisoformat(start) if isinstance(start, str) else start
    payload = {
        "title": fields.pop("title", f"Event {stamp(begin)}"),
        "start_date": stamp(begin),
        "end_date": stamp(begin + timedelta(hours=hours)),
        **fields,
    }
    response = await client.post(f"{API}/events", json=payload, headers=who.basic)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def ids(
    client: AsyncClient, headers: dict[str, str] | None = None, **params: Any
) -> list[int]:
    response = await client.get(f"{API}/events", params=params, headers=headers or {})
    assert response.status_code == 200, response.text
    return [event["id"] for event in response.json()["events"]]


def today() -> date:
    return datetime.now(UTC).date()


def at(day: date, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute, second))


async def test_empty_list(client: AsyncClient) -> None:
    response = await client.get(f"{API}/events")
    assert response.status_code == 200
    body = response.json()
    assert list(body) == ["events", "rest_url", "total", "total_pages"]
    assert body["events"] == []
    assert body["total"] == 0
    assert body["total_pages"] == 0
    assert response.headers["X-TEC-Total"] == "0"
    yesterday = today() - timedelta(days=1)
    end = (datetime.now(UTC) + relativedelta(months=24)).date()
    assert body["rest_url"] == (
        f"http://testserver{API}/events/?page=1&per_page=9"
        f"&start_date={yesterday}+00%3A00%3A00&end_date={end}+23%3A59%3A59&status=publish"
    )


async def test_default_window_edges(client: AsyncClient, editor: AuthFor) -> None:
    yesterday = today() - timedelta(days=1)
    two_years = (datetime.now(UTC) + relativedelta(months=24)).date()
    inside_start = await add(client, editor, at(yesterday), hours=1)
    late_yesterday = await add(client, editor, at(yesterday, 23, 59), hours=0.01)
    await add(
        client, editor, at(yesterday) - timedelta(seconds=1), hours=3
    )  # 23:59:59 two days ago
    ends_on_edge = await add(client, editor, at(two_years, 22), hours=1, title="Edge")
    edge = await client.patch(
        f"{API}/events/{ends_on_edge['id']}", json={"end_date": stamp(at(two_years, 23, 59, 59))},
        headers=editor.basic,
    )  # fmt: skip
    assert edge.json()["end_date"] == stamp(at(two_years, 23, 59, 59))
    await add(client, editor, at(two_years, 23), hours=1.5)  # ends after the window
    assert await ids(client) == [inside_start["id"], late_yesterday["id"], ends_on_edge["id"]]


async def test_pagination_keeps_every_filter(client: AsyncClient, editor: AuthFor) -> None:
    category = (
        await client.post(f"{API}/categories", json={"name": "Jazz"}, headers=editor.basic)
    ).json()
    base = at(today() + timedelta(days=3), 10)
    created = [
        await add(
            client,
            editor,
            base + timedelta(hours=i),
            categories=[category["id"]],
            title=f"Jazz {i}",
        )
        for i in range(5)
    ]
    await add(client, editor, base, title="Other")
    response = await client.get(
        f"{API}/events", params={"per_page": 2, "page": 2, "categories": "jazz", "search": "Jazz"}
    )
    body = response.json()
    assert [e["id"] for e in body["events"]] == [created[2]["id"], created[3]["id"]]
    assert body["total"] == 5
    assert body["total_pages"] == 3
    assert response.headers["X-WP-Total"] == "5"
    assert "categories=jazz" in body["next_rest_url"]
    assert "search=Jazz" in body["next_rest_url"]
    assert body["next_rest_url"].endswith("&page=3")
    assert "page=" not in body["previous_rest_url"].split("?")[1].replace("per_page", "")
    following = await client.get(body["next_rest_url"])
    assert [e["id"] for e in following.json()["events"]] == [created[4]["id"]]
    beyond = await client.get(
        f"{API}/events", params={"per_page": 2, "page": 4, "categories": "jazz"}
    )
    assert beyond.status_code == 404
    assert beyond.json()["code"] == "event-archive-page-not-found"


@pytest.mark.parametrize(
    "params",
    [
        {"page": "0"}, {"page": "-1"}, {"page": "foo"}, {"per_page": "0"}, {"per_page": "101"},
        {"start_date": "before my birthday"}, {"end_date": "after my birthday"},
        {"starts_before": "nope"}, {"strict_dates": ""}, {"search": ""},
        {"categories": "no-such-category"}, {"tags": "999999"}, {"venue": "foo"},
        {"venue": "999999"}, {"organizer": "999999"}, {"featured": "maybe"},
        {"status": "foo"}, {"status": "foo, bar, publish"}, {"include": "foo-bar,23"},
        {"post_parent": "foo-bar"}, {"post_parent": "999999"}, {"ticketed": "maybe"},
        {"orderby": "colour"}, {"order": "up"}, {"order": ""}, {"geoloc_lat": "north"},
    ],
)  # fmt: skip
async def test_bad_parameters(client: AsyncClient, params: dict[str, str]) -> None:
    response = await client.get(f"{API}/events", params=params)
    assert response.status_code == 400, params
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == list(params)


async def test_inclusive_and_strict_dates(client: AsyncClient, editor: AuthFor) -> None:
    day = today() + timedelta(days=20)
    early = await add(client, editor, at(day, 16), hours=0.5)
    late = await add(client, editor, at(day, 20), hours=0.5)
    params = {"start_date": stamp(at(day, 15)), "end_date": stamp(at(day, 18))}
    assert await ids(client, **params) == [early["id"], late["id"]]  # whole days
    assert await ids(client, **params, strict_dates="true") == [early["id"]]
    listed = (await client.get(f"{API}/events", params={**params, "strict_dates": "1"})).json()
    assert f"start_date={day}+15%3A00%3A00" in listed["rest_url"]


async def test_relative_bounds_worked_example(client: AsyncClient, editor: AuthFor) -> None:
    # docs/design.md#event-list: events around a new year, filtered by ends_after/starts_before.
    d = today() + timedelta(days=40)
    e1 = await add(client, editor, at(d, 17), hours=2)  # ends on d: out (ends_after=d is end of d)
    e2 = await add(client, editor, at(d + timedelta(days=1), 16))
    e3 = await add(client, editor, at(d + timedelta(days=1), 19))
    e4 = await add(client, editor, at(d + timedelta(days=2), 10))
    e5 = await add(client, editor, at(d - timedelta(days=1), 10), hours=72)
    e6 = await add(client, editor, at(d - timedelta(days=2), 10), hours=120)
    params = {"ends_after": str(d), "starts_before": str(d + timedelta(days=2))}
    assert await ids(client, **params) == [e6["id"], e5["id"], e2["id"], e3["id"], e4["id"]]
    narrowed = {
        **params,
        "start_date": str(d - timedelta(days=1)),
        "end_date": str(d + timedelta(days=2)),
    }
    assert await ids(client, **narrowed) == [e5["id"], e2["id"], e3["id"], e4["id"]]
    assert e1["id"] not in await ids(client, **params)
    assert await ids(client, starts_after=str(d + timedelta(days=1))) == [e4["id"]]
    assert await ids(client, ends_before=str(d - timedelta(days=100))) == []


async def test_include_ignores_the_window(client: AsyncClient, editor: AuthFor) -> None:
    past = await add(client, editor, at(today() - timedelta(days=30), 10))
    future = await add(client, editor, at(today() + timedelta(days=5), 10))
    await add(client, editor, at(today() + timedelta(days=6), 10))
    assert past["id"] not in await ids(client)
    assert await ids(client, include=f"{past['id']},{future['id']}") == [past["id"], future["id"]]
    assert await ids(client, **{"include[]": [past["id"]]}) == [past["id"]]
    assert await ids(client, include="999999") == []


async def test_search_every_word(client: AsyncClient, editor: AuthFor) -> None:
    day = at(today() + timedelta(days=2), 9)
    foo = await add(client, editor, day, title="foo")
    foo_bar = await add(client, editor, day + timedelta(hours=1), title="Foo bar")
    bar = await add(
        client, editor, day + timedelta(hours=2), title="bar", description="<p>About FOO?</p>"
    )
    assert await ids(client, search="foo") == [foo["id"], foo_bar["id"], bar["id"]]
    assert await ids(client, search="foo bar") == [foo_bar["id"], bar["id"]]
    assert await ids(client, search="%") == []
    assert await ids(client, search="bar', 'x') OR 1=1 --") == []


async def test_term_venue_organizer_filters(client: AsyncClient, editor: AuthFor) -> None:
    parent = (
        await client.post(f"{API}/categories", json={"name": "Arts"}, headers=editor.basic)
    ).json()
    child = (
        await client.post(
            f"{API}/categories",
            json={"name": "Dance", "parent": parent["id"]},
            headers=editor.basic,
        )
    ).json()
    venue = (
        await client.post(f"{API}/venues", json={"venue": "Hall"}, headers=editor.basic)
    ).json()
    other_venue = (
        await client.post(f"{API}/venues", json={"venue": "Barn"}, headers=editor.basic)
    ).json()
    o1 = (
        await client.post(f"{API}/organizers", json={"organizer": "O1"}, headers=editor.basic)
    ).json()
    o2 = (
        await client.post(f"{API}/organizers", json={"organizer": "O2"}, headers=editor.basic)
    ).json()
    day = at(today() + timedelta(days=4), 8)
    a = await add(
        client,
        editor,
        day,
        categories=[parent["id"]],
        venue=venue["id"],
        organizer=[o1["id"]],
        tags="red",
    )
    b = await add(
        client,
        editor,
        day + timedelta(hours=1),
        categories=[child["id"]],
        venue=other_venue["id"],
        organizer=[o2["id"]],
    )
    c = await add(
        client,
        editor,
        day + timedelta(hours=2),
        organizer=[o1["id"], o2["id"]],
        tags="blue",
        featured=True,
    )
    assert await ids(client, categories=parent["id"]) == [a["id"], b["id"]]  # children included
    assert await ids(client, categories="dance") == [b["id"]]
    assert await ids(client, tags="red,blue") == [a["id"], c["id"]]
    assert await ids(client, venue=venue["id"]) == [a["id"]]
    assert await ids(client, venue=f"{venue['id']},{other_venue['id']}") == [a["id"], b["id"]]
    assert await ids(client, organizer=o1["id"]) == [a["id"], c["id"]]
    assert await ids(client, organizer=[o1["id"], o2["id"]]) == [a["id"], b["id"], c["id"]]
    assert await ids(client, organizer=o1["id"], tags="blue") == [c["id"]]  # filters AND
    assert await ids(client, featured="true") == [c["id"]]
    assert await ids(client, featured="false") == [a["id"], b["id"]]
    # None has a ticket (tests/api/test_events_ticketed.py; geoloc and the point:
    # tests/api/test_events_near.py).
    assert await ids(client, ticketed="false") == [a["id"], b["id"], c["id"]]
    assert await ids(client, ticketed="true") == []


async def test_status_visibility_per_role(client: AsyncClient, editor: AuthFor, auth: Auth) -> None:
    contributor = await auth("contributor")
    day = at(today() + timedelta(days=7), 8)
    published = await add(client, editor, day)
    draft = await add(client, editor, day + timedelta(hours=1), status="draft")
    private = await add(client, editor, day + timedelta(hours=2), status="private")
    own_draft = await add(client, contributor, day + timedelta(hours=3))
    trashed = await add(client, editor, day + timedelta(hours=4))
    await client.delete(f"{API}/events/{trashed['id']}", headers=editor.basic)
    hidden = await add(client, editor, day + timedelta(hours=5), hide_from_listings=True)
    assert await ids(client) == [published["id"]]
    assert await ids(client, (await auth("subscriber")).basic) == [published["id"]]
    assert await ids(client, contributor.basic) == [published["id"], own_draft["id"]]
    assert await ids(client, editor.basic) == [
        published["id"],
        draft["id"],
        private["id"],
        own_draft["id"],
        hidden["id"],
    ]
    assert await ids(client, editor.basic, status="draft") == [draft["id"], own_draft["id"]]
    assert await ids(client, editor.basic, status="trash") == [trashed["id"]]
    assert await ids(client, editor.basic, status="publish, private") == [
        published["id"],
        private["id"],
        hidden["id"],
    ]
    assert await ids(client, contributor.basic, status="draft") == [own_draft["id"]]
    assert await ids(client, status="publish") == [published["id"]]
    refused = await client.get(f"{API}/events", params={"status": "publish,draft"})
    assert refused.status_code == 400
    assert (await client.get(f"{API}/events/{hidden['id']}")).status_code == 200  # still readable


async def test_status_any_is_every_status_the_caller_may_see(
    client: AsyncClient, editor: AuthFor, auth: Auth
) -> None:
    contributor = await auth("contributor")
    day = at(today() + timedelta(days=7), 8)
    published = await add(client, editor, day)
    draft = await add(client, editor, day + timedelta(hours=1), status="draft")
    own_draft = await add(client, contributor, day + timedelta(hours=2))
    assert await ids(client, editor.basic, status="any") == [
        published["id"], draft["id"], own_draft["id"],
    ]  # fmt: skip
    assert await ids(client, editor.basic, status="Any,draft") == await ids(client, editor.basic)
    assert await ids(client, contributor.basic, status="any") == [published["id"], own_draft["id"]]
    assert await ids(client, status="any") == [published["id"]]  # anonymous: the published
    # A contributor's default list is written `status=any` in its links, as the reference
    # writes it, and following the next page's link works.
    listed = await client.get(f"{API}/events", params={"per_page": 1}, headers=contributor.basic)
    assert "status=any" in listed.json()["rest_url"]
    following = await client.get(listed.json()["next_rest_url"], headers=contributor.basic)
    assert following.status_code == 200, following.text
    assert [event["id"] for event in following.json()["events"]] == [own_draft["id"]]
    anonymous = await client.get(f"{API}/events", params={"status": "any"})
    assert "status=publish" in anonymous.json()["rest_url"]
    unknown = await client.get(f"{API}/events", params={"status": "any,gone"}, headers=editor.basic)
    assert unknown.status_code == 400
    assert "any" in unknown.json()["data"]["params"]["status"]


async def test_order_and_orderby(client: AsyncClient, editor: AuthFor) -> None:
    day = at(today() + timedelta(days=9), 12)
    b = await add(client, editor, day, title="Bravo")
    a = await add(client, editor, day, title="alpha")  # same start: publication order, then ID
    c = await add(client, editor, day - timedelta(hours=1), title="Charlie")
    assert await ids(client) == [c["id"], b["id"], a["id"]]
    assert await ids(client, orderby="title") == [a["id"], b["id"], c["id"]]
    assert await ids(client, orderby="title", order="DESC") == [c["id"], b["id"], a["id"]]
    assert await ids(client, orderby="id", order="desc") == [c["id"], a["id"], b["id"]]


async def test_post_parent(client: AsyncClient, editor: AuthFor, db: AsyncSession) -> None:
    parent = await add(client, editor, at(today() + timedelta(days=3), 9))
    start = datetime.now(UTC) + timedelta(days=3)
    children = [
        await make_event(db, parent_id=parent["id"], start=start + timedelta(hours=i))
        for i in (1, 2)
    ]
    response = await client.get(f"{API}/events", params={"post_parent": parent["id"]})
    assert [e["id"] for e in response.json()["events"]] == children
    assert response.json()["total"] == 2


async def test_password_protected_events_are_redacted(client: AsyncClient, editor: AuthFor) -> None:
    category = (
        await client.post(f"{API}/categories", json={"name": "Secret"}, headers=editor.basic)
    ).json()
    event = await add(
        client, editor, at(today() + timedelta(days=2), 9), password="pw", description="Hidden",
        cost="10", categories=[category["id"]], featured=True,
    )  # fmt: skip
    listed = (await client.get(f"{API}/events")).json()["events"][0]
    assert listed["id"] == event["id"]
    assert listed["title"] == event["title"]  # titles and dates stay visible
    assert listed["description"] == ""
    assert listed["cost"] == ""
    assert listed["categories"] == []
    assert listed["featured"] is None
    assert listed["image"] is False
    assert listed["cost_details"]["values"] == []
    with_password = (await client.get(f"{API}/events", params={"password": "pw"})).json()["events"][
        0
    ]
    assert with_password["description"] == "Hidden"
    as_editor = (await client.get(f"{API}/events", headers=editor.basic)).json()["events"][0]
    assert as_editor["description"] == "Hidden"


@pytest.fixture
async def new_york(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """The app's settings with the site in New York (the app reads its settings once), and
    the environment's, which the test reads."""
    monkeypatch.setenv("SITE_TIMEZONE", "America/New_York")
    monkeypatch.setattr(app_services(app).settings, "site_timezone", "America/New_York")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.usefixtures("new_york")
async def test_site_time_zone_other_than_utc(client: AsyncClient, editor: AuthFor) -> None:
    local_today = datetime.now(UTC).astimezone(get_settings().site_zone).date()
    yesterday = local_today - timedelta(days=1)
    # Without a time zone, an event is in the site's: 00:00 yesterday New York time is inside.
    first = await add(client, editor, at(yesterday), hours=1)
    assert first["timezone"] == "America/New_York"
    before = await add(client, editor, at(yesterday) - timedelta(minutes=1), hours=2)
    listed = await ids(client)
    assert first["id"] in listed
    assert before["id"] not in listed
    response = await client.get(f"{API}/events")
    assert f"start_date={yesterday}+00%3A00%3A00" in response.json()["rest_url"]
    # Filters compare the events' own wall clock (the reference's "event" time zone mode).
    berlin = await add(
        client, editor, at(local_today + timedelta(days=30), 10), timezone="Europe/Berlin"
    )
    day = str(local_today + timedelta(days=30))
    assert await ids(client, start_date=day, end_date=day) == [berlin["id"]]
