"""`GET /healthz` (liveness), `GET /readyz` (readiness) and `GET /metrics` (Prometheus).

Liveness answers without the database: a process that answers is alive, and restarting it
would not bring the database back. Readiness asks the database, within a second, for the
schema's revision: ready when it answers and the schema is the one this code expects (a
container of a newer release that has not migrated yet is not ready). With a read replica,
the answer says where reads go: a replica that is down or lags beyond REPLICA_MAX_LAG leaves
the instance ready (its reads go to the primary), and `replica` says so.
"""

import asyncio
import logging
from typing import Any

from fastapi import FastAPI, Request
from starlette.responses import Response

from app.core.database.engine import REVISIONS_SQL, MakerDep, applied_revisions
from app.core.database.migrate import head_revisions
from app.core.database.replica import ReplicaMonitor
from app.core.observability.metrics import Metrics
from app.core.web.responses import json_response

log = logging.getLogger(__name__)

READY_SECONDS = 1.0
NO_STORE = {"Cache-Control": "no-store"}
RETRY_AFTER_SECONDS = "5"


async def healthz() -> Response:
    return json_response({"status": "ok"}, 200, NO_STORE)


def _not_ready(reason: str, message: str) -> Response:
    log.warning("not ready: %s", message)
    body = {
        "code": "rest_unavailable",
        "message": message,
        "data": {"status": 503, "reason": reason},
    }
    return json_response(body, 503, {**NO_STORE, "Retry-After": RETRY_AFTER_SECONDS})


async def _revisions(request: Request, maker: Any) -> set[str]:
    """The schema's revisions, through the server's raw pool of the primary when there is
    one (the app run without its lifespan has only the request's session maker)."""
    reader = getattr(request.state, "version_reader", None)
    if reader is not None:
        rows = await reader.fetch(REVISIONS_SQL, timeout=READY_SECONDS)
        return {row["version_num"] for row in rows}
    async with maker() as session:
        return await applied_revisions(session)


async def readyz(request: Request, maker: MakerDep) -> Response:
    try:
        found = await asyncio.wait_for(_revisions(request, maker), READY_SECONDS)
    except TimeoutError:
        return _not_ready("database_timeout", "The database did not answer within a second.")
    except Exception as exc:  # whatever the driver raises: the answer is "not ready"
        name = type(exc).__name__
        return _not_ready("database_unreachable", f"The database cannot be reached ({name}).")
    expected = head_revisions()
    if found != expected:
        message = (
            f"The database schema is at {', '.join(sorted(found)) or 'no revision'}; "
            f"this release needs {', '.join(sorted(expected))} (run `almanac migrate`)."
        )
        return _not_ready("schema_not_current", message)
    body: dict[str, Any] = {"status": "ready", "revision": ", ".join(sorted(found))}
    monitor: ReplicaMonitor | None = getattr(request.state, "replica_monitor", None)
    if monitor is not None:
        body["replica"] = monitor.status()
    return json_response(body, 200, NO_STORE)


def metrics_endpoint(metrics: Metrics) -> Any:
    async def metrics_text(_: Request) -> Response:
        body, content_type = metrics.exposition()
        return Response(body, headers={**NO_STORE, "Content-Type": content_type})

    return metrics_text


def add_operations_routes(app: FastAPI, metrics: Metrics) -> None:
    app.add_api_route("/healthz", healthz, methods=["GET"], include_in_schema=False)
    app.add_api_route("/readyz", readyz, methods=["GET"], include_in_schema=False)
    if metrics.enabled:
        app.add_route("/metrics", metrics_endpoint(metrics), methods=["GET"])
