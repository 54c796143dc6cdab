"""Parameters of one request are read in linear time and are limited in number: a body or
query string of 100,000 pairs is answered at once (a 401 for an anonymous write, else a 400
naming the limit), where it took a worker for half a minute."""

import time
from collections.abc import Awaitable, Callable

import orjson
import pytest
from httpx import AsyncClient, Response

from app.http.raw_params import MAX_FIELDS, MAX_REPEATS
from tests.factories import API, AuthFor

PAIRS = 100_000
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
# Generous: the parse itself takes a few tens of milliseconds; before the fix it took 25 s.
BOUND_SECONDS = 5.0


async def timed(call: Callable[[], Awaitable[Response]]) -> Response:
    started = time.monotonic()
    response = await call()
    elapsed = time.monotonic() - started
    assert elapsed < BOUND_SECONDS, f"answered after {elapsed:.1f} s"
    return response


def assert_too_many(response: Response, language: str = "en") -> None:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "rest_too_many_params"
    assert body["data"]["status"] == 400
    assert body["message"]
    assert response.headers["content-language"] == language


async def test_an_anonymous_100000_pair_form_body_is_a_prompt_401(client: AsyncClient) -> None:
    body = "&".join(["a=1"] * PAIRS)
    response = await timed(lambda: client.post(f"{API}/events", content=body, headers=FORM))
    assert response.status_code == 401, response.text
    assert response.json()["code"] == "rest_forbidden"


async def test_a_signed_in_100000_pair_form_body_is_a_prompt_400(
    client: AsyncClient, editor: AuthFor
) -> None:
    body = "&".join(["a=1"] * PAIRS)
    headers = {**FORM, **editor.basic}
    response = await timed(lambda: client.post(f"{API}/events", content=body, headers=headers))
    assert_too_many(response)
    assert response.json()["data"]["max"] == MAX_FIELDS
    # Distinct keys count the same; in the request's language.
    distinct = "&".join(f"k{n}=1" for n in range(PAIRS))
    german = await timed(
        lambda: client.post(
            f"{API}/venues", content=distinct, headers=headers | {"Accept-Language": "de"}
        )
    )
    assert_too_many(german, "de")


async def test_a_query_string_with_too_many_pairs_is_a_400(client: AsyncClient) -> None:
    # As many as httpx sends in a URL (64 kB).
    query = "&".join(f"k{n}=1" for n in range(5 * MAX_FIELDS))
    response = await timed(lambda: client.get(f"{API}/events?{query}"))
    assert_too_many(response)


async def test_a_multipart_body_with_too_many_fields_is_a_prompt_400(
    client: AsyncClient, editor: AuthFor
) -> None:
    fields = [("title", "x"), *((f"k{n}", "1") for n in range(MAX_FIELDS + 1))]
    response = await timed(
        lambda: client.post(
            f"{API}/events",
            data=dict(fields),
            files={"ignored": ("a.txt", b"x", "text/plain")},
            headers=editor.basic,
        )
    )
    assert_too_many(response)


async def test_a_json_body_with_too_many_members_is_a_400(
    client: AsyncClient, editor: AuthFor
) -> None:
    members = {f"k{n}": 1 for n in range(MAX_FIELDS + 1)}
    response = await client.post(
        f"{API}/events",
        content=orjson.dumps(members),
        headers={"Content-Type": "application/json", **editor.basic},
    )
    assert_too_many(response)


@pytest.mark.parametrize("key", ["status", "status[]"])
async def test_one_key_repeated_past_the_limit_is_a_400(
    client: AsyncClient, editor: AuthFor, key: str
) -> None:
    query = "&".join([f"{key}=publish"] * (MAX_REPEATS + 1))
    response = await client.get(f"{API}/events?{query}", headers=editor.basic)
    assert_too_many(response)
    assert response.json()["data"]["max"] == MAX_REPEATS
    assert "status" in response.json()["message"]
    # As many as the limit are parameters like any other.
    within = "&".join([f"{key}=publish"] * MAX_REPEATS)
    assert (await client.get(f"{API}/events?{within}", headers=editor.basic)).status_code == 200
