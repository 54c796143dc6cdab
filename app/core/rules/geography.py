"""The geography's types: a point on the earth and how a venue's point was found."""

from dataclasses import dataclass
from typing import Literal

# How a venue's coordinates were found, from the most to the least precise: typed by a person,
# the geocoding service's answer for the full address, the gazetteer's for the city.
Precision = Literal["exact", "address", "city"]
PRECISIONS: tuple[Precision, ...] = ("exact", "address", "city")


@dataclass(frozen=True, slots=True)
class Point:
    """WGS 84, decimal degrees."""

    lat: float
    lng: float


@dataclass(frozen=True, slots=True)
class Fix:
    """Where a place is, and how precisely that is known."""

    point: Point
    precision: Precision
