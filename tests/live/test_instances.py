"""More than one instance: two real `almanac serve` processes (one with two workers) on one
database, behind a real nginx whose upstream has both.

A write through one instance is read at once through the other (lists, singles, totals and
cached responses); the failed-login throttle holds across instances and workers; metrics add
up across workers and nginx hides them; request ids run from nginx through the app's JSON
log lines.
"""

import asyncio
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.test_operations import samples
from tests.factories import API, basic
from tests.live.harness import POLL, add_user, free_port, fresh_database, wait_until_serving
from tests.live.test_proxy_nginx import running_nginx, shipped_server

ROOT = Path(__file__).resolve().parents[2]
HEX_ID = re.compile(r"[0-9a-f]{32}")
LIMIT = 3  # LOGIN_FAILURES_LIMIT of both instances
POOL = 2  # DB_POOL_SIZE, and DB_MAX_OVERFLOW, of both instances


@dataclass(frozen=True)
class Instance:
    base: str
    log: Path

    def lines(self) -> list[dict[str, Any]]:
        """Every line the instance logged: each one a JSON object."""
        text = self.log.read_text()
        return [json.loads(line) for line in text.splitlines() if line.strip()]


@dataclass(frozen=True)
class Cluster:
    a: Instance  # two workers
    b: Instance  # one worker: its response cache is one process's, so a hit is certain
    proxy: str  # nginx, with both in its upstream
    editor: tuple[str, str]
    editor_id: int


@asynccontextmanager
async def serving(url: str, workers: int, **extra: str) -> AsyncIterator[Instance]:
    env = {k: v for k, v in os.environ.items() if k not in ("PUBLIC_SITE_URL", "ROOT_PATH")}
    env.update(
        DATABASE_URL=url,
        FORWARDED_ALLOW_IPS="127.0.0.1",
        LOG_FORMAT="json",
        LOG_LEVEL="info",
        LOGIN_FAILURES_LIMIT=str(LIMIT),
        DB_POOL_SIZE=str(POOL),
        DB_MAX_OVERFLOW=str(POOL),
    )
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)  # `almanac serve` makes a private one
    env.update(extra)
    port = free_port()
    descriptor, name = tempfile.mkstemp(prefix="almanac-instance-", suffix=".log")
    log = Path(name)
    command = ("serve", "--port", str(port), "--workers", str(workers))
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "app.cli", *command),
        env=env,
        cwd=ROOT,
        stdout=descriptor,
        stderr=descriptor,
    )
    os.close(descriptor)
    try:
        try:
            await wait_until_serving(f"http://127.0.0.1:{port}", process)
        except AssertionError as error:
            pytest.fail(f"almanac serve: {error}: {await asyncio.to_thread(log.read_text)}")
        yield Instance(base=f"http://127.0.0.1:{port}", log=log)
    finally:
        if process.returncode is None:
            process.terminate()
        await asyncio.wait_for(process.wait(), timeout=60)
        await asyncio.to_thread(log.unlink, True)


@pytest.fixture(scope="module")
async def cluster(database_url: str) -> AsyncIterator[Cluster]:
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(
            fresh_database(database_url, "almanac_instances", migrated=True)
        )
        editor_id, password = await add_user(url, "twin", "editor")
        a, b = await asyncio.gather(
            stack.enter_async_context(serving(url, workers=2)),
            stack.enter_async_context(serving(url, workers=1)),
        )
        port = free_port()
        upstreams = f"{a.base.removeprefix('http://')}; server {b.base.removeprefix('http://')}"
        await stack.enter_async_context(
            running_nginx(shipped_server(upstreams, f"127.0.0.1:{port}"))
        )
        yield Cluster(
            a=a,
            b=b,
            proxy=f"http://127.0.0.1:{port}",
            editor=("twin", password),
            editor_id=editor_id,
        )


def event(title: str, day: int) -> dict[str, str]:
    return {
        "title": title,
        "start_date": f"2032-05-{day:02d} 10:00",
        "end_date": f"2032-05-{day:02d} 12:00",
        "status": "publish",
    }


WINDOW = {"start_date": "2032-05-01", "end_date": "2032-05-31"}


