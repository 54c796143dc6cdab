"""Venues through HTTP. What venues and organizers share (roles, statuses, trash, slugs,
passwords, translations, paging) is tested here for both kinds; test_organizers.py holds
what is the organizers' own."""

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.app_services import app_services
from app.models import Event
from tests.factories import API, Auth, AuthFor, create_post, link_organizers, make_event

NAME = {"venues": "venue", "organizers": "organizer"}
NUMBERS = itertools.count(1)

VENUE_KEYS = [
    "id", "author", "status", "date", "date_utc", "modified", "modified_utc", "url", "venue",
    "description", "excerpt", "slug", "image", "address", "city", "country", "province",
    "state", "zip", "phone", "website", "stateprovince", "show_map", "show_map_link",
    "global_id", "global_id_lineage",
]  # fmt: skip
# A venue with coordinates (the gazetteer places one in Paris at once) has them after
# `stateprovince` (docs/design.md#places).
PLACED_KEYS = [
    *VENUE_KEYS[: VENUE_KEYS.index("show_map")], "geo_lat", "geo_lng", "geo_precision",
    *VENUE_KEYS[VENUE_KEYS.index("show_map") :],
]  # fmt: skip


@pytest.fixture(params=["venues", "organizers"])
def plural(request: pytest.FixtureRequest) -> str:
    kind: str = request.param
    return kind


async def make(client: AsyncClient, who: AuthFor, plural: str, **fields: Any) -> dict[str, Any]:
    """A venue or organizer named `name` (default "Thing <n>": a create with the fields of an
    existing record answers that record)."""
    name = fields.pop("name", None) or f"Thing {next(NUMBERS)}"
    return await create_post(client, who, plural, **{NAME[plural]: name}, **fields)


async def link(db: AsyncSession, plural: str, record_id: int, **event: Any) -> int:
    """An event linked to the venue or organizer; its ID."""
    if plural == "venues":
        return await make_event(db, venue_id=record_id, **event)
    event_id = await make_event(db, **event)
    await link_organizers(db, event_id, record_id)
    return event_id


async def ids(client: AsyncClient, plural: str, who: AuthFor | None = None, **params: Any) -> list[int]:  # fmt: skip
    headers = who.basic if who else {}
    response = await client.get(f"{API}/{plural}", params=params, headers=headers)
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()[plural]]


# ---- shapes -------------------------------------------------------------------------


async def test_empty_list_answers_the_envelope(client: AsyncClient, plural: str) -> None:
    response = await client.get(f"{API}/{plural}")
    assert response.status_code == 200
    body = response.json()
    assert list(body) == [plural, "rest_url", "total", "total_pages"]
    assert body[plural] == []
    # The effective status, as the reference writes it: `publish` for anonymous callers.
    assert body["rest_url"] == f"http://testserver{API}/{plural}/?page=1&per_page=9&status=publish"
    assert (body["total"], body["total_pages"]) == (0, 0)
    assert response.headers["X-TEC-Total"] == "0"
    assert response.headers["X-TEC-TotalPages"] == "0"


async def test_create_returns_every_field_in_the_reference_order(
    client: AsyncClient, editor: AuthFor
) -> None:
    response = await client.post(
        f"{API}/venues",
        json={
            "venue": "  Blue Hall  ",
            "description": "<p>Big</p>",
            "excerpt": "Short",
            "address": "1 Main Street",
            "city": "Paris",
            "country": "France",
            "province": "IDF",
            "state": "",
            "zip": "75001",
            "phone": "+33 1",
            "website": "https://blue.example.com",
            "stateprovince": "Ile de France",
            "show_map": "false",
            "date": "2026-01-02 03:04:05",
        },
        headers=editor.basic,
    )
    assert response.status_code == 201
    body = response.json()
    assert list(body) == PLACED_KEYS
    assert body["geo_precision"] == "city"
    assert response.headers["Location"] == f"http://testserver{API}/venues/{body['id']}"
    assert body["author"] == str(editor.id)
    assert body["status"] == "publish"
    assert body["venue"] == "Blue Hall"
    assert body["slug"] == "blue-hall"
    assert body["url"] == "http://testserver/venue/blue-hall/"
    assert body["date"] == body["date_utc"] == "2026-01-02 03:04:05"
    assert body["image"] is False
    assert (body["show_map"], body["show_map_link"]) == (False, False)
    assert body["global_id"] == f"testserver?id={body['id']}"
    assert body["global_id_lineage"] == [body["global_id"]]
    fields = ("description", "excerpt", "address", "city", "country", "province", "state")
    assert [body[key] for key in fields] == ["<p>Big</p>", "Short", "1 Main Street", "Paris", "France", "IDF", ""]  # fmt: skip
    assert (body["zip"], body["phone"]) == ("75001", "+33 1")
    assert body["website"] == "https://blue.example.com"
    assert body["stateprovince"] == "Ile de France"
    assert "password" not in body


async def test_single_read_adds_json_ld(client: AsyncClient, editor: AuthFor) -> None:
    venue = await make(
        client,
        editor,
        "venues",
        name="Venue 1",
        description="<p>Venue 'one'</p>",
        address="1 Main Street",
        city="Paris",
        country="France",
        province="FR",
        zip="10001",
        phone="+1 555 011",
        website="http://venue1.example.com",
        show_map=True,
        show_map_link="1",
    )
    response = await client.get(f"{API}/venues/{venue['id']}")
    assert response.status_code == 200
    body = response.json()
    keys = [*PLACED_KEYS]
    keys.insert(keys.index("show_map"), "json_ld")
    assert list(body) == keys
    assert {k: v for k, v in body.items() if k != "json_ld"} == venue
    assert body["json_ld"] == {
        "@type": "Place",
        "name": "Venue 1",
        "description": "&lt;p&gt;Venue &#039;one&#039;&lt;/p&gt;",
        "url": "http://testserver/venue/venue-1/",
        "address": {
            "@type": "PostalAddress",
            "streetAddress": "1 Main Street",
            "addressLocality": "Paris",
            "addressRegion": "FR",
            "postalCode": "10001",
            "addressCountry": "France",
        },
        "telephone": "+1 555 011",
        "sameAs": "http://venue1.example.com",
        # Placed in Paris by the gazetteer (docs/api.md#venues-coordinates).
        "geo": {
            "@type": "GeoCoordinates",
            "latitude": body["geo_lat"],
            "longitude": body["geo_lng"],
        },  # fmt: skip
    }
    assert (body["show_map"], body["show_map_link"]) == (True, True)
    by_slug = await client.get(f"{API}/venues/by-slug/venue-1")
    assert by_slug.json() == body
    listed = (await client.get(f"{API}/venues")).json()["venues"]
    assert listed == [venue]  # lists carry no json_ld


