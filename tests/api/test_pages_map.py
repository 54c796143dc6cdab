"""Where events are, on the pages (docs/pages-and-desk.md, "The map view"): the map view in
every language and under a category, its markers' data and its list without JavaScript
(each venue's link to OpenStreetMap), a venue's map, the event's JSON-LD `geo` and its map
link, the iCalendar GEO; Leaflet served by almanac itself, never from elsewhere."""

import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient

from app.core.app_services import app_services
from app.core.database.engine import get_sessionmaker
from app.geo.distance import distance_km
from app.geo.gazetteer import place_fix
from app.geo.places import Point
from app.main import create_app
from app.pages.leaflet import leaflet_installed
from tests.factories import API, AuthFor, asgi_client, create_record
from tests.fake_nominatim import FakeNominatim

TODAY = datetime.now(UTC).date()
TILES = "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png"
MILL = (48.1439, 17.1097)  # Bratislava's old town
CASTLE = (48.1423, 17.1000)


def day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


async def event(client: AsyncClient, editor: AuthFor, title: str, **fields: Any) -> dict[str, Any]:
    offset = fields.pop("offset", 1)
    fields.setdefault("start_date", f"{day(offset)} 18:00:00")
    fields.setdefault("end_date", f"{day(offset)} 20:00:00")
    return await create_record(client, editor, "events", title, **fields)


async def place(
    client: AsyncClient, editor: AuthFor, venue: dict[str, Any], point: tuple[float, float]
) -> None:
    """A venue's coordinates, typed by an editor (exact: no geocoder moves them)."""
    response = await client.post(
        f"{API}/venues/{venue['id']}",
        json={"geo_lat": point[0], "geo_lng": point[1]},
        headers=editor.basic,
    )
    assert response.status_code == 200, response.text
    assert response.json()["geo_precision"] == "exact"


def map_data(html: str) -> list[dict[str, Any]]:
    found = re.search(r'<script type="application/json" id="map-data">(.*?)</script>', html, re.S)
    assert found is not None, "no map data"
    data: list[dict[str, Any]] = json.loads(found.group(1))
    return data


