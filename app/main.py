"""Application factory."""

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from app.api import api_router
from app.core.caching import CountCache, PrincipalCache, ResponseCache, ResponseCacheMiddleware
from app.core.database import (
    make_engine,
    make_sessionmaker,
    read_engine,
    resolve_database_url,
    version_pool,
)
from app.core.errors import register_error_handlers
from app.core.logs import install_secret_filters
from app.core.middleware import (
    BodySizeLimitMiddleware,
    ResponseHeadersMiddleware,
    TrailingSlashMiddleware,
    TrustedProxyMiddleware,
)
from app.core.ratelimit import FailedLogins
from app.core.settings import LANGUAGES, Settings, get_settings
from app.core.urls import NAMESPACE
from app.discovery.router import api_index, docs_redirect, namespace_router

PAGING_HEADERS = ["X-TEC-Total", "X-TEC-TotalPages", "X-WP-Total", "X-WP-TotalPages", "Link"]


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
    settings: Settings = app.state.settings
    url = resolve_database_url(settings)
    engine = make_engine(url, settings)
    reads = read_engine(engine, settings)
    version_reader = await version_pool(url, settings)
    yield {
        "sessionmaker": make_sessionmaker(engine),
        "read_sessionmaker": make_sessionmaker(reads),
        "version_reader": version_reader,
    }
    await version_reader.close()
    await reads.dispose()
    await engine.dispose()


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app; `settings` default to the environment's (read here, once, and injected into
    everything else through `app.state.settings`)."""
    settings = settings or get_settings()
    logging.basicConfig(level=settings.log_level.upper())
    install_secret_filters()
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
    app.state.event_totals = CountCache()
    app.state.response_cache = ResponseCache()
    app.state.principals = PrincipalCache()
    app.state.failed_logins = FailedLogins(
        settings.login_failures_limit, settings.login_failures_window
    )
    register_error_handlers(app)
    for index_path in ("/", *(f"/{language}" for language in LANGUAGES)):
        app.add_api_route(index_path, api_index, methods=["GET"], tags=["discovery"])
    app.add_api_route("/docs", docs_redirect, methods=["GET"], include_in_schema=False)
    for language_prefix in ("", "/{lang}"):
        app.include_router(namespace_router, prefix=f"{language_prefix}/{NAMESPACE}")
        app.include_router(api_router, prefix=f"{language_prefix}/{NAMESPACE}")

    # Added innermost first: the proxy middleware must see the request before anything else.
    app.add_middleware(
        BodySizeLimitMiddleware,
        max_bytes=settings.max_body_bytes,
        default_language=settings.default_language,
    )
    app.add_middleware(
        ResponseCacheMiddleware, cache=app.state.response_cache, site_zone=settings.site_zone
    )
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.cors_origins,
        allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        allow_headers=["Authorization", "Content-Type", "Content-Disposition", "Content-MD5"],
        expose_headers=PAGING_HEADERS,
    )
    app.add_middleware(ResponseHeadersMiddleware, default_language=settings.default_language)
    app.add_middleware(TrailingSlashMiddleware)
    app.add_middleware(
        TrustedProxyMiddleware, trusted=settings.forwarded_allow_ips, root_path=settings.root_path
    )
    return app