@pytest.mark.parametrize(
    ("payload", "code", "param"),
    [
        ({}, "rest_missing_callback_param", "venue"),
        ({"city": "Paris"}, "rest_missing_callback_param", "venue"),
        ({"venue": ""}, "rest_invalid_param", "venue"),
        ({"venue": "   "}, "rest_invalid_param", "venue"),
        ({"venue": None}, "rest_invalid_param", "venue"),
        ({"venue": ["A"]}, "rest_invalid_param", "venue"),
        ({"venue": "x" * 501}, "rest_invalid_param", "venue"),
        ({"venue": "A", "author": 999999}, "rest_invalid_param", "author"),
        ({"venue": "A", "author": "foo"}, "rest_invalid_param", "author"),
        ({"venue": "A", "date": "foo"}, "rest_invalid_param", "date"),
        ({"venue": "A", "date": ""}, "rest_invalid_param", "date"),
        ({"venue": "A", "date_utc": "foo"}, "rest_invalid_param", "date_utc"),
        ({"venue": "A", "status": "kinda_thinking_about_it"}, "rest_invalid_param", "status"),
        ({"venue": "A", "website": "not a url"}, "rest_invalid_param", "website"),
        ({"venue": "A", "website": "javascript:alert(1)"}, "rest_invalid_param", "website"),
        ({"venue": "A", "website": 12}, "rest_invalid_param", "website"),
        ({"venue": "A", "city": "x" * 201}, "rest_invalid_param", "city"),
        ({"venue": "A", "zip": "1" * 51}, "rest_invalid_param", "zip"),
        ({"venue": "A", "phone": "1" * 101}, "rest_invalid_param", "phone"),
        ({"venue": "A", "address": {"street": "x"}}, "rest_invalid_param", "address"),
        ({"venue": "A", "show_map": "maybe"}, "rest_invalid_param", "show_map"),
        ({"venue": "A", "show_map_link": [1]}, "rest_invalid_param", "show_map_link"),
        ({"venue": "A", "slug": ""}, "rest_invalid_param", "slug"),
        ({"venue": "A", "password": "p" * 256}, "rest_invalid_param", "password"),
        ({"venue": "A", "image": "foo bar"}, "rest_invalid_param", "image"),
    ],
)
async def test_create_validation(
    client: AsyncClient, editor: AuthFor, payload: dict[str, Any], code: str, param: str
) -> None:
    response = await client.post(f"{API}/venues", json=payload, headers=editor.basic)
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == code
    if code == "rest_missing_callback_param":
        assert body["data"]["params"] == [param]
        assert body["message"] == f"Missing parameter(s): {param}"
    else:
        assert list(body["data"]["params"]) == [param]
    assert (await client.get(f"{API}/venues", params={"status": "publish,draft"}, headers=editor.basic)).json()["total"] == 0  # fmt: skip


async def test_dates_accept_timestamps_and_relative_forms(
    client: AsyncClient, editor: AuthFor
) -> None:
    stamp = int(datetime(2025, 5, 6, 7, 8, 9, tzinfo=UTC).timestamp())
    venue = await make(client, editor, "venues", date=stamp)
    assert venue["date_utc"] == "2025-05-06 07:08:09"
    venue = await make(client, editor, "venues", date_utc=str(stamp), date="2020-01-01")
    assert venue["date_utc"] == "2025-05-06 07:08:09"  # date_utc wins
    venue = await make(client, editor, "venues", date="2027-05-01T12:00:00+02:00")
    assert venue["date_utc"] == "2027-05-01 10:00:00"
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%d")
    venue = await make(client, editor, "venues", date="tomorrow")
    assert venue["date"] == f"{tomorrow} 00:00:00"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, True), ("true", True), ("1", True), (1, True), ("yes", True), ("on", True),
        (False, False), ("false", False), ("0", False), (0, False), ("no", False),
        ("off", False), ("", False), (None, False),
    ],
)  # fmt: skip
async def test_show_map_flags_are_lenient_booleans(
    client: AsyncClient, editor: AuthFor, value: Any, expected: bool
) -> None:
    venue = await make(client, editor, "venues", show_map=value, show_map_link=value)
    assert (venue["show_map"], venue["show_map_link"]) == (expected, expected)


async def test_plain_create_reuses_an_identical_record(
    client: AsyncClient, editor: AuthFor
) -> None:
    first = await make(client, editor, "venues", name="A venue", city="Rome")
    second = await make(client, editor, "venues", name="A venue", city="Rome")
    assert second["id"] == first["id"]
    other = await make(client, editor, "venues", name="A venue", city="Milan")
    assert other["id"] != first["id"]
    assert (first["slug"], other["slug"]) == ("a-venue", "a-venue-2")


# ---- writes per role ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "requested", "stored"),
    [
        ("administrator", None, "publish"),
        ("editor", "draft", "draft"),
        ("author", None, "publish"),
        ("author", "private", "private"),
        ("contributor", None, "draft"),
        ("contributor", "publish", "pending"),
        ("contributor", "future", "pending"),
        ("contributor", "draft", "draft"),
    ],
)
async def test_create_scales_the_status_per_role(
    client: AsyncClient, auth: Auth, plural: str, role: str, requested: str | None, stored: str
) -> None:
    who = await auth(role)
    extra = {"status": requested} if requested else {}
    record = await make(client, who, plural, **extra)
    assert record["status"] == stored
    assert record["author"] == str(who.id)


