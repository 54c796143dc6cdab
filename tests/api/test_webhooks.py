"""Webhook subscriptions through HTTP, in process: administrators only, what each route
answers, bad input as 4xx in the error envelope, and receivers on loopback, private,
link-local and metadata addresses refused (WEBHOOKS_ALLOW_PRIVATE unset), both when
subscribing and when delivering. Deliveries themselves: tests/live/test_webhooks_live.py."""

import asyncio
from typing import Any

import pytest
from alembic import command
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine

from app.core.app_services import app_services
from app.core.database.migrate import alembic_config, upgrade
from app.webhooks.fanout import fan_out
from app.webhooks.sender import Outgoing, Sender
from app.webhooks.worker import WebhookWorker
from tests.factories import API, Auth, AuthFor
from tests.live.harness import fresh_database
from tests.webhook_receiver import Receiver, receiving

PUBLIC = "http://93.184.215.14/hook"  # a public address, written as one: no DNS needed


async def subscribe(client: AsyncClient, admin: AuthFor, **values: Any) -> dict[str, Any]:
    answer = await client.post(
        f"{API}/webhooks", json={"url": PUBLIC, **values}, headers=admin.basic
    )
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def test_only_administrators_manage_webhooks(client: AsyncClient, auth: Auth) -> None:
    anonymous = await client.post(f"{API}/webhooks", json={"url": PUBLIC})
    assert anonymous.status_code == 401
    assert anonymous.json()["code"] == "rest_forbidden"
    editor = await auth("editor")
    for method, path in (("POST", "/webhooks"), ("GET", "/webhooks"), ("GET", "/webhooks/1")):
        answer = await client.request(
            method, f"{API}{path}", json={"url": PUBLIC}, headers=editor.basic
        )
        assert answer.status_code == 403, path
        assert answer.json()["code"] == "rest_forbidden"


