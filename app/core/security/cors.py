"""CORS as an edge step (app/core/asgi/pipeline.py), with Starlette's `CORSMiddleware` as the
policy: it answers the preflights and decides which origins are allowed; this step only
applies its answer to the response start as a hook instead of wrapping `send`."""

from collections.abc import Sequence

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.cors import CORSMiddleware
from starlette.types import Message

from app.core.asgi.pipeline import Exchange, Handler, Step

ALLOWED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def cors(
    origins: Sequence[str], allow_headers: Sequence[str], expose_headers: Sequence[str]
) -> Step:
    policy = CORSMiddleware(
        app=None,  # type: ignore[arg-type]  # a policy only: the pipeline runs the app
        allow_origins=origins,
        allow_methods=ALLOWED_METHODS,
        allow_headers=allow_headers,
        expose_headers=expose_headers,
    )

    async def step(exchange: Exchange, inner: Handler) -> None:
        scope = exchange.scope
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        preflight = scope["method"] == "OPTIONS" and "access-control-request-method" in headers
        if origin is not None and preflight:
            response = policy.preflight_response(request_headers=headers)
            await response(scope, exchange.receive, exchange.send)
            return

        def allow(message: Message) -> Message:
            # As CORSMiddleware.send does: every answer varies by Origin.
            message = {**message, "headers": list(message.get("headers", []))}
            response_headers = MutableHeaders(scope=message)
            if origin is not None:
                response_headers.update(policy.simple_headers)
            if (
                origin is not None
                and not policy.allow_all_origins
                and policy.is_allowed_origin(origin=origin)
            ) or (origin is not None and policy.allow_all_origins and policy.allow_credentials):
                policy.allow_explicit_origin(response_headers, origin)
            else:
                response_headers["Vary"] = ", ".join([*response_headers.getlist("Vary"), "Origin"])
            return message

        exchange.on_start(allow)
        await inner(exchange)

    return step
