"""Webhooks end to end: two `almanac serve` instances on one database deliver to a real
receiver (tests/webhook_receiver.py) that checks every signature with `standardwebhooks`.
A short retry schedule (WEBHOOKS_RETRY_SCHEDULE) keeps retries and the end of the
schedule quick; every wait is for a condition, bounded (docs/design.md, "Webhooks")."""

import asyncio
import io
import os
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from PIL import Image

from tests.factories import API, basic
from tests.live.harness import add_user, free_port, fresh_database, wait_until_serving
from tests.webhook_receiver import Receiver, receiving, until

SCHEDULE = [0.1, 0.2, 0.4, 0.8, 1.6]
ENV = {
    "WEBHOOKS_ALLOW_PRIVATE": "true",
    "WEBHOOKS_RETRY_SCHEDULE": ",".join(map(str, SCHEDULE)),
    "WEBHOOKS_TIMEOUT": "1",
    "WEBHOOKS_POLL_INTERVAL": "0.05",
    "LOG_LEVEL": "warning",
}


@dataclass
class Instance:
    """One `almanac serve` (one worker, so that a kill kills its deliveries too)."""

    database: str
    media_dir: str  # shared by the instances, as in the compose set-up
    base: str = ""
    process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        port = free_port()
        self.process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "1"),
            env={**os.environ, "DATABASE_URL": self.database, "MEDIA_DIR": self.media_dir, **ENV},
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{port}"
        await wait_until_serving(self.base, self.process)

    async def stop(self, kill: bool = False) -> None:
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        process.kill() if kill else process.terminate()
        await process.wait()


@dataclass
class Cluster:
    instances: list[Instance]
    receiver: Receiver
    admin: dict[str, str]
    http: httpx.AsyncClient
    turn: int = 0
    secrets: dict[int, str] = field(default_factory=dict)

    def url(self, path: str) -> str:
        """A URL of the API, on each instance in turn (writes go through both)."""
        self.turn += 1
        return f"{self.instances[self.turn % len(self.instances)].base}{API}{path}"

    async def call(self, method: str, path: str, **options: Any) -> Any:
        answer = await self.http.request(method, self.url(path), headers=self.admin, **options)
        assert answer.status_code < 300, answer.text
        return answer.json()

    async def subscribe(self, path: str, receiver: Receiver | None = None, **extra: Any) -> int:
        receiver = receiver or self.receiver
        body = await self.call("POST", "/webhooks", json={"url": receiver.url(path), **extra})
        receiver.secrets[path] = [body["secret"]]
        return int(body["id"])

    async def deliveries(self, subscription: int) -> list[dict[str, Any]]:
        return list((await self.call("GET", f"/webhooks/{subscription}/deliveries"))["deliveries"])


@pytest.fixture(scope="module")
async def cluster(database_url: str) -> AsyncIterator[Cluster]:
    async with fresh_database(database_url, "almanac_webhooks_test", migrated=True) as url:
        _, password = await add_user(url, "boss", "administrator")
        media = tempfile.mkdtemp(prefix="almanac-webhooks-media-")
        instances = [Instance(url, media), Instance(url, media)]
        await asyncio.gather(*(instance.start() for instance in instances))
        try:
            async with (
                receiving(Receiver()) as receiver,
                httpx.AsyncClient(timeout=30) as http,
            ):
                admin = basic("boss", password)
                yield Cluster(instances, receiver, admin, http)
        finally:
            await asyncio.gather(*(instance.stop() for instance in instances))
            shutil.rmtree(media, ignore_errors=True)


def event(title: str, status: str = "publish") -> dict[str, str]:
    return {
        "title": title,
        "start_date": "2033-03-01 10:00",
        "end_date": "2033-03-01 12:00",
        "status": status,
    }


