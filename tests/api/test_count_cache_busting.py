"""A cache-busting parameter (`_=<n>`, jQuery's `cache: false`) misses the response cache by
design, but never the count cache: its key is the normalised filter, which has no field for
`_` (docs/performance.md#the-1m-search-with-_). A busted search counts its matches once."""

from datetime import UTC, datetime, timedelta

from httpx import AsyncClient

from tests.factories import API, AuthFor


async def test_busted_searches_count_once(
    client: AsyncClient, editor: AuthFor, statements: list[str]
) -> None:
    start = datetime.now(UTC) + timedelta(days=2)
    for number in range(3):
        response = await client.post(
            f"{API}/events",
            json={
                "title": f"Night walk {number}",
                "status": "publish",
                "start_date": (start + timedelta(hours=number)).strftime("%Y-%m-%d %H:%M:%S"),
                "end_date": (start + timedelta(hours=number + 1)).strftime("%Y-%m-%d %H:%M:%S"),
            },
            headers=editor.basic,
        )
        assert response.status_code == 201, response.text
    counts = []
    for bust in ("1", "2", "3"):
        statements.clear()
        response = await client.get(f"{API}/events", params={"search": "night", "_": bust})
        assert response.status_code == 200
        assert response.json()["total"] == 3
        counts.append(sum(1 for s in statements if "count(" in s))
    # The first request counts; a `_` in the key would make each of them count again.
    assert counts == [1, 0, 0]
