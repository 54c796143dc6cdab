"""The desk's venue editor and a venue's position, through HTTP: latitude and longitude typed
(exact, kept through address changes), left alone (a position found from the city stays
one), refused by name in the person's language, emptied (found again), the precision shown,
and the gazetteer's suggestion for a venue without a position, all without JavaScript."""

import html
from typing import Any

from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.app_services import app_services
from app.core.database.engine import get_sessionmaker
from app.main import create_app
from app.models import Venue
from app.pages.leaflet import leaflet_installed
from tests.api.test_desk_records import api_get, created_id, field_value, post, version_of
from tests.desk_support import DeskUser, DeskUserFactory, desk_login
from tests.factories import asgi_client, create_record

DESK = "/desk"


async def editor_page(client: AsyncClient, venue_id: int, prefix: str = "") -> str:
    page = await client.get(f"{prefix}{DESK}/venues/{venue_id}/edit")
    assert page.status_code == 200, page.text
    return page.text


def saved_form(page: str, **changes: str) -> dict[str, str]:
    """The editor's form as a browser sends it back, with `changes`."""
    names = ("venue", "address", "city", "country", "geo_lat", "geo_lng")
    form = {name: field_value(page, name) for name in names}
    for name in ("geo_lat", "geo_lng"):
        form[f"was-{name}"] = form[name]
    return {**form, "status": "publish", "version": version_of(page), **changes}


def place(body: dict[str, Any]) -> tuple[Any, Any, Any]:
    return body.get("geo_lat"), body.get("geo_lng"), body.get("geo_precision")


