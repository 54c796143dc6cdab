"""`Idempotency-Key` on creates: a retried POST answers the first one's response.

A client whose connection was cut after it sent a create cannot know whether the record was
made. Sent with the same `Idempotency-Key`, the retry answers what the first answered (its
status, body and `Location`, with `Idempotent-Replayed: true`) and creates nothing:

- The key is claimed (a row of `idempotency_keys`, app/models/idempotency.py) in the
  create's own transaction, and the answer stored there: a create that fails rolls the key
  back with it, so the retry creates.
- A concurrent repeat's claim waits on the first one's uncommitted row (the primary key),
  then reads the committed answer (or claims the key if the first rolled back).
- Keys are per user (another user's same key is another key) and hold for 24 hours; an
  older row is claimed anew. Rows older than that are pruned with the change log
  (app/changes/pruning.py).
- A repeat must be the same request: the digest of method, path, query, content type and
  body. Another request under a used key is 422 `rest_idempotency_key_reused` (a client
  bug: reusing keys for different creates would silently drop the second).
- A key is 1-255 printable ASCII characters, else 400 `rest_invalid_header`.
"""

import hashlib
import re
from collections.abc import Awaitable, Callable
from datetime import timedelta

from starlette.requests import Request
from starlette.responses import Response

from app.core.database.engine import Session
from app.core.errors import ApiError
from app.core.web.responses import JSON_MEDIA_TYPE
from app.http.context import RequestContext
from app.http.repository import idempotency_keys as keys

HEADER = "Idempotency-Key"
KEY = re.compile(r"[\x20-\x7e]{1,255}")
LIFETIME = timedelta(hours=24)


async def idempotent(
    request: Request, ctx: RequestContext, create: Callable[[], Awaitable[Response]]
) -> Response:
    """`create()`'s response, or the stored one of an earlier request with the same key."""
    key = request.headers.get(HEADER)
    if key is None or ctx.user is None:  # an anonymous create is refused by `create`
        return await create()
    if KEY.fullmatch(key) is None:
        raise ApiError(400, "rest_invalid_header", "malformed_idempotency_key")
    session, ids = ctx.session, {"user_id": ctx.user.id, "key": key}
    digest = await _digest(request)
    claim = {**ids, "digest": digest, "lifetime": LIFETIME}
    if (await session.execute(keys.CLAIM_SQL, claim)).first() is None:
        held = (await session.execute(keys.HELD_SQL, ids)).one()
        if held.request_digest != digest:
            raise ApiError(422, "rest_idempotency_key_reused")
        headers = {"Idempotent-Replayed": "true"}
        if held.location is not None:
            headers["Location"] = held.location
        return Response(held.body, held.status, headers, JSON_MEDIA_TYPE)
    response = await create()
    location = response.headers.get("location")
    stored = {**ids, "status": response.status_code, "body": response.body, "location": location}
    await session.execute(keys.STORE_SQL, stored)
    return response


async def _digest(request: Request) -> bytes:
    parts = (
        request.method,
        request.url.path,
        request.url.query,
        request.headers.get("content-type", ""),
    )
    digest = hashlib.sha256("\x00".join(parts).encode())
    digest.update(b"\x00" + await request.body())
    return digest.digest()


async def prune_keys(session: Session) -> None:
    """Delete the keys past their lifetime (with the change log's pruning)."""
    await session.execute(keys.PRUNE_SQL, {"lifetime": LIFETIME})
