"""The application's long-lived services: one typed object, made once by `create_app()`
(app/main.py), stored once on the app and read through `services_of` (a request's) or
`app_services` (an app's). Nothing else reads `app.state`.

The edge's types are imported for the type checker only: modules that they import (the
language of a response) read the services too."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from fastapi import Depends, Request
from starlette.applications import Starlette

from app.core.database.engine import AfterCommit, SessionMaker
from app.core.database.pool_share import AnonymousReads
from app.core.observability.activity import RequestActivity
from app.core.observability.metrics import Metrics
from app.core.settings import Settings

if TYPE_CHECKING:
    from app.core.caching.cache import CountCache, PrincipalCache, ResponseCache
    from app.core.geocoding.geocoder import Geocoder
    from app.core.security.ratelimit import FailedLogins

STATE_KEY = "services"


class BackgroundTask(Protocol):
    """Work of the process the lifespan starts with a session maker of its own and stops at
    shutdown (the venues' geocoding, app/venues/geocoding.py)."""

    def start(self, maker: SessionMaker) -> None: ...
    async def stop(self) -> None: ...


class Templates(Protocol):
    """Named templates rendered in a language: the pages' (app/pages/templating.py) and the
    desk's (app/desk/templating.py)."""

    def render(self, language: str, name: str, **values: Any) -> str: ...


@dataclass(frozen=True, slots=True)
class AppServices:
    """What lives as long as the app (one of each per worker process)."""

    # Read once from the environment by create_app(); never imported at module level.
    settings: Settings
    metrics: Metrics
    # Requests in flight: webhook deliveries wait for them to let up (app/core/observability/activity.py).
    activity: RequestActivity
    # The event list's totals per filter and data version (app/events/listing.py).
    event_totals: CountCache
    # Anonymous GETs' answers per data version (the edge's cache step).
    response_cache: ResponseCache
    # Signed-in callers per Authorization header and data version (app/users/auth.py).
    principals: PrincipalCache
    # Failed logins and record-password guesses per client (app/core/security/ratelimit.py).
    failed_logins: FailedLogins
    # Anonymous reads' share of the connection pool (app/core/database/pool_share.py).
    anonymous_reads: AnonymousReads
    # Run in order after every committed write (app/core/database/engine.py session_scope).
    after_commit: tuple[AfterCommit, ...]
    # Images one worker decodes and resizes at once (app/media/uploads.py).
    media_slots: asyncio.Semaphore
    page_templates: Templates
    desk_templates: Templates
    # The geocoding service's client where GEOCODER_URL is set (app/core/geocoding/geocoder.py): one per
    # process, which keeps its one request a second; None: the embedded gazetteer alone.
    geocoder: Geocoder | None = None
    # Started and stopped by the lifespan, beside the horizon keeper and the webhooks.
    background: tuple[BackgroundTask, ...] = ()


def attach_services(app: Starlette, services: AppServices) -> None:
    """Store `services` on `app` (create_app does, once)."""
    setattr(app.state, STATE_KEY, services)


def app_services(app: Starlette) -> AppServices:
    services: AppServices = getattr(app.state, STATE_KEY)
    return services


def services_of(request: Request) -> AppServices:
    """The services of the app serving `request`."""
    services: AppServices = getattr(request.app.state, STATE_KEY)
    return services


async def app_settings(request: Request) -> Settings:
    """The settings of the running app, as a dependency. Async, as every dependency on a hot
    path: FastAPI runs plain functions in a thread."""
    return services_of(request).settings


SettingsDep = Annotated[Settings, Depends(app_settings)]