async def test_a_subscription_from_creation_to_deletion(
    client: AsyncClient, admin: AuthFor
) -> None:
    created = await subscribe(client, admin, types="event.upsert,venue.*", description="CRM")
    assert created["secret"].startswith("whsec_")
    assert created["types"] == ["event.upsert", "venue.*"]
    assert created["state"] == "active"
    assert created["pending"] == 0
    assert created["disabled"] is None
    one = f"{API}/webhooks/{created['id']}"
    assert created["urls"]["self"] == f"http://testserver{one}"
    read = (await client.get(one, headers=admin.basic)).json()
    assert "secret" not in read
    assert read == {k: v for k, v in created.items() if k != "secret"}
    listed = (await client.get(f"{API}/webhooks", headers=admin.basic)).json()["webhooks"]
    assert [item["id"] for item in listed] == [created["id"]]
    etag = (await client.get(one, headers=admin.basic)).headers["ETag"]
    payload = {"active": False, "types": ["*"]}
    stale = await client.patch(one, json=payload, headers={**admin.basic, "If-Match": '"x"'})
    assert stale.status_code == 412
    assert stale.json()["code"] == "rest_precondition_failed"
    changed = await client.patch(one, json=payload, headers={**admin.basic, "If-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] == (await client.get(one, headers=admin.basic)).headers["ETag"]
    assert changed.json()["state"] == "paused"
    assert changed.json()["types"] == ["*"]
    resumed = await client.patch(one, json={"active": "true"}, headers=admin.basic)
    assert resumed.json()["state"] == "active"
    deleted = await client.delete(one, headers=admin.basic)
    assert deleted.status_code == 200
    assert deleted.json()["deleted"] is True
    gone = await client.get(one, headers=admin.basic)
    assert gone.status_code == 404
    assert gone.json()["code"] == "rest-webhook-not-found"


async def test_rotation_a_ping_and_the_delivery_log(client: AsyncClient, admin: AuthFor) -> None:
    created = await subscribe(client, admin)
    one = f"{API}/webhooks/{created['id']}"
    rotated = await client.post(f"{one}/rotate-secret", headers=admin.basic)
    assert rotated.status_code == 200
    assert rotated.json()["secret"].startswith("whsec_")
    assert rotated.json()["secret"] != created["secret"]
    assert rotated.json()["previous_secret_until_utc"] is not None
    ping = await client.post(f"{one}/test", headers=admin.basic)
    assert ping.status_code == 200
    delivery = ping.json()
    assert delivery["type"] == "ping"
    assert delivery["status"] == "pending"
    assert delivery["webhook_id"].startswith("msg_")
    assert delivery["attempts"] == 0
    assert delivery["log"] == []
    log = await client.get(f"{one}/deliveries", headers=admin.basic)
    assert log.status_code == 200
    assert log.json()["deliveries"] == [delivery]
    assert log.headers["X-WP-Total"] == "1"
    none = await client.get(f"{one}/deliveries", params={"status": "failed"}, headers=admin.basic)
    assert none.json()["deliveries"] == []
    path = f"{one}/deliveries/{delivery['id']}"
    assert (await client.get(path, headers=admin.basic)).json() == delivery
    stale = await client.post(f"{path}/retry", headers={**admin.basic, "If-Match": '"old"'})
    assert stale.status_code == 412
    etag = (await client.get(path, headers=admin.basic)).headers["ETag"]
    retried = await client.post(f"{path}/retry", headers={**admin.basic, "If-Match": etag})
    assert retried.status_code == 200
    missing = await client.post(f"{one}/deliveries/999999/retry", headers=admin.basic)
    assert missing.status_code == 404
    assert missing.json()["code"] == "rest-webhook-delivery-not-found"


@pytest.mark.parametrize(
    ("values", "param"),
    [
        ({"url": "ftp://example.org/hook"}, "url"),
        ({"url": "not a url"}, "url"),
        ({"url": "http:///no-host"}, "url"),
        ({"url": PUBLIC, "types": ["event.bogus"]}, "types"),
        ({"url": PUBLIC, "types": []}, "types"),
        ({"url": PUBLIC, "description": "x" * 501}, "description"),
    ],
)
async def test_bad_subscriptions_are_400s(
    client: AsyncClient, admin: AuthFor, values: dict[str, Any], param: str
) -> None:
    answer = await client.post(f"{API}/webhooks", json=values, headers=admin.basic)
    assert answer.status_code == 400
    assert answer.json()["code"] == "rest_invalid_param"
    assert list(answer.json()["data"]["params"]) == [param]


async def test_missing_url_and_unknown_subscription(client: AsyncClient, admin: AuthFor) -> None:
    missing = await client.post(f"{API}/webhooks", json={}, headers=admin.basic)
    assert missing.status_code == 400
    assert missing.json()["code"] == "rest_missing_callback_param"
    for method, path in (
        ("GET", "/webhooks/424242"),
        ("PATCH", "/webhooks/424242"),
        ("DELETE", "/webhooks/424242"),
        ("POST", "/webhooks/424242/test"),
        ("POST", "/webhooks/424242/rotate-secret"),
        ("GET", "/webhooks/424242/deliveries"),
    ):
        answer = await client.request(method, f"{API}{path}", headers=admin.basic)
        assert answer.status_code == 404, path
        assert answer.json()["code"] == "rest-webhook-not-found"


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/hook",
        "http://localhost/hook",
        "https://10.1.2.3/hook",
        "http://192.168.0.10/hook",
        "http://169.254.169.254/latest/meta-data/",  # the cloud metadata service
        "http://100.100.100.200/",  # another provider's metadata address (shared space)
        "http://[::1]/hook",
        "http://[fd00:ec2::254]/",
        "http://[::ffff:127.0.0.1]/hook",
        "http://0.0.0.0/hook",
        # IPv6 forms that carry a private IPv4 address are judged by it.
        "http://[::127.0.0.1]/hook",  # IPv4-compatible
        "http://[64:ff9b::7f00:1]/hook",  # NAT64, 127.0.0.1
        "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",  # NAT64, 169.254.169.254
        "http://[64:ff9b:1::808:808]/hook",  # local-use NAT64: refused whole
        "http://[2002:7f00:1::]/hook",  # 6to4, 127.0.0.1
        "http://[2002:c0a8:a::1]/hook",  # 6to4, 192.168.0.10
        "http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook",  # Teredo, client 10.0.0.1
    ],
)
async def test_private_addresses_are_refused(client: AsyncClient, admin: AuthFor, url: str) -> None:
    answer = await client.post(f"{API}/webhooks", json={"url": url}, headers=admin.basic)
    assert answer.status_code == 400
    note = answer.json()["data"]["params"]["url"]
    assert "WEBHOOKS_ALLOW_PRIVATE" in note
    created = await subscribe(client, admin)
    moved = await client.patch(
        f"{API}/webhooks/{created['id']}", json={"url": url}, headers=admin.basic
    )
    assert moved.status_code == 400


async def test_a_delivery_to_a_private_address_is_refused_after_resolution() -> None:
    """At delivery time too: the name resolves to loopback, so nothing is sent."""
    receiver = Receiver()
    sender = Sender(timeout=2, allow_private=False)
    try:
        async with receiving(receiver):
            attempt = await sender.send(
                f"http://localhost:{receiver.port}/x", "msg_1", "{}", ["whsec_" + "A" * 43]
            )
    finally:
        await sender.close()
    assert attempt.status is None
    assert attempt.error is not None
    assert attempt.error.startswith("refused:")
    assert receiver.received == []