async def test_anonymous_and_subscriber_writes_are_refused_before_validation(
    client: AsyncClient, auth: Auth, editor: AuthFor, plural: str
) -> None:
    record = await make(client, editor, plural)
    subscriber = await auth("subscriber")
    for method, path, payload in [
        ("POST", f"{API}/{plural}", {}),
        ("POST", f"{API}/{plural}", {NAME[plural]: ""}),
        ("PUT", f"{API}/{plural}/{record['id']}", {NAME[plural]: ""}),
        ("PATCH", f"{API}/{plural}/999999", {}),
        ("POST", f"{API}/{plural}/by-slug/nothing-here", {}),
        ("DELETE", f"{API}/{plural}/{record['id']}", None),
        ("DELETE", f"{API}/{plural}/999999", None),
        ("DELETE", f"{API}/{plural}/by-slug/{record['slug']}", None),
    ]:
        response = await client.request(method, path, json=payload)
        assert response.status_code == 401, (method, path)
        assert response.json()["code"] == "rest_forbidden"
        response = await client.request(method, path, json=payload, headers=subscriber.basic)
        assert response.status_code == 403, (method, path)
        assert response.json() == {
            "code": "rest_forbidden",
            "message": "Events, venues, organizers and media are written by contributors, "
            f"authors, editors and administrators; {subscriber.login} is a subscriber.",
            "data": {"status": 403, "role": "subscriber"},
        }
    assert (await client.get(f"{API}/{plural}/{record['id']}")).json()["status"] == "publish"


@pytest.mark.parametrize("route", ["id", "slug"])
async def test_edit_and_delete_rights_per_object(
    client: AsyncClient, auth: Auth, editor: AuthFor, plural: str, route: str
) -> None:
    contributor = await auth("contributor")
    author = await auth("author")
    other_author = await auth("author")
    own_draft = await make(client, contributor, plural, name="Own draft")
    own_published = await make(client, editor, plural, name="Own published", author=contributor.id)
    authors = await make(client, author, plural, name="Authors")
    editors = await make(client, editor, plural, name="Editors")

    def path(record: dict[str, Any]) -> str:
        key = record["id"] if route == "id" else f"by-slug/{record['slug']}"
        return f"{API}/{plural}/{key}"

    async def status(who: AuthFor, method: str, record: dict[str, Any]) -> int:
        payload = {"description": f"by {who.login}"} if method != "DELETE" else None
        response = await client.request(method, path(record), json=payload, headers=who.basic)
        return response.status_code

    assert await status(contributor, "PUT", own_draft) == 200
    assert await status(contributor, "PUT", own_published) == 403
    assert await status(contributor, "PATCH", editors) == 403
    assert await status(contributor, "DELETE", own_published) == 403
    assert await status(contributor, "DELETE", editors) == 403
    assert await status(author, "POST", authors) == 200  # an author's own, published
    assert await status(author, "PUT", editors) == 403
    assert await status(other_author, "DELETE", authors) == 403
    assert await status(editor, "PATCH", authors) == 200
    assert await status(contributor, "DELETE", own_draft) == 200
    assert await status(author, "DELETE", authors) == 200
    assert await status(editor, "DELETE", own_published) == 200
    unchanged = await client.get(f"{API}/{plural}/{editors['id']}")
    assert unchanged.json()["description"] == ""


