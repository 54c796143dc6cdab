"""The edge step that counts this process's requests in flight (app/core/observability/activity.py):
outermost, so that everything the process serves counts, cache hits included."""

from app.core.asgi.pipeline import Exchange, Handler, Step
from app.core.observability.activity import RequestActivity


def count_requests(activity: RequestActivity) -> Step:
    async def step(exchange: Exchange, inner: Handler) -> None:
        activity.started()
        try:
            await inner(exchange)
        finally:
            activity.ended()

    return step
