"""Prometheus metrics (prometheus-client), correct across uvicorn's worker processes.

`almanac serve` points PROMETHEUS_MULTIPROC_DIR at an empty directory before its workers
start: every process then writes its values to files there, and `/metrics`, whichever worker
answers it, adds up all of them (prometheus-client's multiprocess mode). Without that variable
(one process, e.g. the app under a plain uvicorn or in tests) each app keeps its own registry.

prometheus-client chooses between the two when it is first imported, so nothing imports it
before `Metrics` is built (by create_app, after `almanac serve` has set the variable): the
import is inside `_Collectors`, and only types are imported at the top.

Labels are bounded: the route is the template (`/calendar/events/v1/events/{id}`, or
`unmatched`), never the raw path.
"""

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

from app.core.database.engine import observe_pool

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
WAIT_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0)


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


class _Collectors:
    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry: CollectorRegistry = CollectorRegistry()
        registry = self.registry
        self.requests: Counter = Counter(
            "almanac_http_requests",
            "HTTP requests answered, by route template, method and status",
            ["route", "method", "status"],
            registry=registry,
        )
        self.latency: Histogram = Histogram(
            "almanac_http_request_duration_seconds",
            "Time from the request's arrival to the end of its response",
            ["route", "method"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.cache: Counter = Counter(
            "almanac_cache_lookups",
            "Cache lookups: the response cache (anonymous reads) and the list totals cache",
            ["cache", "result"],
            registry=registry,
        )
        # livesum: the sum over the processes alive now (a stopped worker's value is dropped).
        self.in_use: Gauge = Gauge(
            "almanac_db_pool_connections_in_use",
            "Database connections checked out of the pool",
            ["pool"],
            multiprocess_mode="livesum",
            registry=registry,
        )
        self.capacity: Gauge = Gauge(
            "almanac_db_pool_connections_max",
            "Most connections the pool may open (size plus overflow)",
            ["pool"],
            multiprocess_mode="livesum",
            registry=registry,
        )
        self.waits: Histogram = Histogram(
            "almanac_db_pool_wait_seconds",
            "Time requests waited for a connection when the pool had none free",
            ["pool"],
            buckets=WAIT_BUCKETS,
            registry=registry,
        )
        self.failed_signins: Counter = Counter(
            "almanac_failed_signins", "Sign-ins refused for wrong credentials", registry=registry
        )
        self.reads: Counter = Counter(
            "almanac_db_reads",
            "Read requests answered from each database server (cache hits read no data)",
            ["server"],
            registry=registry,
        )
        # Each worker samples the replica itself: the highest lag of the workers alive, and
        # how many of them read from the replica (0: every read goes to the primary).
        self.replica_lag: Gauge = Gauge(
            "almanac_replica_lag_seconds",
            "Age of the oldest primary position the read replica has not replayed (-1: down)",
            multiprocess_mode="livemax",
            registry=registry,
        )
        self.replica_readers: Gauge = Gauge(
            "almanac_replica_readers",
            "Workers that send reads to the read replica (not while it is down or lags too far)",
            multiprocess_mode="livesum",
            registry=registry,
        )
        self.throttled: Counter = Counter(
            "almanac_throttled_requests",
            "Requests refused with 429: too many failed sign-ins from the client's address",
            registry=registry,
        )
        self.webhook_deliveries: Counter = Counter(
            "almanac_webhook_deliveries",
            "Webhook delivery attempts by outcome: delivered, retry (failed, to be retried), "
            "failed (given up), gone (410: subscription disabled)",
            ["outcome"],
            registry=registry,
        )
        self.mail_messages: Counter = Counter(
            "almanac_mail_messages",
            "Messages of the mail outbox handed to the mail server, by outcome: sent, retry "
            "(not taken, to be retried), failed (refused for good, or the retries are over)",
            ["outcome"],
            registry=registry,
        )
        self.webhook_deferrals_bounded: Counter = Counter(
            "almanac_webhook_deferrals_bounded",
            "Webhook delivery batches sent after WEBHOOKS_MAX_DEFERRAL while their worker was "
            "still serving requests (deliveries lagging behind saturated workers)",
            registry=registry,
        )
        # livemax: every worker reads the same numbers from the database; the dead drop out.
        self.webhook_oldest: Gauge = Gauge(
            "almanac_webhook_oldest_undelivered_seconds",
            "Age of the oldest change not yet delivered to a subscription (0: none waiting)",
            ["subscription"],
            multiprocess_mode="livemax",
            registry=registry,
        )
        self.webhook_disabled: Gauge = Gauge(
            "almanac_webhook_disabled_subscriptions",
            "Subscriptions disabled by their deliveries (410 Gone, or the retry schedule spent)",
            multiprocess_mode="livemax",
            registry=registry,
        )


class Metrics:
    """The app's metrics; every method does nothing when they are switched off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.multiprocess = enabled and multiprocess_dir() is not None
        self._c = _Collectors() if enabled else None
        self._webhook_labels: set[str] = set()

    def request(self, route: str, method: str, status: int, seconds: float) -> None:
        if self._c is not None:
            self._c.requests.labels(route, method, str(status)).inc()
            self._c.latency.labels(route, method).observe(seconds)

    def cache_lookup(self, cache: str, hit: bool) -> None:
        if self._c is not None:
            self._c.cache.labels(cache, "hit" if hit else "miss").inc()

    def totals_lookup(self, hit: bool) -> None:
        self.cache_lookup("totals", hit)

    def failed_signin(self) -> None:
        if self._c is not None:
            self._c.failed_signins.inc()

    def read(self, server: str) -> None:
        if self._c is not None:
            self._c.reads.labels(server).inc()

    def replica_state(self, lag: float, usable: bool) -> None:
        if self._c is not None:
            # An unreachable replica's lag is unknown: shown as -1, with usable 0.
            self._c.replica_lag.set(lag if lag != float("inf") else -1)
            self._c.replica_readers.set(1 if usable else 0)

    def throttled(self) -> None:
        if self._c is not None:
            self._c.throttled.inc()

    def webhook_delivery(self, outcome: str) -> None:
        if self._c is not None:
            self._c.webhook_deliveries.labels(outcome).inc()

    def mail_sent(self, outcome: str, count: int = 1) -> None:
        if self._c is not None and count:
            self._c.mail_messages.labels(outcome).inc(count)

    def webhook_deferral_bound(self) -> None:
        if self._c is not None:
            self._c.webhook_deferrals_bounded.inc()

    def webhook_backlog(self, oldest: dict[str, float], disabled: int) -> None:
        """The age of each subscription's oldest waiting change, and the disabled count."""
        if self._c is None:
            return
        for subscription, seconds in oldest.items():
            self._c.webhook_oldest.labels(subscription).set(seconds)
        for gone in self._webhook_labels - oldest.keys():  # deleted subscriptions
            # (zeroed first: multiprocess files keep a removed series' last value)
            self._c.webhook_oldest.labels(gone).set(0)
            with contextlib.suppress(KeyError):
                self._c.webhook_oldest.remove(gone)
        self._webhook_labels = set(oldest)
        self._c.webhook_disabled.set(disabled)

    def watch_pool(self, pool: Any, name: str) -> None:
        """Connections in use (after every checkout and checkin), capacity and waits of a
        pool (`observe_pool` in app/core/database/engine.py)."""
        collectors = self._c
        if collectors is None:
            return
        capacity = observe_pool(
            pool, collectors.in_use.labels(name).set, collectors.waits.labels(name).observe
        )
        if capacity is not None:
            collectors.capacity.labels(name).set(capacity)

    def exposition(self) -> tuple[bytes, str]:
        """The text format of every metric (of every worker in multiprocess mode)."""
        from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
        from prometheus_client.multiprocess import MultiProcessCollector

        assert self._c is not None
        registry = self._c.registry
        if self.multiprocess:
            registry = CollectorRegistry()
            MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST

    def process_exit(self) -> None:
        """A worker stopping: its live gauges no longer count."""
        if self.multiprocess:
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


def prepare_multiprocess_dir() -> tuple[str, bool]:
    """Before the workers start: the directory they write their metrics to, emptied (files
    of an earlier run would add to this one's counts), and whether it was made here (a
    private temporary one, removed afterwards) rather than named by PROMETHEUS_MULTIPROC_DIR
    (one such directory per `almanac serve`)."""
    named = multiprocess_dir()
    if named is None:
        path = tempfile.mkdtemp(prefix="almanac-metrics-")
        os.environ[MULTIPROC_ENV] = path
        return path, True
    directory = Path(named)
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob("*.db"):
        stale.unlink()
    return named, False