async def test_contributor_edits_stay_unpublished(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    contributor = await auth("contributor")
    record = await make(client, contributor, plural)
    response = await client.put(
        f"{API}/{plural}/{record['id']}", json={"status": "publish"}, headers=contributor.basic
    )
    assert response.json()["status"] == "pending"


async def test_author_parameter(client: AsyncClient, auth: Auth, editor: AuthFor) -> None:
    author = await auth("author")
    given = await make(client, editor, "venues", author=author.id)
    assert given["author"] == str(author.id)
    as_string = await make(client, editor, "venues", author=str(author.id))
    assert as_string["author"] == str(author.id)
    own = await make(client, author, "venues", author=author.id)
    assert own["author"] == str(author.id)
    refused = await client.post(
        f"{API}/venues", json={"venue": "Mine", "author": editor.id}, headers=author.basic
    )
    assert refused.status_code == 403
    moved = await client.patch(
        f"{API}/venues/{own['id']}", json={"author": editor.id}, headers=author.basic
    )
    assert moved.status_code == 403
    handed = await client.patch(
        f"{API}/venues/{own['id']}", json={"author": editor.id}, headers=editor.basic
    )
    assert handed.json()["author"] == str(editor.id)
    for bad in (0, -1, "foo", 999999):
        response = await client.patch(
            f"{API}/venues/{own['id']}", json={"author": bad}, headers=editor.basic
        )
        assert response.status_code == 400, bad
        assert list(response.json()["data"]["params"]) == ["author"]


# ---- updates ------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
async def test_update_is_partial(client: AsyncClient, editor: AuthFor, method: str) -> None:
    venue = await make(
        client,
        editor,
        "venues",
        name="Old",
        description="Kept",
        city="Oslo",
        zip="0150",
        show_map=True,
        status="draft",
        date="2024-01-01 10:00:00",
    )
    response = await client.request(
        method, f"{API}/venues/{venue['id']}", json={"venue": "New"}, headers=editor.basic
    )
    assert response.status_code == 200
    body = response.json()
    assert body["venue"] == "New"
    assert body["slug"] == "old"  # renaming keeps the slug
    changed = {key for key in VENUE_KEYS if body[key] != venue[key]}
    assert changed <= {"venue", "modified", "modified_utc"}
    cleared = await client.request(
        method,
        f"{API}/venues/{venue['id']}",
        json={"city": "", "zip": None, "description": "", "show_map": "0", "status": "publish"},
        headers=editor.basic,
    )
    body = cleared.json()
    assert (body["city"], body["zip"], body["description"]) == ("", "", "")
    assert body["show_map"] is False
    assert body["status"] == "publish"
    assert body["date"] == "2024-01-01 10:00:00"


async def test_update_errors_leave_the_record_unchanged(
    client: AsyncClient, editor: AuthFor
) -> None:
    venue = await make(client, editor, "venues", name="Stable", city="Bern")
    url = f"{API}/venues/{venue['id']}"
    for payload in (
        {"venue": ""},
        {"venue": None},
        {"city": "Basel", "status": "foo"},
        {"city": "Basel", "date": "not a date"},
        {"city": "Basel", "website": "nope"},
        {"city": "Basel", "image": 999999},
        {"city": "Basel", "author": 999999},
    ):
        response = await client.patch(url, json=payload, headers=editor.basic)
        assert response.status_code == 400, payload
    assert (await client.get(url)).json() == {**venue, "json_ld": (await client.get(url)).json()["json_ld"]}  # fmt: skip
    missing = await client.put(f"{API}/venues/999999", json={"city": "x"}, headers=editor.basic)
    assert missing.status_code == 404
    assert missing.json()["code"] == "rest-venue-not-found"
    renamed_twin = await make(client, editor, "venues", name="Twin")
    same_name = await client.put(url, json={"venue": "Twin"}, headers=editor.basic)
    assert same_name.status_code == 200  # names need not be unique, slugs are
    assert same_name.json()["slug"] == "stable" != renamed_twin["slug"]


async def test_writes_accept_form_and_query_parameters(
    client: AsyncClient, editor: AuthFor, plural: str
) -> None:
    name = NAME[plural]
    form = await client.post(
        f"{API}/{plural}", data={name: "From a form", "website": ""}, headers=editor.basic
    )
    assert form.status_code == 201
    assert form.json()[name] == "From a form"
    query = await client.post(
        f"{API}/{plural}", params={name: "From a query"}, headers=editor.basic
    )
    assert query.json()[name] == "From a query"
    both = await client.post(
        f"{API}/{plural}", params={name: "query"}, json={name: "json"}, headers=editor.basic
    )
    assert both.json()[name] == "json"
    updated = await client.put(
        f"{API}/{plural}/{form.json()['id']}", data={"description": "Formed"}, headers=editor.basic
    )
    assert updated.json()["description"] == "Formed"


# ---- slugs ------------------------------------------------------------------------


async def test_slugs_are_ascii_unique_and_renamable(
    client: AsyncClient, editor: AuthFor, plural: str
) -> None:
    first = await make(client, editor, plural, name="Café Zürich")
    second = await make(client, editor, plural, name="Cafe Zurich", status="draft")
    third = await make(client, editor, plural, name="Other", slug="Café Zürich")
    assert [first["slug"], second["slug"], third["slug"]] == [
        "cafe-zurich", "cafe-zurich-2", "cafe-zurich-3",
    ]  # fmt: skip
    emoji = await make(client, editor, plural, name="☕")
    assert emoji["slug"] == "untitled"
    renamed = await client.patch(
        f"{API}/{plural}/by-slug/cafe-zurich-3", json={"slug": "The Third"}, headers=editor.basic
    )
    assert renamed.status_code == 200
    assert renamed.json()["slug"] == "the-third"
    assert renamed.json()["url"].endswith(f"/{NAME[plural]}/the-third/")
    gone = await client.get(f"{API}/{plural}/by-slug/cafe-zurich-3")
    assert gone.status_code == 404
    found = await client.get(f"{API}/{plural}/by-slug/THE-THIRD")
    assert found.json()["id"] == third["id"]
    taken = await client.patch(
        f"{API}/{plural}/{third['id']}", json={"slug": "cafe-zurich"}, headers=editor.basic
    )
    assert taken.status_code == 200
    assert taken.json()["slug"] == "cafe-zurich-3"  # taken: the next free -N, as WordPress does
    same = await client.patch(
        f"{API}/{plural}/{first['id']}", json={"slug": "cafe-zurich"}, headers=editor.basic
    )
    assert same.status_code == 200
    assert same.json()["slug"] == "cafe-zurich"  # its own slug is not taken
    freed = await make(client, editor, plural, name="The Third")
    assert freed["slug"] == "the-third"  # the old slug is free again


async def test_many_records_with_one_name_get_distinct_slugs(
    client: AsyncClient, editor: AuthFor
) -> None:
    slugs = [
        (await make(client, editor, "venues", name="Same", city=f"C{n}"))["slug"] for n in range(12)
    ]
    assert slugs == ["same", *(f"same-{n}" for n in range(2, 13))]


# ---- single reads -------------------------------------------------------------------


async def test_not_found_is_404_in_the_request_language(
    client: AsyncClient, editor: AuthFor, plural: str
) -> None:
    name = NAME[plural]
    missing = await client.get(f"{API}/{plural}/999999")
    assert missing.status_code == 404
    assert missing.json() == {
        "code": f"rest-{name}-not-found",
        "message": f"{name.capitalize()} with ID 999999 does not exist.",
        "data": {"status": 404},
    }
    by_slug = await client.get(f"{API}/{plural}/by-slug/nothing-here")
    assert by_slug.status_code == 404
    assert by_slug.json()["code"] == f"rest-{name}-not-found"
    assert "nothing-here" in by_slug.json()["message"]
    german = await client.get(f"/de{API}/{plural}/999999")
    assert german.json()["code"] == f"rest-{name}-not-found"
    assert "existiert nicht" in german.json()["message"]
    slovak = await client.get(f"{API}/{plural}/999999", params={"i18n_language": "sk"})
    assert "neexistuje" in slovak.json()["message"]
    huge = await client.get(f"{API}/{plural}/99999999999999999999999")
    assert huge.status_code == 404
    for bad in ("foo", "foo%20bar", "foo-bar", "-3"):
        response = await client.get(f"{API}/{plural}/{bad}")
        assert response.status_code == 404
        assert response.json()["code"] == "rest_no_route"
    other = "organizers" if plural == "venues" else "venues"
    record = await make(client, editor, other)
    wrong_kind = await client.get(f"{API}/{plural}/{record['id']}")
    assert wrong_kind.status_code == 404
    event_id = await client.get(f"{API}/{plural}/by-slug/")
    assert event_id.status_code == 404


@pytest.mark.parametrize("status", ["draft", "pending", "private", "future", "trash"])
async def test_unpublished_records_are_not_accessible_to_readers(
    client: AsyncClient, auth: Auth, editor: AuthFor, plural: str, status: str
) -> None:
    # A future status needs a future date (WordPress publishes a "future" post that is due).
    scheduled = {"date": "2099-01-01 00:00:00"} if status == "future" else {}
    record = await make(client, editor, plural, status=status, **scheduled)
    assert record["status"] == status
    subscriber = await auth("subscriber")
    contributor = await auth("contributor")
    name = NAME[plural]
    for path in (f"{API}/{plural}/{record['id']}", f"{API}/{plural}/by-slug/{record['slug']}"):
        for who in (None, subscriber, contributor):
            response = await client.get(path, headers=who.basic if who else {})
            assert response.status_code == 403
            assert response.json() == {
                "code": f"{name}-not-accessible",
                "message": f"The requested {name} is not accessible",
                "data": {"status": 403},
            }
        allowed = await client.get(path, headers=editor.basic)
        assert allowed.status_code == 200
        assert allowed.json()["status"] == status


async def test_contributors_read_their_own_drafts(
    client: AsyncClient, auth: Auth, plural: str
) -> None:
    contributor = await auth("contributor")
    record = await make(client, contributor, plural)
    assert record["status"] == "draft"
    own = await client.get(f"{API}/{plural}/{record['id']}", headers=contributor.basic)
    assert own.status_code == 200


# ---- delete -------------------------------------------------------------------------


async def test_trash_then_410_then_force(client: AsyncClient, editor: AuthFor, plural: str) -> None:
    name = NAME[plural]
    record = await make(client, editor, plural, city="x") if plural == "venues" else await make(client, editor, plural)  # fmt: skip
    url = f"{API}/{plural}/{record['id']}"
    trashed = await client.delete(url, headers=editor.basic)
    assert trashed.status_code == 200
    assert trashed.json()["status"] == "trash"
    assert trashed.json()["id"] == record["id"]
    again = await client.delete(url, headers=editor.basic)
    assert again.status_code == 410
    assert again.json() == {
        "code": f"{name}-is-in-trash",
        "message": f"The {name} is already trashed",
        "data": {"status": 410},
    }
    assert (await client.get(url)).status_code == 403  # anonymous: not published
    assert (await ids(client, plural, editor)) == []  # out of the default list
    assert (await ids(client, plural, editor, status="trash")) == [record["id"]]
    restored = await client.put(url, json={"status": "draft"}, headers=editor.basic)
    assert restored.json()["status"] == "draft"
    assert (await client.delete(url, params={"force": "maybe"}, headers=editor.basic)).status_code == 400  # fmt: skip
    forced = await client.delete(url, params={"force": "true"}, headers=editor.basic)
    assert forced.status_code == 200
    assert forced.json()["status"] == "draft"  # the last state
    assert (await client.get(url, headers=editor.basic)).status_code == 404
    assert (await client.delete(url, headers=editor.basic)).status_code == 404


async def test_force_deletes_a_trashed_record_by_slug(
    client: AsyncClient, editor: AuthFor, plural: str
) -> None:
    record = await make(client, editor, plural, name="Short lived")
    trashed = await client.delete(f"{API}/{plural}/by-slug/short-lived", headers=editor.basic)
    assert trashed.json()["status"] == "trash"
    # The trash renames the slug (freeing the old one): the record goes by its new slug.
    assert (await client.delete(f"{API}/{plural}/by-slug/short-lived", headers=editor.basic)).status_code == 404  # fmt: skip
    path = f"{API}/{plural}/by-slug/short-lived__trashed"
    assert (await client.delete(path, headers=editor.basic)).status_code == 410
    forced = await client.request("DELETE", path, json={"force": True}, headers=editor.basic)
    assert forced.json()["id"] == record["id"]
    assert (await client.delete(path, headers=editor.basic)).status_code == 404


@pytest.mark.parametrize("how", ["trash", "force", "status"])
async def test_delete_unlinks_the_events(
    client: AsyncClient, editor: AuthFor, db: AsyncSession, how: str
) -> None:
    venue = await make(client, editor, "venues")
    kept = await make(client, editor, "venues")
    linked = await make_event(db, venue_id=venue["id"])
    other = await make_event(db, venue_id=kept["id"])
    url = f"{API}/venues/{venue['id']}"
    if how == "status":  # trashed through an update
        response = await client.patch(url, json={"status": "trash"}, headers=editor.basic)
    else:
        response = await client.delete(url, params={"force": how == "force"}, headers=editor.basic)
    assert response.status_code == 200
    venue_of = {row.id: row.venue_id for row in await db.execute(select(Event.id, Event.venue_id))}
    assert venue_of[linked] is None
    assert venue_of[other] == kept["id"]


# ---- lists --------------------------------------------------------------------------


async def test_pagination_order_links_and_headers(client: AsyncClient, editor: AuthFor) -> None:
    created = [
        (await make(client, editor, "venues", name=f"V{n}", date=f"2024-01-{n:02d}"))["id"]
        for n in range(1, 8)
    ]
    same_day = [(await make(client, editor, "venues", date="2023-06-01"))["id"] for _ in range(3)]
    newest_first = [*reversed(created), *reversed(same_day)]
    assert await ids(client, "venues", per_page=100) == newest_first
    base = f"http://testserver{API}/venues/"
    pages = [
        await client.get(f"{API}/venues", params={"per_page": 4, "page": page})
        for page in (1, 2, 3)
    ]
    bodies = [page.json() for page in pages]
    assert [item["id"] for body in bodies for item in body["venues"]] == newest_first
    assert [(body["total"], body["total_pages"]) for body in bodies] == [(10, 3)] * 3
    assert pages[0].headers["X-TEC-Total"] == "10"
    assert pages[0].headers["X-TEC-TotalPages"] == "3"
    assert bodies[0]["next_rest_url"] == f"{base}?status=publish&per_page=4&page=2"
    assert "previous_rest_url" not in bodies[0]
    assert bodies[1]["previous_rest_url"] == f"{base}?status=publish&per_page=4"
    assert bodies[2]["previous_rest_url"] == f"{base}?status=publish&per_page=4&page=2"
    assert "next_rest_url" not in bodies[2]
    assert 'rel="next"' in pages[1].headers["Link"]
    beyond = await client.get(f"{API}/venues", params={"per_page": 4, "page": 4})
    assert beyond.status_code == 404
    assert beyond.json() == {
        "code": "venue-archive-page-not-found",
        "message": "The requested venue archive page does not exist: the list has 3 page(s) "
        "of 4 (total_pages).",
        "data": {"status": 404, "total": 10, "total_pages": 3},
    }
    organizers = await client.get(f"{API}/organizers", params={"page": 2})
    assert organizers.json()["code"] == "organizer-archive-page-not-found"


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"page": "0"}, "page"),
        ({"page": "-1"}, "page"),
        ({"page": "foo"}, "page"),
        ({"per_page": "foo bar"}, "per_page"),
        ({"per_page": "101"}, "per_page"),
        ({"search": ""}, "search"),
        ({"event": "foo"}, "event"),
        ({"event": "23"}, "event"),
        ({"has_events": "maybe"}, "has_events"),
        ({"only_with_upcoming": "sometimes"}, "only_with_upcoming"),
        ({"status": "foo"}, "status"),
        ({"status": "foo, bar, publish"}, "status"),
        ({"status": ""}, "status"),
        ({"i18n_language": "fr"}, "i18n_language"),
    ],
)
async def test_list_parameter_validation(
    client: AsyncClient, plural: str, params: dict[str, str], param: str
) -> None:
    response = await client.get(f"{API}/{plural}", params=params)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    assert list(body["data"]["params"]) == [param]


