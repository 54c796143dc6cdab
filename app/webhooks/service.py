"""Webhook subscriptions and their delivery log: administrators only (docs/design.md,
"Webhooks"). The signing secret is shown once, when it is made (creation, rotation)."""

import base64
import secrets
from datetime import UTC, datetime
from typing import Any

from app.core.caching.etags import etag_of, if_match_holds
from app.core.errors import MissingParams, NotFound, invalid, note, precondition_failed
from app.core.rules.dates import format_datetime
from app.core.rules.permissions import WEBHOOKS, require_role
from app.core.web.responses import dumps
from app.http.context import RequestContext
from app.posts.service import Answer
from app.webhooks.addresses import Refused, check_url
from app.webhooks.commands import DeliveryQuery, WebhookWrite
from app.webhooks.fanout import utc_stamp
from app.webhooks.repository import WebhookRepository
from app.webhooks.sender import message_id

Body = dict[str, Any]
SECRET_BYTES = 32
ROTATION_OVERLAP_SECONDS = 86_400.0  # the old secret signs beside the new one for a day


def new_secret() -> str:
    """A Standard Webhooks secret: `whsec_` and base64 of random bytes."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def _utc(moment: datetime | None) -> str | None:
    return None if moment is None else format_datetime(moment, UTC)


class WebhookService:
    def __init__(self, ctx: RequestContext) -> None:
        user = ctx.user
        require_role(user, WEBHOOKS)
        self.ctx = ctx
        self.repo = WebhookRepository(ctx.session)

    # ---- subscriptions ---------------------------------------------------------------

    async def create(self, write: WebhookWrite) -> tuple[Body, str]:
        """The new subscription's body with its secret, and its URL."""
        write.refused.raise_any()
        if write.url is None:
            raise MissingParams(["url"])
        await self._check_url(write.url)
        secret = new_secret()
        urls = self.ctx.urls
        api_base = f"{urls.origin}{urls.root_path}"
        subscription_id = await self.repo.create(
            write.url, write.types or ["*"], write.description or "", secret, api_base
        )
        body = await self.get(subscription_id)
        return {**body, "secret": secret}, body["urls"]["self"]

    async def all(self) -> list[Body]:
        return [self._body(row) for row in await self.repo.all()]

    async def get(self, subscription_id: int) -> Body:
        row = await self.repo.get(subscription_id)
        if row is None:
            raise NotFound("webhook", subscription_id)
        return self._body(row)

    async def update(self, subscription_id: int, write: WebhookWrite) -> Answer:
        current = await self._for_writing(subscription_id)
        write.refused.raise_any()
        sent = {"url": write.url, "types": write.types, "description": write.description}
        # What it holds already is no change (and leaves `updated_utc` alone).
        values = {
            name: value
            for name, value in sent.items()
            if value is not None and value != current[name]
        }
        if write.url is not None:
            await self._check_url(write.url)
        if values:
            await self.repo.update(subscription_id, values)
        if write.active is not None and write.active != current["active"]:
            await self.repo.set_active(subscription_id, write.active)
        return await self._answer(subscription_id)

    async def delete(self, subscription_id: int) -> Answer:
        body = await self._for_writing(subscription_id)
        await self.repo.delete(subscription_id)
        return Answer({"deleted": True, "previous": body}, None)

    async def rotate_secret(self, subscription_id: int) -> Answer:
        await self._for_writing(subscription_id)
        secret = new_secret()
        await self.repo.rotate(subscription_id, secret, ROTATION_OVERLAP_SECONDS)
        written = await self._answer(subscription_id)
        return Answer({**written.body, "secret": secret}, written.etag)

    async def test(self, subscription_id: int) -> Answer:
        """Queue a `ping` (sent even while the subscription is paused or disabled)."""
        await self._for_writing(subscription_id)
        stamp = utc_stamp(datetime.now(UTC))
        ping = {"type": "ping", "timestamp": stamp, "data": {"subscription": subscription_id}}
        delivery_id = await self.repo.add_ping(subscription_id, dumps(ping).decode())
        body = await self.delivery(subscription_id, delivery_id)
        return Answer(body, etag_of(dumps(body)))

    # ---- the delivery log ------------------------------------------------------------

    async def deliveries(
        self, subscription_id: int, query: DeliveryQuery
    ) -> tuple[list[Body], int, int, int]:
        """(a page of deliveries, newest first; the total; the page; its size)."""
        await self.get(subscription_id)
        query.refused.raise_any()
        offset = (query.page - 1) * query.per_page
        rows, total = await self.repo.deliveries(
            subscription_id, query.status, query.per_page, offset
        )
        return [self._delivery(row) for row in rows], total, query.page, query.per_page

    async def delivery(self, subscription_id: int, delivery_id: int) -> Body:
        row = await self.repo.delivery(subscription_id, delivery_id)
        if row is None:
            raise NotFound("webhook-delivery", delivery_id)
        return self._delivery(row)

    async def retry(self, subscription_id: int, delivery_id: int) -> Answer:
        """Queue the delivery again, now, with a fresh retry schedule (If-Match: the
        delivery's ETag)."""
        await self._lock(subscription_id)
        self._check_if_match(await self.delivery(subscription_id, delivery_id))
        await self.repo.retry(subscription_id, delivery_id)
        body = await self.delivery(subscription_id, delivery_id)
        return Answer(body, etag_of(dumps(body)))

    # ---- helpers ---------------------------------------------------------------------

    async def _lock(self, subscription_id: int) -> None:
        if not await self.repo.lock(subscription_id):
            raise NotFound("webhook", subscription_id)

    async def _for_writing(self, subscription_id: int) -> Body:
        """The subscription, locked for this transaction, once the request's `If-Match`
        holds (checked under the lock, as for every record: app/core/etags.py)."""
        await self._lock(subscription_id)
        body = await self.get(subscription_id)
        self._check_if_match(body)
        return body

    def _check_if_match(self, body: Body) -> None:
        if not if_match_holds(self.ctx.if_match, etag_of(dumps(body))):
            raise precondition_failed()

    async def _answer(self, subscription_id: int) -> Answer:
        """The subscription after a write, with the ETag its GET answers."""
        body = await self.get(subscription_id)
        return Answer(body, etag_of(dumps(body)))

    async def _check_url(self, url: str) -> None:
        try:
            await check_url(url, self.ctx.settings.webhooks_allow_private)
        except Refused as exc:
            raise invalid("url", note("webhook_url_refused", name="url", reason=str(exc))) from None

    def _body(self, row: Any) -> Body:
        state = "active" if row.active else ("disabled" if row.disabled_reason else "paused")
        disabled = None
        if row.disabled_reason:
            disabled = {
                "reason": row.disabled_reason,
                "detail": row.disabled_detail,
                "at_utc": _utc(row.disabled_at),
            }
        path = f"/webhooks/{row.id}"
        return {
            "id": row.id,
            "url": row.url,
            "types": list(row.types),
            "description": row.description,
            "active": row.active,
            "state": state,
            "disabled": disabled,
            "pending": row.pending,
            "previous_secret_until_utc": _utc(row.previous_until),
            "created_utc": _utc(row.created_at),
            "updated_utc": _utc(row.updated_at),
            "urls": {
                "self": self.ctx.urls.rest(path),
                "deliveries": self.ctx.urls.rest(f"{path}/deliveries"),
            },
        }

    @staticmethod
    def _delivery(row: Any) -> Body:
        pending = row.status == "pending"
        return {
            "id": row.id,
            "webhook_id": message_id(row.message_id),
            "type": row.type,
            "kind": row.kind,
            "record_id": row.record_id,
            "status": row.status,
            "attempts": row.attempts,
            "last_status_code": row.last_status,
            "last_error": row.last_error,
            "last_attempt_utc": _utc(row.last_attempt_at),
            "next_attempt_utc": _utc(row.next_attempt_at) if pending else None,
            "created_utc": _utc(row.created_at),
            "log": [
                {
                    "attempted_utc": _utc(datetime.fromisoformat(entry["attempted_at"])),
                    "status_code": entry["status"],
                    "error": entry["error"],
                    "response": entry["response"],
                    "duration_ms": entry["duration_ms"],
                }
                for entry in row.log
            ],
        }
