"""Webhook subscriptions and their delivery log (administrators only). Handlers parse, call
the service (app/webhooks/service.py), which answers records, and render the bodies
(app/webhooks/serializer.py)."""

import math
from typing import Annotated

from fastapi import APIRouter, Path
from starlette.responses import Response

from app.core.caching.etags import etag_headers
from app.core.rules.permissions import WEBHOOKS
from app.core.web.responses import json_response
from app.http.context import ContextDep, RequestContext
from app.http.openapi import api_doc
from app.http.routing import RecordId
from app.posts.service import Written
from app.webhooks.door import delivery_query, webhook_create, webhook_update
from app.webhooks.params import (
    DeliveryListParams,
    NoParams,
    WebhookCreateParams,
    WebhookUpdateParams,
)
from app.webhooks.repository import DeliveryRecord, WebhookRecord
from app.webhooks.schemas import (
    DeletedWebhook,
    Deliveries,
    Delivery,
    Webhook,
    Webhooks,
    WebhookWithSecret,
)
from app.webhooks.serializer import deletion_body, delivery_body, webhook_body, with_secret
from app.webhooks.service import WebhookService

router = APIRouter(prefix="/webhooks", tags=["webhooks"])
ONE = "/{id:id}"
DELIVERY = ONE + "/deliveries/{delivery:id}"
ADMIN = (401, 403)
DeliveryId = Annotated[int, Path(description="Numeric ID of the delivery")]


def written_webhook(written: Written[WebhookRecord], ctx: RequestContext) -> Response:
    return json_response(webhook_body(written.record, ctx.urls), 200, etag_headers(written.etag))


def written_delivery(written: Written[DeliveryRecord]) -> Response:
    return json_response(delivery_body(written.record), 200, etag_headers(written.etag))


@router.post(
    "",
    status_code=201,
    summary="Subscribe a receiver to changes",
    **api_doc(
        body=WebhookCreateParams,
        required=("url",),
        response=WebhookWithSecret,
        status=201,
        errors=(*ADMIN, 413),
        needs=WEBHOOKS,
    ),
)
async def create_webhook(ctx: ContextDep) -> Response:
    created = await WebhookService(ctx).create(webhook_create(ctx.raw))
    body = with_secret(created.record, created.secret, ctx.urls)
    return json_response(body, 201, {"Location": body["urls"]["self"]})


@router.get(
    "",
    summary="List webhook subscriptions",
    **api_doc(response=Webhooks, errors=ADMIN, needs=WEBHOOKS),
)
async def list_webhooks(ctx: ContextDep) -> Response:
    records = await WebhookService(ctx).all()
    return json_response({"webhooks": [webhook_body(record, ctx.urls) for record in records]})


@router.get(
    ONE,
    summary="Read a webhook subscription",
    **api_doc(response=Webhook, errors=(*ADMIN, 404), needs=WEBHOOKS),
)
async def get_webhook(id: RecordId, ctx: ContextDep) -> Response:
    return json_response(webhook_body(await WebhookService(ctx).get(id), ctx.urls))


@router.patch(
    ONE,
    summary="Change a webhook subscription (active: pause, resume)",
    **api_doc(
        body=WebhookUpdateParams, response=Webhook, errors=(*ADMIN, 404, 413), needs=WEBHOOKS
    ),
)
async def update_webhook(id: RecordId, ctx: ContextDep) -> Response:
    return written_webhook(await WebhookService(ctx).update(id, webhook_update(ctx.raw)), ctx)


@router.delete(
    ONE,
    summary="Delete a webhook subscription and its log",
    **api_doc(response=DeletedWebhook, errors=(*ADMIN, 404), needs=WEBHOOKS),
)
async def delete_webhook(id: RecordId, ctx: ContextDep) -> Response:
    previous = await WebhookService(ctx).delete(id)
    return json_response(deletion_body(previous, ctx.urls), 200, etag_headers(None))


@router.post(
    ONE + "/rotate-secret",
    summary="Make a new signing secret (the old one signs too for 24 hours)",
    **api_doc(body=NoParams, response=WebhookWithSecret, errors=(*ADMIN, 404), needs=WEBHOOKS),
)
async def rotate_webhook_secret(id: RecordId, ctx: ContextDep) -> Response:
    rotated = await WebhookService(ctx).rotate_secret(id)
    body = with_secret(rotated.record, rotated.secret, ctx.urls)
    return json_response(body, 200, etag_headers(rotated.etag))


@router.post(
    ONE + "/test",
    summary="Queue a ping to the receiver",
    **api_doc(body=NoParams, response=Delivery, errors=(*ADMIN, 404), needs=WEBHOOKS),
)
async def test_webhook(id: RecordId, ctx: ContextDep) -> Response:
    return written_delivery(await WebhookService(ctx).test(id))


@router.get(
    ONE + "/deliveries",
    summary="The delivery log of a subscription (newest first)",
    **api_doc(query=DeliveryListParams, response=Deliveries, errors=(*ADMIN, 404), needs=WEBHOOKS),
)
async def list_deliveries(id: RecordId, ctx: ContextDep) -> Response:
    query = delivery_query(ctx.raw)
    found = await WebhookService(ctx).deliveries(id, query)
    total, pages = found.total, math.ceil(found.total / found.per_page)
    items = [delivery_body(record) for record in found.deliveries]
    headers = {"X-WP-Total": str(total), "X-WP-TotalPages": str(pages)}
    return json_response({"deliveries": items, "total": total, "total_pages": pages}, 200, headers)


@router.get(
    DELIVERY,
    summary="Read one delivery",
    **api_doc(response=Delivery, errors=(*ADMIN, 404), needs=WEBHOOKS),
)
async def get_delivery(id: RecordId, delivery: DeliveryId, ctx: ContextDep) -> Response:
    return json_response(delivery_body(await WebhookService(ctx).delivery(id, delivery)))


@router.post(
    DELIVERY + "/retry",
    summary="Queue a delivery again (now, with a fresh retry schedule)",
    **api_doc(body=NoParams, response=Delivery, errors=(*ADMIN, 404), needs=WEBHOOKS),
)
async def retry_delivery(id: RecordId, delivery: DeliveryId, ctx: ContextDep) -> Response:
    return written_delivery(await WebhookService(ctx).retry(id, delivery))