async def test_list_visibility_and_status_per_role(
    client: AsyncClient, auth: Auth, editor: AuthFor, plural: str
) -> None:
    contributor = await auth("contributor")
    author = await auth("author")
    subscriber = await auth("subscriber")
    published = (await make(client, editor, plural))["id"]
    editors_draft = (await make(client, editor, plural, status="draft"))["id"]
    private = (await make(client, editor, plural, status="private"))["id"]
    contributors_draft = (await make(client, contributor, plural))["id"]
    authors_pending = (await make(client, author, plural, status="pending"))["id"]
    trashed = (await make(client, editor, plural, status="trash"))["id"]

    assert await ids(client, plural) == [published]
    assert await ids(client, plural, subscriber) == [published]
    assert await ids(client, plural, contributor) == [contributors_draft, published]
    assert await ids(client, plural, author) == [authors_pending, published]
    everything_but_trash = [authors_pending, contributors_draft, private, editors_draft, published]
    assert await ids(client, plural, editor) == everything_but_trash
    assert await ids(client, plural, await auth("administrator")) == everything_but_trash

    assert await ids(client, plural, status="publish") == [published]
    assert await ids(client, plural, subscriber, status="publish") == [published]
    for who in (None, subscriber):
        response = await client.get(
            f"{API}/{plural}",
            params={"status": "publish, draft"},
            headers=who.basic if who else {},
        )
        assert response.status_code == 400
        assert list(response.json()["data"]["params"]) == ["status"]
    assert await ids(client, plural, editor, status="publish") == [published]
    assert await ids(client, plural, editor, status="publish, draft") == [
        contributors_draft, editors_draft, published,
    ]  # fmt: skip
    assert await ids(client, plural, editor, **{"status[]": ["trash", "private"]}) == [
        trashed, private,
    ]  # fmt: skip
    assert await ids(client, plural, contributor, status="draft") == [contributors_draft]
    assert await ids(client, plural, author, status="draft,pending,trash") == [authors_pending]
    listed = await client.get(f"{API}/{plural}", params={"status": "draft"}, headers=editor.basic)
    assert listed.json()["rest_url"].endswith("?page=1&per_page=9&status=draft")