async def test_a_write_through_one_instance_is_read_at_once_through_the_other(
    cluster: Cluster,
) -> None:
    a, b = f"{cluster.a.base}{API}", f"{cluster.b.base}{API}"
    async with httpx.AsyncClient(auth=cluster.editor) as writer, httpx.AsyncClient() as reader:
        first = (await writer.post(f"{a}/events", json=event("First", 1))).json()
        # B learns the state: list, total, single; the second reads are its cache's.
        ids = set()
        for expected in ("miss", "hit"):
            listed = await reader.get(f"{b}/events", params=WINDOW)
            assert listed.headers["x-almanac-cache"] == expected
            ids.add(listed.headers["X-Request-ID"])  # replayed answers get their own id
            assert listed.json()["total"] == 1
            single = await reader.get(f"{b}/events/{first['id']}")
            assert single.headers["x-almanac-cache"] == expected
            assert single.json()["title"] == "First"
        assert len(ids) == 2
        paged = await reader.get(f"{b}/events", params={**WINDOW, "per_page": 1, "_": "1"})
        assert paged.headers["X-WP-Total"] == "1"

        # Written through A ...
        renamed = await writer.post(f"{a}/events/{first['id']}", json={"title": "Renamed"})
        assert renamed.status_code == 200
        second = (await writer.post(f"{a}/events", json=event("Second", 2))).json()

        # ... and read through B at once: nothing it cached or counted before survives.
        listed = await reader.get(f"{b}/events", params=WINDOW)
        assert listed.headers["x-almanac-cache"] == "miss"
        assert [e["title"] for e in listed.json()["events"]] == ["Renamed", "Second"]
        assert listed.json()["total"] == 2
        single = await reader.get(f"{b}/events/{first['id']}")
        assert single.headers["x-almanac-cache"] == "miss"
        assert single.json()["title"] == "Renamed"
        paged = await reader.get(f"{b}/events", params={**WINDOW, "per_page": 1, "_": "2"})
        assert paged.headers["X-WP-Total"] == "2"
        assert paged.json()["total_pages"] == 2

        # The other way round, onto A's two workers: each of several reads sees the delete.
        assert (await writer.delete(f"{b}/events/{second['id']}")).status_code == 200
        for _ in range(6):
            assert (await reader.get(f"{a}/events", params=WINDOW)).json()["total"] == 1
            assert (await reader.get(f"{a}/events/{second['id']}")).status_code == 403

        # Through nginx, which takes turns between the two: every read sees the new term.
        proxy = f"{cluster.proxy}{API}"
        created = await writer.post(f"{proxy}/categories", json={"name": "Balanced"})
        assert created.status_code == 201
        for _ in range(6):
            names = await reader.get(f"{proxy}/categories", params={"hide_empty": "0"})
            assert [c["name"] for c in names.json()["categories"]] == ["Balanced"]


async def test_failed_logins_are_throttled_across_instances(cluster: Cluster) -> None:
    # One client (nginx, trusted, names it in X-Forwarded-For) trying both instances.
    client = {"X-Forwarded-For": "203.0.113.9"}
    login, password = cluster.editor
    wrong = {**client, **basic(login, "wrong")}
    right = {**client, **basic(login, password)}
    async with httpx.AsyncClient() as http:
        before = {
            i: samples((await http.get(f"{i.base}/metrics")).text) for i in (cluster.a, cluster.b)
        }
        # LIMIT failures in all, spread over A's two workers and B.
        for base in (cluster.a.base, cluster.a.base, cluster.b.base):
            assert (await http.get(f"{base}{API}/tags", headers=wrong)).status_code == 401
        for base in (cluster.a.base, cluster.b.base):
            refused = await http.get(f"{base}{API}/tags", headers=right)
            assert refused.status_code == 429, base
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
        # Other clients are not affected.
        other = {"X-Forwarded-For": "203.0.113.10", **basic(login, password)}
        assert (await http.get(f"{cluster.b.base}{API}/tags", headers=other)).status_code == 200
        after = {
            i: samples((await http.get(f"{i.base}/metrics")).text) for i in (cluster.a, cluster.b)
        }

    def moved(instance: Instance, name: str) -> float:
        return after[instance][(name, ())] - before[instance].get((name, ()), 0.0)

    assert moved(cluster.a, "almanac_failed_signins_total") == 2
    assert moved(cluster.b, "almanac_failed_signins_total") == 1
    throttled = sum(moved(i, "almanac_throttled_requests_total") for i in (cluster.a, cluster.b))
    assert throttled == 2


