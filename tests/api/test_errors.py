"""Every error leaves in the reference envelope, never as FastAPI's default shapes."""

from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from app.core.database.engine import get_sessionmaker
from app.main import create_app
from tests.factories import API, asgi_client


async def test_unknown_route_is_rest_no_route(client: AsyncClient) -> None:
    for path in (
        "/nothing",
        f"{API}/nothing",
        f"{API}/categories/1/extra",
        f"{API}/categories/abc",
    ):
        response = await client.get(path)
        assert response.status_code == 404
        assert response.headers["content-type"] == "application/json; charset=utf-8"
        assert response.json() == {
            "code": "rest_no_route",
            "message": "No route was found matching the URL and request method.",
            "data": {"status": 404},
        }


async def test_wrong_method_is_405_with_allow(client: AsyncClient) -> None:
    response = await client.delete(f"{API}/categories")
    assert response.status_code == 405
    assert response.json()["code"] == "rest_no_route"
    assert set(response.headers["Allow"].replace(" ", "").split(",")) == {"GET", "POST"}


async def test_an_encoded_slash_in_a_slug_is_no_route(client: AsyncClient, auth: Any) -> None:
    # `a%2Fb` is one segment: no route takes a slug with a slash (the decoded path would
    # match the GET-only `/by-slug/{slug}/{day}` and answer 405 or a 400 about `day`).
    editor = await auth("editor")
    for plural in ("events", "venues", "organizers"):
        for method in ("GET", "PATCH", "POST", "PUT", "DELETE"):
            response = await client.request(
                method, f"{API}/{plural}/by-slug/a%2Fb", json={}, headers=editor.basic
            )
            assert response.status_code == 404, (plural, method, response.text)
            assert response.json()["code"] == "rest_no_route"
            assert "Allow" not in response.headers


async def test_invalid_json_body(client: AsyncClient, auth: Any) -> None:
    editor = await auth("editor")
    json_headers = {"Content-Type": "application/json"}
    messages = {
        b"{not json": "Invalid JSON body passed: unexpected character, expected a string key "
        "at line 1, column 2.",
        b"[1, 2]": 'The JSON body must be an object of parameters ({"name": value, ...}), '
        "not an array.",
        b'"text"': 'The JSON body must be an object of parameters ({"name": value, ...}), '
        "not a string.",
        b"[" * 40 + b"]" * 40: 'The JSON body must be an object of parameters ({"name": '
        "value, ...}), not an array.",
    }
    for body, message in messages.items():
        response = await client.post(
            f"{API}/categories", content=body, headers={**json_headers, **editor.basic}
        )
        assert response.status_code == 400, body
        assert response.json()["code"] == "rest_invalid_json"
        assert response.json()["message"] == message
        # The caller is checked before the payload: anonymous writes are a 401 whatever it is.
        anonymous = await client.post(f"{API}/events", content=body, headers=json_headers)
        assert anonymous.status_code == 401
        assert anonymous.json()["code"] == "rest_forbidden"


async def test_deeply_nested_json_is_refused(client: AsyncClient, auth: Any) -> None:
    editor = await auth("editor")
    nested = b'{"name": ' + b'{"a": ' * 60 + b"1" + b"}" * 60 + b"}"
    response = await client.post(
        f"{API}/tags", content=nested, headers={"Content-Type": "application/json", **editor.basic}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "rest_invalid_json"
    assert response.json()["message"] == "The JSON body is nested deeper than 32 levels."


async def test_body_too_large_is_413(client: AsyncClient) -> None:
    big = b'{"name": "' + b"x" * 2_000_000 + b'"}'
    response = await client.post(
        f"{API}/categories", content=big, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413
    assert response.json()["code"] == "rest_payload_too_large"

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it streams
        for _ in range(40):
            yield b"x" * 65536

    streamed = await client.post(
        f"{API}/categories", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert streamed.status_code == 413
    assert streamed.json()["code"] == "rest_payload_too_large"


@pytest.fixture
def failing_app() -> FastAPI:
    app = create_app()

    async def explode() -> None:
        raise RuntimeError("secret internals: SELECT password FROM users")

    async def bad_value() -> None:
        raise ValueError("secret internals too")

    app.add_api_route(f"{API}/explode", explode)
    app.add_api_route(f"{API}/bad-value", bad_value)
    return app


async def test_unexpected_error_is_500_without_internals(failing_app: FastAPI) -> None:
    async with asgi_client(failing_app) as client:
        response = await client.get(f"{API}/explode", params={"i18n_language": "de"})
        other = await client.get(f"{API}/bad-value")
    assert other.status_code == 500
    assert other.json()["code"] == "rest_internal_error"
    assert "secret" not in other.text
    assert response.status_code == 500
    body = response.json()
    assert body["code"] == "rest_internal_error"
    assert body["data"] == {"status": 500}
    assert "secret" not in response.text
    assert "Traceback" not in response.text
    assert body["message"].startswith("Ein unerwarteter Fehler")


async def test_unreachable_database_is_503_with_retry_after() -> None:
    app = create_app()
    # Nothing listens on port 9 of the loopback: connections are refused at once.
    engine = create_async_engine(
        "postgresql+asyncpg://postgres@127.0.0.1:9/none", connect_args={"timeout": 2}
    )
    app.dependency_overrides[get_sessionmaker] = lambda: async_sessionmaker(engine)
    async with asgi_client(app) as client:
        response = await client.get(f"{API}/categories")
    await engine.dispose()
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert response.json()["code"] == "rest_unavailable"
    assert response.json()["data"] == {"status": 503}


async def test_common_headers_on_every_response(client: AsyncClient) -> None:
    for path in (f"{API}/categories", f"{API}/nothing", f"/de{API}/tags"):
        response = await client.get(path)
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "Authorization" in response.headers["Vary"]
        # Read (and so named) only when neither a parameter nor the path gives the language.
        assert ("Accept-Language" in response.headers["Vary"]) is (not path.startswith("/de"))
        assert response.headers["Content-Language"] in ("en", "de")