async def test_search_venues_like_the_reference(client: AsyncClient, editor: AuthFor) -> None:
    await make(client, editor, "venues", name="Hall foo", description="Content", excerpt="Excerpt")  # fmt: skip
    await make(client, editor, "venues", name="Hall bar", description="Content", excerpt="Excerpt")  # fmt: skip
    await make(client, editor, "venues", name="Hall baz", description="Content", excerpt="Excerpt")  # fmt: skip
    await make(client, editor, "venues", name="One", city="London", zip="223345", phone="1111111")
    await make(client, editor, "venues", name="Two", address="London Road 3", phone="3333333", zip="223345")  # fmt: skip
    await make(client, editor, "venues", name="Three", address="100, Avenue du Temple", stateprovince="Ile de France")  # fmt: skip
    await make(client, editor, "venues", name="Four", country="France", province="Ile")

    async def count(term: str) -> int:
        response = await client.get(f"{API}/venues", params={"search": term})
        assert response.status_code == 200
        total: int = response.json()["total"]
        assert total == len(response.json()["venues"])
        return total

    assert await count("woo") == 0
    assert await count("hall") == 3
    assert await count("venue") == 1  # "100, Avenue du Temple"
    assert await count("content") == 3
    assert await count("EXCERPT") == 3
    assert await count("Hall foo") == 1
    assert await count("foo content") == 0  # the fragments must share one field
    assert await count("london") == 2
    assert await count("3333333") == 1
    assert await count("temple avenue") == 1
    assert await count("france, ile de") == 1  # all fragments in one field
    assert await count("223345") == 2
    assert await count("100%") == 1  # `%` separates fragments
    assert await count("%") == 0  # only separators: the text itself, LIKE wildcards escaped
    assert await count("_") == 0
    assert await count("!!!") == 0
    response = await client.get(f"{API}/venues", params={"search": "london", "per_page": 1})
    assert response.json()["next_rest_url"].endswith(
        "?search=london&status=publish&per_page=1&page=2"
    )


