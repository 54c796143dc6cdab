"""The typed inputs of the webhook service: a subscription's create or update, and a page
of its delivery log. Values are parsed; `None` is a field not sent. The API's door
(app/webhooks/door.py) builds them from a request's parameters."""

from dataclasses import dataclass
from typing import Literal

from app.core.web.refusals import NOTHING_REFUSED, Refusals

DeliveryStatus = Literal["pending", "delivered", "failed"]


@dataclass(frozen=True)
class WebhookWrite:
    """A create (`url` and `types` required) or an update of a subscription."""

    url: str | None = None
    types: list[str] | None = None  # `kind.action`, `kind.*` or `*`, sorted, each once
    description: str | None = None
    active: bool | None = None  # an update's pause (false) or resume (true)
    refused: Refusals = NOTHING_REFUSED


@dataclass(frozen=True)
class DeliveryQuery:
    """A page of a subscription's delivery log, newest first."""

    status: DeliveryStatus | None = None
    page: int = 1
    per_page: int = 20
    refused: Refusals = NOTHING_REFUSED
