"""What the schemathesis runs (tests/live/test_fuzz.py, `make fuzz`) found, pinned through HTTP:
odd input is a 400 in the error envelope, never a 5xx, and the document promises only what
the server accepts."""

import base64
import json
import re
from typing import Any

import pytest
from httpx import AsyncClient, Response

from tests.api.test_openapi import conforms
from tests.factories import API, Auth

EVENT = {"title": "Fuzzed", "start_date": "2030-01-01 10:00:00", "end_date": "2030-01-01 12:00"}


def refused(response: Response, name: str | None = None) -> None:
    """A 400 in the reference envelope (naming `name` when given)."""
    assert response.status_code == 400, response.text
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    body = response.json()
    assert body["data"]["status"] == 400
    if name is not None:
        assert body["code"] == "rest_invalid_param", body
        assert name in body["data"]["params"], body


@pytest.fixture
async def editor(auth: Auth) -> dict[str, str]:
    return (await auth("editor")).basic


async def test_multipart_body_without_boundary_is_400(
    client: AsyncClient, editor: dict[str, str]
) -> None:
    for path in ("/categories", "/venues", "/events"):
        response = await client.post(
            f"{API}{path}",
            content=b'{"name": "x"}',
            headers={**editor, "Content-Type": "multipart/form-data"},
        )
        refused(response)
        assert response.json()["code"] == "rest_invalid_body"


async def test_multipart_form_body_is_read(client: AsyncClient, editor: dict[str, str]) -> None:
    response = await client.post(
        f"{API}/venues", data={"venue": "Form hall", "city": "Brno"}, files={"x": b"ignored"}
    )
    assert response.status_code == 401  # anonymous: the body is read, the caller refused
    response = await client.post(
        f"{API}/venues",
        data={"venue": "Form hall", "city": "Brno"},
        files={"x": b"ignored"},
        headers=editor,
    )
    assert response.status_code == 201, response.text
    assert (response.json()["venue"], response.json()["city"]) == ("Form hall", "Brno")


async def test_repeated_keys_for_scalars_are_400(client: AsyncClient) -> None:
    """A repeated query key arrives as a list; where one value belongs that is invalid."""
    for path, name in (
        ("/events", "geoloc_lng"),
        ("/events", "geoloc_lat"),
        ("/events", "search"),
        ("/events", "post_parent"),
        ("/events", "start_date"),
        ("/venues", "search"),
        ("/categories", "parent"),
        ("/tags", "search"),
    ):
        response = await client.get(f"{API}{path}?{name}=null&{name}=null")
        refused(response, name)


@pytest.mark.parametrize(
    ("path", "base"),
    [
        ("/events", EVENT),
        ("/venues", {"venue": "Hall"}),
        ("/organizers", {"organizer": "Org"}),
        ("/categories", {"name": "Cat"}),
    ],
)
async def test_wrong_json_types_are_400(
    client: AsyncClient, editor: dict[str, str], path: str, base: dict[str, Any]
) -> None:
    for name in base:
        for value in ([["nested"]], {"an": "object"}, [{"a": 1}]):
            response = await client.post(f"{API}{path}", json={**base, name: value}, headers=editor)
            refused(response, name)


async def test_dates_beyond_the_calendar_are_400(
    client: AsyncClient, editor: dict[str, str]
) -> None:
    """Instants that would leave years 1-9999 once moved to a time zone (a 500 before)."""
    edges = (
        "0001-01-01T00:00:00+14:00",
        "9999-12-31T23:59:59-14:00",
        "0001-01-01 00:00:00",
        "-62135596800",
        253402300799,
    )
    for value in edges:
        response = await client.post(
            f"{API}/events", json={**EVENT, "start_date": value}, headers=editor
        )
        refused(response, "start_date")
        response = await client.post(
            f"{API}/venues", json={"venue": "Old hall", "date": value}, headers=editor
        )
        refused(response, "date")
        response = await client.get(f"{API}/events", params={"start_date": str(value)})
        refused(response, "start_date")
    far = await client.post(
        f"{API}/events",
        json={**EVENT, "start_date": "9999-12-01 10:00", "end_date": "9999-12-02 10:00"},
        headers=editor,
    )
    assert far.status_code == 201, far.text
    assert far.json()["end_date"] == "9999-12-02 10:00:00"


