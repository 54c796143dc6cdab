"""Application factory."""

import asyncio
import gc
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from fastapi import FastAPI

from app import VERSION
from app.api import api_router
from app.changes.pruning import ChangePruner
from app.core.app_services import AppServices, app_services, attach_services
from app.core.asgi.pipeline import EdgePipeline, Step
from app.core.caching.cache import (
    CountCache,
    PrincipalCache,
    ResponseCache,
    ResponseCaching,
    after_write,
)
from app.core.caching.etags import tag_responses
from app.core.database.engine import (
    make_engine,
    make_sessionmaker,
    raw_dsn,
    read_engine,
    release_idle,
    resolve_database_url,
    version_pool,
)
from app.core.database.pool_share import AnonymousReads
from app.core.database.positions import POSITION_HEADER, read_position, written_position
from app.core.database.replica import ReadRouter, ReplicaMonitor
from app.core.geocoding.geocoder import Geocoder
from app.core.observability.activity import RequestActivity
from app.core.observability.in_flight import count_requests
from app.core.observability.logs import configure_logging
from app.core.observability.metrics import Metrics
from app.core.rules.constants import NAMESPACE
from app.core.security.cors import cors
from app.core.security.ratelimit import FailedLogins
from app.core.settings import Settings, get_settings
from app.core.web.access import AccessLog, RouteTemplates, route_template
from app.core.web.errors import answer_outages, register_error_handlers
from app.core.web.middleware import (
    TrustedPeers,
    body_limit,
    head_as_get,
    response_headers,
    trailing_slash,
    trusted_proxy,
)
from app.desk.router import add_desk_routes
from app.desk.templating import DeskTemplates
from app.discovery.router import api_index, describe_index, docs_redirect, namespace_router
from app.events.horizon import HorizonKeeper
from app.events.occurrences import Horizon
from app.http.ignored import IGNORED_HEADER, report_ignored
from app.i18n import LANGUAGES
from app.mail.worker import MailWorker
from app.media.files import serve_media_file
from app.ops.health import add_operations_routes
from app.pages.headers import fresh_nonces
from app.pages.paths import is_cached_path
from app.pages.router import add_page_routes
from app.pages.templating import Environments
from app.venues.geocoding import VenueGeocoding
from app.webhooks.worker import LANES, WebhookWorker

# Images one worker decodes and resizes at once (app/media/uploads.py).
MEDIA_PROCESSING_SLOTS = 2
PAGING_HEADERS = ["X-TEC-Total", "X-TEC-TotalPages", "X-WP-Total", "X-WP-TotalPages", "Link"]
EXPOSED_HEADERS = [*PAGING_HEADERS, "ETag", POSITION_HEADER, IGNORED_HEADER]
CONDITIONAL_HEADERS = ["If-Match", "If-None-Match"]


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
    services = app_services(app)
    settings, metrics = services.settings, services.metrics
    url = resolve_database_url(settings)
    engine = make_engine(url, settings)
    reads = read_engine(engine, settings)
    metrics.watch_pool(engine.sync_engine.pool, "primary")
    version_reader = await version_pool(url, settings)
    maker = make_sessionmaker(engine)
    # Series' dates follow the horizon: extended now and then daily (app/events/horizon.py).
    keeper = HorizonKeeper(
        Horizon(settings.recurrence_horizon_days, settings.recurrence_max_occurrences)
    )
    tasks = make_engine(url, settings, pooled=False)
    keeper.start(make_sessionmaker(tasks))
    for task in services.background:  # the venues' geocoding, the mail outbox's sender
        task.start(make_sessionmaker(tasks))
    # Webhooks are delivered by every worker (app/webhooks/worker.py); a small pool of its
    # own, as it runs all the time.
    webhooks = WebhookWorker(settings, metrics, services.activity)
    webhook_engine = make_engine(url, settings.model_copy(update={"db_pool_size": LANES + 1}))
    webhooks.start(make_sessionmaker(webhook_engine))
    async with read_replica(settings, version_reader, metrics) as replica:
        state = {
            "sessionmaker": maker,
            "read_sessionmaker": make_sessionmaker(reads),
            "version_reader": version_reader,
            **replica,
        }
        with startup_objects_frozen():
            yield state
    await keeper.stop()
    for task in services.background:
        await task.stop()
    await webhooks.stop()
    await webhook_engine.dispose()
    await tasks.dispose()
    await version_reader.close()
    await services.failed_logins.close()
    if services.geocoder is not None:
        await services.geocoder.aclose()
    await reads.dispose()
    await engine.dispose()
    metrics.process_exit()


