"""GET /events near a point: the circle (inside, outside, on its edge), the distance of each
event, the order by distance, with every other filter and the paging; `geoloc`; what a point
or a radius may not be (docs/design.md#events-near-a-place)."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient, Response
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.app_services import app_services
from app.core.rules.geography import Point
from app.events.repository import list_query
from app.geo.distance import distance_km
from app.models import Venue
from tests.factories import API, AuthFor, create_post

BRATISLAVA = Point(48.1486, 17.1077)
DEVIN = Point(48.1744, 16.9846)  # 9.5 km from Bratislava's centre
VIENNA = Point(48.2082, 16.3738)  # 55 km
BUDAPEST = Point(47.4979, 19.0402)  # 161 km
AT_BRATISLAVA = {"geoloc_lat": BRATISLAVA.lat, "geoloc_lng": BRATISLAVA.lng}


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def day(days: int, hour: int = 10) -> datetime:
    start = datetime.now(UTC).replace(hour=hour, minute=0, second=0, microsecond=0)
    return (start + timedelta(days=days)).replace(tzinfo=None)


async def venue(
    client: AsyncClient, db: AsyncSession, who: AuthFor, name: str, point: Point | None
) -> int:
    """A venue, at `point` (written to the table: what places it is the venues' API's)."""
    body = await create_post(client, who, "venues", venue=name, city=name)
    if point is not None:
        located = update(Venue).where(Venue.id == body["id"])
        await db.execute(located.values(geo_lat=point.lat, geo_lng=point.lng))
        await db.commit()
    venue_id: int = body["id"]
    return venue_id


async def event(
    client: AsyncClient, who: AuthFor, title: str, start: datetime, **fields: Any
) -> int:
    payload = {
        "title": title,
        "start_date": stamp(start),
        "end_date": stamp(start + timedelta(hours=2)),
        **fields,
    }
    response = await client.post(f"{API}/events", json=payload, headers=who.basic)
    assert response.status_code == 201, response.text
    event_id: int = response.json()["id"]
    return event_id


async def listed(client: AsyncClient, **params: Any) -> Response:
    response = await client.get(f"{API}/events", params=params)
    assert response.status_code == 200, response.text
    return response


async def titles(client: AsyncClient, **params: Any) -> list[str]:
    return [item["title"] for item in (await listed(client, **params)).json()["events"]]


@pytest.fixture
async def cities(client: AsyncClient, db: AsyncSession, editor: AuthFor) -> dict[str, int]:
    """An event at each of Bratislava, Devín, Vienna, Budapest, a venue without a point and
    none at all; Bratislava's the latest, Budapest's the first."""
    places = {"Bratislava": BRATISLAVA, "Devin": DEVIN, "Vienna": VIENNA, "Budapest": BUDAPEST}
    venues = {name: await venue(client, db, editor, name, point) for name, point in places.items()}
    venues["Nowhere"] = await venue(client, db, editor, "Nowhere", None)
    for offset, name in enumerate(["Budapest", "Vienna", "Nowhere", "Devin", "Bratislava"]):
        await event(client, editor, f"In {name}", day(1 + offset), venue=venues[name])
    await event(client, editor, "No venue", day(2, hour=12))
    return venues


async def test_a_list_near_a_point_has_the_events_within_the_radius(
    client: AsyncClient, cities: dict[str, int]
) -> None:
    near = await listed(client, **AT_BRATISLAVA, geoloc_radius=100)
    body = near.json()
    assert [e["title"] for e in body["events"]] == ["In Vienna", "In Devin", "In Bratislava"]
    assert body["total"] == 3
    # Each event's venue distance, in km to the metre, as the last key of its body.
    points = {"In Vienna": VIENNA, "In Devin": DEVIN, "In Bratislava": BRATISLAVA}
    for item in body["events"]:
        assert list(item)[-1] == "distance"
        assert item["distance"] == round(distance_km(BRATISLAVA, points[item["title"]]), 3)
    assert body["events"][0]["distance"] == pytest.approx(55.0, abs=0.5)
    assert body["events"][2]["distance"] == 0.0
    # Wider, Budapest too; the default radius (GEOFENCE_RADIUS, 25 km) only the city.
    assert "In Budapest" in await titles(client, **AT_BRATISLAVA, geoloc_radius=200)
    assert await titles(client, **AT_BRATISLAVA) == ["In Devin", "In Bratislava"]
    assert await titles(client, geoloc_lat=VIENNA.lat, geoloc_lng=VIENNA.lng) == ["In Vienna"]


async def test_a_venue_exactly_on_the_radius_is_inside(
    client: AsyncClient, cities: dict[str, int]
) -> None:
    edge = distance_km(BRATISLAVA, VIENNA)
    assert "In Vienna" in await titles(client, **AT_BRATISLAVA, geoloc_radius=repr(edge))
    assert "In Vienna" not in await titles(client, **AT_BRATISLAVA, geoloc_radius=edge - 0.001)
    # The same along a meridian and across the antimeridian's neighbourhood alike: a point
    # due north of the centre, at the radius' latitude.
    north = Point(BRATISLAVA.lat + 0.5, BRATISLAVA.lng)
    radius = distance_km(BRATISLAVA, north)
    found = await titles(client, geoloc_lat=north.lat, geoloc_lng=north.lng, geoloc_radius=radius)
    assert "In Bratislava" in found


async def test_plain_lists_and_single_reads_have_no_distance(
    client: AsyncClient, cities: dict[str, int]
) -> None:
    plain = (await listed(client)).json()["events"]
    assert len(plain) == 6
    assert all("distance" not in item for item in plain)
    one = await client.get(f"{API}/events/{plain[0]['id']}")
    assert "distance" not in one.json()
    # A radius alone asks for no point: the plain list.
    assert len((await listed(client, geoloc_radius=10)).json()["events"]) == 6


async def test_order_by_distance_nearest_first_then_by_start(
    client: AsyncClient, cities: dict[str, int], editor: AuthFor
) -> None:
    # A second event in Vienna, earlier than the first: ties go by start date, then ID.
    await event(client, editor, "Early Vienna", day(1, hour=8), venue=cities["Vienna"])
    params = {**AT_BRATISLAVA, "geoloc_radius": 500, "orderby": "distance"}
    nearest = await titles(client, **params)
    assert nearest == ["In Bratislava", "In Devin", "Early Vienna", "In Vienna", "In Budapest"]
    farthest = await titles(client, **params, order="desc")
    assert farthest == list(reversed(nearest))
    distances = [e["distance"] for e in (await listed(client, **params)).json()["events"]]
    assert distances == sorted(distances)


async def test_a_near_list_keeps_every_other_filter(
    client: AsyncClient, cities: dict[str, int], editor: AuthFor
) -> None:
    category = await client.post(f"{API}/categories", json={"name": "Opera"}, headers=editor.basic)
    organizer = await create_post(client, editor, "organizers", organizer="Staatsoper")
    opera = {"categories": [category.json()["id"]], "organizer": [organizer["id"]]}
    await event(client, editor, "Opera Vienna", day(3, 20), venue=cities["Vienna"], **opera)
    await event(client, editor, "Opera Budapest", day(3, 20), venue=cities["Budapest"], **opera)
    draft = await event(client, editor, "Draft Devin", day(4), venue=cities["Devin"])
    await client.post(f"{API}/events/{draft}", json={"status": "draft"}, headers=editor.basic)
    near = {**AT_BRATISLAVA, "geoloc_radius": 100}
    assert await titles(client, **near, categories="opera") == ["Opera Vienna"]
    assert await titles(client, **near, organizer=organizer["id"]) == ["Opera Vienna"]
    assert await titles(client, **near, search="opera") == ["Opera Vienna"]
    assert await titles(client, **near, venue=cities["Devin"]) == ["In Devin"]
    assert await titles(client, **near, venue=cities["Budapest"]) == []
    # The date window: only what starts from the fourth day on.
    later = await titles(client, **near, start_date=stamp(day(4, 0)))
    assert later == ["In Devin", "In Bratislava"]
    # Statuses: an editor asks for drafts near the point.
    response = await client.get(
        f"{API}/events", params={**near, "status": "draft"}, headers=editor.basic
    )
    assert [e["title"] for e in response.json()["events"]] == ["Draft Devin"]
    assert response.json()["events"][0]["distance"] > 9


async def test_a_near_list_pages_with_its_totals_and_links(
    client: AsyncClient, cities: dict[str, int]
) -> None:
    params = {**AT_BRATISLAVA, "geoloc_radius": 100, "orderby": "distance", "per_page": 2}
    first = await listed(client, **params)
    body = first.json()
    assert [e["title"] for e in body["events"]] == ["In Bratislava", "In Devin"]
    assert (body["total"], body["total_pages"]) == (3, 2)
    assert first.headers["X-WP-Total"] == "3"
    assert first.headers["X-WP-TotalPages"] == "2"
    following = body["next_rest_url"]
    for kept in (
        "geoloc_lat=48.1486",
        "geoloc_lng=17.1077",
        "geoloc_radius=100",
        "orderby=distance",
    ):
        assert kept in following
        assert kept in body["rest_url"]
        assert kept in first.headers["Link"]
    second = await client.get(following)
    assert [e["title"] for e in second.json()["events"]] == ["In Vienna"]
    assert second.json()["events"][0]["distance"] == pytest.approx(55.0, abs=0.5)
    # The calendar feed of the list keeps the point too.
    assert "geoloc_lat=48.1486" in first.headers["Link"].split("text/calendar")[0]


async def test_geoloc_tells_events_with_a_located_venue_from_the_others(
    client: AsyncClient, cities: dict[str, int], db: AsyncSession, editor: AuthFor
) -> None:
    located = await titles(client, geoloc=1)
    assert located == ["In Budapest", "In Vienna", "In Devin", "In Bratislava"]
    assert await titles(client, geoloc="true") == located
    assert await titles(client, geoloc=0) == ["No venue", "In Nowhere"]
    # A protected venue's place is redacted: no list finds it by its point.
    await client.post(
        f"{API}/venues/{cities['Devin']}", json={"password": "secret"}, headers=editor.basic
    )
    assert "In Devin" not in await titles(client, geoloc=1)
    assert "In Devin" not in await titles(client, **AT_BRATISLAVA)
    assert "In Devin" in await titles(client, geoloc=0)


async def test_the_calendar_feed_near_a_point(client: AsyncClient, cities: dict[str, int]) -> None:
    feed = await client.get("/calendar/events/v1/events.ics", params=AT_BRATISLAVA)
    assert feed.status_code == 200
    assert "In Bratislava" in feed.text
    assert "In Devin" in feed.text
    assert "In Vienna" not in feed.text


def notes(response: Response) -> dict[str, str]:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    params: dict[str, str] = body["data"]["params"]
    return params


@pytest.mark.parametrize(
    ("params", "named", "says"),
    [
        ({"geoloc_lat": "48.1"}, "geoloc_lng", "geoloc_lng is required with geoloc_lat"),
        ({"geoloc_lng": "17.1"}, "geoloc_lat", "geoloc_lat is required with geoloc_lng"),
        ({"geoloc_lat": "91", "geoloc_lng": "0"}, "geoloc_lat", "less than or equal to 90"),
        ({"geoloc_lat": "-90.5", "geoloc_lng": "0"}, "geoloc_lat", "greater than or equal to -90"),
        ({"geoloc_lat": "0", "geoloc_lng": "180.1"}, "geoloc_lng", "less than or equal to 180"),
        ({"geoloc_lat": "north", "geoloc_lng": "0"}, "geoloc_lat", "not a number"),
        ({"geoloc_lat": "nan", "geoloc_lng": "0"}, "geoloc_lat", "greater than or equal"),
        ({**AT_BRATISLAVA, "geoloc_radius": "0"}, "geoloc_radius", "greater than 0"),
        ({**AT_BRATISLAVA, "geoloc_radius": "-5"}, "geoloc_radius", "at most 500"),
        ({**AT_BRATISLAVA, "geoloc_radius": "500.5"}, "geoloc_radius", "at most 500 (km)"),
        ({**AT_BRATISLAVA, "geoloc_radius": "inf"}, "geoloc_radius", "at most 500"),
        ({**AT_BRATISLAVA, "geoloc_radius": "far"}, "geoloc_radius", "not a number"),
        ({"orderby": "distance"}, "orderby", "orderby=distance needs a point"),
        ({"geoloc": "maybe"}, "geoloc", "boolean"),
    ],
)
async def test_what_a_point_or_radius_may_not_be(
    client: AsyncClient, params: dict[str, Any], named: str, says: str
) -> None:
    found = notes(await client.get(f"{API}/events", params=params))
    assert named in found, found
    assert says in found[named]


async def test_the_largest_radius_is_allowed(client: AsyncClient, cities: dict[str, int]) -> None:
    everything = await titles(client, **AT_BRATISLAVA, geoloc_radius=500)
    assert sorted(everything) == ["In Bratislava", "In Budapest", "In Devin", "In Vienna"]


async def test_a_half_point_is_named_with_the_other_refusals(client: AsyncClient) -> None:
    found = notes(
        await client.get(f"{API}/events", params={"geoloc_lat": "48", "orderby": "distance"})
    )
    assert list(found) == ["geoloc_lng", "orderby"]


@pytest.mark.parametrize(
    ("language", "pair", "radius"),
    [
        ("de", "ist zusammen mit geoloc_lat erforderlich", "muss größer als 0 und höchstens 500"),
        ("sk", "je povinný spolu s geoloc_lat", "musí byť väčší ako 0 a najviac 500"),
    ],
)
async def test_the_refusals_in_the_request_language(
    client: AsyncClient, language: str, pair: str, radius: str
) -> None:
    headers = {"Accept-Language": language}
    half = await client.get(f"{API}/events", params={"geoloc_lat": "48"}, headers=headers)
    assert pair in notes(half)["geoloc_lng"]
    wide = {**AT_BRATISLAVA, "geoloc_radius": "900", "i18n_language": language}
    assert radius in notes(await client.get(f"{API}/events", params=wide))["geoloc_radius"]
    ordered = await client.get(f"{API}/events", params={"orderby": "distance"}, headers=headers)
    assert "orderby=distance" in notes(ordered)["orderby"]


# ---- the venue list near a point ---------------------------------------------------------


async def venues(client: AsyncClient, **params: Any) -> Response:
    response = await client.get(f"{API}/venues", params=params)
    assert response.status_code == 200, response.text
    return response


async def test_the_venue_list_near_a_point(client: AsyncClient, cities: dict[str, int]) -> None:
    near = await venues(client, **AT_BRATISLAVA, geoloc_radius=100)
    body = near.json()
    # Newest first, as every venue list: the ones within 100 km, each with its distance last.
    assert [v["venue"] for v in body["venues"]] == ["Vienna", "Devin", "Bratislava"]
    assert body["total"] == 3
    for item in body["venues"]:
        assert list(item)[-1] == "distance"
    found = {v["venue"]: v["distance"] for v in body["venues"]}
    assert found["Vienna"] == round(distance_km(BRATISLAVA, VIENNA), 3)
    assert found["Bratislava"] == 0.0
    assert "geoloc_lat=48.1486" in body["rest_url"]
    assert "geoloc_radius=100" in body["rest_url"]
    # The default radius; the other filters with it; the plain list has no distance.
    default = (await venues(client, **AT_BRATISLAVA)).json()["venues"]
    assert [v["venue"] for v in default] == ["Devin", "Bratislava"]
    searched = await venues(client, **AT_BRATISLAVA, geoloc_radius=100, search="Vien")
    assert [v["venue"] for v in searched.json()["venues"]] == ["Vienna"]
    paged = (await venues(client, **AT_BRATISLAVA, geoloc_radius=500, per_page=2)).json()
    assert (paged["total"], paged["total_pages"], len(paged["venues"])) == (4, 2, 2)
    assert "geoloc_lng=17.1077" in paged["next_rest_url"]
    plain = (await venues(client)).json()["venues"]
    assert len(plain) == 5
    assert all("distance" not in item for item in plain)


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"geoloc_lat": "48.1"}, "geoloc_lng"),
        ({"geoloc_lat": "100", "geoloc_lng": "0"}, "geoloc_lat"),
        ({**AT_BRATISLAVA, "geoloc_radius": "0"}, "geoloc_radius"),
        ({**AT_BRATISLAVA, "geoloc_radius": "501"}, "geoloc_radius"),
    ],
)
async def test_the_venue_list_refuses_a_bad_point(
    client: AsyncClient, params: dict[str, Any], named: str
) -> None:
    assert named in notes(await client.get(f"{API}/venues", params=params))


async def test_the_venue_list_documents_its_point(client: AsyncClient) -> None:
    doc = (await client.get(f"{API}/doc")).json()
    listed = {p["name"]: p for p in doc["paths"]["/venues"]["get"]["parameters"]}
    assert {"geoloc_lat", "geoloc_lng", "geoloc_radius", "near"} <= set(listed)
    organizers = {p["name"] for p in doc["paths"]["/organizers"]["get"]["parameters"]}
    assert "geoloc_lat" not in organizers


# ---- near a place -------------------------------------------------------------------------


async def test_a_list_near_a_place_the_gazetteer_knows(
    client: AsyncClient, cities: dict[str, int]
) -> None:
    near = await listed(client, near="Bratislava", orderby="distance")
    body = near.json()
    assert [e["title"] for e in body["events"]] == ["In Bratislava", "In Devin"]
    # Measured from the gazetteer's point of the city (not the venue's own: a few hundred
    # metres apart).
    assert body["events"][0]["distance"] < 3
    assert "near=Bratislava" in body["rest_url"]
    assert "near=Bratislava" in near.headers["Link"]
    # Any case, a name in another language, a wider radius.
    assert await titles(client, near="bratislava") == ["In Devin", "In Bratislava"]
    wider = await titles(client, near="Pressburg", geoloc_radius=100, orderby="distance")
    assert wider == ["In Bratislava", "In Devin", "In Vienna"]
    assert await titles(client, near="Wien") == ["In Vienna"]
    found = (await venues(client, near="Budapest")).json()["venues"]
    assert [v["venue"] for v in found] == ["Budapest"]


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", 'near: the place "Atlantis Nowhere" could not be found.'),
        ("de", "near: Der Ort „Atlantis Nowhere“ wurde nicht gefunden."),
        ("sk", "near: miesto „Atlantis Nowhere“ sa nepodarilo nájsť."),
    ],
)
async def test_a_place_nobody_knows_is_a_400_in_the_request_language(
    client: AsyncClient, language: str, says: str
) -> None:
    headers = {"Accept-Language": language}
    for path in ("/events", "/venues"):
        response = await client.get(
            f"{API}{path}", params={"near": "Atlantis Nowhere"}, headers=headers
        )
        assert notes(response) == {"near": says}


@pytest.mark.parametrize(
    ("params", "named", "says"),
    [
        ({"near": "Bratislava", **AT_BRATISLAVA}, "near", "cannot be combined with geoloc_lat"),
        ({"near": "Bratislava", "geoloc_lat": "48"}, "near", "cannot be combined"),
        ({"near": "x" * 201}, "near", "200"),
        ({"near": ""}, "near", ""),
        ({"near": "Bratislava", "geoloc_radius": "0"}, "geoloc_radius", "greater than 0"),
    ],
)
async def test_what_a_place_may_not_be(
    client: AsyncClient, params: dict[str, Any], named: str, says: str
) -> None:
    for path in ("/events", "/venues"):
        found = notes(await client.get(f"{API}{path}", params=params))
        assert named in found, (path, found)
        assert says in found[named]


async def test_orderby_distance_says_a_place_would_do(client: AsyncClient) -> None:
    refused = notes(await client.get(f"{API}/events", params={"orderby": "distance"}))
    assert "or a place (near)" in refused["orderby"]
    sk = {"orderby": "distance", "i18n_language": "sk"}
    assert "alebo miesto (near)" in notes(await client.get(f"{API}/events", params=sk))["orderby"]


async def test_a_dense_circle_is_walked_in_the_list_order(
    app: FastAPI, client: AsyncClient, cities: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A circle with more events than SPARSE_MATCHES is read by walking the list's order and
    probing each event's venue (app/events/repository/list_query.py): the same list."""
    near = {**AT_BRATISLAVA, "geoloc_radius": 100}
    found = [await titles(client, **near), await titles(client, **near, search="In")]
    monkeypatch.setattr(list_query, "SPARSE_MATCHES", 0)
    app_services(app).event_totals.clear()
    assert await titles(client, **near) == found[0] == ["In Vienna", "In Devin", "In Bratislava"]
    assert await titles(client, **near, search="In") == found[1]
    paged = (await listed(client, **near, per_page=2, page=2)).json()
    assert [e["title"] for e in paged["events"]] == ["In Bratislava"]
    assert paged["total"] == 3