async def test_typed_coordinates_are_exact_and_survive_an_address_change(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    new = await client.get(f"{DESK}/venues/new")
    assert 'for="f-geo_lat">Latitude' in new.text
    assert 'for="f-geo_lng">Longitude' in new.text
    response = await post(
        client, "venues/new", token, venue="Barn", city="Vienna", geo_lat="47.5", geo_lng="19.04"
    )
    venue_id = created_id(response, "venues")
    assert place(await api_get(client, editor, f"venues/{venue_id}")) == (47.5, 19.04, "exact")
    page = await editor_page(client, venue_id)
    assert (field_value(page, "geo_lat"), field_value(page, "geo_lng")) == ("47.5", "19.04")
    assert "Typed by a person." in page
    moved = await post(
        client, f"venues/{venue_id}/edit", token, **saved_form(page, city="Bratislava")
    )
    assert moved.status_code == 303, moved.text
    body = await api_get(client, editor, f"venues/{venue_id}")
    assert (body["city"], *place(body)) == ("Bratislava", 47.5, 19.04, "exact")


async def test_an_untouched_position_from_the_city_stays_one(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    venue_id = created_id(await post(client, "venues/new", token, venue="Hall", city="Vienna"), "venues")  # fmt: skip
    body = await api_get(client, editor, f"venues/{venue_id}")
    assert body["geo_precision"] == "city"
    page = await editor_page(client, venue_id)
    assert "Found from the city." in page
    assert float(field_value(page, "geo_lat")) == body["geo_lat"]
    saved = await post(client, f"venues/{venue_id}/edit", token, **saved_form(page, address="Ring 1"))  # fmt: skip
    assert saved.status_code == 303
    assert place(await api_get(client, editor, f"venues/{venue_id}")) == place(body)
    # Both emptied: found again from the (new) city.
    page = await editor_page(client, venue_id)
    emptied = saved_form(page, city="Bratislava", geo_lat="", geo_lng="")
    assert (await post(client, f"venues/{venue_id}/edit", token, **emptied)).status_code == 303
    lat, _, precision = place(await api_get(client, editor, f"venues/{venue_id}"))
    assert precision == "city"
    assert abs(lat - 48.15) < 0.1


async def test_a_half_or_a_bad_position_is_refused_at_its_field(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    venue = await create_record(client, editor, "venues", "Shed", city="Qwxzy Flats")
    token = await desk_login(client, editor)
    page = await editor_page(client, venue["id"])
    assert "The venue has no position yet." in page
    half = await post(client, f"venues/{venue['id']}/edit", token, **saved_form(page, geo_lat="48.1"))  # fmt: skip
    assert half.status_code == 400
    assert 'id="f-geo_lng" name="geo_lng" type="text" value="" aria-describedby="f-geo_lng-help f-geo_lng-error" aria-invalid="true"' in half.text  # fmt: skip
    assert "geo_lng is required with geo_lat" in html.unescape(half.text)
    assert field_value(half.text, "geo_lat") == "48.1"  # what was typed stays
    german_page = await editor_page(client, venue["id"], prefix="/de")
    far = saved_form(german_page, geo_lat="91", geo_lng="0")
    refused = await client.post(
        f"/de{DESK}/venues/{venue['id']}/edit", data={**far, "csrf_token": token}
    )
    assert refused.status_code == 400
    assert "Breitengrad" in refused.text
    assert "geo_lat muss zwischen -90 und 90" in html.unescape(refused.text)
    assert "geo_lat" not in await api_get(client, editor, f"venues/{venue['id']}")


async def test_a_venue_without_a_position_is_offered_the_gazetteers(
    client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession
) -> None:
    editor: DeskUser = await desk_user("editor")
    venue = await create_record(client, editor, "venues", "Old Hall", city="Wien")
    # Placed before venues were (the migration left such venues without a position).
    await db.execute(
        update(Venue)
        .where(Venue.id == venue["id"])
        .values(geo_lat=None, geo_lng=None, geo_precision=None)
    )
    await db.commit()
    token = await desk_login(client, editor)
    page = await editor_page(client, venue["id"])
    assert "Use the suggested position" in page
    assert "Suggested position, from the city: 48.2" in page
    german = await editor_page(client, venue["id"], prefix="/de")
    assert "Vorgeschlagene Position übernehmen" in german
    button = page.split('name="suggested" value="')[1].split('"')[0]
    taken = await post(
        client, f"venues/{venue['id']}/edit", token, **saved_form(page, suggested=button)
    )
    assert taken.status_code == 303, taken.text
    lat, lng, precision = place(await api_get(client, editor, f"venues/{venue['id']}"))
    assert (f"{lat},{lng}", precision) == (button, "exact")
    assert "Use the suggested position" not in await editor_page(client, venue["id"])


async def test_with_tiles_a_map_places_the_marker_and_without_none(
    app: FastAPI, maker: Any, client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    venue = await create_record(client, editor, "venues", "Hall", city="Vienna")
    await desk_login(client, editor)
    plain = await editor_page(client, venue["id"])
    assert 'id="position-map"' not in plain
    assert "position-map.js" not in plain
    update = {"map_tiles_url": "https://{s}.tiles.example.org/{z}/{x}/{y}.png"}
    tiled = create_app(app_services(app).settings.model_copy(update=update))
    tiled.dependency_overrides[get_sessionmaker] = lambda: maker
    try:
        async with asgi_client(tiled) as browser:
            await desk_login(browser, editor)
            page = await browser.get(f"{DESK}/venues/{venue['id']}/edit")
            assert page.status_code == 200
            policy = page.headers["content-security-policy"]
            assert "https://a.tiles.example.org" in policy
            assert "https://c.tiles.example.org" in policy
            if not leaflet_installed():  # no `make map-assets`: the fields alone
                assert 'id="position-map"' not in page.text
                return
            # Hidden until the script draws it: the fields are the form without script.
            assert 'id="position-map" class="position-map" data-tiles="https://{s}.tiles.example.org/{z}/{x}/{y}.png"' in page.text  # fmt: skip
            assert "hidden></div>" in page.text
            nonce = page.text.split('src="/desk/static/position-map.js" nonce="')[1].split('"')[0]
            assert f'<script src="/assets/leaflet/leaflet.js" nonce="{nonce}" defer>' in page.text
            script = await browser.get(f"{DESK}/static/position-map.js")
            assert script.status_code == 200
            assert "f-geo_lat" in script.text
    finally:
        await app_services(tiled).failed_logins.close()
