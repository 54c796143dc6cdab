"""Venues' coordinates through HTTP (docs/design.md#places, docs/api.md): where the body
shows them, password redaction, the write rules and their 400s in English and German, typed
coordinates winning over an address change, and the gazetteer's city on save (the geocoding
service after the commit: tests/api/test_venue_geocoding.py)."""

from typing import Any

import pytest
from httpx import AsyncClient

from tests.factories import API, Auth, AuthFor, create_post

VENUE_KEYS = [
    "id", "author", "status", "date", "date_utc", "modified", "modified_utc", "url", "venue",
    "description", "excerpt", "slug", "image", "address", "city", "country", "province",
    "state", "zip", "phone", "website", "stateprovince", "show_map", "show_map_link",
    "global_id", "global_id_lineage",
]  # fmt: skip
PLACED_KEYS = [
    *VENUE_KEYS[: VENUE_KEYS.index("show_map")], "geo_lat", "geo_lng", "geo_precision",
    *VENUE_KEYS[VENUE_KEYS.index("show_map") :],
]  # fmt: skip
# A city no gazetteer knows: a venue there has no coordinates until somebody types them.
NOWHERE = {"city": "Qwxzy Flats", "country": "Nowhere"}


async def venue(client: AsyncClient, who: AuthFor, **fields: Any) -> dict[str, Any]:
    return await create_post(client, who, "venues", **{"venue": "Hall", **fields})


async def patch(client: AsyncClient, who: AuthFor, venue_id: int, **fields: Any) -> dict[str, Any]:
    response = await client.patch(f"{API}/venues/{venue_id}", json=fields, headers=who.basic)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def place(body: dict[str, Any]) -> tuple[Any, Any, Any]:
    return body.get("geo_lat"), body.get("geo_lng"), body.get("geo_precision")


# ---- the body -----------------------------------------------------------------------


async def test_a_venue_without_coordinates_has_no_geo_keys(
    client: AsyncClient, editor: AuthFor
) -> None:
    body = await venue(client, editor, address="1 Long Road", **NOWHERE)
    assert list(body) == VENUE_KEYS
    single = (await client.get(f"{API}/venues/{body['id']}")).json()
    assert "geo_lat" not in single
    assert "geo_precision" not in single


async def test_typed_coordinates_follow_stateprovince_as_numbers(
    client: AsyncClient, editor: AuthFor
) -> None:
    body = await venue(client, editor, geo_lat="48.1486", geo_lng=17.1077, **NOWHERE)
    assert list(body) == PLACED_KEYS
    assert place(body) == (48.1486, 17.1077, "exact")
    response = await client.get(f"{API}/venues/{body['id']}")
    assert response.text.index('"stateprovince"') < response.text.index('"geo_lat":48.1486')
    assert response.text.index('"geo_precision":"exact"') < response.text.index('"json_ld"')
    listed = (await client.get(f"{API}/venues")).json()["venues"]
    assert place(listed[0]) == (48.1486, 17.1077, "exact")


async def test_an_events_venue_shows_its_coordinates(client: AsyncClient, editor: AuthFor) -> None:
    hall = await venue(client, editor, geo_lat=50.5, geo_lng=-3.25, **NOWHERE)
    event = await client.post(
        f"{API}/events",
        json={"title": "Gig", "start_date": "+1 day", "end_date": "+2 days", "venue": hall["id"]},
        headers=editor.basic,
    )
    assert event.status_code == 201
    assert place(event.json()["venue"]) == (50.5, -3.25, "exact")


async def test_a_protected_venue_shows_zero_coordinates_and_no_precision(
    client: AsyncClient, auth: Auth
) -> None:
    author = await auth("author")
    body = await venue(
        client, author, geo_lat=10.5, geo_lng=20.5, password="open sesame", **NOWHERE
    )
    assert place(body) == (10.5, 20.5, "exact")  # its author sees everything
    hidden = (await client.get(f"{API}/venues/{body['id']}")).json()
    hidden.pop("json_ld")
    assert list(hidden) == [key for key in PLACED_KEYS if key != "geo_precision"]
    assert (hidden["geo_lat"], hidden["geo_lng"]) == (0, 0)
    listed = (await client.get(f"{API}/venues")).json()["venues"][0]
    assert (listed["geo_lat"], listed["geo_lng"], "geo_precision" in listed) == (0, 0, False)
    shown = await client.get(f"{API}/venues/{body['id']}", params={"password": "open sesame"})
    assert place(shown.json()) == (10.5, 20.5, "exact")


