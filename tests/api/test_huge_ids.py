"""IDs in paths beyond what a record can have (MAX_ID, and past 64 bits) are a 404 on every
route that takes one, for every method, never a 500 from a number the database cannot hold."""

import pytest
from httpx import AsyncClient

from app.core.rules.constants import MAX_ID
from tests.desk_support import DeskUserFactory, desk_login
from tests.factories import API, AuthFor

HUGE = "99999999999999999999999999"  # past 64 bits
JUST_PAST = str(MAX_ID + 1)  # fits a bigint, names nothing
BIGINT_PAST = str(2**63)  # one past the bigint column

API_ROUTES = [
    ("GET", "/events/{id}"),
    ("PATCH", "/events/{id}"),
    ("DELETE", "/events/{id}"),
    ("GET", "/events/{id}.ics"),
    ("GET", "/venues/{id}"),
    ("POST", "/venues/{id}"),
    ("DELETE", "/venues/{id}"),
    ("GET", "/organizers/{id}"),
    ("PUT", "/organizers/{id}"),
    ("DELETE", "/organizers/{id}"),
    ("GET", "/categories/{id}"),
    ("PATCH", "/categories/{id}"),
    ("DELETE", "/categories/{id}"),
    ("GET", "/tags/{id}"),
    ("POST", "/tags/{id}"),
    ("DELETE", "/tags/{id}"),
    ("GET", "/media/{id}"),
    ("PATCH", "/media/{id}"),
    ("DELETE", "/media/{id}"),
    ("GET", "/webhooks/{id}"),
    ("PATCH", "/webhooks/{id}"),
    ("DELETE", "/webhooks/{id}"),
    ("POST", "/webhooks/{id}/rotate-secret"),
    ("POST", "/webhooks/{id}/test"),
    ("GET", "/webhooks/{id}/deliveries"),
    ("GET", "/webhooks/{id}/deliveries/{id}"),
    ("POST", "/webhooks/{id}/deliveries/{id}/retry"),
]


@pytest.mark.parametrize("number", [HUGE, BIGINT_PAST, JUST_PAST])
@pytest.mark.parametrize(("method", "path"), API_ROUTES)
async def test_an_id_out_of_range_is_a_404(
    client: AsyncClient, admin: AuthFor, method: str, path: str, number: str
) -> None:
    url = API + path.replace("{id}", number)
    body = None if method in ("GET", "DELETE") else {"title": "x", "name": "x"}
    response = await client.request(method, url, json=body, headers=admin.basic)
    assert response.status_code == 404, response.text
    assert response.json()["data"]["status"] == 404
    # The language segment's copy of the route too.
    german = await client.request(method, f"/de{url}", json=body, headers=admin.basic)
    assert german.status_code == 404, german.text


DESK_ROUTES = [
    ("GET", "/desk/events/{id}/edit"),
    ("POST", "/desk/events/{id}/edit"),
    ("GET", "/desk/venues/{id}/edit"),
    ("POST", "/desk/venues/{id}/trash"),
    ("GET", "/desk/organizers/{id}/edit"),
    ("GET", "/desk/categories/{id}/edit"),
    ("POST", "/desk/tags/{id}/delete"),
    ("GET", "/desk/media/{id}/edit"),
    ("POST", "/desk/media/{id}/delete"),
    ("POST", "/desk/users/{id}/role"),
    ("POST", "/desk/users/{id}/sessions/end"),
    ("POST", "/desk/sessions/{id}/end"),
]


async def test_an_id_out_of_range_is_a_404_on_the_desk(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    token = await desk_login(client, await desk_user("administrator"))
    failures = []
    for number in (HUGE, BIGINT_PAST):
        for method, path in DESK_ROUTES:
            url = path.replace("{id}", number)
            data = {"csrf_token": token, "role": "editor"} if method == "POST" else None
            response = await client.request(method, url, data=data)
            if response.status_code != 404:
                failures.append((method, url, response.status_code))
    assert failures == []


@pytest.mark.parametrize(
    "path", ["/sitemap-{n}.xml", "/events/list/page/{n}/", "/events/category/music/list/page/{n}/"]
)
async def test_a_page_number_out_of_range_is_a_404(client: AsyncClient, path: str) -> None:
    """The pages' numbered paths take the same numbers (a sitemap part past 64 bits was a 500)."""
    response = await client.get(path.replace("{n}", HUGE))
    assert response.status_code == 404, response.text[:200]
