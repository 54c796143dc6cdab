"""Operations in process: /healthz, /readyz, /metrics, request ids, the access line, and the
pool's metrics on a real pool. Real servers, several workers and instances, JSON logs and
a stopped database are in tests/live/test_instances.py and tests/live/test_readiness.py."""

import logging
import re
from collections.abc import AsyncIterator

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.app_services import app_services
from app.core.database.engine import get_sessionmaker, make_engine
from app.core.database.migrate import head_revisions
from app.core.observability.metrics import Metrics
from app.core.settings import get_settings
from app.main import create_app
from tests.factories import API, Auth, asgi_client, basic, make_event

HEX_ID = re.compile(r"[0-9a-f]{32}")


def samples(text_format: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a metrics text, parsed by prometheus_client's own parser."""
    found = {}
    for family in text_string_to_metric_families(text_format):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


async def scrape(client: AsyncClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    assert response.headers["Cache-Control"] == "no-store"
    return samples(response.text)


def requests_of(
    scraped: dict[tuple[str, tuple[tuple[str, str], ...]], float], **labels: str
) -> float:
    key = ("almanac_http_requests_total", tuple(sorted(labels.items())))
    return scraped.get(key, 0.0)


async def test_liveness_and_readiness(client: AsyncClient) -> None:
    live = await client.get("/healthz")
    assert live.status_code == 200
    assert live.json() == {"status": "ok"}
    assert live.headers["Cache-Control"] == "no-store"
    ready = await client.get("/readyz")
    assert ready.status_code == 200, ready.text
    assert ready.json() == {"status": "ready", "revision": ", ".join(sorted(head_revisions()))}
    assert ready.headers["Cache-Control"] == "no-store"
    # Outside the namespace: not in the API's description of itself.
    doc = (await client.get(f"{API}/doc")).json()
    assert not [path for path in doc["paths"] if "healthz" in path or "readyz" in path]


async def test_readiness_names_an_outdated_schema(
    app: FastAPI, maker: async_sessionmaker[AsyncSession]
) -> None:
    async with maker() as session:
        await session.execute(text("UPDATE alembic_version SET version_num = 'c0ffee000000'"))
        await session.commit()  # a savepoint of the test's transaction, rolled back after
    app.dependency_overrides[get_sessionmaker] = lambda: maker
    try:
        async with asgi_client(app) as client:
            response = await client.get("/readyz")
    finally:
        app.dependency_overrides.clear()
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    body = response.json()
    assert body["code"] == "rest_unavailable"
    assert body["data"] == {"status": 503, "reason": "schema_not_current"}
    assert "c0ffee000000" in body["message"]
    assert "almanac migrate" in body["message"]


async def test_request_ids(app: FastAPI, client: AsyncClient) -> None:
    first = await client.get(f"{API}/tags")
    second = await client.get(f"{API}/tags")
    assert HEX_ID.fullmatch(first.headers["X-Request-ID"])
    assert first.headers["X-Request-ID"] != second.headers["X-Request-ID"]
    # Errors and routes outside the namespace carry one too.
    assert HEX_ID.fullmatch((await client.get("/nothing-here")).headers["X-Request-ID"])
    # The test client is 127.0.0.1, a trusted proxy (FORWARDED_ALLOW_IPS): its id is kept.
    proxied = await client.get(f"{API}/tags", headers={"X-Request-ID": "nginx-7f3a.42"})
    assert proxied.headers["X-Request-ID"] == "nginx-7f3a.42"
    # ... unless it is not an id (it would forge log lines or headers).
    for forged in ("two words", "x" * 200, "line\\nbreak", "<script>"):
        answered = await client.get(f"{API}/tags", headers={"X-Request-ID": forged})
        assert HEX_ID.fullmatch(answered.headers["X-Request-ID"]), forged
    # Anyone else's is replaced.
    async with asgi_client(app, client=("198.51.100.7", 4000)) as stranger:
        response = await stranger.get(f"{API}/tags", headers={"X-Request-ID": "chosen-by-me"})
    assert HEX_ID.fullmatch(response.headers["X-Request-ID"])


@pytest.fixture
def failing_app(database_url: str) -> FastAPI:
    app = create_app(get_settings().model_copy(update={"database_url": database_url}))

    async def explode() -> None:
        raise RuntimeError("internals")

    async def explode_outside() -> None:
        raise Exception("not one of the classes the exception middleware answers")

    app.add_api_route(f"{API}/explode", explode)
    app.add_api_route(f"{API}/explode-outside", explode_outside)
    return app


async def test_a_500_gives_the_request_id_as_its_reference(
    failing_app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with asgi_client(failing_app) as client:
        for path in ("explode", "explode-outside"):
            response = await client.get(f"{API}/{path}", headers={"X-Request-ID": f"ref-{path}"})
            assert response.status_code == 500
            assert response.headers["X-Request-ID"] == f"ref-{path}"
            body = response.json()
            assert body["code"] == "rest_internal_error"
            assert body["message"] == f"An unexpected error occurred. Reference: ref-{path}"
            # The traceback's log line names the same reference.
            errors = [r for r in caplog.records if r.name == "almanac.errors"]
            assert f"request id ref-{path}" in errors[-1].getMessage()
            assert errors[-1].exc_info is not None
            access = [r for r in caplog.records if r.name == "almanac.access"]
            assert access[-1].status == 500  # type: ignore[attr-defined]
            assert access[-1].path == f"{API}/{path}"  # type: ignore[attr-defined]
    await app_services(failing_app).failed_logins.close()


async def test_one_access_line_per_request(
    client: AsyncClient, auth: Auth, caplog: pytest.LogCaptureFixture
) -> None:
    editor = await auth("editor")
    caplog.set_level(logging.INFO, logger="almanac.access")
    created = await client.post(f"{API}/tags", json={"name": "Logged"}, headers=editor.basic)
    assert created.status_code == 201
    await client.get(f"/de{API}/tags/{created.json()['id']}", params={"password": "hidden"})
    lines = [r for r in caplog.records if r.name == "almanac.access"]
    assert len(lines) == 2
    write, read = lines
    assert write.method == "POST"  # type: ignore[attr-defined]
    assert write.route == f"{API}/tags"  # type: ignore[attr-defined]
    assert write.status == 201  # type: ignore[attr-defined]
    assert write.user_id == editor.id  # type: ignore[attr-defined]
    assert write.duration_ms > 0  # type: ignore[attr-defined]
    assert read.route == f"/{{lang}}{API}/tags/{{id}}"  # type: ignore[attr-defined]
    assert read.user_id is None  # type: ignore[attr-defined]
    assert read.path == f"/de{API}/tags/{created.json()['id']}?password=***"  # type: ignore[attr-defined]
    assert "hidden" not in read.getMessage()
    assert f"user={editor.id}" in write.getMessage()
    for secret in (editor.password, "hidden"):
        assert all(secret not in r.getMessage() for r in lines)


async def test_metrics_move_with_requests(
    client: AsyncClient, auth: Auth, db: AsyncSession
) -> None:
    editor = await auth("editor")
    for _ in range(3):
        await make_event(db)
    before = await scrape(client)
    for _ in range(3):
        assert (await client.get(f"{API}/categories/999999")).status_code == 404
    # A page smaller than the total needs a count: counted once, then found in the cache.
    for _ in range(2):
        assert (await client.get(f"{API}/events", params={"per_page": 1})).json()["total"] == 3
    wrong = basic(editor.login, "wrong")
    for _ in range(10):
        assert (await client.get(f"{API}/tags", headers=wrong)).status_code == 401
    assert (await client.get(f"{API}/tags", headers=wrong)).status_code == 429
    await client.get("/no/such/path")
    after = await scrape(client)

    def moved(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    single = f"{API}/categories/{{id}}"
    assert moved("almanac_http_requests_total", route=single, method="GET", status="404") == 3
    assert moved("almanac_http_request_duration_seconds_count", route=single, method="GET") == 3
    assert (
        moved("almanac_http_requests_total", route=f"{API}/tags", method="GET", status="401") == 10
    )
    assert (
        moved("almanac_http_requests_total", route=f"{API}/tags", method="GET", status="429") == 1
    )
    # Paths that are no route share one label: the label values stay few.
    assert moved("almanac_http_requests_total", route="unmatched", method="GET", status="404") == 1
    assert moved("almanac_failed_signins_total") == 10
    assert moved("almanac_throttled_requests_total") == 1
    assert moved("almanac_cache_lookups_total", cache="totals", result="miss") == 1
    assert moved("almanac_cache_lookups_total", cache="totals", result="hit") == 1
    routes = {dict(labels).get("route") for (_, labels) in after}
    assert not [r for r in routes if r and "999999" in r]


async def test_metrics_can_be_switched_off(database_url: str) -> None:
    settings = get_settings().model_copy(update={"metrics_enabled": False})
    app = create_app(settings)
    async with asgi_client(app) as client:
        response = await client.get("/metrics")
    assert response.status_code == 404
    assert response.json()["code"] == "rest_no_route"


@pytest.fixture
async def tiny_pool(database_url: str) -> AsyncIterator[tuple[Metrics, object]]:
    settings = get_settings().model_copy(
        update={"db_pool_size": 1, "db_max_overflow": 0, "db_connect_timeout": 0.3}
    )
    engine = make_engine(database_url, settings)
    metrics = Metrics(enabled=True)
    metrics.watch_pool(engine.sync_engine.pool, "primary")
    try:
        yield metrics, engine
    finally:
        await engine.dispose()


async def test_pool_metrics_count_connections_in_use_and_waits(
    tiny_pool: tuple[Metrics, object],
) -> None:
    metrics, engine = tiny_pool

    def scraped() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        return samples(metrics.exposition()[0].decode())

    pool = (("pool", "primary"),)
    assert scraped()[("almanac_db_pool_connections_max", pool)] == 1
    async with engine.connect() as held:  # type: ignore[attr-defined]
        await held.execute(text("SELECT 1"))
        assert scraped()[("almanac_db_pool_connections_in_use", pool)] == 1
        # The only connection is out: the next checkout waits, here until the pool's timeout.
        with pytest.raises(PoolTimeoutError):
            async with engine.connect() as second:  # type: ignore[attr-defined]
                await second.execute(text("SELECT 1"))
    after = scraped()
    assert after[("almanac_db_pool_connections_in_use", pool)] == 0
    assert after[("almanac_db_pool_wait_seconds_count", pool)] == 1
    assert after[("almanac_db_pool_wait_seconds_sum", pool)] > 0
    # A checkout that finds an idle connection is no wait.
    async with engine.connect() as again:  # type: ignore[attr-defined]
        await again.execute(text("SELECT 1"))
    assert scraped()[("almanac_db_pool_wait_seconds_count", pool)] == 1
