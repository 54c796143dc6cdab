"""Webhook bodies, for the OpenAPI document."""

from typing import Any, Literal

from pydantic import Field

from app.http.schemas import Schema


class Disabled(Schema):
    reason: Literal["gone", "retries_exhausted"] = Field(
        description="gone: the receiver answered 410; retries_exhausted: a delivery failed "
        "through the whole retry schedule"
    )
    detail: str
    at_utc: str


class WebhookUrls(Schema):
    self: str
    deliveries: str


class Webhook(Schema):
    id: int
    url: str
    types: list[str]
    description: str
    active: bool = Field(description="false: paused or disabled (deliveries queue up)")
    state: Literal["active", "paused", "disabled"]
    disabled: Disabled | None = Field(description="Why the deliveries disabled it")
    pending: int = Field(description="Deliveries waiting (the backlog)")
    previous_secret_until_utc: str | None = Field(
        description="After a rotation: until when the previous secret also signs"
    )
    created_utc: str
    updated_utc: str
    urls: WebhookUrls


class WebhookWithSecret(Webhook):
    secret: str = Field(description="The signing secret (whsec_...): shown only this once")


class Webhooks(Schema):
    webhooks: list[Webhook]


class DeletedWebhook(Schema):
    deleted: bool
    previous: Webhook


class DeliveryAttempt(Schema):
    attempted_utc: str
    status_code: int | None = Field(description="The receiver's answer; null: none")
    error: str | None = Field(description="Why the attempt failed (timeout, connection, HTTP)")
    response: str | None = Field(description="The start of the receiver's answer")
    duration_ms: int


class Delivery(Schema):
    id: int
    webhook_id: str = Field(description="The `webhook-id` header: the same on every attempt")
    type: str = Field(description="e.g. event.upsert, attendee.checked_in, or ping")
    kind: str | None
    record_id: int | None
    status: Literal["pending", "delivered", "failed"]
    attempts: int
    last_status_code: int | None
    last_error: str | None
    last_attempt_utc: str | None
    next_attempt_utc: str | None
    created_utc: str
    log: list[DeliveryAttempt] = Field(description="Every attempt, oldest first")


class Deliveries(Schema):
    deliveries: list[Delivery]
    total: int
    total_pages: int


class Message(Schema):
    """What a receiver gets (the body of a delivery)."""

    type: str
    timestamp: str
    data: dict[str, Any]
