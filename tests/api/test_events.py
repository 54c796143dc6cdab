"""Single events through HTTP: create, read, update, delete, by ID and by slug."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from httpx import AsyncClient

from tests.factories import API, Auth, AuthFor

EVENT_KEYS = [
    "id", "global_id", "global_id_lineage", "author", "status", "date", "date_utc", "modified",
    "modified_utc", "url", "rest_url", "title", "description", "excerpt", "slug", "image",
    "all_day", "start_date", "start_date_details", "end_date", "end_date_details",
    "utc_start_date", "utc_start_date_details", "utc_end_date", "utc_end_date_details",
    "timezone", "timezone_abbr", "cost", "cost_details", "website", "show_map", "show_map_link",
    "hide_from_listings", "sticky", "featured", "categories", "tags", "venue", "organizer",
    "custom_fields", "ticketed",
]  # fmt: skip
# What editors, administrators and the event's author read besides (tests/api/test_events_ticketed.py).
WRITER_KEYS = [*EVENT_KEYS, "attendance"]


def soon(days: int = 10, hour: int = 18) -> str:
    day = datetime.now(UTC).date() + timedelta(days=days)
    return f"{day.isoformat()} {hour:02d}:00:00"


async def create(client: AsyncClient, who: AuthFor, **fields: Any) -> dict[str, Any]:
    payload = {"title": "Concert", "start_date": soon(), "end_date": soon(hour=20), **fields}
    response = await client.post(f"{API}/events", json=payload, headers=who.basic)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_create_returns_the_reference_shape(client: AsyncClient, editor: AuthFor) -> None:
    response = await client.post(
        f"{API}/events",
        json={
            "title": "Sample created event",
            "description": "<p>Created via REST</p>",
            "start_date": "2027-01-15 18:00:00",
            "end_date": "2027-01-15 20:00:00",
            "cost": "$15",
        },
        headers=editor.basic,
    )
    assert response.status_code == 201
    body = response.json()
    assert list(body) == WRITER_KEYS
    event_id = body["id"]
    assert response.headers["Location"] == f"http://testserver{API}/events/{event_id}"
    assert body["rest_url"] == f"http://testserver{API}/events/{event_id}"
    assert body["global_id"] == f"testserver?id={event_id}"
    assert body["global_id_lineage"] == [body["global_id"]]
    assert body["author"] == str(editor.id)
    assert body["status"] == "publish"
    assert body["slug"] == "sample-created-event"
    assert body["url"] == "http://testserver/event/sample-created-event/"
    assert body["website"] == body["url"]  # no website: the permalink (reference)
    assert body["start_date"] == "2027-01-15 18:00:00"
    assert body["start_date_details"] == {
        "year": "2027", "month": "01", "day": "15", "hour": "18", "minutes": "00", "seconds": "00",
    }  # fmt: skip
    assert body["utc_end_date"] == "2027-01-15 20:00:00"
    assert body["timezone"] == "UTC"
    assert body["timezone_abbr"] == "UTC"
    assert body["cost"] == "$15"
    assert body["cost_details"] == {
        "currency_symbol": "$", "currency_code": "", "currency_position": "prefix", "values": ["15"],
    }  # fmt: skip
    assert body["image"] is False
    assert body["venue"] == []
    assert body["organizer"] == []
    assert body["categories"] == []
    assert body["tags"] == []
    assert body["custom_fields"] == []
    for flag in (
        "all_day",
        "show_map",
        "show_map_link",
        "hide_from_listings",
        "sticky",
        "featured",
    ):
        assert body[flag] is False
    assert "json_ld" not in body


async def test_create_permissions(client: AsyncClient, auth: Auth) -> None:
    anonymous = await client.post(f"{API}/events", json={"title": ""})
    assert anonymous.status_code == 401
    assert anonymous.json()["code"] == "rest_forbidden"
    subscriber = await auth("subscriber")
    denied = await client.post(
        f"{API}/events", json={"title": "x", "start_date": soon(), "end_date": soon()},
        headers=subscriber.basic,
    )  # fmt: skip
    assert denied.status_code == 403
    contributor = await auth("contributor")
    pending = await create(client, contributor, status="publish")
    assert pending["status"] == "pending"
    draft = await create(client, contributor)
    assert draft["status"] == "draft"
    assert draft["slug"]  # drafts get a slug too
    for role in ("author", "editor", "administrator"):
        who = await auth(role)
        assert (await create(client, who, status="publish"))["status"] == "publish"


@pytest.mark.parametrize(
    ("payload", "code", "params"),
    [
        ({}, "rest_missing_callback_param", ["title", "start_date", "end_date"]),
        ({"title": "x", "start_date": "2027-01-01"}, "rest_missing_callback_param", ["end_date"]),
        ({"title": "", "start_date": "2027-01-01", "end_date": "2027-01-02"}, "rest_invalid_param", ["title"]),
        ({"title": "x", "start_date": "", "end_date": "2027-01-02"}, "rest_invalid_param", ["start_date"]),
        ({"title": "x", "start_date": "before my birthday", "end_date": "2027-01-02"}, "rest_invalid_param", ["start_date"]),
        ({"title": "x", "start_date": "2027-01-03", "end_date": "2027-01-02"}, "rest_invalid_param", ["end_date"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "timezone": "Mars/Olympus"}, "rest_invalid_param", ["timezone"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "timezone": "UTC+2:60"}, "rest_invalid_param", ["timezone"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "website": "foo"}, "rest_invalid_param", ["website"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "author": 987654}, "rest_invalid_param", ["author"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "author": ""}, "rest_invalid_param", ["author"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "date": "foo"}, "rest_invalid_param", ["date"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "status": "maybe"}, "rest_invalid_param", ["status"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "featured": "sure"}, "rest_invalid_param", ["featured"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "categories": [999999]}, "rest_invalid_param", ["categories"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "venue": 999999}, "rest_invalid_param", ["venue"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "venue": "foo"}, "rest_invalid_param", ["venue"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "organizer": [999999]}, "rest_invalid_param", ["organizer"]),
        ({"title": "x", "start_date": "2027-01-01", "end_date": "2027-01-02", "image": 999999}, "rest_invalid_param", ["image"]),
    ],
)  # fmt: skip
async def test_create_validation(
    client: AsyncClient, editor: AuthFor, payload: dict[str, Any], code: str, params: list[str]
) -> None:
    response = await client.post(f"{API}/events", json=payload, headers=editor.basic)
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == code
    found = body["data"]["params"]
    assert (found if isinstance(found, list) else list(found)) == params
    listed = await client.get(f"{API}/events/by-slug/x")
    assert listed.status_code == 404  # nothing half-written


async def test_time_zones_and_dst(client: AsyncClient, editor: AuthFor) -> None:
    winter = await create(
        client, editor, timezone="America/New_York",
        start_date="2027-01-15 18:00:00", end_date="2027-01-15 20:00:00",
    )  # fmt: skip
    assert winter["start_date"] == "2027-01-15 18:00:00"
    assert winter["utc_start_date"] == "2027-01-15 23:00:00"
    assert winter["timezone"] == "America/New_York"
    assert winter["timezone_abbr"] == "EST"
    summer = await create(
        client, editor, timezone="America/New_York",
        start_date="2027-07-15 18:00:00", end_date="2027-07-15 20:00:00",
    )  # fmt: skip
    assert summer["utc_start_date"] == "2027-07-15 22:00:00"
    assert summer["timezone_abbr"] == "EDT"
    offset = await create(
        client, editor, timezone="UTC+2", start_date="2027-03-01 10:00", end_date="2027-03-01 12:00"
    )
    assert offset["timezone"] == "UTC+2"
    assert offset["timezone_abbr"] == "UTC+2"
    assert offset["utc_start_date"] == "2027-03-01 08:00:00"
    converted = await create(
        client, editor, timezone="Europe/Berlin",
        start_date="2027-05-01T12:00:00+00:00", end_date="2027-05-01T14:00:00Z",
    )  # fmt: skip
    assert converted["start_date"] == "2027-05-01 14:00:00"  # CEST
    assert converted["timezone_abbr"] == "CEST"
    assert converted["utc_start_date"] == "2027-05-01 12:00:00"
    # A wall time inside the spring-forward gap still gives a consistent event.
    gap = await create(
        client, editor, timezone="Europe/Berlin",
        start_date="2027-03-28 02:30:00", end_date="2027-03-28 04:00:00",
    )  # fmt: skip
    assert gap["utc_end_date"] == "2027-03-28 02:00:00"


async def test_relative_dates(client: AsyncClient, editor: AuthFor) -> None:
    event = await create(client, editor, start_date="tomorrow 9am", end_date="+2 days")
    tomorrow = datetime.now(UTC).date() + timedelta(days=1)
    assert event["start_date"] == f"{tomorrow.isoformat()} 09:00:00"
    stamp = int(datetime(2027, 2, 3, 4, 5, 6, tzinfo=UTC).timestamp())
    from_stamp = await create(client, editor, start_date=stamp, end_date=str(stamp + 3600))
    assert from_stamp["utc_start_date"] == "2027-02-03 04:05:06"
    assert from_stamp["end_date"] == "2027-02-03 05:05:06"


async def test_all_day_events_span_whole_days(client: AsyncClient, editor: AuthFor) -> None:
    one_day = await create(
        client, editor, all_day=True, start_date="2027-04-10 09:00", end_date="2027-04-10 11:00"
    )
    assert one_day["all_day"] is True
    assert one_day["start_date"] == "2027-04-10 00:00:00"
    assert one_day["end_date"] == "2027-04-10 23:59:59"
    multi = await create(
        client, editor, all_day="yes", timezone="America/New_York",
        start_date="2027-04-10 09:00", end_date="2027-04-15 11:00",
    )  # fmt: skip
    assert multi["start_date"] == "2027-04-10 00:00:00"
    assert multi["end_date"] == "2027-04-15 23:59:59"
    assert multi["utc_end_date"] == "2027-04-16 03:59:59"


async def test_cost_website_and_flags(client: AsyncClient, editor: AuthFor) -> None:
    event = await create(
        client, editor, cost=["0$", "20$", "30$"], website="http://example.com",
        show_map="true", show_map_link=1, hide_from_listings="on", sticky=True, featured="1",
    )  # fmt: skip
    assert event["cost"] == "Free – 30$"
    assert event["cost_details"]["values"] == ["0", "20", "30"]
    assert event["cost_details"]["currency_position"] == "postfix"
    assert event["website"] == "http://example.com"
    for flag in ("show_map", "show_map_link", "hide_from_listings", "sticky", "featured"):
        assert event[flag] is True


async def test_terms_by_id_slug_or_name(client: AsyncClient, editor: AuthFor, auth: Auth) -> None:
    existing = (
        await client.post(f"{API}/categories", json={"name": "Music"}, headers=editor.basic)
    ).json()
    event = await create(client, editor, categories=[existing["id"], "Theatre"], tags="cat1, cat2")
    assert [c["name"] for c in event["categories"]] == ["Music", "Theatre"]
    assert [t["name"] for t in event["tags"]] == ["cat1", "cat2"]
    music = event["categories"][0]
    assert list(music) == [
        "name", "slug", "term_group", "term_taxonomy_id", "taxonomy", "description", "parent",
        "count", "filter", "id", "urls",
    ]  # fmt: skip
    assert music["count"] == 1
    assert music["urls"]["self"] == f"http://testserver{API}/categories/{existing['id']}"
    by_slug = await create(client, editor, categories="music")
    assert [c["id"] for c in by_slug["categories"]] == [existing["id"]]
    cleared = await client.post(
        f"{API}/events/{event['id']}", json={"categories": ""}, headers=editor.basic
    )
    assert cleared.json()["categories"] == []
    assert [t["name"] for t in cleared.json()["tags"]] == ["cat1", "cat2"]  # untouched
    contributor = await auth("contributor")
    refused = await client.post(
        f"{API}/events",
        json={"title": "x", "start_date": soon(), "end_date": soon(), "tags": ["brand new"]},
        headers=contributor.basic,
    )
    assert refused.status_code == 400  # contributors may not create terms
    allowed = await create(client, contributor, tags=["cat1"])
    assert [t["name"] for t in allowed["tags"]] == ["cat1"]


async def test_venue_and_organizers(client: AsyncClient, editor: AuthFor) -> None:
    venue = (
        await client.post(f"{API}/venues", json={"venue": "Hall"}, headers=editor.basic)
    ).json()
    first = (
        await client.post(f"{API}/organizers", json={"organizer": "First"}, headers=editor.basic)
    ).json()
    second = (
        await client.post(f"{API}/organizers", json={"organizer": "Second"}, headers=editor.basic)
    ).json()
    event = await create(client, editor, venue=venue["id"], organizer=[second["id"], first["id"]])
    assert event["venue"]["id"] == venue["id"]
    assert event["venue"]["venue"] == "Hall"
    assert [o["id"] for o in event["organizer"]] == [second["id"], first["id"]]
    assert "json_ld" not in event["venue"]
    by_object = await create(
        client, editor, venue={"id": venue["id"]}, organizer={"id": first["id"]}
    )
    assert by_object["venue"]["id"] == venue["id"]
    assert [o["id"] for o in by_object["organizer"]] == [first["id"]]
    single = (await client.get(f"{API}/events/{event['id']}")).json()
    assert single["venue"]["json_ld"]["@type"] == "Place"
    assert single["json_ld"]["location"]["name"] == "Hall"
    url = f"{API}/events/{event['id']}"
    unlinked = (
        await client.patch(url, json={"venue": None, "organizer": []}, headers=editor.basic)
    ).json()
    assert unlinked["venue"] == []
    assert unlinked["organizer"] == []


async def test_image_by_url(client: AsyncClient, editor: AuthFor) -> None:
    event = await create(client, editor, image="https://cdn.example.org/pics/poster.png")
    assert event["image"]["url"] == "https://cdn.example.org/pics/poster.png"
    assert event["image"]["extension"] == "png"
    again = await create(client, editor, image="https://cdn.example.org/pics/poster.png")
    assert again["image"]["id"] == event["image"]["id"]
    by_id = await create(client, editor, image=event["image"]["id"])
    assert by_id["image"]["url"] == event["image"]["url"]


async def test_single_read_and_access_rules(
    client: AsyncClient, editor: AuthFor, auth: Auth
) -> None:
    event = await create(client, editor, title="Open day")
    response = await client.get(f"{API}/events/{event['id']}")
    assert response.status_code == 200
    body = response.json()
    assert list(body) == [*EVENT_KEYS, "json_ld"]
    assert body["json_ld"]["@type"] == "Event"
    assert body["json_ld"]["name"] == "Open day"
    assert body["json_ld"]["startDate"].endswith("+00:00")
    by_slug = await client.get(f"{API}/events/by-slug/{event['slug']}")
    assert by_slug.json() == body
    missing = await client.get(f"{API}/events/999999")
    assert missing.status_code == 404
    assert missing.json() == {
        "code": "rest-event-not-found",
        "message": "Event with ID 999999 does not exist.",
        "data": {"status": 404},
    }
    assert (await client.get(f"{API}/events/0")).status_code == 404
    assert (await client.get(f"{API}/events/by-slug/no-such-event")).json()[
        "code"
    ] == "rest-event-not-found"
    venue = (
        await client.post(f"{API}/venues", json={"venue": "Not an event"}, headers=editor.basic)
    ).json()
    wrong_kind = await client.get(f"{API}/events/{venue['id']}")
    assert wrong_kind.status_code == 400
    assert wrong_kind.json()["code"] == "rest-invalid-event-id"

    draft = await create(client, editor, status="draft")
    for headers in ({}, (await auth("subscriber")).basic):
        hidden = await client.get(f"{API}/events/{draft['id']}", headers=headers)
        assert hidden.status_code == 403
        assert hidden.json()["code"] == "event-not-accessible"
        by_slug_hidden = await client.get(f"{API}/events/by-slug/{draft['slug']}", headers=headers)
        assert by_slug_hidden.status_code == 403
    assert (
        await client.get(f"{API}/events/{draft['id']}", headers=editor.basic)
    ).status_code == 200


async def test_password_protected_event(client: AsyncClient, editor: AuthFor) -> None:
    event = await create(client, editor, password="s3cret", description="Secret text")
    assert "password" not in event
    url = f"{API}/events/{event['id']}"
    refused = await client.get(url)
    assert refused.status_code == 403
    assert refused.json()["code"] == "event-password-protected"
    assert (await client.get(url, params={"password": "wrong"})).status_code == 403
    allowed = await client.get(url, params={"password": "s3cret"})
    assert allowed.status_code == 200
    assert allowed.json()["description"] == "Secret text"
    assert (await client.get(url, headers=editor.basic)).status_code == 200
    cleared = await client.patch(url, json={"password": ""}, headers=editor.basic)
    assert cleared.status_code == 200
    assert (await client.get(url)).status_code == 200


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
async def test_update_is_partial(client: AsyncClient, editor: AuthFor, method: str) -> None:
    event = await create(
        client, editor, description="Keep me", featured=True, website="http://kept.example",
        organizer=[], timezone="Europe/Vienna",
    )  # fmt: skip
    url = f"{API}/events/{event['id']}"
    response = await client.request(method, url, json={"title": "Renamed"}, headers=editor.basic)
    assert response.status_code == 200
    body = response.json()
    assert body["title"] == "Renamed"
    assert body["description"] == "Keep me"
    assert body["featured"] is True
    assert body["website"] == "http://kept.example"
    assert body["slug"] == event["slug"]
    assert body["start_date"] == event["start_date"]
    assert body["timezone"] == "Europe/Vienna"
    moved = await client.request(
        method, url, json={"start_date": "2027-09-01 10:00", "end_date": "2027-09-01 12:00"},
        headers=editor.basic,
    )  # fmt: skip
    assert moved.json()["utc_start_date"] == "2027-09-01 08:00:00"
    bad = await client.request(method, url, json={"end_date": "2027-08-01"}, headers=editor.basic)
    assert bad.status_code == 400  # end before start
    assert (await client.get(url)).json()["end_date"] == "2027-09-01 12:00:00"
    rezoned = await client.request(method, url, json={"timezone": "UTC"}, headers=editor.basic)
    assert rezoned.json()["start_date"] == "2027-09-01 10:00:00"  # wall time kept
    assert rezoned.json()["utc_start_date"] == "2027-09-01 10:00:00"


async def test_update_by_slug_renames(client: AsyncClient, editor: AuthFor) -> None:
    event = await create(client, editor, title="Slugged")
    response = await client.put(
        f"{API}/events/by-slug/{event['slug']}", json={"slug": "new-name"}, headers=editor.basic
    )
    assert response.status_code == 200
    assert response.json()["slug"] == "new-name"
    assert (await client.get(f"{API}/events/by-slug/new-name")).status_code == 200
    other = await create(client, editor, title="Other")
    taken = await client.put(
        f"{API}/events/{other['id']}", json={"slug": "new-name"}, headers=editor.basic
    )
    assert taken.json()["slug"] == "new-name-2"


async def test_update_permissions(client: AsyncClient, editor: AuthFor, auth: Auth) -> None:
    contributor = await auth("contributor")
    author = await auth("author")
    own_draft = await create(client, contributor)
    published = await create(client, editor)
    authored = await create(client, author)
    cases = [
        (contributor, own_draft, 200),
        (contributor, published, 403),
        (author, authored, 200),
        (author, published, 403),
        (editor, own_draft, 200),
        (await auth("subscriber"), published, 403),
    ]
    for who, event, status in cases:
        response = await client.put(
            f"{API}/events/{event['id']}", json={"title": "Changed"}, headers=who.basic
        )
        assert response.status_code == status, (who.login, event["id"])
        by_slug = await client.put(
            f"{API}/events/by-slug/{event['slug']}", json={"excerpt": "x"}, headers=who.basic
        )
        assert by_slug.status_code == status
    assert (await client.put(f"{API}/events/{published['id']}", json={})).status_code == 401
    missing = await client.put(f"{API}/events/424242", json={"title": "x"}, headers=editor.basic)
    assert missing.status_code == 404
    published_by_contributor = await client.put(
        f"{API}/events/{own_draft['id']}", json={"status": "publish"}, headers=contributor.basic
    )
    assert published_by_contributor.json()["status"] == "pending"


async def test_future_publication_date_schedules(client: AsyncClient, editor: AuthFor) -> None:
    later = (datetime.now(UTC) + timedelta(days=30)).strftime("%Y-%m-%d %H:%M:%S")
    event = await create(client, editor, date_utc=later)
    assert event["status"] == "future"
    assert event["date_utc"] == later
    assert (await client.get(f"{API}/events/{event['id']}")).status_code == 403


async def test_delete_trash_then_410_then_force(
    client: AsyncClient, editor: AuthFor, auth: Auth
) -> None:
    event = await create(client, editor)
    url = f"{API}/events/{event['id']}"
    assert (await client.delete(url)).status_code == 401
    assert (await client.delete(url, headers=(await auth("contributor")).basic)).status_code == 403
    trashed = await client.delete(url, headers=editor.basic)
    assert trashed.status_code == 200
    assert trashed.json()["status"] == "trash"
    gone = await client.get(url)
    assert gone.status_code == 403
    assert gone.json()["code"] == "event-no-longer-available"
    again = await client.delete(url, headers=editor.basic)
    assert again.status_code == 410
    assert again.json() == {
        "code": "event-is-in-trash",
        "message": "The event is already trashed",
        "data": {"status": 410},
    }
    restored = await client.patch(url, json={"status": "publish"}, headers=editor.basic)
    assert restored.json()["status"] == "publish"
    forced = await client.delete(url, params={"force": "true"}, headers=editor.basic)
    assert forced.status_code == 200
    assert forced.json()["id"] == event["id"]
    assert (await client.get(url)).status_code == 404
    assert (await client.delete(f"{API}/events/424242", headers=editor.basic)).status_code == 404
    by_slug = await create(client, editor, title="By slug")
    deleted = await client.delete(f"{API}/events/by-slug/{by_slug['slug']}", headers=editor.basic)
    assert deleted.json()["status"] == "trash"


async def test_contributor_may_delete_own_draft_only(
    client: AsyncClient, editor: AuthFor, auth: Auth
) -> None:
    contributor = await auth("contributor")
    own = await create(client, contributor)
    assert (
        await client.delete(f"{API}/events/{own['id']}", headers=contributor.basic)
    ).status_code == 200
    other = await create(client, editor)
    response = await client.delete(
        f"{API}/events/by-slug/{other['slug']}", headers=contributor.basic
    )
    assert response.status_code == 403


async def test_translations(client: AsyncClient, editor: AuthFor) -> None:
    created = await client.post(
        f"/de{API}/events",
        json={
            "title": "Sommerfest",
            "description": "Im Park",
            "start_date": soon(),
            "end_date": soon(hour=22),
        },
        headers=editor.basic,
    )
    assert created.status_code == 201
    event_id = created.json()["id"]
    assert (await client.get(f"{API}/events/{event_id}")).json()["title"] == "Sommerfest"
    await client.patch(
        f"{API}/events/{event_id}", json={"title": "Summer party"}, headers=editor.basic
    )
    await client.patch(
        f"/sk{API}/events/{event_id}", json={"title": "Letná slávnosť"}, headers=editor.basic
    )
    titles = {
        lang: (await client.get(f"/{lang}{API}/events/{event_id}")).json()["title"]
        for lang in ("en", "de", "sk")
    }
    assert titles == {"en": "Summer party", "de": "Sommerfest", "sk": "Letná slávnosť"}
    slovak = (await client.get(f"/sk{API}/events/{event_id}")).json()
    assert slovak["description"] == "Im Park"  # no Slovak text: the default one


async def test_each_language_read_again_keeps_its_texts(
    client: AsyncClient, editor: AuthFor
) -> None:
    """The reads' statements are compiled once per statement and reused from the second
    execution on (app/core/database/compiled.py); the languages' statements differ only in the
    language bound in them, so every read, first or later, must show its own language."""
    created = await client.post(
        f"/de{API}/events",
        json={"title": "Herbstfest", "start_date": soon(), "end_date": soon(hour=22)},
        headers=editor.basic,
    )
    event_id = created.json()["id"]
    await client.patch(
        f"/sk{API}/events/{event_id}", json={"title": "Jesenná slávnosť"}, headers=editor.basic
    )
    expected = {"en": "Herbstfest", "de": "Herbstfest", "sk": "Jesenná slávnosť"}
    for _ in range(3):
        for lang, title in expected.items():
            single = await client.get(f"/{lang}{API}/events/{event_id}", params={"_": lang})
            assert single.json()["title"] == title, lang
            page = await client.get(f"/{lang}{API}/events", params={"per_page": 50})
            titles = [event["title"] for event in page.json()["events"] if event["id"] == event_id]
            assert titles == [title], lang


async def test_form_encoded_create(client: AsyncClient, editor: AuthFor) -> None:
    response = await client.post(
        f"{API}/events",
        data={
            "title": "Form event",
            "start_date": soon(),
            "end_date": soon(hour=21),
            "tags[]": ["a", "b"],
            "all_day": "1",
        },
        headers=editor.basic,
    )
    assert response.status_code == 201
    assert [t["name"] for t in response.json()["tags"]] == ["a", "b"]
    assert response.json()["all_day"] is True


async def test_inline_venue_and_organizers(client: AsyncClient, editor: AuthFor) -> None:
    venue = {
        "venue": "Le Petit Théâtre", "address": "100, Avenue du Temple", "city": "Paris",
        "country": "France", "stateProvince": "IDF", "zip": "75003", "show_map": True,
    }  # fmt: skip
    event = await create(
        client,
        editor,
        venue=venue,
        organizer=[{"organizer": "Organizer A", "email": "a@example.org"}],
    )
    created_venue = event["venue"]
    assert created_venue["venue"] == "Le Petit Théâtre"
    assert created_venue["stateprovince"] == "IDF"
    assert created_venue["show_map"] is True
    assert [o["organizer"] for o in event["organizer"]] == ["Organizer A"]
    # An identical venue (the same fields, any case) is reused rather than created again.
    again = await create(client, editor, venue={"venue": "le petit théâtre", "city": "PARIS"})
    assert again["venue"]["id"] == created_venue["id"]
    different = await create(client, editor, venue={"venue": "Le Petit Théâtre", "city": "Lyon"})
    assert different["venue"]["id"] != created_venue["id"]
    existing = (
        await client.post(f"{API}/organizers", json={"organizer": "Known"}, headers=editor.basic)
    ).json()
    mixed = await create(
        client, editor,
        organizer=[{"organizer": "New one"}, {"id": existing["id"]}, existing["id"] + 0, {"organizer": "organizer a"}],
    )  # fmt: skip
    names = [o["organizer"] for o in mixed["organizer"]]
    assert names == ["New one", "Known", "Organizer A"]
    images = await create(
        client, editor,
        venue={"venue": "Pictured", "image": "https://img.example/v.png"},
        organizer=[{"organizer": "Pictured org", "image": "https://img.example/o.png"}],
    )  # fmt: skip
    assert images["venue"]["image"]["url"] == "https://img.example/v.png"
    assert images["organizer"][0]["image"]["url"] == "https://img.example/o.png"


async def test_bad_inline_records_are_400_and_write_nothing(
    client: AsyncClient, editor: AuthFor
) -> None:
    for payload in (
        {"venue": {"website": "http://nameless.example"}},
        {"venue": {"venue": "Named", "website": "not a url"}},
        {"organizer": [{"organizer": "Fine"}, {"phone": "123"}]},
        {"organizer": [{"organizer": "x" * 600}]},
        {"venue": [1, 2]},
    ):
        body = {"title": "Nope", "start_date": soon(), "end_date": soon(hour=20), **payload}
        response = await client.post(f"{API}/events", json=body, headers=editor.basic)
        assert response.status_code == 400, payload
        assert list(response.json()["data"]["params"]) == [next(iter(payload))]
    organizers = (await client.get(f"{API}/organizers", headers=editor.basic)).json()
    assert organizers["total"] == 0  # the valid first organizer was not kept either
    assert (await client.get(f"{API}/events", headers=editor.basic)).json()["total"] == 0