def records(receiver: Receiver, path: str, kind: str, record_id: int) -> list[Any]:
    """The deliveries of a record to `path`, each the first of its webhook-id."""
    seen: set[str] = set()
    found = []
    for received in receiver.ok(path):
        data = received.body["data"]
        if data.get("kind") == kind and data.get("id") == record_id and received.id not in seen:
            seen.add(received.id)
            found.append(received)
    return found


def number(webhook_id: str) -> int:
    return int(webhook_id.removeprefix("msg_"))


async def test_every_record_type_arrives_signed_with_public_data_only(cluster: Cluster) -> None:
    receiver = cluster.receiver
    await cluster.subscribe("/all")
    await cluster.subscribe("/venues", types=["venue.*"])
    venue = await cluster.call("POST", "/venues", json={"venue": "Hall"})
    organizer = await cluster.call("POST", "/organizers", json={"organizer": "Org"})
    category = await cluster.call("POST", "/categories", json={"name": "Jazz"})
    tag = await cluster.call("POST", "/tags", json={"name": "Free"})
    shown = await cluster.call("POST", "/events", json=event("Shown"))
    draft = await cluster.call("POST", "/events", json=event("Secret draft", "draft"))
    hidden = await cluster.call("POST", "/events", json=event("Soon hidden"))
    await until(lambda: len(records(receiver, "/all", "event", hidden["id"])) == 1)
    await cluster.call("PATCH", f"/events/{hidden['id']}", json={"status": "draft"})
    await cluster.call("DELETE", f"/venues/{venue['id']}")

    def arrived() -> bool:
        return len(records(receiver, "/all", "event", hidden["id"])) == 2 and any(
            r.body["type"] == "venue.delete" for r in receiver.ok("/all")
        )

    await until(arrived)
    everything = receiver.ok("/all")
    assert all(r.verified for r in everything)
    assert all(set(r.body) == {"type", "timestamp", "data"} for r in everything)
    assert all(
        set(r.body["data"]) == {"kind", "id", "action", "modified_utc", "record"}
        for r in everything
    )
    types = {r.body["type"] for r in everything}
    wanted = {"venue.upsert", "venue.delete", "organizer.upsert", "category.upsert"}
    assert wanted | {"tag.upsert", "event.upsert", "event.delete"} <= types
    # What an anonymous GET answers (through the instance the subscription was made on: its
    # links), and nothing of what it does not show.
    async with httpx.AsyncClient() as anonymous:
        for kind, path, record in (
            ("organizer", "organizers", organizer),
            ("category", "categories", category),
            ("tag", "tags", tag),
            ("event", "events", shown),
        ):
            [delivered] = records(receiver, "/all", kind, record["id"])
            answers = [
                (await anonymous.get(f"{i.base}{API}/{path}/{record['id']}")).json()
                for i in cluster.instances
            ]
            assert delivered.body["data"]["record"] in answers
            assert delivered.body["type"] == f"{kind}.upsert"
    for received in records(receiver, "/all", "event", draft["id"]):
        assert received.body["type"] == "event.delete"
        assert received.body["data"]["record"] is None
    assert all("Secret draft" not in str(r.body) for r in everything)
    unpublished = records(receiver, "/all", "event", hidden["id"])
    assert [r.body["data"]["action"] for r in unpublished] == ["upsert", "delete"]
    assert {r.body["type"] for r in receiver.ok("/venues")} == {"venue.upsert", "venue.delete"}


async def test_a_changed_image_arrives_as_a_change_of_its_records(cluster: Cluster) -> None:
    receiver = cluster.receiver
    await cluster.subscribe("/pictured", types=["venue.*"])
    picture = io.BytesIO()
    Image.new("RGB", (200, 160), (0, 0, 200)).save(picture, format="PNG")
    files = {"file": ("blue.png", picture.getvalue(), "image/png")}
    image = await cluster.call("POST", "/media", files=files, data={"alt_text": "Blue"})
    venue = await cluster.call("POST", "/venues", json={"venue": "Blue hall", "image": image["id"]})
    await until(lambda: len(records(receiver, "/pictured", "venue", venue["id"])) == 1)
    await cluster.call("PATCH", f"/media/{image['id']}", json={"alt_text": "Deep blue"})
    await until(lambda: len(records(receiver, "/pictured", "venue", venue["id"])) == 2)
    first, second = records(receiver, "/pictured", "venue", venue["id"])
    assert first.body["data"]["record"]["image"]["alt"] == "Blue"
    changed = second.body["data"]["record"]["image"]
    assert changed["alt"] == "Deep blue"
    assert changed["sizes"]["thumbnail"]["width"] == 150


