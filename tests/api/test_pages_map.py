"""Where events are, on the pages (docs/pages-and-desk.md, "The map view"): the map view in
every language and under a category, its list without JavaScript or tiles (each venue's link
to OpenStreetMap), a venue's page, the event's JSON-LD `geo` and its map link, the iCalendar
GEO, the pages near a place. With Leaflet installed: tests/live/test_pages_map_assets.py."""

import re
from typing import Any

from fastapi import FastAPI
from httpx import AsyncClient

from app.core.app_services import app_services
from app.core.database.engine import get_sessionmaker
from app.core.rules.geography import Point
from app.geo.distance import distance_km
from app.geo.gazetteer import place_fix
from app.main import create_app
from tests.factories import API, AuthFor, asgi_client, create_record
from tests.fake_nominatim import FakeNominatim
from tests.maps import CASTLE, MILL, day, event, json_ld, place


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
    assert "map.js" not in html  # the filter bar's own script may be there
    assert "leaflet" not in html
    assert '<a href="http://testserver/events/map/" aria-current="page">Map</a>' in html
    listing = await client.get("/sk/events/list/")
    assert '<a href="http://testserver/sk/events/map/">Mapa</a></p>' in listing.text  # the footer


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
    client: AsyncClient, placed: dict[str, Any]
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
    # The month's grid too (its days' counts and first events); its links keep the place.
    month = await client.get("/events/month/", params=near)
    assert month.status_code == 200
    assert "Vienna Opera" not in month.text
    assert "Jazz at the Mill" in month.text or "Castle Play" in month.text
    assert "Events within 25 km of “Bratislava”." in month.text
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
