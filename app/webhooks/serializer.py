"""Bodies of the webhook routes: the doors render them (app/webhooks/router.py), the service
only digests them into ETags."""

from datetime import UTC, datetime
from typing import Any

from app.core.rules.dates import format_datetime
from app.core.web.urls import Urls
from app.webhooks.repository import DeliveryRecord, WebhookRecord
from app.webhooks.sender import message_id

Body = dict[str, Any]


def _utc(moment: datetime | None) -> str | None:
    return None if moment is None else format_datetime(moment, UTC)


def webhook_body(record: WebhookRecord, urls: Urls) -> Body:
    """A subscription, without its secrets (shown once: `with_secret`)."""
    state = "active" if record.active else ("disabled" if record.disabled_reason else "paused")
    disabled = None
    if record.disabled_reason:
        disabled = {
            "reason": record.disabled_reason,
            "detail": record.disabled_detail,
            "at_utc": _utc(record.disabled_at),
        }
    path = f"/webhooks/{record.id}"
    return {
        "id": record.id,
        "url": record.url,
        "types": record.types,
        "description": record.description,
        "active": record.active,
        "state": state,
        "disabled": disabled,
        "pending": record.pending,
        "previous_secret_until_utc": _utc(record.previous_until),
        "created_utc": _utc(record.created_at),
        "updated_utc": _utc(record.updated_at),
        "urls": {"self": urls.rest(path), "deliveries": urls.rest(f"{path}/deliveries")},
    }


def with_secret(record: WebhookRecord, secret: str, urls: Urls) -> Body:
    """The subscription with its new signing secret: the answer of a creation or a rotation."""
    return {**webhook_body(record, urls), "secret": secret}


def deletion_body(previous: WebhookRecord, urls: Urls) -> Body:
    return {"deleted": True, "previous": webhook_body(previous, urls)}


def delivery_body(record: DeliveryRecord) -> Body:
    pending = record.status == "pending"
    return {
        "id": record.id,
        "webhook_id": message_id(record.message_id),
        "type": record.type,
        "kind": record.kind,
        "record_id": record.record_id,
        "status": record.status,
        "attempts": record.attempts,
        "last_status_code": record.last_status,
        "last_error": record.last_error,
        "last_attempt_utc": _utc(record.last_attempt_at),
        "next_attempt_utc": _utc(record.next_attempt_at) if pending else None,
        "created_utc": _utc(record.created_at),
        "log": [
            {
                "attempted_utc": _utc(attempt.attempted_at),
                "status_code": attempt.status,
                "error": attempt.error,
                "response": attempt.response,
                "duration_ms": attempt.duration_ms,
            }
            for attempt in record.log
        ],
    }