async def test_a_batch_refuses_each_delivery_to_a_private_host_in_its_place() -> None:
    """A batch shares one lookup per host: a refusal reaches each of its deliveries, and
    each keeps its own place in the answer."""
    receiver = Receiver()
    sender = Sender(timeout=2, allow_private=False)
    secret = ["whsec_" + "A" * 43]
    try:
        async with receiving(receiver):
            batch = [
                Outgoing(f"http://localhost:{receiver.port}/{n}", f"msg_{n}", "{}", secret)
                for n in range(3)
            ]
            batch.append(Outgoing("ftp://localhost/x", "msg_ftp", "{}", secret))
            attempts = await sender.send_all(batch)
    finally:
        await sender.close()
    assert [a.status for a in attempts] == [None] * 4
    errors = [a.error or "" for a in attempts]
    assert all("has a loopback, private" in error for error in errors[:3]), errors
    assert "only http and https" in errors[3]
    assert receiver.received == []


async def test_the_routes_are_in_the_api_description(client: AsyncClient) -> None:
    doc = (await client.get(f"{API}/doc")).json()
    assert {path for path in doc["paths"] if path.startswith("/webhooks")} == {
        "/webhooks",
        "/webhooks/{id}",
        "/webhooks/{id}/rotate-secret",
        "/webhooks/{id}/test",
        "/webhooks/{id}/deliveries",
        "/webhooks/{id}/deliveries/{delivery}",
        "/webhooks/{id}/deliveries/{delivery}/retry",
    }
    assert set(doc["paths"]["/webhooks/{id}"]) >= {"get", "patch", "delete"}
    assert "Standard Webhooks" in doc["info"]["description"]


async def test_the_log_is_kept_for_the_retention_only(
    app: FastAPI,
    client: AsyncClient,
    admin: AuthFor,
    db: AsyncSession,
    maker: async_sessionmaker[AsyncSession],
) -> None:
    """What the background task prunes: log entries older than CHANGES_RETENTION_DAYS, but
    never a pending delivery (a backlog)."""
    created = await subscribe(client, admin)
    one = f"{API}/webhooks/{created['id']}"
    old, waiting = [(await client.post(f"{one}/test", headers=admin.basic)).json() for _ in "ab"]
    for delivery, status in ((old, "delivered"), (waiting, "pending")):
        await db.execute(
            text(
                "UPDATE webhook_deliveries SET status = :status, "
                "created_at = now() - interval '31 days' WHERE id = :id"
            ),
            {"status": status, "id": delivery["id"]},
        )
    await db.commit()
    await WebhookWorker(app_services(app).settings, app_services(app).metrics).housekeeping(
        maker, prune=True
    )
    kept = (await client.get(f"{one}/deliveries", headers=admin.basic)).json()["deliveries"]
    assert [d["id"] for d in kept] == [waiting["id"]]


async def test_an_idle_fan_out_takes_no_lock(
    client: AsyncClient,
    admin: AuthFor,
    app: FastAPI,
    db: AsyncSession,
    maker: async_sessionmaker[AsyncSession],
) -> None:
    """A fan-out with nothing new locks nothing: a row lock writes to the WAL, which an idle
    server would otherwise do on every poll (and a streaming replica would never catch up).
    The position row's xmax names the last transaction that locked it."""
    await subscribe(client, admin)
    xmax = text("SELECT xmax::text FROM webhook_feed WHERE id = 1")
    settings = app_services(app).settings
    await fan_out(maker, settings)  # reads up to now (the subscription's own change)
    while await fan_out(maker, settings):
        pass
    locked = (await db.execute(xmax)).scalar_one()
    assert await fan_out(maker, settings) is False
    assert (await db.execute(xmax)).scalar_one() == locked
    # A change: the next fan-out locks the position again, and moves it.
    await client.post(f"{API}/tags", json={"name": "fresh"}, headers=admin.basic)
    await fan_out(maker, settings)
    assert (await db.execute(xmax)).scalar_one() != locked


async def test_the_migration_is_reversible(database_url: str) -> None:
    """Down to before the webhook tables and up again, on a database of its own."""
    async with fresh_database(database_url, "almanac_webhooks_migration") as url:
        await asyncio.to_thread(upgrade, url)
        config = alembic_config(url)
        await asyncio.to_thread(command.downgrade, config, "f31a0b1c2d3e-1")
        engine = create_async_engine(url)
        try:
            async with engine.connect() as conn:
                tables = await conn.scalar(
                    text("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'webhook%'")
                )
            assert tables == 0
            await asyncio.to_thread(upgrade, url)
            async with engine.connect() as conn:
                tables = await conn.scalar(
                    text("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'webhook%'")
                )
            assert tables == 5
        finally:
            await engine.dispose()
