"""Behind a reverse proxy every absolute URL is the public one, for trusted proxies only."""

from fastapi import FastAPI
from httpx import ASGITransport, AsyncClient

from tests.factories import API, AuthFor

FORWARDED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "calendar.example.org",
    "X-Forwarded-Prefix": "/api",
    "X-Forwarded-For": "203.0.113.7",
}


async def test_forwarded_headers_shape_every_url(client: AsyncClient, auth: object) -> None:
    editor: AuthFor = await auth("editor")  # type: ignore[operator]
    public = "https://calendar.example.org/api"
    created = await client.post(
        f"{API}/categories", json={"name": "Proxied"}, headers={**FORWARDED, **editor.basic}
    )
    assert created.headers["Location"] == f"{public}{API}/categories/{created.json()['id']}"
    body = created.json()
    assert body["url"] == f"{public}/events/category/proxied/"
    assert body["urls"]["collection"] == f"{public}{API}/categories"
    for number in range(3):
        await client.post(f"{API}/tags", json={"name": f"T{number}"}, headers=editor.basic)
    listed = await client.get(
        f"{API}/tags", params={"per_page": 1, "page": 2, "hide_empty": 0}, headers=FORWARDED
    )
    page = listed.json()
    assert page["rest_url"].startswith(f"{public}{API}/tags/?")
    assert page["next_rest_url"].startswith(f"{public}{API}/tags/?")
    assert page["previous_rest_url"].startswith(f"{public}{API}/tags/?")
    links = listed.headers.get_list("Link")
    assert f'<{public}/>; rel="https://api.w.org/"' in links  # the API root, on every response
    paging = [link for link in links if "api.w.org" not in link]
    assert len(paging) == 1
    assert all(part.startswith(f"<{public}{API}/tags/") for part in paging[0].split(", "))
    namespace = await client.get(API, headers=FORWARDED)
    assert namespace.json()["_links"]["up"][0]["href"] == f"{public}/"
    doc = await client.get(f"{API}/doc", headers=FORWARDED)
    assert doc.json()["servers"][0]["url"] == f"{public}{API}"


async def test_trailing_slash_links_are_served(client: AsyncClient) -> None:
    response = await client.get(f"{API}/tags/", params={"hide_empty": 0})
    assert response.status_code == 200
    index = await client.get("/de/")
    assert index.status_code == 200
    assert index.json()["namespaces"] == ["calendar/events/v1"]


async def test_untrusted_clients_cannot_forge_urls(app: FastAPI, client: AsyncClient) -> None:
    transport = ASGITransport(app=app, client=("198.51.100.1", 4000))
    async with AsyncClient(transport=transport, base_url="http://testserver") as stranger:
        response = await stranger.get(f"{API}/tags", headers=FORWARDED)
    assert response.json()["rest_url"].startswith(f"http://testserver{API}/tags/")


async def test_forwarded_for_cannot_be_chosen_by_the_client(
    client: AsyncClient, auth: object
) -> None:
    # Failed logins are counted per client address; a client that prepends addresses of
    # its own to X-Forwarded-For is still counted under the one our proxy saw.
    editor: AuthFor = await auth("editor")  # type: ignore[operator]
    wrong = {"Authorization": "Bearer wrong"}
    for number in range(10):
        response = await client.get(
            f"{API}/tags", headers={**wrong, "X-Forwarded-For": f"10.9.9.{number}, 203.0.113.50"}
        )
        assert response.status_code == 401
    spoofed = {**editor.bearer, "X-Forwarded-For": "10.1.1.1, 203.0.113.50"}
    assert (await client.get(f"{API}/tags", headers=spoofed)).status_code == 429
    elsewhere = {**editor.bearer, "X-Forwarded-For": "203.0.113.51"}
    assert (await client.get(f"{API}/tags", headers=elsewhere)).status_code == 200