async def test_changes_of_a_record_arrive_in_order_under_concurrent_writes(
    cluster: Cluster,
) -> None:
    receiver = cluster.receiver
    receiver.scripts["/order"] = [500, 500]  # the first deliveries need retries
    await cluster.subscribe("/order")
    created = [await cluster.call("POST", "/events", json=event(f"E{n}")) for n in range(3)]
    ids = [record["id"] for record in created]
    await asyncio.gather(
        *(
            cluster.call("PATCH", f"/events/{record_id}", json={"title": f"E{record_id}-{n}"})
            for n in range(6)
            for record_id in ids
        )
    )
    finals = {i: (await cluster.call("GET", f"/events/{i}"))["title"] for i in ids}

    def settled() -> bool:
        for record_id in ids:
            got = records(receiver, "/order", "event", record_id)
            if not got or got[-1].body["data"]["record"]["title"] != finals[record_id]:
                return False
        return True

    await until(settled)
    for record_id in ids:
        got = records(receiver, "/order", "event", record_id)
        numbers = [number(r.id) for r in got]
        assert numbers == sorted(numbers), "a later change arrived before an earlier one"
    ok = receiver.ok("/order")
    assert all(r.verified for r in ok)
    # Two instances share the work: nothing is delivered twice.
    assert len({r.id for r in ok}) == len(ok)


async def test_a_receiver_down_for_a_while_gets_everything_in_order(cluster: Cluster) -> None:
    later = Receiver()  # nothing listens on its port yet
    subscription = await cluster.subscribe("/later", later)
    record = await cluster.call("POST", "/events", json=event("Down 0"))
    for n in range(1, 4):
        await cluster.call("PATCH", f"/events/{record['id']}", json={"title": f"Down {n}"})

    async def failing() -> bool:
        found = await cluster.deliveries(subscription)
        return any(d["attempts"] >= 2 for d in found)

    await until(failing)
    async with receiving(later):
        await until(
            lambda: any(
                r.body["data"]["record"]["title"] == "Down 3"
                for r in records(later, "/later", "event", record["id"])
            )
        )
    got = records(later, "/later", "event", record["id"])
    numbers = [number(r.id) for r in got]
    assert numbers == sorted(numbers)
    titles = [r.body["data"]["record"]["title"] for r in got]
    assert titles == sorted(titles)  # "Down 0" ... "Down 3", some maybe merged
    assert all(r.verified for r in got)
    found = await cluster.deliveries(subscription)
    assert {d["status"] for d in found} == {"delivered"}
    first = min(found, key=lambda d: d["id"])
    assert first["attempts"] >= 2
    assert first["log"][0]["status_code"] is None
    assert first["log"][0]["error"]
    await cluster.call("DELETE", f"/webhooks/{subscription}")  # its receiver is gone again


async def test_a_500_then_a_timeout_then_200_each_attempt_in_the_log(cluster: Cluster) -> None:
    receiver = cluster.receiver
    receiver.scripts["/flaky"] = [500, ("sleep", 1.5)]
    subscription = await cluster.subscribe("/flaky", types=["tag.upsert"])
    tag = await cluster.call("POST", "/tags", json={"name": "Flaky"})

    async def delivered() -> bool:
        return any(d["status"] == "delivered" for d in await cluster.deliveries(subscription))

    await until(delivered)
    [delivery] = await cluster.deliveries(subscription)
    assert delivery["record_id"] == tag["id"]
    assert delivery["type"] == "tag.upsert"
    assert delivery["attempts"] == 3
    assert delivery["last_status_code"] == 200
    assert [entry["status_code"] for entry in delivery["log"]] == [500, None, 200]
    assert delivery["log"][1]["error"].startswith("timeout")
    assert delivery["log"][0]["error"] == "HTTP 500"
    assert delivery["next_attempt_utc"] is None
    # The same webhook-id every time: the receiver can tell a retry from a new change.
    assert {r.id for r in receiver.received if r.path == "/flaky"} == {delivery["webhook_id"]}


