"""Distances on the earth and the box that holds a circle: what a search near a point
needs (docs/design.md#events-near-a-place). Great-circle distances (haversine) on a sphere of the earth's
mean radius: within 0.5 % of the ellipsoid's, which is more than a list near a place asks."""

import math
from dataclasses import dataclass

from app.core.rules.geography import Point

EARTH_RADIUS_KM = 6371.0088  # the mean radius (IUGG), as the SQL of the lists uses it
# A point exactly on the radius is inside: the database and Python may round the same
# distance a few units of the last place apart, so both compare against the radius plus
# this much (a millimetre).
EDGE_KM = 1e-6
ALL_LONGITUDES = (-180.0, 180.0)
SHOWN_DECIMALS = 3  # a distance in a body: km to the metre


def distance_km(a: Point, b: Point) -> float:
    """The great-circle distance between two points, in km (the haversine formula, stable
    for short distances)."""
    lat_a, lat_b = math.radians(a.lat), math.radians(b.lat)
    half_dlat = (lat_b - lat_a) / 2
    half_dlng = math.radians(b.lng - a.lng) / 2
    h = math.sin(half_dlat) ** 2 + math.cos(lat_a) * math.cos(lat_b) * math.sin(half_dlng) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(min(1.0, math.sqrt(h)))


def shown_km(distance: float) -> float:
    """A distance as bodies show it."""
    return round(distance, SHOWN_DECIMALS)


@dataclass(frozen=True, slots=True)
class Box:
    """The latitudes and longitudes of every point within a circle (and some outside it):
    one range of latitudes, one or two of longitudes (two when the circle crosses the
    antimeridian; all of them when it holds a pole)."""

    lat_min: float
    lat_max: float
    lng_ranges: tuple[tuple[float, float], ...]

    def holds(self, point: Point) -> bool:
        return self.lat_min <= point.lat <= self.lat_max and any(
            low <= point.lng <= high for low, high in self.lng_ranges
        )


def bounding_box(centre: Point, radius_km: float) -> Box:
    """The box of the circle of `radius_km` around `centre` (edge included). The widest
    longitudes of a circle are not at its centre's latitude but where the meridians touch
    it: asin(sin r / cos lat) either side."""
    angle = (radius_km + EDGE_KM) / EARTH_RADIUS_KM  # the radius as an angle, in radians
    lat = math.radians(centre.lat)
    lat_min, lat_max = lat - angle, lat + angle
    if lat_max >= math.pi / 2 or lat_min <= -math.pi / 2:
        # A pole is inside: every longitude has points of the circle.
        south, north = max(math.degrees(lat_min), -90.0), min(math.degrees(lat_max), 90.0)
        return Box(south, north, (ALL_LONGITUDES,))
    spread = math.degrees(math.asin(min(1.0, math.sin(angle) / math.cos(lat))))
    west, east = centre.lng - spread, centre.lng + spread
    south, north = math.degrees(lat_min), math.degrees(lat_max)
    if spread >= 180.0:
        return Box(south, north, (ALL_LONGITUDES,))
    if west < -180.0:
        return Box(south, north, ((west + 360.0, 180.0), (-180.0, east)))
    if east > 180.0:
        return Box(south, north, ((west, 180.0), (-180.0, east - 360.0)))
    return Box(south, north, ((west, east),))


@dataclass(frozen=True, slots=True)
class Near:
    """A search near a point: what lies within `radius_km` of `centre` (the edge included)."""

    centre: Point
    radius_km: float

    def box(self) -> Box:
        return bounding_box(self.centre, self.radius_km)
