"""/doc is a valid, complete and truthful OpenAPI 3.1 document; the namespace description
lists every route with its arguments."""

import re
import tomllib
from datetime import UTC, datetime, timedelta
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient, Response
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from tests.factories import API, Auth

PROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

# The route table (docs/design.md#url-space-and-discovery), methods per path relative to the namespace.
INTERFACE = {
    "/": {"get"},
    "/doc": {"get"},
    "/events": {"get", "post"},
    "/events/{id}": {"get", "delete", "post", "put", "patch"},
    "/events/by-slug/{slug}": {"get", "delete", "post", "put", "patch"},
    "/events/by-slug/{slug}/{day}": {"get"},
    "/events.ics": {"get"},
    "/events/{id}.ics": {"get"},
    "/events/by-slug/{slug}.ics": {"get"},
    "/venues": {"get", "post"},
    "/venues/{id}": {"get", "delete", "post", "put", "patch"},
    "/venues/by-slug/{slug}": {"get", "delete", "post", "put", "patch"},
    "/organizers": {"get", "post"},
    "/organizers/{id}": {"get", "delete", "post", "put", "patch"},
    "/organizers/by-slug/{slug}": {"get", "delete", "post", "put", "patch"},
    "/categories": {"get", "post"},
    "/categories/{id}": {"get", "delete", "post", "put", "patch"},
    "/tags": {"get", "post"},
    "/tags/{id}": {"get", "delete", "post", "put", "patch"},
    "/changes": {"get"},
    "/webhooks": {"get", "post"},
    "/webhooks/{id}": {"get", "patch", "delete"},
    "/webhooks/{id}/rotate-secret": {"post"},
    "/webhooks/{id}/test": {"post"},
    "/webhooks/{id}/deliveries": {"get"},
    "/webhooks/{id}/deliveries/{delivery}": {"get"},
    "/webhooks/{id}/deliveries/{delivery}/retry": {"post"},
    "/media": {"get", "post"},
    "/media/{id}": {"get", "delete", "post", "put", "patch"},
    "/attendees": {"get"},
    "/attendees.csv": {"get"},
    "/attendees/message": {"post"},
    "/attendees/{id}": {"get"},
    "/attendees/{id}/check-in": {"post"},
    "/tickets": {"get", "post"},
    "/tickets/{id}": {"get", "patch", "delete"},
    "/tickets/{id}/rsvp": {"post"},
}
# Uploads take a file: a multipart form or the raw image, not JSON or a urlencoded form.
UPLOADS = {("post", "/media")}


def wordpress_key(path: str) -> str:
    """The key WordPress gives a route of the namespace: its registered pattern."""
    path = "" if path == "/" else path.replace(".", r"\.")
    path = path.replace("{id}", r"(?P<id>\d+)").replace("{slug}", "(?P<slug>[^/]+)")
    path = path.replace("{delivery}", r"(?P<delivery>\d+)")
    path = path.replace("{day}", r"(?P<day>\d{4}-\d{2}-\d{2})")
    return f"/calendar/events/v1{path}"


@pytest.fixture
async def doc(client: AsyncClient) -> dict[str, Any]:
    response = await client.get(f"{API}/doc")
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


async def test_document_is_valid_openapi_31(doc: dict[str, Any]) -> None:
    assert doc["openapi"].startswith("3.1")
    validate(doc)