async def test_event_filter(
    client: AsyncClient, auth: Auth, editor: AuthFor, db: AsyncSession, plural: str
) -> None:
    records = [(await make(client, editor, plural))["id"] for _ in range(3)]
    events = [await link(db, plural, record_id) for record_id in records]
    for record_id, event_id in zip(records, events, strict=True):
        assert await ids(client, plural, event=event_id) == [record_id]
    lonely = await make_event(db)
    assert await ids(client, plural, event=lonely) == []
    draft_record = (await make(client, editor, plural, status="draft"))["id"]
    event_of_draft = await link(db, plural, draft_record)
    assert await ids(client, plural, event=event_of_draft) == []
    assert await ids(client, plural, editor, event=event_of_draft) == [draft_record]
    draft_event = await link(db, plural, records[0], status="draft")
    anonymous = await client.get(f"{API}/{plural}", params={"event": draft_event})
    assert anonymous.status_code == 400
    subscriber = await auth("subscriber")
    refused = await client.get(
        f"{API}/{plural}", params={"event": draft_event}, headers=subscriber.basic
    )
    assert refused.status_code == 400
    assert await ids(client, plural, editor, event=draft_event) == [records[0]]
    not_an_event = await client.get(f"{API}/{plural}", params={"event": records[1]})
    assert not_an_event.status_code == 400


async def test_has_events_filter(
    client: AsyncClient, editor: AuthFor, db: AsyncSession, plural: str
) -> None:
    with_draft, with_pending, with_published, with_trashed, without = [
        (await make(client, editor, plural))["id"] for _ in range(5)
    ]
    await link(db, plural, with_draft, status="draft")
    await link(db, plural, with_pending, status="pending")
    await link(db, plural, with_published)
    await link(db, plural, with_trashed, status="trash")
    assert await ids(client, plural, has_events="true") == [with_published]
    assert await ids(client, plural, has_events="1") == [with_published]
    assert await ids(client, plural, has_events="false") == [
        without, with_trashed, with_pending, with_draft,
    ]  # fmt: skip
    # Links write `has_events` as the caller did, as the reference does.
    response = await client.get(f"{API}/{plural}", params={"has_events": "no"})
    assert response.json()["rest_url"].endswith("?page=1&per_page=9&has_events=no&status=publish")
    response = await client.get(f"{API}/{plural}", params={"has_events": "true"})
    assert response.json()["rest_url"].endswith("&has_events=true&status=publish")


async def test_status_any_in_lists_and_links(
    client: AsyncClient, auth: Auth, editor: AuthFor, plural: str
) -> None:
    published = (await make(client, editor, plural))["id"]
    draft = (await make(client, editor, plural, status="draft"))["id"]
    contributor = await auth("contributor")
    assert await ids(client, plural, editor, status="any") == [draft, published]
    assert await ids(client, plural, status="any") == [published]
    listed = await client.get(f"{API}/{plural}", params={"per_page": 1}, headers=editor.basic)
    assert listed.json()["rest_url"].endswith("&status=any")
    following = await client.get(listed.json()["next_rest_url"], headers=editor.basic)
    assert following.status_code == 200, following.text
    # A contributor's default list too (the reference writes `any`, not `publish`).
    mine = await client.get(f"{API}/{plural}", headers=contributor.basic)
    assert mine.json()["rest_url"].endswith("&status=any")


async def test_only_with_upcoming_filter(
    client: AsyncClient, auth: Auth, editor: AuthFor, db: AsyncSession, plural: str
) -> None:
    now = datetime.now(UTC)
    soon, later, past, private, draft, none = [
        (await make(client, editor, plural))["id"] for _ in range(6)
    ]
    await link(db, plural, soon, start=now + timedelta(days=30))
    await link(db, plural, later, start=now + timedelta(days=60))
    await link(db, plural, later, start=now - timedelta(days=60))
    await link(db, plural, past, start=now - timedelta(days=30))
    await link(db, plural, private, start=now + timedelta(days=30), status="private")
    await link(db, plural, draft, start=now + timedelta(days=30), status="draft")
    assert await ids(client, plural, only_with_upcoming="true") == [later, soon]
    assert await ids(client, plural, await auth("subscriber"), only_with_upcoming="yes") == [later, soon]  # fmt: skip
    assert await ids(client, plural, editor, only_with_upcoming="true") == [draft, private, later, soon]  # fmt: skip
    assert await ids(client, plural, only_with_upcoming="false") == [none, draft, private, past, later, soon]  # fmt: skip
    combined = await ids(client, plural, only_with_upcoming="true", has_events="true", search="Thing")  # fmt: skip
    assert combined == [later, soon]


# ---- passwords ----------------------------------------------------------------------