async def test_time_zone_naming_a_directory_is_400(
    client: AsyncClient, editor: dict[str, str]
) -> None:
    """`Europe` is a directory of the zone database: an OSError, once answered as a 503."""
    for zone in ("Europe", "America", "zone.tab"):
        response = await client.post(
            f"{API}/events", json={**EVENT, "timezone": zone}, headers=editor
        )
        refused(response, "timezone")


async def test_non_ascii_digits_are_not_numbers(
    client: AsyncClient, editor: dict[str, str]
) -> None:
    """`"²".isdigit()` is true but int("²") fails; huge digit strings are no IDs either."""
    response = await client.post(f"{API}/events", json={**EVENT, "image": "²"}, headers=editor)
    refused(response, "image")
    response = await client.post(
        f"{API}/categories", json={"name": "Sup", "parent": "²"}, headers=editor
    )
    refused(response, "parent")
    for name in ("include", "venue", "categories", "tags", "post_parent", "page"):
        for value in ("²", "١٢", "9" * 40):
            response = await client.get(f"{API}/events", params={name: value})
            if name in ("categories", "tags") and not value.isascii():
                assert response.status_code == 400  # an unknown slug
            else:
                refused(response, name)
    response = await client.post(
        f"{API}/events", json={**EVENT, "categories": "9" * 40}, headers=editor
    )
    refused(response, "categories")
    response = await client.post(
        f"{API}/events", json={**EVENT, "organizer": ["9" * 40]}, headers=editor
    )
    assert response.status_code == 400


async def test_query_parameters_are_documented_short_enough_to_send(
    client: AsyncClient,
) -> None:
    """The HTTP server refuses request lines over 64 KiB with a plain-text 400 of its own, so
    no documented query value may come near that (a 100,000-character maximum did)."""
    doc = (await client.get(f"{API}/doc")).json()

    def strings(schema: Any) -> list[dict[str, Any]]:
        found = []
        if isinstance(schema, dict):
            kinds = schema.get("type")
            if kinds == "string" or (isinstance(kinds, list) and "string" in kinds):
                found.append(schema)
            for value in schema.values():
                found.extend(strings(value))
        elif isinstance(schema, list):
            for value in schema:
                found.extend(strings(value))
        return found

    for path, item in doc["paths"].items():
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                if parameter["in"] != "query":
                    continue
                where = (method, path, parameter["name"])
                # A query string cannot say null: fuzzers sent "null" for such parameters.
                assert "null" not in json.dumps(parameter["schema"]), where
                for schema in strings(parameter["schema"]):
                    assert "enum" in schema or schema.get("maxLength", 10**6) <= 1000, where
                arrays = [parameter["schema"], *parameter["schema"].get("anyOf", [])]
                for schema in arrays:
                    if schema.get("type") == "array":
                        assert schema["maxItems"] <= 20, where


async def test_deleting_a_category_whose_child_is_named_like_its_new_sibling(
    client: AsyncClient, editor: dict[str, str]
) -> None:
    """Children move up to the deleted category's parent, also next to a category of the
    same name (it was a unique violation, a 500, then a 400): names need not be unique."""

    async def category(name: str, parent: int = 0) -> int:
        response = await client.post(
            f"{API}/categories", json={"name": name, "parent": parent}, headers=editor
        )
        assert response.status_code == 201, response.text
        term_id: int = response.json()["id"]
        return term_id

    music = await category("Music")
    child = await category("Jazz", music)
    root_jazz = await category("jazz")
    response = await client.delete(f"{API}/categories/{music}", headers=editor)
    assert response.status_code == 200
    assert (await client.get(f"{API}/categories/{music}")).status_code == 404
    moved = (await client.get(f"{API}/categories/{child}")).json()
    assert (moved["parent"], moved["name"], moved["slug"]) == (0, "Jazz", "jazz")
    assert (await client.get(f"{API}/categories/{root_jazz}")).json()["slug"] == "jazz-2"


