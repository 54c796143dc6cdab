"""The edge: one pure-ASGI layer that runs an ordered list of steps around the app.

A *step* is a small async function `step(exchange, inner)`: it reads or rewrites the request
(`exchange.scope`, `exchange.receive`), may answer by itself through `exchange.send`, and
otherwise awaits `inner(exchange)`, the rest of the list and finally the app. The list is
composed into one chain when the app is built, so a request costs one call per step and
none of the scope copies, `send` closures and header scans of a stack of middleware classes.

A step that only adds or changes response headers does not wrap `send`: it registers a
*start hook* (`exchange.on_start(hook)`), and the pipeline's one `send` applies the hooks to
the response start, innermost step's first, exactly as nested middleware would. Only the
steps that must see the body (the response cache, ETags, HEAD) wrap `exchange.send`.

The order of the steps is the design: see `edge_steps` in app/main.py and
docs/architecture.md#the-edge.
"""

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

StartHook = Callable[[Message], Message]


class Exchange:
    """One request on its way through the steps: what they read and replace."""

    __slots__ = ("_hooks", "_out", "receive", "scope", "send", "state")

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope = scope
        self.receive = receive
        # In place: the server's error middleware, outside the pipeline, answers with this
        # scope (and its request id).
        self.state: dict[str, Any] = scope.setdefault("state", {})
        self._hooks: list[StartHook] = []
        self._out = send
        self.send: Send = self._send

    def on_start(self, hook: StartHook) -> None:
        """Have `hook` rewrite the response start; hooks registered later (by inner steps)
        run first."""
        self._hooks.append(hook)

    async def _send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            for hook in reversed(self._hooks):
                message = hook(message)
        await self._out(message)


Handler = Callable[[Exchange], Awaitable[None]]
Step = Callable[[Exchange, Handler], Awaitable[None]]


def compose(steps: Sequence[Step], last: Handler) -> Handler:
    """`steps[0]` around `steps[1]` around ... around `last`, built once."""
    handler = last
    for step in reversed(steps):
        handler = _bind(step, handler)
    return handler


def _bind(step: Step, inner: Handler) -> Handler:
    async def run(exchange: Exchange) -> None:
        await step(exchange, inner)

    return run


class EdgePipeline:
    """The app's one middleware: `steps` in order, outermost first, around `app`."""

    def __init__(self, app: ASGIApp, steps: Sequence[Step]) -> None:
        self.app = app

        async def call_app(exchange: Exchange) -> None:
            await app(exchange.scope, exchange.receive, exchange.send)

        self.handler = compose(steps, call_app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.handler(Exchange(scope, receive, send))