async def test_password_protected_venues_are_redacted(
    client: AsyncClient, auth: Auth, editor: AuthFor
) -> None:
    author = await auth("author")
    stranger = await auth("author")
    venue = await make(
        client,
        author,
        "venues",
        name="Secret Hall",
        description="Hidden",
        excerpt="Hidden too",
        address="1 Hidden Street",
        city="Hideville",
        country="Nowhere",
        province="P",
        state="S",
        zip="00000",
        phone="123",
        website="https://secret.example.com",
        stateprovince="SP",
        image="https://img.example.com/secret.png",
        show_map=True,
        password="open sesame",
    )
    assert "password" not in venue
    assert venue["venue"] == "Secret Hall"  # its author may edit it: nothing hidden
    redacted = {
        **venue,
        "venue": [],
        "description": "", "excerpt": "", "address": "", "city": "", "country": "",
        "province": "", "zip": "", "phone": "", "website": "", "stateprovince": "",
        "image": False, "show_map": None, "show_map_link": None,
    }  # fmt: skip
    assert redacted["state"] == "S"
    single = f"{API}/venues/{venue['id']}"

    async def seen(who: AuthFor | None, password: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:  # fmt: skip
        params = {"password": password} if password is not None else {}
        headers = who.basic if who else {}
        listed = await client.get(f"{API}/venues", params=params, headers=headers)
        item: dict[str, Any] = listed.json()["venues"][0]
        one = (await client.get(single, params=params, headers=headers)).json()
        return item, one

    for who, password in ((None, None), (None, "wrong"), (stranger, None), (None, "")):
        item, one = await seen(who, password)
        assert item == redacted
        json_ld = one.pop("json_ld")
        assert one == redacted
        assert json_ld["name"] == "Secret Hall"
        # Empty parts are left out; `state` is not among the protected fields.
        assert json_ld["address"] == {"@type": "PostalAddress", "addressRegion": "S"}
        assert json_ld["telephone"] == json_ld["sameAs"] == ""
    for who, password in ((None, "open sesame"), (editor, None), (author, None)):
        item, one = await seen(who, password)
        assert item == venue
        assert one["json_ld"]["telephone"] == "123"
    response = await client.get(f"{API}/venues", params={"password": "open sesame"})
    assert "password" not in response.json()["rest_url"]
    cleared = await client.patch(single, json={"password": ""}, headers=author.basic)
    assert cleared.status_code == 200
    assert (await seen(None))[0] == venue | {"modified": cleared.json()["modified"], "modified_utc": cleared.json()["modified_utc"]}  # fmt: skip


# ---- translations -------------------------------------------------------------------


async def test_translations_fall_back_to_the_default_language(
    client: AsyncClient, editor: AuthFor, plural: str
) -> None:
    name = NAME[plural]
    created = await client.post(
        f"{API}/{plural}",
        json={name: "Stadthalle", "description": "Große Halle", "i18n_language": "de"},
        headers=editor.basic,
    )
    assert created.status_code == 201
    assert created.headers["Content-Language"] == "de"
    record_id = created.json()["id"]
    url = f"{API}/{plural}/{record_id}"
    # Created in German: the text is the default-language text too, so nothing is empty.
    assert (await client.get(url)).json()[name] == "Stadthalle"
    updated = await client.put(
        url, json={name: "Town hall", "excerpt": "Big hall"}, headers=editor.basic
    )
    assert updated.json()[name] == "Town hall"
    german = (await client.get(f"/de{url}")).json()
    assert (german[name], german["description"]) == ("Stadthalle", "Große Halle")
    assert german["excerpt"] == "Big hall"  # no German excerpt: the default shows
    assert german["json_ld"]["name"] == "Stadthalle"
    slovak = await client.get(url, params={"i18n_language": "sk"})
    assert slovak.headers["Content-Language"] == "sk"
    assert slovak.json()[name] == "Town hall"
    await client.patch(f"/sk{url}", json={"description": "Veľká hala"}, headers=editor.basic)
    slovak_again = (await client.get(f"/sk{url}")).json()
    assert (slovak_again[name], slovak_again["description"]) == ("Town hall", "Veľká hala")
    assert (await client.get(url)).json()["description"] == "Große Halle"
    assert (await client.get(f"/de{API}/{plural}/by-slug/stadthalle")).json()[name] == "Stadthalle"

    async def found(prefix: str, term: str) -> list[int]:
        response = await client.get(f"{prefix}{API}/{plural}", params={"search": term})
        return [item["id"] for item in response.json()[plural]]

    assert await found("/de", "stadt") == [record_id]
    assert await found("", "stadt") == []
    assert await found("", "town") == [record_id]
    assert await found("/de", "town") == []
    assert await found("/sk", "veľká") == [record_id]
    listed = (await client.get(f"/de{API}/{plural}")).json()
    assert listed[plural][0][name] == "Stadthalle"
    assert listed["rest_url"].startswith(f"http://testserver/de{API}/{plural}/")


# ---- odd input ----------------------------------------------------------------------


async def test_nul_characters_are_invalid_not_errors(
    client: AsyncClient, editor: AuthFor, plural: str
) -> None:
    name = NAME[plural]
    search = await client.get(f"{API}/{plural}", params={"search": "\x00"})
    assert search.status_code == 400
    assert list(search.json()["data"]["params"]) == ["search"]
    status = await client.get(f"{API}/{plural}", params={"status": ["publish", "\x00"]})
    assert status.status_code == 400
    created = await client.post(
        f"{API}/{plural}", json={name: "a\x00b", "phone": "1"}, headers=editor.basic
    )
    assert created.status_code == 400
    assert list(created.json()["data"]["params"]) == [name]
    slug = await client.get(f"{API}/{plural}/by-slug/a%00b")
    assert slug.status_code == 404


async def test_dates_follow_the_site_time_zone(
    app: FastAPI, client: AsyncClient, editor: AuthFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_services(app).settings, "site_timezone", "Europe/Berlin")
    venue = await make(client, editor, "venues", date="2026-01-02 03:04:05")
    assert (venue["date"], venue["date_utc"]) == ("2026-01-02 03:04:05", "2026-01-02 02:04:05")
    summer = await make(client, editor, "venues", date_utc="2026-07-01 12:00:00")
    assert (summer["date"], summer["date_utc"]) == ("2026-07-01 14:00:00", "2026-07-01 12:00:00")