def _keys(node: Any) -> set[str]:
    """Every key of a JSON document, at any depth."""
    if isinstance(node, dict):
        return set(node).union(*(_keys(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_keys(value) for value in node))
    return set()


async def test_no_pydantic_keyword_reaches_the_schemas(doc: dict[str, Any]) -> None:
    # JSON Schema says minimum/maximum; a constraint behind a validator could reach the
    # document as Pydantic's own keyword, which OpenAPI linters refuse (Redocly's `struct`).
    assert not _keys(doc["components"]) & {"ge", "le", "gt", "lt"}


async def test_every_route_and_method_is_documented(doc: dict[str, Any]) -> None:
    documented = {path: set(item) for path, item in doc["paths"].items()}
    assert documented == INTERFACE
    assert doc["servers"][0]["url"] == f"http://testserver{API}"
    language_server = doc["servers"][1]
    assert language_server["url"] == "http://testserver/{language}/calendar/events/v1"
    assert language_server["variables"]["language"]["enum"] == ["en", "de", "sk"]


async def test_operations_document_parameters_bodies_and_errors(doc: dict[str, Any]) -> None:
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            where = f"{method.upper()} {path}"
            names = {p["name"] for p in operation.get("parameters", [])}
            # FastAPI's validation 422 is never ours; a reused Idempotency-Key's is.
            assert ("422" in operation["responses"]) == ("Idempotency-Key" in names), where
            assert "i18n_language" in names, where
            for parameter in operation.get("parameters", []):
                assert parameter.get("description"), (where, parameter["name"])
                assert parameter["schema"], (where, parameter["name"])
            assert {"400", "500", "503"} <= set(operation["responses"]), where
            for status, response in operation["responses"].items():
                if status >= "400":
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/ErrorEnvelope"}, where
            if method in ("post", "put", "patch") and path != "/" and (method, path) not in UPLOADS:
                content = operation["requestBody"]["content"]
                assert {"application/json", "application/x-www-form-urlencoded"} <= set(content)
            if method in ("post", "put", "patch", "delete"):
                assert "401" in operation["responses"], where
    event_list = {p["name"]: p for p in doc["paths"]["/events"]["get"]["parameters"]}
    assert {
        "page", "per_page", "start_date", "end_date", "starts_before", "starts_after",
        "ends_before", "ends_after", "strict_dates", "search", "categories", "tags", "venue",
        "organizer", "featured", "status", "geoloc", "geoloc_lat", "geoloc_lng", "include",
        "post_parent", "ticketed", "geoloc_radius", "near",
    } <= set(event_list)  # fmt: skip
    # A list near a point (docs/design.md#events-near-a-place): the parameters say what they do.
    for name in ("geoloc", "geoloc_lat", "geoloc_lng", "geoloc_radius", "near"):
        assert "ignored" not in event_list[name]["description"].lower(), name
    assert event_list["geoloc_lat"]["schema"]["maximum"] == 90
    assert event_list["geoloc_lng"]["schema"]["minimum"] == -180
    assert "distance" in event_list["orderby"]["schema"]["enum"]
    assert event_list["near"]["schema"]["maxLength"] == 200
    assert event_list["per_page"]["schema"]["default"] == 9
    # Lenient booleans and lists (docs/design.md#requests) are documented in every form they come in.
    # One JSON type per branch (generators type such a union), the boolean first.
    boolean, number, word = event_list["featured"]["schema"]["anyOf"]
    assert boolean == {"type": "boolean"}
    assert (number["type"], number["minimum"], number["maximum"]) == ("integer", 0, 1)
    for spelling in ("yes", "No", "ON", "off", " TRUE ", "false", "1", "0", ""):
        assert re.search(word["pattern"], spelling), spelling
    for other in ("maybe", "2", "yess"):
        assert not re.search(word["pattern"], other), other
    array, csv = event_list["include"]["schema"]["anyOf"][:2]
    assert array["type"] == "array"
    assert array["items"]["minimum"] == 1
    assert csv["type"] == "string"
    assert re.fullmatch(csv["pattern"].strip("^$"), "1, 2,3")
    assert event_list["per_page"]["schema"]["maximum"] == 100
    create = doc["paths"]["/events"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert create == {"$ref": "#/components/schemas/EventCreate"}
    create = doc["components"]["schemas"]["EventCreate"]
    assert set(create["required"]) == {"title", "start_date", "end_date"}
    assert not any("default" in create["properties"][name] for name in create["required"])
    envelope = doc["components"]["schemas"]["ErrorEnvelope"]
    assert envelope["required"] == ["code", "message", "data"]
    assert envelope["properties"]["data"] == {"$ref": "#/components/schemas/ErrorData"}
    assert "status" in doc["components"]["schemas"]["ErrorData"]["required"]
    term_create = doc["paths"]["/categories"]["post"]
    assert "parent" in doc["components"]["schemas"]["CategoryCreate"]["properties"]
    assert "201" in term_create["responses"]


def _walk(tree: Any) -> Any:
    """Every object in a JSON tree."""
    if isinstance(tree, dict):
        yield tree
        for value in tree.values():
            yield from _walk(value)
    elif isinstance(tree, list):
        for item in tree:
            yield from _walk(item)


async def test_generators_find_typed_parameters_credentials_and_names(
    doc: dict[str, Any],
) -> None:
    # No enum mixes JSON types (generators skip the operations that have one).
    for schema in _walk(doc):
        if isinstance(schema.get("enum"), list):
            kinds = {type(value) for value in schema["enum"]}
            assert len(kinds) == 1, schema
    schemes = doc["components"]["securitySchemes"]
    assert schemes["basicAuth"] == {**schemes["basicAuth"], "type": "http", "scheme": "basic"}
    assert schemes["bearerAuth"] == {**schemes["bearerAuth"], "type": "http", "scheme": "bearer"}
    # Reads: credentials optional (the document's default), unless the read needs a role
    # (test_first_hour_api.py); writes: required.
    assert doc["security"] == [{}, {"basicAuth": []}, {"bearerAuth": []}]
    ids = []
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            open_read = method == "get" and "x-almanac-role" not in operation
            if open_read or operation.get("x-almanac-anonymous"):  # an RSVP
                assert "security" not in operation, path
            else:
                assert operation["security"] == [{"basicAuth": []}, {"bearerAuth": []}], path
            ids.append(operation["operationId"])
    assert len(ids) == len(set(ids))
    assert doc["paths"]["/events/by-slug/{slug}"]["patch"]["operationId"] == "patch_events_by_slug"
    assert doc["paths"]["/events/{id}.ics"]["get"]["operationId"] == "get_events_by_id_ics"
    assert doc["paths"]["/"]["get"]["operationId"] == "get_namespace"
    # One language type, one post status type, one body per kind of write.
    language = {"$ref": "#/components/schemas/Language"}
    assert doc["paths"]["/tags"]["get"]["parameters"][0]["schema"] == language
    assert doc["components"]["schemas"]["Language"]["enum"] == ["en", "de", "sk"]
    assert doc["components"]["schemas"]["VenueUpdate"]["properties"]["status"]["$ref"] == (
        "#/components/schemas/PostStatus"
    )


def conforms(doc: dict[str, Any], response: Response, path: str, method: str) -> None:
    """The body matches the schema documented for this path, method and status."""
    documented = doc["paths"][path][method]["responses"][str(response.status_code)]
    schema = documented["content"]["application/json"]["schema"]
    validator = Draft202012Validator({**schema, "components": doc["components"]})
    errors = sorted(validator.iter_errors(response.json()), key=str)
    assert not errors, f"{method.upper()} {path} {response.status_code}: {errors[0].message}"


async def test_real_responses_conform_to_their_schemas(
    client: AsyncClient, doc: dict[str, Any], auth: Auth
) -> None:
    editor = await auth("editor")
    start = (datetime.now(UTC) + timedelta(days=3)).strftime("%Y-%m-%d %H:%M:%S")
    end = (datetime.now(UTC) + timedelta(days=3, hours=2)).strftime("%Y-%m-%d %H:%M:%S")
    venue = await client.post(
        f"{API}/venues", json={"venue": "Hall", "city": "Vienna"}, headers=editor.basic
    )
    conforms(doc, venue, "/venues", "post")
    organizer = await client.post(
        f"{API}/organizers", json={"organizer": "Org"}, headers=editor.basic
    )
    conforms(doc, organizer, "/organizers", "post")
    category = await client.post(f"{API}/categories", json={"name": "Music"}, headers=editor.basic)
    conforms(doc, category, "/categories", "post")
    created = await client.post(
        f"{API}/events",
        json={
            "title": "Doc event", "start_date": start, "end_date": end, "cost": "$5",
            "venue": venue.json()["id"], "organizer": [organizer.json()["id"]],
            "categories": [category.json()["id"]], "tags": "x", "image": "https://i.example/a.png",
        },
        headers=editor.basic,
    )  # fmt: skip
    conforms(doc, created, "/events", "post")
    event_id = created.json()["id"]
    await client.post(
        f"{API}/events",
        json={"title": "Protected", "start_date": start, "end_date": end, "password": "pw"},
        headers=editor.basic,
    )
    calls = [
        ("get", "/events", f"{API}/events", {}),
        ("get", "/events/{id}", f"{API}/events/{event_id}", {}),
        ("get", "/events/by-slug/{slug}", f"{API}/events/by-slug/{created.json()['slug']}", {}),
        ("get", "/venues", f"{API}/venues", {}),
        ("get", "/venues/{id}", f"{API}/venues/{venue.json()['id']}", {}),
        ("get", "/organizers", f"{API}/organizers", {}),
        ("get", "/organizers/{id}", f"{API}/organizers/{organizer.json()['id']}", {}),
        ("get", "/categories", f"{API}/categories", {}),
        ("get", "/categories/{id}", f"{API}/categories/{category.json()['id']}", {}),
        ("get", "/tags", f"{API}/tags", {"hide_empty": "0"}),
        ("get", "/events", f"{API}/events", {"per_page": "0"}),
        ("get", "/events/{id}", f"{API}/events/999999", {}),
        ("get", "/", API, {}),
    ]
    for method, path, url, params in calls:
        response = await client.request(method, url, params=params)
        conforms(doc, response, path, method)
    updated = await client.patch(
        f"{API}/events/{event_id}", json={"title": "Changed"}, headers=editor.basic
    )
    conforms(doc, updated, "/events/{id}", "patch")
    unauthorized = await client.post(f"{API}/events", json={})
    conforms(doc, unauthorized, "/events", "post")
    deleted = await client.delete(f"{API}/events/{event_id}", headers=editor.basic)
    conforms(doc, deleted, "/events/{id}", "delete")
    again = await client.delete(f"{API}/events/{event_id}", headers=editor.basic)
    conforms(doc, again, "/events/{id}", "delete")
    term_deleted = await client.delete(
        f"{API}/categories/{category.json()['id']}", headers=editor.basic
    )
    conforms(doc, term_deleted, "/categories/{id}", "delete")


async def test_namespace_description(client: AsyncClient) -> None:
    response = await client.get(API)
    assert response.status_code == 200
    body = response.json()
    assert body["namespace"] == "calendar/events/v1"
    assert body["_links"]["up"] == [{"href": "http://testserver/"}]
    routes = body["routes"]
    assert set(routes) == {wordpress_key(path) for path in INTERFACE}
    events = routes["/calendar/events/v1/events"]
    assert events["methods"] == ["GET", "POST"]
    assert events["_links"]["self"] == [{"href": f"http://testserver{API}/events"}]
    get_args = events["endpoints"][0]["args"]
    yesterday = (datetime.now(UTC) - timedelta(days=1)).date()
    assert get_args["start_date"]["default"] == f"{yesterday} 00:00:00"
    assert get_args["end_date"]["default"].endswith("23:59:59")
    assert get_args["per_page"] == {
        "required": False, "default": 9, "description": "Items per page, 1 to 100", "type": "integer",
    }  # fmt: skip
    assert get_args["include"]["type"] == ["array", "string"]
    assert get_args["include"]["items"] == {"type": "integer"}
    assert get_args["featured"]["type"] == "boolean"
    post_args = events["endpoints"][1]["args"]
    assert post_args["title"]["required"] is True
    assert post_args["description"]["required"] is False
    # Real types, unions as lists; required arguments carry no (computed) default.
    for name in ("start_date", "end_date"):
        assert post_args[name] == {
            **post_args[name],
            "required": True,
            "type": ["string", "integer"],
        }
        assert "default" not in post_args[name]
    for name in ("categories", "tags"):
        assert post_args[name]["type"] == ["integer", "string", "null", "array"]
    assert post_args["venue"]["type"] == ["integer", "string", "object", "null", "array"]
    assert post_args["organizer"]["type"] == ["integer", "string", "object", "null", "array"]
    assert post_args["image"]["type"] == ["integer", "string", "null"]
    assert post_args["cost"]["type"] == ["string", "number", "null", "array"]
    assert post_args["all_day"]["type"] == ["boolean", "null"]
    assert post_args["password"]["default"] == ""
    single = routes[wordpress_key("/events/{id}")]
    assert set(single["methods"]) == {"GET", "DELETE", "POST", "PUT", "PATCH"}
    assert "_links" not in single
    assert single["endpoints"][0]["args"]["id"] == {
        "required": True, "description": "Numeric ID of the record", "type": "integer",
    }  # fmt: skip
    # Methods that take the same arguments share an endpoint, as in WordPress.
    assert [e["methods"] for e in single["endpoints"]] == [
        ["GET"],
        ["POST", "PUT", "PATCH"],
        ["DELETE"],
    ]
    day = routes[r"/calendar/events/v1/events/by-slug/(?P<slug>[^/]+)/(?P<day>\d{4}-\d{2}-\d{2})"]
    assert day["methods"] == ["GET"]
    embed = (await client.get(API, params={"context": "embed"})).json()
    assert "endpoints" not in embed["routes"]["/calendar/events/v1/events"]
    other = await client.get(API, params={"namespace": "wp/v2"})
    assert other.status_code == 404
    assert other.json()["code"] == "rest_invalid_namespace"
    assert (await client.get(API, params={"context": "nonsense"})).status_code == 400
    german = await client.get(f"/de{API}")
    assert german.json()["routes"]["/calendar/events/v1/events"]["_links"]["self"] == [
        {"href": f"http://testserver/de{API}/events"}
    ]


async def test_conditional_requests_and_the_feed_are_documented(doc: dict[str, Any]) -> None:
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            headers = {p["name"] for p in operation["parameters"] if p["in"] == "header"}
            responses = operation["responses"]
            if method == "get":
                assert "If-None-Match" in headers, path
                assert "304" in responses, path
                assert {"ETag", "Cache-Control"} <= set(responses["200"]["headers"]), path
            elif "{" in path:  # a record's update or delete
                assert "If-Match" in headers, (method, path)
                assert "412" in responses, (method, path)
                answered = responses.get("200") or responses["201"]  # an RSVP's 201
                assert "ETag" in answered["headers"], (method, path)
            else:
                assert "If-Match" not in headers, (method, path)
    feed = doc["paths"]["/changes"]["get"]
    assert {p["name"] for p in feed["parameters"]} >= {"since", "per_page"}
    assert "rest_sync_token_expired" in feed["responses"]["410"]["description"]
    assert "/changes" in doc["info"]["description"]


async def test_one_version_everywhere(doc: dict[str, Any], app: FastAPI) -> None:
    """The package's version (pyproject.toml), on the docs page's document and the app."""
    declared = tomllib.loads(PROJECT.read_text())["project"]["version"]
    assert version("almanac") == declared
    assert doc["info"]["version"] == declared
    assert app.version == declared
