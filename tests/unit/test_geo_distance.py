"""Great-circle distances and the box around a circle (app/geo/distance.py)."""

import math
import random

import pytest

from app.core.rules.geography import Point
from app.geo.distance import EARTH_RADIUS_KM, bounding_box, distance_km

BRATISLAVA = Point(48.1486, 17.1077)
VIENNA = Point(48.2082, 16.3738)
BUDAPEST = Point(47.4979, 19.0402)


def test_known_distances() -> None:
    assert distance_km(BRATISLAVA, VIENNA) == pytest.approx(54.9, abs=0.3)
    assert distance_km(BRATISLAVA, BUDAPEST) == pytest.approx(161.0, abs=1.0)
    assert distance_km(BRATISLAVA, BRATISLAVA) == 0.0
    # Half the circumference between antipodes; a quarter from the pole to the equator.
    assert distance_km(Point(0, 0), Point(0, 180)) == pytest.approx(math.pi * EARTH_RADIUS_KM)
    assert distance_km(Point(90, 0), Point(0, 123)) == pytest.approx(math.pi / 2 * EARTH_RADIUS_KM)


def test_symmetric_and_across_the_antimeridian() -> None:
    west, east = Point(10.0, 179.9), Point(10.0, -179.9)
    assert distance_km(west, east) == distance_km(east, west)
    assert distance_km(west, east) == pytest.approx(21.9, abs=0.1)


def test_a_box_is_one_range_in_the_middle_latitudes() -> None:
    box = bounding_box(BRATISLAVA, 25.0)
    assert len(box.lng_ranges) == 1
    assert box.lat_min < BRATISLAVA.lat < box.lat_max
    assert box.lat_max - box.lat_min == pytest.approx(2 * 25.0 / 111.195, rel=1e-3)
    assert not box.holds(VIENNA)
    assert bounding_box(BRATISLAVA, 56.0).holds(VIENNA)


def test_a_box_across_the_antimeridian_is_two_ranges() -> None:
    box = bounding_box(Point(-17.7, 179.8), 100.0)  # Fiji
    assert len(box.lng_ranges) == 2
    assert box.holds(Point(-17.7, -179.5))
    assert box.holds(Point(-17.7, 179.0))
    assert not box.holds(Point(-17.7, 0.0))
    west = bounding_box(Point(-17.7, -179.8), 100.0)
    assert len(west.lng_ranges) == 2
    assert west.holds(Point(-17.7, 179.5))


def test_a_box_holding_a_pole_has_every_longitude() -> None:
    box = bounding_box(Point(89.5, 10.0), 100.0)
    assert box.lng_ranges == ((-180.0, 180.0),)
    assert box.lat_max == 90.0
    assert box.holds(Point(89.6, -170.0))
    south = bounding_box(Point(-89.9, 0.0), 50.0)
    assert south.lat_min == -90.0
    assert south.lng_ranges == ((-180.0, 180.0),)


def test_a_circle_wider_than_its_meridians_has_every_longitude() -> None:
    # Near a pole, but not holding it: the circle still spans every longitude.
    box = bounding_box(Point(85.0, 0.0), 2000.0)
    assert box.lng_ranges == ((-180.0, 180.0),)


@pytest.mark.parametrize("seed", range(5))
def test_every_point_within_the_radius_is_in_the_box(seed: int) -> None:
    """The box never loses a point of the circle, the edge included (random points at
    random distances up to the radius, in every direction, at every latitude)."""
    rng = random.Random(seed)
    for _ in range(400):
        centre = Point(rng.uniform(-89.9, 89.9), rng.uniform(-180, 180))
        radius = rng.choice([0.5, 10.0, 25.0, 500.0, 3000.0])
        point = _destination(centre, rng.uniform(0, 360), radius * rng.choice([1.0, rng.random()]))
        assert distance_km(centre, point) <= radius + 1e-6
        assert bounding_box(centre, radius).holds(point), (centre, radius, point)


def _destination(start: Point, bearing: float, km: float) -> Point:
    """The point `km` from `start` along `bearing` (degrees): the direct geodesic problem."""
    angle, theta = km / EARTH_RADIUS_KM, math.radians(bearing)
    lat1, lng1 = math.radians(start.lat), math.radians(start.lng)
    lat2 = math.asin(
        math.sin(lat1) * math.cos(angle) + math.cos(lat1) * math.sin(angle) * math.cos(theta)
    )
    lng2 = lng1 + math.atan2(
        math.sin(theta) * math.sin(angle) * math.cos(lat1),
        math.cos(angle) - math.sin(lat1) * math.sin(lat2),
    )
    lng = (math.degrees(lng2) + 540.0) % 360.0 - 180.0
    return Point(math.degrees(lat2), lng)
