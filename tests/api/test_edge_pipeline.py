"""The edge pipeline's contract (app/core/asgi/pipeline.py), on a bare Starlette app: steps run
in their order, header hooks apply innermost first, and a step that answers by itself gets the
hooks of the steps before it only. Every behaviour of the real steps is tested through the app
(test_proxy, test_etags, test_security, test_wordpress_discovery, ...)."""

from httpx import ASGITransport, AsyncClient
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.types import Message

from app.core.asgi.pipeline import EdgePipeline, Exchange, Handler, Step


def tagging(name: str) -> Step:
    """A step that notes its name on the request and appends it to the `x-steps` header."""

    async def step(exchange: Exchange, inner: Handler) -> None:
        exchange.state.setdefault("seen", []).append(name)

        def add(message: Message) -> Message:
            headers = [(k, v) for k, v in message["headers"] if k != b"x-steps"]
            before = dict(message["headers"]).get(b"x-steps", b"")
            joined = (before + b"," if before else b"") + name.encode()
            return {**message, "headers": [*headers, (b"x-steps", joined)]}

        exchange.on_start(add)
        await inner(exchange)

    return step


async def answering(exchange: Exchange, inner: Handler) -> None:
    if exchange.scope["path"] == "/short":
        await PlainTextResponse("short")(exchange.scope, exchange.receive, exchange.send)
        return
    await inner(exchange)


async def seen(request: Request) -> PlainTextResponse:
    return PlainTextResponse(",".join(request.state.seen))


async def test_steps_in_order_hooks_innermost_first_and_short_answers() -> None:
    app = EdgePipeline(
        Starlette(routes=[Route("/", seen)]),
        [tagging("outer"), answering, tagging("inner")],
    )
    async with AsyncClient(transport=ASGITransport(app=app), base_url="http://t") as client:
        full = await client.get("/")
        short = await client.get("/short")
    assert full.text == "outer,inner"  # the request went through the steps in their order
    assert full.headers["x-steps"] == "inner,outer"  # the response back through them
    assert short.text == "short"
    assert short.headers["x-steps"] == "outer"  # the steps after the answer never ran
