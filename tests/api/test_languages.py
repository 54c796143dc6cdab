"""The request language: i18n_language, the path segment, Content-Language, messages."""

from httpx import AsyncClient

from tests.factories import API


async def test_language_sources_and_precedence(client: AsyncClient) -> None:
    cases = [
        (f"{API}/tags", {}, "en"),
        (f"/de{API}/tags", {}, "de"),
        (f"/sk{API}/tags", {}, "sk"),
        (f"/en{API}/tags", {}, "en"),
        (f"{API}/tags", {"i18n_language": "de"}, "de"),
        (f"/de{API}/tags", {"i18n_language": "sk"}, "sk"),  # the parameter wins
    ]
    for path, params, language in cases:
        response = await client.get(path, params=params)
        assert response.status_code == 200, path
        assert response.headers["Content-Language"] == language


async def test_language_in_body_is_honoured(client: AsyncClient) -> None:
    response = await client.post(f"{API}/tags", json={"i18n_language": "sk"})
    assert response.status_code == 401
    assert response.headers["Content-Language"] == "sk"
    assert response.json()["message"].startswith("Bez prihlásenia to, žiaľ, nie je dovolené")


async def test_unknown_language_is_400(client: AsyncClient) -> None:
    for params in ({"i18n_language": "xx"}, {"i18n_language": ""}):
        response = await client.get(f"{API}/tags", params=params)
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == "rest_invalid_param"
        assert list(body["data"]["params"]) == ["i18n_language"]
        assert response.headers["Content-Language"] == "en"


async def test_unknown_language_segment_is_no_route(client: AsyncClient) -> None:
    for path in (f"/fr{API}/events", f"/fr{API}", f"/xx{API}/tags/1", f"/fr{API}/doc"):
        response = await client.get(path)
        assert response.status_code == 404, path
        body = response.json()
        assert body["code"] == "rest_no_route"
        assert "i18n_language" not in response.text
        assert response.headers["Content-Language"] == "en"


async def test_error_messages_are_translated(client: AsyncClient) -> None:
    expected = {
        "en": "Invalid parameter(s): per_page",
        "de": "Ungültige(r) Parameter: per_page",
        "sk": "Neplatné parametre: per_page",
    }
    for language, message in expected.items():
        response = await client.get(f"/{language}{API}/tags", params={"per_page": "x"})
        assert response.status_code == 400
        assert response.json()["code"] == "rest_invalid_param"  # codes never change
        assert response.json()["message"] == message
    not_found = await client.get(f"/de{API}/categories/777777")
    assert not_found.json()["message"] == "Die Kategorie mit der ID 777777 existiert nicht."
    no_route = await client.get(f"/sk{API}/nowhere")
    assert no_route.json()["message"].startswith("Nenašla sa žiadna trasa")
