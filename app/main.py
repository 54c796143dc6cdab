"""Application factory."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from app.api import api_router
from app.changes.pruning import ChangePruner
from app.core.edge.access import AccessLog, RouteTemplates, route_template
from app.core.edge.caching import (
    CountCache,
    PrincipalCache,
    ResponseCache,
    ResponseCaching,
    after_write,
)
from app.core.edge.cors import cors
from app.core.edge.errors import register_error_handlers
from app.core.edge.etags import tag_responses
from app.core.edge.middleware import (
    TrustedPeers,
    body_limit,
    head_as_get,
    response_headers,
    trailing_slash,
    trusted_proxy,
)
from app.core.edge.pipeline import EdgePipeline, Step
from app.core.edge.ratelimit import FailedLogins
from app.core.edge.urls import NAMESPACE
from app.core.infra.database import (
    add_after_commit,
    make_engine,
    make_sessionmaker,
    raw_dsn,
    read_engine,
    resolve_database_url,
    version_pool,
)
from app.core.infra.logs import configure_logging
from app.core.infra.metrics import Metrics
from app.core.infra.settings import LANGUAGES, Settings, get_settings
from app.discovery.router import api_index, describe_index, docs_redirect, namespace_router
from app.events.horizon import HorizonKeeper
from app.events.occurrences import Horizon
from app.ops.health import add_operations_routes

PAGING_HEADERS = ["X-TEC-Total", "X-TEC-TotalPages", "X-WP-Total", "X-WP-TotalPages", "Link"]
EXPOSED_HEADERS = [*PAGING_HEADERS, "ETag"]
CONDITIONAL_HEADERS = ["If-Match", "If-None-Match"]


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
    settings: Settings = app.state.settings
    url = resolve_database_url(settings)
    engine = make_engine(url, settings)
    reads = read_engine(engine, settings)
    metrics: Metrics = app.state.metrics
    metrics.watch_pool(engine.sync_engine.pool, "primary")
    if settings.database_read_url:
        metrics.watch_pool(reads.sync_engine.pool, "replica")
    version_reader = await version_pool(url, settings)
    maker = make_sessionmaker(engine)
    # Series' dates follow the horizon: extended now and then daily (app/events/horizon.py).
    keeper: HorizonKeeper = app.state.horizon_keeper
    tasks = make_engine(url, settings, pooled=False)
    keeper.start(make_sessionmaker(tasks))
    yield {
        "sessionmaker": maker,
        "read_sessionmaker": make_sessionmaker(reads),
        "version_reader": version_reader,
    }
    await keeper.stop()
    await tasks.dispose()
    await version_reader.close()
    await app.state.failed_logins.close()
    await reads.dispose()
    await engine.dispose()
    metrics.process_exit()


def edge_steps(app: FastAPI, settings: Settings, metrics: Metrics) -> list[Step]:
    """The edge, outermost first (docs/architecture.md#the-edge): each step sees the request
    as the steps before it left it, and the response as the steps after it answered."""
    peers = TrustedPeers(settings.forwarded_allow_ips)
    return [
        # The request id and the access line cover everything after them.
        AccessLog(peers, metrics),
        # Before anything reads a URL: the public scheme, host, prefix and client.
        trusted_proxy(peers, settings.root_path),
        trailing_slash,
        # The path the router sees, and the cache hits that never reach the router.
        route_template(RouteTemplates(app)),
        response_headers(settings.default_language),
        # Inside the common headers (a HEAD gets the GET's), outside the cache (which keeps
        # GETs only) and the ETags (a HEAD's 304 is the GET's).
        head_as_get,
        cors(
            settings.cors_origins,
            allow_headers=[
                "Authorization",
                "Content-Type",
                "Content-Disposition",
                "Content-MD5",
                *CONDITIONAL_HEADERS,
            ],
            expose_headers=EXPOSED_HEADERS,
        ),
        # Outside the ETags: cached entries keep theirs (a hit's 304 hashes nothing).
        ResponseCaching(app.state.response_cache, settings.site_zone),
        body_limit(settings.max_body_bytes, settings.default_language),
        tag_responses,
    ]


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app; `settings` default to the environment's (read here, once, and injected into
    everything else through `app.state.settings`)."""
    settings = settings or get_settings()
    configure_logging(settings.log_format, settings.log_level)
    app = FastAPI(
        title="almanac",
        summary="Events calendar API compatible with The Events Calendar REST v1",
        version="1.0.0",
        lifespan=lifespan,
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        redirect_slashes=False,
    )
    app.state.settings = settings
    app.state.metrics = metrics = Metrics(settings.metrics_enabled)
    app.state.event_totals = CountCache(observe=metrics.totals_lookup)
    app.state.response_cache = ResponseCache()
    app.state.principals = PrincipalCache()
    # After a committed write: a new data version first (no cache serves the old state),
    # then the change log's pruning (at most once a minute per process).
    add_after_commit(app.state, after_write)
    add_after_commit(app.state, ChangePruner(settings.changes_retention_days).after_write)
    app.state.horizon_keeper = HorizonKeeper(
        Horizon(settings.recurrence_horizon_days, settings.recurrence_max_occurrences)
    )
    app.state.failed_logins = FailedLogins(
        settings.login_failures_limit,
        settings.login_failures_window,
        # Its own pool only where the app runs without its lifespan (the in-process tests).
        dsn=settings.database_url and raw_dsn(settings.database_url),
        statement_cache_size=100 if settings.db_prepared_statements else 0,
    )
    register_error_handlers(app)
    add_operations_routes(app, metrics)
    for index_path in ("/", *(f"/{language}" for language in LANGUAGES)):
        app.add_api_route(index_path, api_index, methods=["GET"], tags=["discovery"])
        app.add_api_route(index_path, describe_index, methods=["OPTIONS"], include_in_schema=False)
    app.add_api_route("/docs", docs_redirect, methods=["GET"], include_in_schema=False)
    for language_prefix in ("", "/{lang}"):
        app.include_router(namespace_router, prefix=f"{language_prefix}/{NAMESPACE}")
        app.include_router(api_router, prefix=f"{language_prefix}/{NAMESPACE}")

    app.add_middleware(EdgePipeline, steps=edge_steps(app, settings, metrics))
    return app
