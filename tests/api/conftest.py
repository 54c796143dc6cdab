"""The map pages' fixtures (tests/maps.py)."""

from tests.maps import placed, with_tiles  # noqa: F401
