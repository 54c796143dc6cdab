"""Read-your-writes at the HTTP edge: the position a write reached goes out on its answer
(a header for API clients, a short-lived cookie for browsers), and comes back on the
client's next reads (app/core/database/replica.py routes them)."""

import math

from starlette.types import Message, Scope

from app.core.asgi.pipeline import Exchange, Handler, Step
from app.core.asgi.scopes import header
from app.core.database.engine import WRITTEN_POSITION
from app.core.database.replica import format_lsn, parse_lsn
from app.core.errors import ApiError

POSITION_HEADER = "x-almanac-position"
POSITION_COOKIE = "almanac_position"
POINT_KEY = "primary_point"  # the request state's primary version and position, if read


def client_position(scope: Scope) -> int | None:
    """The newest position the client says it has written at: the header (malformed: 400)
    or the cookie (malformed: ignored, a browser sends it without being asked)."""
    positions: list[int] = []
    sent = header(scope, POSITION_HEADER.encode())
    if sent is not None:
        parsed = parse_lsn(sent)
        if parsed is None:
            raise ApiError(400, "rest_invalid_header", "malformed_position")
        positions.append(parsed)
    cookies = header(scope, b"cookie")
    if cookies:
        for part in cookies.split(";"):
            name, _, value = part.strip().partition("=")
            if name == POSITION_COOKIE and (parsed := parse_lsn(value)) is not None:
                positions.append(parsed)
    return max(positions, default=None)


def read_position(scope: Scope) -> tuple[int | None, tuple[int, int] | None]:
    """What the read router needs of a request: the client's position and the primary's
    point the response cache read for it."""
    point: tuple[int, int] | None = (scope.get("state") or {}).get(POINT_KEY)
    return client_position(scope), point


def written_position(max_age: float) -> Step:
    """After a write, the position the client's next reads must see: in a header for API
    clients, and in a short-lived cookie for browsers (long enough for a replica within
    `REPLICA_MAX_LAG` to have replayed it; after that the replica is caught up anyway)."""
    seconds = max(1, math.ceil(max_age))

    async def step(exchange: Exchange, inner: Handler) -> None:
        scope = exchange.scope
        if scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await inner(exchange)  # reads hand out no position
            return

        def with_position(message: Message) -> Message:
            position: int | None = (scope.get("state") or {}).get(WRITTEN_POSITION)
            if position is None:
                return message
            text = format_lsn(position).encode()
            secure = b"; Secure" if scope.get("scheme") == "https" else b""
            cookie = (
                POSITION_COOKIE.encode() + b"=" + text
                + f"; Max-Age={seconds}; Path=/; HttpOnly; SameSite=Lax".encode()
                + secure
            )  # fmt: skip
            extra = [(POSITION_HEADER.encode(), text), (b"set-cookie", cookie)]
            return {**message, "headers": [*message.get("headers", []), *extra]}

        exchange.on_start(with_position)
        await inner(exchange)

    return step
