"""Webhook deliveries yield to requests (app/webhooks/worker.py, app/core/observability/activity.py),
with real requests through the app in process and a real receiver: while a request is in
flight, a delivery lane claims nothing; once the request has ended, the delivery goes; and a
request that never ends holds deliveries up for WEBHOOKS_MAX_DEFERRAL at most."""

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient, Response
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.app_services import app_services
from app.core.observability.activity import RequestActivity
from app.webhooks.sender import Sender
from app.webhooks.worker import WebhookWorker
from tests.factories import API, AuthFor
from tests.webhook_receiver import Receiver, receiving, until


@pytest.fixture
async def receiver(app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Receiver]:
    """A receiver on this machine, which the app then accepts as a subscription's URL."""
    monkeypatch.setattr(app_services(app).settings, "webhooks_allow_private", True)
    async with receiving(Receiver()) as found:
        yield found


def worker_for(app: FastAPI, max_deferral: float) -> WebhookWorker:
    """A worker of this process (its requests: the app's activity), not started: the test
    runs its delivery step itself."""
    settings = app_services(app).settings.model_copy(update={"webhooks_max_deferral": max_deferral})
    worker = WebhookWorker(settings, app_services(app).metrics, app_services(app).activity)
    worker._sender = Sender(timeout=5, allow_private=True)  # what start() makes
    return worker


async def pinged(client: AsyncClient, admin: AuthFor, receiver: Receiver) -> str:
    """A subscription to `receiver` with a ping waiting to be delivered; its deliveries' URL."""
    created = await client.post(
        f"{API}/webhooks", json={"url": receiver.url("/hook")}, headers=admin.basic
    )
    assert created.status_code == 201, created.text
    one = f"{API}/webhooks/{created.json()['id']}"
    assert (await client.post(f"{one}/test", headers=admin.basic)).status_code == 200
    return f"{one}/deliveries"


async def statuses(client: AsyncClient, admin: AuthFor, deliveries: str) -> list[Any]:
    answer = await client.get(deliveries, headers=admin.basic)
    assert answer.status_code == 200, answer.text
    return [d["status"] for d in answer.json()["deliveries"]]


def held_request(client: AsyncClient, admin: AuthFor, release: asyncio.Event) -> Any:
    """A request whose body arrives only once `release` is set: in flight until then."""

    async def body() -> AsyncIterator[bytes]:
        yield b'{"name": '
        await release.wait()
        yield b'"held"}'

    headers = {**admin.basic, "Content-Type": "application/json"}
    return asyncio.create_task(client.post(f"{API}/tags", content=body(), headers=headers))


@dataclass
class Held:
    deliveries: str  # the subscription's delivery log, with one ping pending
    request: "asyncio.Task[Response]"  # in flight until `release` is set
    release: asyncio.Event


@pytest.fixture
async def held(
    app: FastAPI, client: AsyncClient, admin: AuthFor, receiver: Receiver
) -> AsyncIterator[Held]:
    deliveries = await pinged(client, admin, receiver)
    release = asyncio.Event()
    request = held_request(client, admin, release)
    try:
        await until(lambda: app_services(app).activity.in_flight == 1)
        yield Held(deliveries, request, release)
    finally:
        release.set()
        answer = await request
        assert answer.status_code == 201, answer.text


async def test_a_delivery_waits_for_the_request_in_flight(
    app: FastAPI,
    client: AsyncClient,
    admin: AuthFor,
    receiver: Receiver,
    held: Held,
    maker: async_sessionmaker[AsyncSession],
) -> None:
    worker = worker_for(app, max_deferral=60)  # far longer than this test takes
    try:
        sending = asyncio.create_task(worker.deliver(maker))
        await until(lambda: worker.deferring == 1)
        # Another request meanwhile (this one ends, the held one does not): still waiting.
        assert await statuses(client, admin, held.deliveries) == ["pending"]
        assert receiver.received == []
        assert worker.deferring == 1
        assert not sending.done()
        held.release.set()
        await held.request
        assert await sending is True  # claimed and sent, once the requests let up
    finally:
        await worker.stop()
    assert [r.path for r in receiver.received] == ["/hook"]
    assert await statuses(client, admin, held.deliveries) == ["delivered"]


async def test_a_request_that_never_ends_holds_deliveries_up_for_the_bound_only(
    app: FastAPI,
    client: AsyncClient,
    admin: AuthFor,
    receiver: Receiver,
    held: Held,
    maker: async_sessionmaker[AsyncSession],
) -> None:
    worker = worker_for(app, max_deferral=0.2)
    try:
        assert await worker.deliver(maker) is True
    finally:
        await worker.stop()
    activity: RequestActivity = app_services(app).activity
    assert activity.in_flight == 1  # the request is still being served
    assert not held.request.done()
    assert [r.path for r in receiver.received] == ["/hook"]
    held.release.set()
    await held.request
    assert await statuses(client, admin, held.deliveries) == ["delivered"]
