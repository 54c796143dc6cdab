"""The anonymous response cache keys a list near a point or a place by its whole query
(app/core/caching/cache.py): another point, radius or place is another entry, and a busted
one is none."""

from zoneinfo import ZoneInfo

from app.core.caching.cache import cache_key

ZONE = ZoneInfo("UTC")


def scope(query: str) -> dict[str, object]:
    return {
        "type": "http",
        "method": "GET",
        "scheme": "http",
        "path": "/calendar/events/v1/events",
        "root_path": "",
        "query_string": query.encode(),
        "headers": [(b"host", b"example.org")],
    }


def test_each_point_radius_and_place_is_its_own_entry() -> None:
    queries = [
        "geoloc_lat=48.1486&geoloc_lng=17.1077",
        "geoloc_lat=48.2082&geoloc_lng=17.1077",
        "geoloc_lat=48.1486&geoloc_lng=16.3738",
        "geoloc_lat=48.1486&geoloc_lng=17.1077&geoloc_radius=100",
        "geoloc_lat=48.1486&geoloc_lng=17.1077&orderby=distance",
        "near=Bratislava",
        "near=Wien",
        "geoloc=1",
        "geoloc=0",
        "",
    ]
    keys = [cache_key(scope(query), ZONE) for query in queries]
    assert None not in keys
    assert len(set(keys)) == len(queries)
    assert cache_key(scope(queries[0]), ZONE) == keys[0]  # the same query, the same entry


def test_a_busted_list_near_a_point_is_not_stored() -> None:
    assert cache_key(scope("near=Bratislava&_=1732860000"), ZONE) is None