def json_ld(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/ld\+json"[^>]*>(.*?)</script>', html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.fixture
async def with_tiles(app: FastAPI, maker: Any) -> AsyncIterator[AsyncClient]:
    """The app with MAP_TILES_URL set (a local address: no tile is fetched here)."""
    update = {"map_tiles_url": TILES, "map_tiles_attribution": "© Test tiles"}
    tiled = create_app(app_services(app).settings.model_copy(update=update))
    tiled.dependency_overrides[get_sessionmaker] = lambda: maker
    try:
        async with asgi_client(tiled) as client:
            yield client
    finally:
        await app_services(tiled).failed_logins.close()


@pytest.fixture
async def placed(client: AsyncClient, editor: AuthFor) -> dict[str, Any]:
    """Two venues with coordinates and one without, and their upcoming events."""
    mill = await create_record(client, editor, "venues", "Old Mill", city="Bratislava")
    castle = await create_record(client, editor, "venues", "Castle Hall", city="Bratislava")
    # A city the gazetteer does not know: the venue has no coordinates.
    barn = await create_record(client, editor, "venues", "Unmapped Barn", city="Somewhere")
    await place(client, editor, mill, MILL)
    await place(client, editor, castle, CASTLE)
    records = {
        "mill": mill,
        "castle": castle,
        "barn": barn,
        "jazz": await event(
            client, editor, "Jazz at the Mill", venue=mill["id"], categories=["Music"]
        ),
        "talk": await event(client, editor, "Mill Talk", venue=mill["id"], offset=3),
        "play": await event(client, editor, "Castle Play", venue=castle["id"], offset=2),
        "dance": await event(client, editor, "Barn Dance", venue=barn["id"], offset=4),
    }
    return records


async def test_the_map_view_without_tiles_is_the_list_with_openstreetmap_links(
    client: AsyncClient, placed: dict[str, Any]
) -> None:
    response = await client.get("/events/map/")
    assert response.status_code == 200
    html = response.text
    titles = re.findall(r'<h2><a href="[^"]+">([^<]+)</a>', html)
    assert titles == ["Jazz at the Mill", "Castle Play", "Mill Talk", "Barn Dance"]  # by date
    osm = re.findall(r'<a href="(https://www\.openstreetmap\.org/\?[^"]+)"[^>]*>([^<]+)</a>', html)
    lat, lng = (f"{value:.6f}" for value in MILL)
    mill_link = f"https://www.openstreetmap.org/?mlat={lat}&amp;mlon={lng}#map=16/{lat}/{lng}"
    assert (mill_link, "Old Mill on OpenStreetMap") in osm
    assert len(osm) == 3  # the barn has no coordinates: no link
    # No tiles configured: no map, no script, no data for one.
    assert 'id="map"' not in html
    assert "<script src=" not in html
    assert "leaflet" not in html
    assert '<a href="http://testserver/events/map/" aria-current="page">Map</a>' in html
    listing = await client.get("/sk/events/list/")
    assert '<a href="http://testserver/sk/events/map/">Mapa</a></p>' in listing.text  # the footer


async def test_the_map_view_with_tiles_has_the_markers_data_and_its_scripts(
    with_tiles: AsyncClient, placed: dict[str, Any]
) -> None:
    if not leaflet_installed():
        pytest.fail("Leaflet is not installed: `make map-assets` (npm) installs it")
    response = await with_tiles.get("/events/map/")
    assert response.status_code == 200
    html = response.text
    markers = map_data(html)
    assert [marker["name"] for marker in markers] == ["Old Mill", "Castle Hall"]
    mill = markers[0]
    assert (mill["lat"], mill["lng"]) == MILL
    assert mill["url"] == placed["mill"]["url"]
    assert [entry["title"] for entry in mill["events"]] == ["Jazz at the Mill", "Mill Talk"]
    assert mill["events"][0]["url"] == placed["jazz"]["url"]
    assert mill["events"][0]["when"]
    box = re.search(r'<div id="map"[^>]*>', html)
    assert box is not None
    assert f'data-tiles="{TILES}"' in box.group(0)
    assert 'data-attribution="© Test tiles"' in box.group(0)
    assert " hidden" in box.group(0)  # shown by the script once drawn
    nonce = re.search(r"'nonce-([^']+)'", response.headers["content-security-policy"])
    assert nonce is not None
    for script in ("leaflet/leaflet.js", "map.js"):
        tag = f'<script src="http://testserver/assets/{script}" nonce="{nonce.group(1)}" defer>'
        assert tag in html
    assert '<link rel="stylesheet" href="http://testserver/assets/leaflet/leaflet.css">' in html
    # The tiles' origin may be loaded as images; scripts stay the nonce's.
    policy = response.headers["content-security-policy"]
    assert "http://127.0.0.1:9" in re.search(r"img-src [^;]+", policy).group(0)  # type: ignore[union-attr]
    assert re.search(r"script-src [^;]+", policy).group(0) == f"script-src 'nonce-{nonce.group(1)}'"  # type: ignore[union-attr]
    # The list stays beside the map.
    assert "Barn Dance" in html


async def test_leaflet_and_the_map_script_are_served_by_almanac(with_tiles: AsyncClient) -> None:
    if not leaflet_installed():
        pytest.fail("Leaflet is not installed: `make map-assets` (npm) installs it")
    for path, kind in (
        ("/assets/leaflet/leaflet.js", "text/javascript"),
        ("/assets/leaflet/leaflet.css", "text/css"),
        ("/assets/leaflet/images/marker-icon.png", "image/png"),
        ("/assets/map.js", "text/javascript"),
    ):
        response = await with_tiles.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith(kind)
    assert (await with_tiles.get("/assets/leaflet/package.json")).status_code == 404
    assert (await with_tiles.get("/assets/leaflet/../leaflet.py")).status_code == 404


async def test_the_map_view_in_every_language_and_under_a_category(
    client: AsyncClient, placed: dict[str, Any]
) -> None:
    headings = {
        "": "Events on a map",
        "/de": "Veranstaltungen auf der Karte",
        "/sk": "Podujatia na mape",
    }
    for prefix, heading in headings.items():
        response = await client.get(f"{prefix}/events/map/")
        assert response.status_code == 200
        assert f"<h1>{heading}</h1>" in response.text
        assert "Jazz at the Mill" in response.text
    music = await client.get("/events/category/music/map/")
    assert music.status_code == 200
    assert "Jazz at the Mill" in music.text
    assert "Castle Play" not in music.text
    assert (await client.get("/events/category/nothing-here/map/")).status_code == 404
    chosen = await client.get("/events/", params={"eventDisplay": "map"})
    assert "<h1>Events on a map</h1>" in chosen.text
    # The other views link to the map with the search they show.
    listing = await client.get("/events/list/", params={"tribe-bar-search": "jazz"})
    assert 'href="http://testserver/events/map/?tribe-bar-search=jazz"' in listing.text
    searched = await client.get("/events/map/", params={"tribe-bar-search": "castle"})
    assert "Castle Play" in searched.text
    assert "Jazz at the Mill" not in searched.text
    assert 'action="http://testserver/events/map/"' in searched.text


async def test_a_venues_map_and_link_and_the_json_ld_geo(
    client: AsyncClient, with_tiles: AsyncClient, placed: dict[str, Any]
) -> None:
    mill = placed["mill"]
    page = await client.get(f"/venue/{mill['slug']}/")
    lat, lng = (f"{value:.6f}" for value in MILL)
    assert (
        f"https://www.openstreetmap.org/?mlat={lat}&amp;mlon={lng}#map=16/{lat}/{lng}" in page.text
    )
    assert 'id="map"' not in page.text  # no tiles
    geo = {"@type": "GeoCoordinates", "latitude": MILL[0], "longitude": MILL[1]}
    assert json_ld(page.text)["geo"] == geo
    tiled = await with_tiles.get(f"/venue/{mill['slug']}/")
    [marker] = map_data(tiled.text)
    assert marker["name"] == "Old Mill"
    assert [entry["title"] for entry in marker["events"]] == ["Jazz at the Mill", "Mill Talk"]
    # The event's page: its location's geo, and its map link at the point.
    jazz = await client.get(f"/event/{placed['jazz']['slug']}/")
    assert json_ld(jazz.text)["location"]["geo"] == geo
    assert f"?mlat={lat}&amp;mlon={lng}" in jazz.text
    api = (await client.get(f"{API}/events/{placed['jazz']['id']}")).json()
    assert api["json_ld"]["location"]["geo"] == geo


async def test_no_coordinates_no_geo_and_the_address_search_link(
    client: AsyncClient, placed: dict[str, Any]
) -> None:
    barn = placed["barn"]
    api = (await client.get(f"{API}/venues/{barn['id']}")).json()
    assert "geo" not in api["json_ld"]
    assert list(api["json_ld"]) == [
        "@type", "name", "description", "url", "address", "telephone", "sameAs",
    ]  # fmt: skip
    page = await client.get(f"/event/{placed['dance']['slug']}/")
    assert "geo" not in json_ld(page.text)["location"]
    assert "https://www.openstreetmap.org/search?query=Somewhere" in page.text
    assert "mlat=" not in page.text


async def test_a_protected_venue_shows_no_point(client: AsyncClient, editor: AuthFor) -> None:
    secret = await create_record(
        client, editor, "venues", "Secret Cellar", city="Bratislava", password="cellar"
    )
    await place(client, editor, secret, MILL)
    tasting = await event(client, editor, "Cellar Tasting", venue=secret["id"])
    # Its feed: neither the hidden venue's texts nor its point (a 500 before).
    feed = await client.get(f"{API}/events/{tasting['id']}.ics")
    assert feed.status_code == 200
    assert "BEGIN:VEVENT" in feed.text
    assert "LOCATION" not in feed.text
    assert "GEO:" not in feed.text
    listed = await client.get("/events/map/")
    assert "Cellar Tasting" in listed.text
    assert "mlat=" not in listed.text
    page = await client.get(f"/venue/{secret['slug']}/")
    assert "geo" not in json_ld(page.text)
    assert "mlat=" not in page.text


async def test_the_calendar_feed_has_the_venues_geo(
    client: AsyncClient, placed: dict[str, Any]
) -> None:
    single = await client.get(f"{API}/events/{placed['jazz']['id']}.ics")
    assert single.status_code == 200
    assert f"GEO:{MILL[0]};{MILL[1]}" in single.text.replace("\r\n ", "")
    unmapped = await client.get(f"{API}/events/{placed['dance']['id']}.ics")
    assert "GEO:" not in unmapped.text


VIENNA = (48.2030, 16.3690)  # about 55 km from Bratislava: outside the default 25 km


async def test_near_a_place_the_map_and_the_list_are_nearest_first(
    client: AsyncClient, editor: AuthFor, placed: dict[str, Any]
) -> None:
    opera = await create_record(client, editor, "venues", "Opera House", city="Wien")
    await place(client, editor, opera, VIENNA)
    await event(client, editor, "Vienna Opera", venue=opera["id"], offset=1)
    centre = place_fix("Bratislava")
    assert centre is not None
    mill_km = distance_km(centre.point, Point(*MILL))
    castle_km = distance_km(centre.point, Point(*CASTLE))
    assert mill_km < castle_km
    near = {"tribe-bar-geoloc": "Bratislava"}
    mapped = await client.get("/events/map/", params=near)
    assert mapped.status_code == 200
    titles = re.findall(r'<h2><a href="[^"]+">([^<]+)</a>', mapped.text)
    assert titles == ["Jazz at the Mill", "Mill Talk", "Castle Play"]  # nearest, then by date
    assert "Events within 25 km of “Bratislava”, nearest first." in mapped.text
    assert f"{round(mill_km, 1):g} km away" in mapped.text
    assert "Barn Dance" not in mapped.text  # no coordinates: not near anything
    assert 'value="Bratislava"' in mapped.text  # the field keeps what was typed
    listed = await client.get("/events/list/", params=near)
    assert re.findall(r'<h2><a href="[^"]+">([^<]+)</a>', listed.text) == titles
    # The other views keep to the place, by date; their links keep the field.
    # The month's grid shows every event, and says so; its links keep the place.
    month = await client.get("/events/month/", params=near)
    assert month.status_code == 200
    assert "Vienna Opera" in month.text
    assert (
        "The month shows events everywhere; its list and map keep to 25 km of “Bratislava”."
        in month.text
    )
    assert 'href="http://testserver/events/map/?tribe-bar-geoloc=Bratislava"' in month.text
    day_view = await client.get(f"/events/{day(1)}/", params=near)
    assert "Jazz at the Mill" in day_view.text
    assert "Vienna Opera" not in day_view.text
    assert "Events within 25 km of “Bratislava”." in day_view.text
    german = await client.get("/de/events/map/", params=near)
    assert (
        "Veranstaltungen im Umkreis von 25 km um „Bratislava“, die nächsten zuerst." in german.text
    )
    everywhere = await client.get("/events/map/")
    assert "Vienna Opera" in everywhere.text


async def test_an_unknown_place_is_said_and_the_view_shown_without_it(
    client: AsyncClient, placed: dict[str, Any]
) -> None:
    messages = {
        "": "No place called “Xyzzyville” was found; the events are shown wherever they are.",
        "/de": "Kein Ort namens „Xyzzyville“ gefunden; die Veranstaltungen werden ohne "
        "Ortsfilter gezeigt.",
        "/sk": "Miesto s názvom „Xyzzyville“ sa nenašlo; podujatia sa zobrazujú bez ohľadu na "
        "miesto.",
    }
    for prefix, message in messages.items():
        for view in ("map", "list", "month"):
            response = await client.get(
                f"{prefix}/events/{view}/", params={"tribe-bar-geoloc": "Xyzzyville"}
            )
            assert response.status_code == 200, (prefix, view)
            assert message in response.text, (prefix, view)
            assert "Jazz at the Mill" in response.text
            assert "Barn Dance" in response.text or view == "month"


async def test_a_venues_page_lists_the_events_nearby(
    client: AsyncClient, editor: AuthFor, placed: dict[str, Any]
) -> None:
    opera = await create_record(client, editor, "venues", "Opera House", city="Wien")
    await place(client, editor, opera, VIENNA)
    await event(client, editor, "Vienna Opera", venue=opera["id"])
    page = await client.get(f"/venue/{placed['mill']['slug']}/")
    nearby = page.text.split("<h2>Events nearby</h2>", 1)
    assert len(nearby) == 2, "no events nearby"
    assert "Castle Play" in nearby[1]
    assert "Jazz at the Mill" not in nearby[1]  # its own events are above
    assert "Vienna Opera" not in nearby[1]
    km = distance_km(Point(*MILL), Point(*CASTLE))
    assert f"{round(km, 1):g} km away" in nearby[1]
    barn = await client.get(f"/venue/{placed['barn']['slug']}/")
    assert "Events nearby" not in barn.text  # no coordinates, no neighbours


async def test_a_place_the_geocoding_service_found_is_asked_once(
    app: FastAPI, maker: Any, client: AsyncClient, editor: AuthFor
) -> None:
    """An address the gazetteer does not know goes to GEOCODER_URL (a fake Nominatim); its
    answer is kept, so another page near the same place does not ask again."""
    hall = await create_record(client, editor, "venues", "Linz Hall", city="Linz")
    await place(client, editor, hall, (48.3059, 14.2862))
    await event(client, editor, "Linz Concert", venue=hall["id"])
    typed = "Hauptplatz 1, Linz"
    async with FakeNominatim({"hauptplatz 1, linz": (48.3064, 14.2861)}) as service:
        update = {"geocoder_url": service.url}
        located = create_app(app_services(app).settings.model_copy(update=update))
        located.dependency_overrides[get_sessionmaker] = lambda: maker
        try:
            async with asgi_client(located) as visitor:
                mapped = await visitor.get("/events/map/", params={"tribe-bar-geoloc": typed})
                listed = await visitor.get("/events/list/", params={"tribe-bar-geoloc": typed})
        finally:
            await app_services(located).failed_logins.close()
            geocoder = app_services(located).geocoder
            if geocoder is not None:
                await geocoder.aclose()
    for page in (mapped, listed):
        assert page.status_code == 200
        assert "Events within 25 km of “Hauptplatz 1, Linz”, nearest first." in page.text
        assert "Linz Concert" in page.text
        assert "0.1 km away" in page.text
    assert service.queries == ["hauptplatz 1, linz"]