async def test_deleting_a_category_moves_children_up(
    client: AsyncClient, editor: dict[str, str]
) -> None:
    async def category(name: str, parent: int = 0) -> int:
        response = await client.post(
            f"{API}/categories", json={"name": name, "parent": parent}, headers=editor
        )
        assert response.status_code == 201, response.text
        term_id: int = response.json()["id"]
        return term_id

    top = await category("Arts")
    middle = await category("Stage", top)
    same_name = await category("Stage", middle)  # named like its parent: no clash once it goes
    other = await category("Opera", middle)
    response = await client.delete(f"{API}/categories/{middle}", headers=editor)
    assert response.status_code == 200, response.text
    assert (await client.get(f"{API}/categories/{middle}")).status_code == 404
    for term_id in (same_name, other):
        assert (await client.get(f"{API}/categories/{term_id}")).json()["parent"] == top
    response = await client.delete(f"{API}/categories/{top}", headers=editor)
    assert response.status_code == 200, response.text
    for term_id in (same_name, other):
        assert (await client.get(f"{API}/categories/{term_id}")).json()["parent"] == 0


async def test_documented_headers_and_throttling(
    client: AsyncClient, editor: dict[str, str]
) -> None:
    """201 documents Location; every operation that reads credentials documents the 429 of
    too many failed sign-ins, with Retry-After, as 503 does."""
    doc = (await client.get(f"{API}/doc")).json()
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            where = (method, path)
            assert "Retry-After" in responses["503"]["headers"], where
            if "401" in responses:
                assert "Retry-After" in responses["429"]["headers"], where
            if "201" in responses:
                assert "Location" in responses["201"]["headers"], where
    created = await client.post(f"{API}/tags", json={"name": "Located"}, headers=editor)
    assert created.headers["Location"] == created.json()["urls"]["self"]
    wrong = {"Authorization": "Basic " + base64.b64encode(b"nobody:wrong").decode()}
    for _ in range(10):
        assert (await client.get(f"{API}/tags", headers=wrong)).status_code == 401
    throttled = await client.get(f"{API}/tags", headers=wrong)
    assert throttled.status_code == 429
    conforms(doc, throttled, "/tags", "get")
    assert int(throttled.headers["Retry-After"]) >= 1


