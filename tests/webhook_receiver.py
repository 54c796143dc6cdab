"""A webhook receiver for the tests: a small ASGI app on a local port (uvicorn, in this
process) that checks every delivery's signature with the `standardwebhooks` library, as a
real receiver would, and answers as each path's script says."""

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from tests.live.harness import POLL, free_port

# A script step: a status to answer, ("sleep", seconds) then 200, or "hang": 200 once
# `release` is set (the request's arrival sets `arrived`).
Step = int | tuple[str, float] | str


@dataclass
class Received:
    path: str
    id: str
    body: dict[str, Any]
    verified: bool
    answered: int
    host: str


@dataclass
class Receiver:
    port: int = field(default_factory=free_port)
    secrets: dict[str, list[str]] = field(default_factory=dict)
    scripts: dict[str, list[Step]] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return f"{self.base}{path}"

    def ok(self, path: str) -> list[Received]:
        """The deliveries to `path` answered with a 2xx, in the order they arrived."""
        return [r for r in self.received if r.path == path and 200 <= r.answered < 300]

    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[dict[str, Any]]],
        send: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> None:
        assert scope["type"] == "http"
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        path = scope["path"]
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        verified = False
        for secret in self.secrets.get(path, []):
            with contextlib.suppress(WebhookVerificationError):
                Webhook(secret).verify(body, headers)
                verified = True
        script = self.scripts.get(path)
        step: Step = script.pop(0) if script else 200
        status = 200
        if step == "hang":
            self.arrived.set()
            await self.release.wait()
        elif isinstance(step, tuple):
            await asyncio.sleep(step[1])
        elif isinstance(step, int):
            status = step
        self.received.append(
            Received(
                path,
                headers.get("webhook-id", ""),
                json.loads(body),
                verified,
                status,
                headers.get("host", ""),
            )
        )
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b"thanks"})


@contextlib.asynccontextmanager
async def receiving(receiver: Receiver) -> AsyncIterator[Receiver]:
    """`receiver` listening on its port until the block ends."""
    config = uvicorn.Config(
        receiver, host="127.0.0.1", port=receiver.port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # raises why it could not start
        await asyncio.sleep(POLL)
    try:
        yield receiver
    finally:
        receiver.release.set()
        server.should_exit = True
        await task


async def until(condition: Callable[[], Awaitable[bool] | bool], seconds: float = 30) -> None:
    """Until `condition` holds (a bounded wait, never a timed assertion)."""
    deadline = time.monotonic() + seconds
    while True:
        outcome = condition()
        if not isinstance(outcome, bool):
            outcome = await outcome
        if outcome:
            return
        if time.monotonic() > deadline:
            raise AssertionError("the condition was not met in time")
        await asyncio.sleep(POLL)
