"""The map with Leaflet installed (`make map-assets`, which `make test` runs before the live
tests, after the system's npm): the map view's scripts and markers' data, Leaflet's files
served by almanac itself, a venue's map. The same pages without Leaflet or tiles are
tests/api/test_pages_map.py's."""

import re
from typing import Any

from httpx import AsyncClient

from app.pages.leaflet import leaflet_installed
from tests.maps import MILL, TILES, map_data


async def test_the_map_view_with_tiles_has_the_markers_data_and_its_scripts(
    with_tiles: AsyncClient, placed: dict[str, Any]
) -> None:
    assert leaflet_installed(), "Leaflet is not installed: `make map-assets` (npm) installs it"
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
    assert leaflet_installed(), "Leaflet is not installed: `make map-assets` (npm) installs it"
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


async def test_a_venues_page_has_its_map_with_its_events(
    with_tiles: AsyncClient, placed: dict[str, Any]
) -> None:
    assert leaflet_installed(), "Leaflet is not installed: `make map-assets` (npm) installs it"
    mill = placed["mill"]
    tiled = await with_tiles.get(f"/venue/{mill['slug']}/")
    [marker] = map_data(tiled.text)
    assert marker["name"] == "Old Mill"
    assert [entry["title"] for entry in marker["events"]] == ["Jazz at the Mill", "Mill Talk"]