async def test_metrics_add_up_across_workers_and_stay_behind_nginx(cluster: Cluster) -> None:
    route = (("method", "GET"), ("route", f"{API}/tags/{{id}}"), ("status", "404"))
    async with httpx.AsyncClient() as http:
        before = samples((await http.get(f"{cluster.a.base}/metrics")).text)
        responses = await asyncio.gather(
            *(http.get(f"{cluster.a.base}{API}/tags/{n}", params={"_": n}) for n in range(20))
        )
        assert {r.status_code for r in responses} == {404}
        after = samples((await http.get(f"{cluster.a.base}/metrics")).text)
        hidden = await http.get(f"{cluster.proxy}/metrics")
    key = ("almanac_http_requests_total", route)
    assert after[key] - before.get(key, 0.0) == 20
    # Gauges of the pools are summed over the live workers: two of them, each with its pool.
    capacity = after[("almanac_db_pool_connections_max", (("pool", "primary"),))]
    assert capacity == 2 * (POOL + POOL)
    assert ("almanac_db_pool_connections_in_use", (("pool", "primary"),)) in after
    assert ("almanac_cache_lookups_total", (("cache", "response"), ("result", "miss"))) in after
    assert hidden.status_code == 404
    assert hidden.json()["code"] == "rest_no_route"
    assert "almanac_" not in hidden.text


async def until_logged(instances: list[Instance], request_id: str) -> list[dict[str, Any]]:
    """The JSON lines carrying this request id, once its access line is written (it is
    written just after the response is sent)."""
    deadline = time.monotonic() + 30
    while True:
        lines = [line for i in instances for line in i.lines() if line["request_id"] == request_id]
        if any(line["logger"] == "almanac.access" for line in lines):
            return lines
        assert time.monotonic() < deadline, f"no access line for {request_id}"
        await asyncio.sleep(POLL)


async def test_request_ids_from_nginx_to_the_json_log_lines(cluster: Cluster) -> None:
    instances = [cluster.a, cluster.b]
    async with httpx.AsyncClient() as http:
        # nginx replaces a client's id with its own; the app returns and logs that one.
        proxied = await http.get(
            f"{cluster.proxy}{API}/categories",
            params={"password": "never-logged"},
            headers={"X-Request-ID": "chosen-by-client"},
        )
        signed_in = await http.get(f"{cluster.proxy}{API}/tags", auth=cluster.editor)
        # The app itself keeps the id of a trusted proxy (127.0.0.1) and answers with it.
        direct = await http.get(f"{cluster.b.base}/healthz", headers={"X-Request-ID": "probe-7"})
    request_id = proxied.headers["X-Request-ID"]
    assert HEX_ID.fullmatch(request_id)
    assert direct.headers["X-Request-ID"] == "probe-7"

    (access,) = await until_logged(instances, request_id)
    assert access["logger"] == "almanac.access"
    assert access["level"] == "INFO"
    assert access["method"] == "GET"
    assert access["route"] == f"{API}/categories"
    assert access["path"] == f"{API}/categories?password=***"
    assert access["status"] == 200
    assert access["cache"] in ("hit", "miss")
    assert access["user_id"] is None
    assert isinstance(access["duration_ms"], float)
    assert access["time"]
    mine = await until_logged(instances, signed_in.headers["X-Request-ID"])
    assert [line["user_id"] for line in mine] == [cluster.editor_id]
    assert [line["cache"] for line in mine] == ["-"]  # signed-in reads are never cached
    (probe,) = await until_logged(instances, "probe-7")
    assert probe["route"] == "/healthz"

    # Every line is one JSON object (the start-up lines too); none holds a secret.
    every = [line for i in instances for line in i.lines()]
    assert {"time", "level", "logger", "message", "request_id"} <= set().union(*every)
    assert all("request_id" in line for line in every)
    text = "".join(i.log.read_text() for i in instances)
    assert "never-logged" not in text
    assert cluster.editor[1] not in text


async def test_a_named_metrics_directory_starts_empty(database_url: str, tmp_path: Path) -> None:
    """PROMETHEUS_MULTIPROC_DIR named by the operator is kept, but emptied at each start:
    counts of an earlier run are not added to this one's."""
    directory = tmp_path / "metrics"
    route = (("method", "GET"), ("route", "/healthz"), ("status", "200"))
    async with fresh_database(database_url, "almanac_metrics_dir", migrated=True) as url:
        for run in range(2):
            async with (
                serving(url, 1, PROMETHEUS_MULTIPROC_DIR=str(directory)) as instance,
                httpx.AsyncClient() as http,
            ):
                for _ in range(3 - run):
                    assert (await http.get(f"{instance.base}/healthz")).status_code == 200
                scraped = samples((await http.get(f"{instance.base}/metrics")).text)
            assert scraped[("almanac_http_requests_total", route)] == 3 - run
            assert list(directory.glob("*.db"))  # the workers wrote their values there