async def test_the_document_describes_the_coordinates(client: AsyncClient) -> None:
    doc = (await client.get(f"{API}/doc")).json()
    schema = doc["components"]["schemas"]["Venue"]["properties"]
    for name in ("geo_lat", "geo_lng"):
        assert (schema[name]["type"], schema[name]["format"]) == ("number", "double")
    precision = schema["geo_precision"]
    enums = [option.get("enum") for option in precision.get("anyOf", [precision])]
    assert ["exact", "address", "city"] in enums
    written = doc["components"]["schemas"]["VenueCreate"]["properties"]
    assert {"geo_lat", "geo_lng"} <= set(written)


# ---- writes -------------------------------------------------------------------------


# Each refusal's message in English and German, for the parameter it names.
MESSAGES = {
    "pair": (
        "{name} is required with {other}: a point has both.",
        "{name} ist zusammen mit {other} erforderlich: Ein Punkt hat beide.",
    ),
    "range": (
        "{name} must be between -{bound} (inclusive) and {bound} (inclusive).",
        "{name} muss zwischen -{bound} und {bound} (jeweils einschließlich) liegen.",
    ),
    "finite": ("{name} must be a finite number.", "{name} muss eine endliche Zahl sein."),
    "number": ("{name} is not a number.", "{name} ist keine Zahl."),
}


@pytest.mark.parametrize(
    ("fields", "param", "why"),
    [
        ({"geo_lat": 48.1}, "geo_lng", "pair"),
        ({"geo_lng": "17"}, "geo_lat", "pair"),
        ({"geo_lat": 48.1, "geo_lng": ""}, "geo_lng", "pair"),
        ({"geo_lat": 90.5, "geo_lng": 0}, "geo_lat", "range"),
        ({"geo_lat": 0, "geo_lng": "-180.01"}, "geo_lng", "range"),
        ({"geo_lat": "NaN", "geo_lng": 0}, "geo_lat", "finite"),
        ({"geo_lat": 0, "geo_lng": "-inf"}, "geo_lng", "finite"),
        ({"geo_lat": "1e400", "geo_lng": 0}, "geo_lat", "finite"),
        ({"geo_lat": "north", "geo_lng": 0}, "geo_lat", "number"),
        ({"geo_lat": True, "geo_lng": 0}, "geo_lat", "number"),
        ({"geo_lat": "1_0", "geo_lng": 0}, "geo_lat", "number"),
    ],
)
async def test_bad_coordinates_are_a_400_naming_the_field(
    client: AsyncClient, editor: AuthFor, fields: dict[str, Any], param: str, why: str
) -> None:
    bound = 90 if param == "geo_lat" else 180
    other = "geo_lng" if param == "geo_lat" else "geo_lat"
    english, german = (text.format(name=param, other=other, bound=bound) for text in MESSAGES[why])
    existing = await venue(client, editor, **NOWHERE)
    for language, message in (("en", english), ("de", german)):
        headers = {**editor.basic, "Accept-Language": language}
        for method, url, payload in (
            ("POST", f"{API}/venues", {"venue": "Other", **fields}),
            ("PATCH", f"{API}/venues/{existing['id']}", fields),
        ):
            response = await client.request(method, url, json=payload, headers=headers)
            assert response.status_code == 400, response.text
            error = response.json()
            assert error["code"] == "rest_invalid_param"
            assert error["data"]["params"] == {param: message}
    after = (await client.get(f"{API}/venues/{existing['id']}")).json()
    assert "geo_lat" not in after  # nothing written
    assert (await client.get(f"{API}/venues")).json()["total"] == 1


async def test_slovak_messages_name_the_field(client: AsyncClient, editor: AuthFor) -> None:
    response = await client.post(
        f"{API}/venues",
        json={"venue": "Sieň", "geo_lat": "Infinity", "geo_lng": 200},
        headers={**editor.basic, "Accept-Language": "sk"},
    )
    assert response.status_code == 400
    params = response.json()["data"]["params"]
    assert params["geo_lat"] == "geo_lat musí byť konečné číslo."
    assert params["geo_lng"].startswith("geo_lng musí byť medzi -180")