async def test_a_410_disables_at_once_and_resuming_delivers_the_backlog(cluster: Cluster) -> None:
    receiver = cluster.receiver
    receiver.scripts["/gone"] = [410]
    subscription = await cluster.subscribe("/gone", types=["tag.*"])
    await cluster.call("POST", "/tags", json={"name": "Gone 1"})

    async def disabled() -> bool:
        return (await cluster.call("GET", f"/webhooks/{subscription}"))["state"] == "disabled"

    await until(disabled)
    body = await cluster.call("GET", f"/webhooks/{subscription}")
    assert body["active"] is False
    assert body["disabled"]["reason"] == "gone"
    assert "410" in body["disabled"]["detail"]
    await cluster.call("POST", "/tags", json={"name": "Gone 2"})
    resumed = await cluster.call("PATCH", f"/webhooks/{subscription}", json={"active": True})
    assert resumed["state"] == "active"
    assert resumed["disabled"] is None
    await until(lambda: len(receiver.ok("/gone")) == 2)
    assert [r.body["data"]["record"]["name"] for r in receiver.ok("/gone")] == [
        "Gone 1",
        "Gone 2",
    ]


async def test_the_end_of_the_retry_schedule_disables_and_a_retry_resends(
    cluster: Cluster,
) -> None:
    receiver = cluster.receiver
    attempts = len(SCHEDULE) + 1
    receiver.scripts["/broken"] = [503] * attempts
    subscription = await cluster.subscribe("/broken", types=["category.upsert"])
    await cluster.call("POST", "/categories", json={"name": "Broken"})

    async def disabled() -> bool:
        return (await cluster.call("GET", f"/webhooks/{subscription}"))["state"] == "disabled"

    await until(disabled)
    body = await cluster.call("GET", f"/webhooks/{subscription}")
    assert body["disabled"]["reason"] == "retries_exhausted"
    [delivery] = await cluster.deliveries(subscription)
    assert delivery["status"] == "failed"
    assert delivery["attempts"] == attempts
    assert [entry["status_code"] for entry in delivery["log"]] == [503] * attempts
    # The metrics tell (refreshed every few seconds by each worker).
    async with httpx.AsyncClient() as plain:

        async def counted() -> bool:
            text = (await plain.get(f"{cluster.instances[0].base}/metrics")).text
            return "almanac_webhook_disabled_subscriptions 1.0" in text

        await until(counted)
        texts = [(await plain.get(f"{i.base}/metrics")).text for i in cluster.instances]
    # (whichever instance made the last attempt counted it)
    assert any('almanac_webhook_deliveries_total{outcome="failed"}' in t for t in texts)
    text = texts[0]
    assert "almanac_webhook_oldest_undelivered_seconds" in text
    # A retry of the delivery waits for the subscription to be resumed, then goes out.
    path = f"/webhooks/{subscription}/deliveries/{delivery['id']}/retry"
    assert (await cluster.call("POST", path))["status"] == "pending"
    await cluster.call("PATCH", f"/webhooks/{subscription}", json={"active": True})
    await until(lambda: len(receiver.ok("/broken")) == 1)
    [again] = await cluster.deliveries(subscription)
    assert again["status"] == "delivered"
    assert again["attempts"] == attempts + 1