@contextmanager
def startup_objects_frozen() -> Iterator[None]:
    """Keep what start-up made (modules, routes, models, pools: about 220,000 objects, all
    living as long as the process) out of the garbage collector's full passes while serving.
    Each full pass walked all of them, about 0.2 s of a worker's CPU every few hundred to a
    thousand uncached reads: on average 0.2 ms of each busted single event and 0.7 ms of each
    busted list page (docs/performance.md, fifth round), and a pause for every request
    waiting meanwhile. Objects made later are collected as ever."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@asynccontextmanager
async def read_replica(
    settings: Settings, primary_reader: Any, metrics: Metrics
) -> AsyncIterator[dict[str, Any]]:
    """With DATABASE_READ_URL: the replica's engine, its monitor and the read router
    (app/core/replica.py), as request state; nothing without."""
    if not settings.database_read_url:
        yield {}
        return
    engine = make_engine(settings.database_read_url, settings)
    metrics.watch_pool(engine.sync_engine.pool, "replica")
    replay_reader = await version_pool(settings.database_read_url, settings, min_size=0)
    monitor = ReplicaMonitor(
        primary_reader, replay_reader, settings, metrics, on_down=lambda: release_idle(engine)
    )
    await monitor.start()
    try:
        yield {
            "replica_sessionmaker": make_sessionmaker(read_engine(engine, settings)),
            "read_router": ReadRouter(monitor, settings, read_position),
            "replica_monitor": monitor,
        }
    finally:
        await monitor.stop()
        await replay_reader.close()
        await engine.dispose()


def edge_steps(app: FastAPI, services: AppServices) -> list[Step]:
    """The edge, outermost first (docs/architecture.md#the-edge): each step sees the request
    as the steps before it left it, and the response as the steps after it answered."""
    settings, metrics = services.settings, services.metrics
    peers = TrustedPeers(settings.forwarded_allow_ips)
    positions = [written_position(settings.replica_max_lag)]
    return [
        # Requests in flight in this process: webhook deliveries wait for them to let up.
        count_requests(services.activity),
        # The request id and the access line cover everything after them.
        AccessLog(peers, metrics),
        # A database outage raised in any step or route is a 503, on a connection kept open.
        answer_outages,
        # Before anything reads a URL: the public scheme, host, prefix and client.
        trusted_proxy(peers, settings.root_path),
        trailing_slash,
        # The path the router sees, and the cache hits that never reach the router.
        route_template(RouteTemplates(app)),
        # The position a write reached, on its answer (read-your-writes).
        *(positions if settings.database_read_url and settings.read_your_writes else []),
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
                POSITION_HEADER,
            ],
            expose_headers=EXPOSED_HEADERS,
        ),
        # Outside the cache: every page response gets a nonce of its own, a hit's included.
        fresh_nonces,
        # Outside the ETags: cached entries keep theirs (a hit's 304 hashes nothing).
        ResponseCaching(services.response_cache, settings.site_zone, pages=is_cached_path),
        body_limit(settings.max_body_bytes, settings.default_language, settings.max_upload_bytes),
        tag_responses,
        # Innermost: the fields a write ignored, named on its answer (after what it read).
        report_ignored,
    ]


def make_services(settings: Settings) -> AppServices:
    """The app's long-lived services (app/core/app_services.py), one of each."""
    metrics = Metrics(settings.metrics_enabled)
    activity = RequestActivity()
    geocoder = (
        Geocoder(settings.geocoder_url, settings.geocoder_user_agent)
        if settings.geocoder_url
        else None
    )
    # Venues' full addresses, after the writes that leave them to the service.
    geocoding = VenueGeocoding(geocoder, settings.geocoder_retry_minutes, activity)
    # The mail outbox's sender (with SMTP_URL only), woken by a write that queued mail.
    mail = MailWorker(settings, metrics)
    return AppServices(
        settings=settings,
        metrics=metrics,
        activity=activity,
        event_totals=CountCache(observe=metrics.totals_lookup),
        response_cache=ResponseCache(),
        principals=PrincipalCache(),
        failed_logins=FailedLogins(
            settings.login_failures_limit,
            settings.login_failures_window,
            # Its own pool only where the app runs without its lifespan (the in-process tests).
            dsn=settings.database_url and raw_dsn(settings.database_url),
            statement_cache_size=100 if settings.db_prepared_statements else 0,
        ),
        anonymous_reads=AnonymousReads.of(settings),
        # After a committed write: a new data version first (no cache serves the old state),
        # then the change log's pruning (at most once a minute per process), then the
        # venues' geocoding woken when the write left a venue to it, and the mail outbox's
        # sender when it queued a message.
        after_commit=(
            after_write,
            ChangePruner(settings.changes_retention_days).after_write,
            geocoding.after_write,
            mail.after_write,
        ),
        media_slots=asyncio.Semaphore(MEDIA_PROCESSING_SLOTS),
        page_templates=Environments(settings.templates_dir),
        desk_templates=DeskTemplates(),
        geocoder=geocoder,
        background=(geocoding, mail),
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app; `settings` default to the environment's (read here, once, and reaching
    everything else through the app's services, `services_of(request).settings`)."""
    settings = settings or get_settings()
    configure_logging(settings.log_format, settings.log_level)
    app = FastAPI(
        title="almanac",
        summary="Events calendar API compatible with The Events Calendar REST v1",
        version=VERSION,
        lifespan=lifespan,
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        redirect_slashes=False,
    )
    services = make_services(settings)
    attach_services(app, services)
    register_error_handlers(app)
    add_operations_routes(app, services.metrics)
    for index_path in ("/", *(f"/{language}" for language in LANGUAGES)):
        app.add_api_route(index_path, api_index, methods=["GET"], tags=["discovery"])
        app.add_api_route(index_path, describe_index, methods=["OPTIONS"], include_in_schema=False)
    app.add_api_route("/docs", docs_redirect, methods=["GET"], include_in_schema=False)
    # The media library's files (nginx serves the same directory in the compose set-up).
    app.add_api_route(
        "/media/{name:path}", serve_media_file, methods=["GET", "HEAD"], include_in_schema=False
    )
    for language_prefix in ("", "/{lang}"):
        app.include_router(namespace_router, prefix=f"{language_prefix}/{NAMESPACE}")
        app.include_router(api_router, prefix=f"{language_prefix}/{NAMESPACE}")
    # After the API's routes: `/{lang}/...` page paths never shadow the namespace.
    add_page_routes(app)
    # The editor's desk (app/desk/): before the edge pipeline, so that its headers step runs
    # inside it.
    add_desk_routes(app)

    app.add_middleware(EdgePipeline, steps=edge_steps(app, services))
    return app
