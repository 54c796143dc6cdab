"""The API's door of the webhook service: a request's parameters into its typed inputs
(app/webhooks/commands.py), what it cannot read kept for the service to refuse after its
checks (app/core/web/refusals.py)."""

from app.http.params import parse_later
from app.http.raw_params import RawParams
from app.webhooks.commands import DeliveryQuery, WebhookWrite
from app.webhooks.params import DeliveryListParams, WebhookCreateParams, WebhookUpdateParams


def webhook_create(raw: RawParams) -> WebhookWrite:
    params, refused = parse_later(WebhookCreateParams, raw)
    return WebhookWrite(params.url, params.types, params.description, refused=refused)


def webhook_update(raw: RawParams) -> WebhookWrite:
    params, refused = parse_later(WebhookUpdateParams, raw)
    return WebhookWrite(params.url, params.types, params.description, params.active, refused)


def delivery_query(raw: RawParams) -> DeliveryQuery:
    params, refused = parse_later(DeliveryListParams, raw)
    return DeliveryQuery(params.status, params.page, params.per_page, refused)
