"""The API index lists every route (as WordPress's does), and Accept-Language is the last
source of the request language, named in Vary only when it was read."""

from typing import Any

from httpx import AsyncClient

from tests.factories import API, AuthFor


async def test_the_index_lists_every_route_of_the_namespace(
    client: AsyncClient, editor: AuthFor, admin: AuthFor
) -> None:
    index = await client.get("/")
    namespace = await client.get(API)
    assert index.status_code == namespace.status_code == 200
    routes: dict[str, Any] = index.json()["routes"]
    described: dict[str, Any] = namespace.json()["routes"]
    assert set(routes) == {"/", *described}
    assert len(described) >= 15
    # Keyed by the patterns WordPress registers, which its clients parse.
    record = rf"{API}/events/(?P<id>\d+)"
    for path in (f"{API}/events", record, rf"{API}/venues/by-slug/(?P<slug>[^/]+)",
                 f"{API}/categories", rf"{API}/tags/(?P<id>\d+)", f"{API}/organizers", f"{API}/doc"):  # fmt: skip
        assert path in routes, path
        assert routes[path]["namespace"] == "calendar/events/v1"
    events = routes[f"{API}/events"]
    assert set(events["methods"]) == {"GET", "POST"}
    listing = next(e for e in events["endpoints"] if e["methods"] == ["GET"])
    assert {"page", "per_page", "start_date", "categories", "venue"} <= set(listing["args"])
    assert listing["args"]["per_page"]["type"] == "integer"
    creating = next(e for e in events["endpoints"] if e["methods"] == ["POST"])
    assert creating["args"]["title"]["required"] is True
    assert set(routes[record]["methods"]) == {
        "GET",
        "POST",
        "PUT",
        "PATCH",
        "DELETE",
    }
    base = str(client.base_url).rstrip("/")
    assert events["_links"]["self"][0]["href"] == f"{base}{API}/events"
    assert index.json()["namespaces"] == ["calendar/events/v1"]
    # Every listed route without a path parameter links to itself, and answers there (the
    # media library to writers, webhooks to administrators).
    for path, entry in routes.items():
        if "(?P<" in path:
            assert "_links" not in entry, path
            continue
        if "GET" not in entry["methods"]:  # an action (POST /attendees/message)
            continue
        url = entry["_links"]["self"][0]["href"]
        answered = await client.get(url, headers={"Accept": "application/json"})
        if answered.status_code == 401:
            caller = admin if "/webhooks" in path else editor
            headers = {"Accept": "application/json", **caller.basic}
            answered = await client.get(url, headers=headers)
        assert answered.status_code == 200, path


async def test_accept_language_with_q_values(client: AsyncClient) -> None:
    cases = {
        "de": "de",
        "sk-SK": "sk",
        "de-AT, en;q=0.8": "de",
        "en;q=0.5, sk;q=0.9": "sk",
        "fr, de;q=0.1": "de",
        "fr, it": "en",  # none of ours: the default language
        "de;q=0, sk;q=0.2": "sk",
        "*": "en",
        "en;q=abc, de;q=0.3": "de",  # a malformed entry is skipped
    }
    for header, language in cases.items():
        response = await client.get(f"{API}/tags", headers={"Accept-Language": header})
        assert response.status_code == 200, header
        assert response.headers["Content-Language"] == language, header
        assert "Accept-Language" in response.headers["Vary"]


async def test_parameter_and_segment_win_over_the_header(client: AsyncClient) -> None:
    header = {"Accept-Language": "sk"}
    segment = await client.get(f"/de{API}/tags", headers=header)
    parameter = await client.get(f"{API}/tags", params={"i18n_language": "de"}, headers=header)
    both = await client.get(f"/en{API}/tags", params={"i18n_language": "de"}, headers=header)
    for response in (segment, parameter, both):
        assert response.headers["Content-Language"] == "de"
        # The header was not read, so the response does not vary with it.
        assert "Accept-Language" not in response.headers["Vary"]
        assert "Authorization" in response.headers["Vary"]
    plain = await client.get(f"{API}/tags")
    assert plain.headers["Content-Language"] == "en"
    assert "Accept-Language" in plain.headers["Vary"]  # read, and absent: the default


async def test_errors_follow_the_header_too(client: AsyncClient) -> None:
    header = {"Accept-Language": "de-DE,de;q=0.9"}
    no_route = await client.get(f"{API}/nowhere", headers=header)
    assert no_route.status_code == 404
    assert no_route.headers["Content-Language"] == "de"
    assert no_route.json()["message"].startswith("Es wurde keine Route gefunden")
    bad = await client.get(f"{API}/events", params={"per_page": "0"}, headers=header)
    assert bad.json()["message"] == "Ungültige(r) Parameter: per_page"
    assert bad.headers["Content-Language"] == "de"
