"""Calendar feeds behind the response cache of a real `almanac serve` (the cache needs the
server's lifespan): cached feeds keep their content type and ETag, a conditional request is
answered 304 from the cache, signed-in callers are never cached, and a change is seen at once."""

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.factories import API
from tests.live.harness import add_user, almanac_server, fresh_database


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[tuple[str, tuple[str, str]]]:
    async with fresh_database(database_url, "almanac_feeds_live_test", migrated=True) as url:
        _, password = await add_user(url, "feeder", "editor")
        async with almanac_server(url) as base:
            yield base, ("feeder", password)


async def test_cached_feeds_keep_type_and_etag_and_answer_304(
    server: tuple[str, tuple[str, str]],
) -> None:
    base, editor = server
    feed = f"{base}{API}/events.ics"
    params = {"start_date": "2030-01-01", "end_date": "2030-12-31"}
    async with httpx.AsyncClient() as anonymous, httpx.AsyncClient(auth=editor) as writer:
        created = await writer.post(
            f"{base}{API}/events",
            json={"title": "Cached feed", "start_date": "2030-03-01 10:00",
                  "end_date": "2030-03-01 11:00", "timezone": "Europe/Berlin"},
        )  # fmt: skip
        assert created.status_code == 201
        first = await anonymous.get(feed, params=params)
        second = await anonymous.get(feed, params=params)
        assert (first.headers["x-almanac-cache"], second.headers["x-almanac-cache"]) == (
            "miss",
            "hit",
        )
        for response in (first, second):
            assert response.status_code == 200
            assert response.headers["content-type"] == "text/calendar; charset=utf-8"
            assert response.headers["cache-control"] == "public, max-age=300"
        etag = first.headers["etag"]
        assert second.headers["etag"] == etag
        assert second.content == first.content
        assert b"SUMMARY;LANGUAGE=en:Cached feed\r\n" in second.content
        # Revalidation: answered from the cache, without a body.
        conditional = await anonymous.get(feed, params=params, headers={"If-None-Match": etag})
        assert conditional.status_code == 304
        assert conditional.headers["x-almanac-cache"] == "hit"
        assert conditional.headers["etag"] == etag
        assert conditional.content == b""
        assert "content-type" not in conditional.headers
        # Signed-in feeds are the caller's own: never stored, never public.
        signed_in = await writer.get(feed, params=params)
        assert "x-almanac-cache" not in signed_in.headers
        assert signed_in.headers["cache-control"] == "private, no-cache"
        # A change is a new feed at once, whatever the client holds.
        event_id = created.json()["id"]
        changed = await writer.post(f"{base}{API}/events/{event_id}", json={"title": "Renamed"})
        assert changed.status_code == 200
        fresh = await anonymous.get(feed, params=params, headers={"If-None-Match": etag})
        assert fresh.status_code == 200
        assert fresh.headers["x-almanac-cache"] == "miss"
        assert fresh.headers["etag"] != etag
        assert b"SUMMARY;LANGUAGE=en:Renamed\r\n" in fresh.content
        assert b"SEQUENCE:1\r\n" in fresh.content
        # The single event's feed is cached alike.
        single = f"{base}{API}/events/{event_id}.ics"
        one = await anonymous.get(single)
        again = await anonymous.get(single, headers={"If-None-Match": one.headers["etag"]})
        assert (one.status_code, again.status_code) == (200, 304)
        assert again.headers["x-almanac-cache"] == "hit"