def resolved(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """`schema`, or the component it refers to."""
    if "$ref" not in schema:
        return schema
    found: dict[str, Any] = doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return found


def body_schema(doc: dict[str, Any], path: str) -> dict[str, Any]:
    """The JSON body a POST to `path` documents (a component: `VenueCreate`, ...)."""
    content = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    return resolved(doc, content["schema"])


async def test_documented_parameter_schemas_hold(
    client: AsyncClient, editor: dict[str, str]
) -> None:
    """What /doc calls valid the server accepts: lenient booleans, statuses, websites, lists
    as arrays or comma-separated strings (found with schemathesis' positive_data_acceptance)."""
    doc = (await client.get(f"{API}/doc")).json()
    venue = body_schema(doc, "/venues")["properties"]
    boolean, number, word = venue["show_map"]["anyOf"]
    spellings = ["true", "FALSE", " Yes ", "no", "ON", "off", "1", "0", ""]
    assert all(re.search(word["pattern"], spelling) for spelling in spellings)
    values = [True, False, number["minimum"], number["maximum"], *spellings]
    for count, value in enumerate(values):
        response = await client.post(
            f"{API}/venues",
            json={"venue": f"Flag hall {count}", "show_map": value},
            headers=editor,
        )
        assert response.status_code == 201, (value, response.text)
        truthy = str(value).strip().lower() in ("true", "1", "yes", "on")
        assert response.json()["show_map"] is truthy, value
    statuses = resolved(doc, venue["status"])["enum"]
    for status in statuses:
        response = await client.post(
            f"{API}/venues",
            json={"venue": f"Status hall {status}", "status": status},
            headers=editor,
        )
        assert response.status_code == 201, (status, response.text)
    assert venue["venue"]["minLength"] == 1
    pattern = re.compile(venue["website"]["pattern"])
    for website in (
        "",
        "https://example.org/a?b=1",
        " http://x.test ",
        "ftp://x",
        "https://",
        "x y",
    ):
        response = await client.post(
            f"{API}/venues", json={"venue": "Web hall", "website": website}, headers=editor
        )
        assert (response.status_code == 201) is bool(pattern.search(website)), website
    event = body_schema(doc, "/events")
    assert resolved(doc, event["properties"]["status"])["enum"] == statuses
    listing = {p["name"]: p["schema"] for p in doc["paths"]["/events"]["get"]["parameters"]}
    array, csv = listing["status"]["anyOf"][:2]
    # A list also takes `any` (every status the caller may see), which a write does not.
    assert resolved(doc, array["items"])["enum"] == [*statuses, "any"]
    assert re.search(csv["pattern"], "publish, draft")
    assert re.search(csv["pattern"], "any")
    assert (
        await client.get(f"{API}/events", params={"status": "publish, draft"}, headers=editor)
    ).status_code == 200
    assert re.search(listing["include"]["anyOf"][1]["pattern"], "1, 2")
    assert (await client.get(f"{API}/events", params={"include": "1, 2"})).status_code == 200
    assert body_schema(doc, "/categories")["properties"]["parent"]["minimum"] == 0


async def test_a_page_past_any_offset_is_400(client: AsyncClient) -> None:
    """The largest documented page times per_page overflowed the database's bigint offset;
    it is now beyond the lists' depth bound (docs/design.md, Limits) and refused unread."""
    last = 2**62 - 1
    for path in ("/events", "/venues", "/organizers", "/categories", "/tags"):
        response = await client.get(f"{API}{path}", params={"page": last, "per_page": 100})
        assert response.status_code == 400, response.text
        assert list(response.json()["data"]["params"]) == ["page"]


async def test_nul_inside_inline_venues_and_organizers_is_400(
    client: AsyncClient, editor: dict[str, str]
) -> None:
    """PostgreSQL text cannot hold NUL; the check looked at top-level values only, so a NUL in
    an inline venue or organizer reached the database (500)."""
    for name, value in (
        ("venue", {"venue": "Inline hall", "city": "a\x00b"}),
        ("venue", {"venue": "\x00"}),
        ("organizer", [{"organizer": "Inline org", "email": "\x00"}]),
        ("organizer", {"organizer": "Inline org", "phone": "\x00"}),
        ("categories", ["ok", "no\x00"]),
        ("cost", ["5", "\x00"]),
    ):
        response = await client.post(f"{API}/events", json={**EVENT, name: value}, headers=editor)
        refused(response, name)


async def test_linked_venue_and_organizer_forms_are_documented(
    client: AsyncClient, editor: dict[str, str]
) -> None:
    """Every documented form of `venue` / `organizer` in an event write is accepted, inline
    records included (the document gave them no shape, so the fuzzer never built one)."""
    doc = (await client.get(f"{API}/doc")).json()
    body = body_schema(doc, "/events")
    venue_forms = body["properties"]["venue"]["anyOf"]
    inline = next(form for form in venue_forms if form.get("required") == ["venue"])
    assert {"city", "address", "show_map"} <= set(inline["properties"])
    organizer_forms = body["properties"]["organizer"]["anyOf"]
    assert any(form.get("required") == ["organizer"] for form in organizer_forms)
    hall = (await client.post(f"{API}/venues", json={"venue": "Hall"}, headers=editor)).json()
    orgs = [
        (await client.post(f"{API}/organizers", json={"organizer": name}, headers=editor)).json()
        for name in ("One", "Two")
    ]
    for venue in (0, "", None, [], hall["id"], str(hall["id"]), {"id": hall["id"]}, [hall["id"]]):
        response = await client.post(
            f"{API}/events", json={**EVENT, "venue": venue}, headers=editor
        )
        assert response.status_code == 201, (venue, response.text)
    inline_venue = {"venue": "Inline hall", "city": "Graz", "show_map": "yes"}
    response = await client.post(
        f"{API}/events", json={**EVENT, "venue": inline_venue}, headers=editor
    )
    assert response.status_code == 201, response.text
    assert response.json()["venue"]["city"] == "Graz"
    ids = [org["id"] for org in orgs]
    for organizer in (ids, f"{ids[0]}, {ids[1]}", [{"id": ids[0]}, {"organizer": "Inline org"}]):
        response = await client.post(
            f"{API}/events", json={**EVENT, "organizer": organizer}, headers=editor
        )
        assert response.status_code == 201, (organizer, response.text)
        assert len(response.json()["organizer"]) == 2
