"""Webhook subscriptions and their delivery log: administrators only (docs/design.md,
"Webhooks"). The signing secret is shown once, when it is made (creation, rotation)."""

import base64
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from app.core.caching.etags import etag_of, if_match_holds
from app.core.errors import MissingParams, NotFound, invalid, note, precondition_failed
from app.core.rules.permissions import WEBHOOKS, require_role
from app.core.web.responses import dumps
from app.http.context import RequestContext
from app.posts.service import Written
from app.webhooks.addresses import Refused, check_url
from app.webhooks.commands import DeliveryQuery, WebhookWrite
from app.webhooks.fanout import utc_stamp
from app.webhooks.repository import DeliveryRecord, WebhookRecord, WebhookRepository
from app.webhooks.serializer import delivery_body, webhook_body

SECRET_BYTES = 32
ROTATION_OVERLAP_SECONDS = 86_400.0  # the old secret signs beside the new one for a day


def new_secret() -> str:
    """A Standard Webhooks secret: `whsec_` and base64 of random bytes."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


@dataclass(frozen=True)
class Keyed:
    """A subscription with its new signing secret, shown this once (a creation, a
    rotation), and the ETag of its GET (which shows no secret)."""

    record: WebhookRecord
    secret: str
    etag: str


@dataclass(frozen=True)
class DeliveryPage:
    """A page of a subscription's delivery log, newest first."""

    deliveries: list[DeliveryRecord]
    total: int
    page: int
    per_page: int


class WebhookService:
    def __init__(self, ctx: RequestContext) -> None:
        user = ctx.user
        require_role(user, WEBHOOKS)
        self.ctx = ctx
        self.repo = WebhookRepository(ctx.session)

    # ---- subscriptions ---------------------------------------------------------------

    async def create(self, write: WebhookWrite) -> Keyed:
        """The new subscription, with its secret."""
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
        record = await self.get(subscription_id)
        return Keyed(record, secret, self.etag(record))

    async def all(self) -> list[WebhookRecord]:
        return await self.repo.all()

    async def get(self, subscription_id: int) -> WebhookRecord:
        record = await self.repo.get(subscription_id)
        if record is None:
            raise NotFound("webhook", subscription_id)
        return record

    def etag(self, record: WebhookRecord) -> str:
        """The ETag of a GET of the subscription (app/core/caching/etags.py: its body's
        digest): what `If-Match` names, and what a write answers with."""
        return etag_of(dumps(webhook_body(record, self.ctx.urls)))

    @staticmethod
    def delivery_etag(record: DeliveryRecord) -> str:
        """The ETag of a GET of the delivery (a retry's `If-Match`)."""
        return etag_of(dumps(delivery_body(record)))

    async def update(self, subscription_id: int, write: WebhookWrite) -> Written[WebhookRecord]:
        current = await self._for_writing(subscription_id)
        write.refused.raise_any()
        sent = {"url": write.url, "types": write.types, "description": write.description}
        # What it holds already is no change (and leaves `updated_utc` alone).
        values = {
            name: value
            for name, value in sent.items()
            if value is not None and value != getattr(current, name)
        }
        if write.url is not None:
            await self._check_url(write.url)
        if values:
            await self.repo.update(subscription_id, values)
        if write.active is not None and write.active != current.active:
            await self.repo.set_active(subscription_id, write.active)
        return await self._answer(subscription_id)

    async def delete(self, subscription_id: int) -> WebhookRecord:
        """Delete the subscription and its log; the subscription as it was."""
        previous = await self._for_writing(subscription_id)
        await self.repo.delete(subscription_id)
        return previous

    async def rotate_secret(self, subscription_id: int) -> Keyed:
        await self._for_writing(subscription_id)
        secret = new_secret()
        await self.repo.rotate(subscription_id, secret, ROTATION_OVERLAP_SECONDS)
        record = await self.get(subscription_id)
        return Keyed(record, secret, self.etag(record))

    async def test(self, subscription_id: int) -> Written[DeliveryRecord]:
        """Queue a `ping` (sent even while the subscription is paused or disabled)."""
        await self._for_writing(subscription_id)
        stamp = utc_stamp(datetime.now(UTC))
        ping = {"type": "ping", "timestamp": stamp, "data": {"subscription": subscription_id}}
        delivery_id = await self.repo.add_ping(subscription_id, dumps(ping).decode())
        delivery = await self.delivery(subscription_id, delivery_id)
        return Written(delivery, self.delivery_etag(delivery))

    # ---- the delivery log ------------------------------------------------------------

    async def deliveries(self, subscription_id: int, query: DeliveryQuery) -> DeliveryPage:
        await self.get(subscription_id)
        query.refused.raise_any()
        offset = (query.page - 1) * query.per_page
        records, total = await self.repo.deliveries(
            subscription_id, query.status, query.per_page, offset
        )
        return DeliveryPage(records, total, query.page, query.per_page)

    async def delivery(self, subscription_id: int, delivery_id: int) -> DeliveryRecord:
        record = await self.repo.delivery(subscription_id, delivery_id)
        if record is None:
            raise NotFound("webhook-delivery", delivery_id)
        return record

    async def retry(self, subscription_id: int, delivery_id: int) -> Written[DeliveryRecord]:
        """Queue the delivery again, now, with a fresh retry schedule (If-Match: the
        delivery's ETag)."""
        await self._lock(subscription_id)
        self._check_if_match(self.delivery_etag(await self.delivery(subscription_id, delivery_id)))
        await self.repo.retry(subscription_id, delivery_id)
        delivery = await self.delivery(subscription_id, delivery_id)
        return Written(delivery, self.delivery_etag(delivery))

    # ---- helpers ---------------------------------------------------------------------

    async def _lock(self, subscription_id: int) -> None:
        if not await self.repo.lock(subscription_id):
            raise NotFound("webhook", subscription_id)

    async def _for_writing(self, subscription_id: int) -> WebhookRecord:
        """The subscription, locked for this transaction, once the request's `If-Match`
        holds (checked under the lock, as for every record: app/core/caching/etags.py)."""
        await self._lock(subscription_id)
        record = await self.get(subscription_id)
        self._check_if_match(self.etag(record))
        return record

    def _check_if_match(self, etag: str) -> None:
        if not if_match_holds(self.ctx.if_match, etag):
            raise precondition_failed()

    async def _answer(self, subscription_id: int) -> Written[WebhookRecord]:
        """The subscription after a write, with the ETag its GET answers."""
        record = await self.get(subscription_id)
        return Written(record, self.etag(record))

    async def _check_url(self, url: str) -> None:
        try:
            await check_url(url, self.ctx.settings.webhooks_allow_private)
        except Refused as exc:
            raise invalid("url", note("webhook_url_refused", name="url", reason=str(exc))) from None
