"""Leaflet, the map pages' library: installed from the npm registry at build time (`make
map-assets`, the Dockerfile's map-assets stage: vendor/leaflet/ pins the version) into
static/leaflet/, served by almanac itself under /assets/leaflet/. The map is an enhancement:
without the files (npm missing on a newcomer's machine) or without MAP_TILES_URL the pages
load no script and the map view is its list."""

from dataclasses import dataclass
from pathlib import Path

from app.core.settings import Settings

LEAFLET_DIR = Path(__file__).parent / "static" / "leaflet"
# What the build copies, and all that is served: the script, its stylesheet and the images
# the stylesheet names (markers, the layers control).
LEAFLET_FILES = {
    "leaflet.js": "text/javascript; charset=utf-8",
    "leaflet.css": "text/css; charset=utf-8",
    "images/marker-icon.png": "image/png",
    "images/marker-icon-2x.png": "image/png",
    "images/marker-shadow.png": "image/png",
    "images/layers.png": "image/png",
    "images/layers-2x.png": "image/png",
}


def leaflet_installed() -> bool:
    return (LEAFLET_DIR / "leaflet.js").is_file() and (LEAFLET_DIR / "leaflet.css").is_file()


@dataclass(frozen=True, slots=True)
class Maps:
    """What the templates know of maps: whether they draw them (tiles configured and
    Leaflet installed), the tiles' URL template and their attribution."""

    shown: bool
    tiles: str
    attribution: str


def maps_of(settings: Settings) -> Maps:
    tiles = settings.map_tiles_url.strip()
    shown = bool(tiles) and leaflet_installed()
    return Maps(shown, tiles, settings.map_tiles_attribution)