async def test_a_paused_subscription_keeps_its_backlog(cluster: Cluster) -> None:
    receiver = cluster.receiver
    subscription = await cluster.subscribe("/paused", types=["organizer.*"])
    paused = await cluster.call("PATCH", f"/webhooks/{subscription}", json={"active": False})
    assert paused["state"] == "paused"
    organizer = await cluster.call("POST", "/organizers", json={"organizer": "Waiting"})
    # Once another subscription has it, the paused one's delivery exists and waits.
    await until(lambda: len(records(receiver, "/all", "organizer", organizer["id"])) == 1)
    assert (await cluster.call("GET", f"/webhooks/{subscription}"))["pending"] == 1
    assert receiver.ok("/paused") == []
    await cluster.call("PATCH", f"/webhooks/{subscription}", json={"active": True})
    await until(lambda: len(receiver.ok("/paused")) == 1)


async def test_a_rotated_secret_signs_beside_the_new_one(cluster: Cluster) -> None:
    receiver = cluster.receiver
    subscription = await cluster.subscribe("/rotating", types=["tag.upsert"])
    old = receiver.secrets["/rotating"][0]
    rotated = await cluster.call("POST", f"/webhooks/{subscription}/rotate-secret")
    new = rotated["secret"]
    assert new.startswith("whsec_")
    assert new != old
    assert rotated["previous_secret_until_utc"] is not None
    assert "secret" not in await cluster.call("GET", f"/webhooks/{subscription}")
    for number_, secret in enumerate((old, new), start=1):
        receiver.secrets["/rotating"] = [secret]  # a receiver knowing only one of them
        await cluster.call("POST", "/tags", json={"name": f"Rotated {number_}"})
        await until(lambda n=number_: len(receiver.ok("/rotating")) == n)  # type: ignore[misc]
        assert receiver.ok("/rotating")[-1].verified


async def test_a_ping(cluster: Cluster) -> None:
    """Also: a receiver named by a host name is reached at the address it resolved to, with
    the name in Host."""
    receiver = cluster.receiver
    url = f"http://localhost:{receiver.port}/ping"
    body = await cluster.call("POST", "/webhooks", json={"url": url, "types": ["tag.delete"]})
    subscription = body["id"]
    receiver.secrets["/ping"] = [body["secret"]]
    queued = await cluster.call("POST", f"/webhooks/{subscription}/test")
    assert queued["type"] == "ping"
    assert queued["status"] == "pending"
    await until(lambda: len(receiver.ok("/ping")) == 1)
    [ping] = receiver.ok("/ping")
    assert ping.verified
    assert ping.body["type"] == "ping"
    assert ping.id == queued["webhook_id"]
    assert ping.body["data"] == {"subscription": subscription}
    assert ping.host == f"localhost:{receiver.port}"


async def test_a_worker_killed_mid_delivery_loses_nothing(cluster: Cluster) -> None:
    """Last in the module: it restarts the instances."""
    receiver = cluster.receiver
    receiver.scripts["/killed"] = ["hang"]
    receiver.arrived.clear()
    receiver.release.clear()
    subscription = await cluster.subscribe("/killed", types=["venue.upsert"])
    venue = await cluster.call("POST", "/venues", json={"venue": "Survivor"})
    await asyncio.wait_for(receiver.arrived.wait(), 30)
    # Whichever instance holds the delivery dies with it in flight.
    await asyncio.gather(*(instance.stop(kill=True) for instance in cluster.instances))
    receiver.release.set()
    await asyncio.gather(*(instance.start() for instance in cluster.instances))

    async def delivered() -> bool:
        return [d["status"] for d in await cluster.deliveries(subscription)] == ["delivered"]

    await until(delivered)
    got = records(receiver, "/killed", "venue", venue["id"])
    assert len(got) == 1
    assert got[0].verified
    # The killed attempt reached the receiver too: the same webhook-id, sent again.
    assert {r.id for r in receiver.received if r.path == "/killed"} == {got[0].id}
    assert len([r for r in receiver.received if r.path == "/killed"]) == 2