async def test_the_bounds_themselves_are_accepted(client: AsyncClient, editor: AuthFor) -> None:
    body = await venue(client, editor, geo_lat=-90, geo_lng="180", **NOWHERE)
    assert place(body) == (-90, 180, "exact")
    body = await patch(client, editor, body["id"], geo_lat=" 90 ", geo_lng=-180.0)
    assert place(body) == (90, -180, "exact")


async def test_clearing_places_the_venue_again_from_its_city(
    client: AsyncClient, editor: AuthFor
) -> None:
    body = await venue(client, editor, city="Vienna", country="Austria", geo_lat=1, geo_lng=2)
    assert place(body) == (1, 2, "exact")
    cleared = await patch(client, editor, body["id"], geo_lat="", geo_lng="")
    lat, lng, precision = place(cleared)
    assert precision == "city"
    assert abs(lat - 48.21) < 0.1
    assert abs(lng - 16.37) < 0.1
    await patch(client, editor, body["id"], geo_lat=3, geo_lng=4, **NOWHERE)
    gone = await patch(client, editor, body["id"], geo_lat=None, geo_lng=None)
    assert list(gone) == VENUE_KEYS  # nowhere the gazetteer knows: no coordinates


async def test_typed_coordinates_win_over_an_address_change(
    client: AsyncClient, editor: AuthFor
) -> None:
    body = await venue(client, editor, city="Vienna", country="Austria", geo_lat=1, geo_lng=2)
    moved = await patch(client, editor, body["id"], city="Bratislava", country="Slovakia")
    assert place(moved) == (1, 2, "exact")
    replaced = await client.put(
        f"{API}/venues/{body['id']}",
        json={"venue": "Hall", "address": "Main Square 1", "city": "Paris"},
        headers=editor.basic,
    )
    assert place(replaced.json()) == (1, 2, "exact")


async def test_the_gazetteer_places_a_new_or_moved_venue_by_its_city(
    client: AsyncClient, editor: AuthFor
) -> None:
    body = await venue(client, editor, address="Hlavné nám. 1", city="Bratislava", country="Slovakia")  # fmt: skip
    lat, lng, precision = place(body)
    assert precision == "city"
    assert abs(lat - 48.15) < 0.1
    assert abs(lng - 17.11) < 0.1
    unmoved = await patch(client, editor, body["id"], phone="+421 2")
    assert place(unmoved) == (lat, lng, "city")
    moved = await patch(client, editor, body["id"], city="Košice")
    assert moved["geo_precision"] == "city"
    assert abs(moved["geo_lat"] - 48.72) < 0.1
    assert abs(moved["geo_lng"] - 21.26) < 0.1
    lost = await patch(client, editor, body["id"], **NOWHERE)
    assert list(lost) == VENUE_KEYS  # a city nobody knows: the old city's point is gone


async def test_an_inline_venue_of_an_event_takes_coordinates(
    client: AsyncClient, editor: AuthFor
) -> None:
    dates = {"start_date": "+1 day", "end_date": "+2 days"}
    typed = await client.post(
        f"{API}/events",
        json={
            "title": "A",
            **dates,
            "venue": {"venue": "Barn", "geo_lat": "47.5", "geo_lng": "19.04"},
        },  # fmt: skip
        headers=editor.basic,
    )
    assert typed.status_code == 201, typed.text
    assert place(typed.json()["venue"]) == (47.5, 19.04, "exact")
    by_city = await client.post(
        f"{API}/events",
        json={"title": "B", **dates, "venue": {"venue": "Loft", "city": "Vienna"}},
        headers=editor.basic,
    )
    assert by_city.json()["venue"]["geo_precision"] == "city"
    half = await client.post(
        f"{API}/events",
        json={"title": "C", **dates, "venue": {"venue": "Shed", "geo_lat": 1}},
        headers=editor.basic,
    )
    assert half.status_code == 400
    assert "venue" in half.json()["data"]["params"]


async def test_coordinates_written_back_as_read_are_not_typed(
    client: AsyncClient, editor: AuthFor
) -> None:
    body = await venue(client, editor, city="Vienna", country="Austria")
    assert body["geo_precision"] == "city"
    again = await patch(client, editor, body["id"], geo_lat=body["geo_lat"], geo_lng=body["geo_lng"])  # fmt: skip
    assert place(again) == place(body)
    typed = await patch(client, editor, body["id"], geo_lat=48.2, geo_lng=16.4)
    assert place(typed) == (48.2, 16.4, "exact")
