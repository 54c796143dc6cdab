"""Parameters of the webhook routes (they also write the OpenAPI document)."""

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from app.http.coercion import NonEmptyStr, StringList, WPBool
from app.http.pagination import MAX_PER_PAGE, PageParams, PerPage
from app.http.params import Params

KINDS = ("event", "venue", "organizer", "category", "tag")
ACTIONS = ("upsert", "delete")
# An attendee's changes (app/changes/service.py): IDs, status and places, no personal data.
ATTENDEE_ACTIONS = ("created", "cancelled", "checked_in", "updated", "delete")
# What `types` may name: a kind and an action, every action of a kind, or everything.
TYPES = (
    "*",
    *(f"{kind}.{action}" for kind in KINDS for action in (*ACTIONS, "*")),
    *(f"attendee.{action}" for action in (*ATTENDEE_ACTIONS, "*")),
)
MAX_DESCRIPTION = 500


def _types(value: list[str]) -> list[str]:
    items = [item.strip() for item in value]
    unknown = [item for item in items if item not in TYPES]
    if unknown:
        raise PydanticCustomError("not_one_of", "unknown type", {"choices": ", ".join(TYPES)})
    return sorted(set(items))


Types = Annotated[
    StringList,
    AfterValidator(_types),
    WithJsonSchema({"type": "array", "items": {"type": "string", "enum": list(TYPES)}}),
]
Url = Annotated[NonEmptyStr, Field(max_length=2000)]
Description = Annotated[str, Field(max_length=MAX_DESCRIPTION)]


class WebhookCreateParams(Params):
    url: Url = Field(description="Where deliveries are POSTed: an http(s) URL")
    types: Types = Field(
        ["*"],
        description="The changes wanted: `kind.action` (event, venue, organizer, category, "
        "tag; upsert, delete; or attendee: created, cancelled, checked_in, updated, delete), "
        "`kind.*`, or `*` for all",
    )
    description: Description = Field("", description="A note for administrators")


class WebhookUpdateParams(Params):
    url: Url | None = Field(None, description="A new receiver URL")
    types: Types | None = Field(None, description="The changes wanted (as when creating)")
    description: Description | None = Field(None, description="A note for administrators")
    active: WPBool | None = Field(
        None, description="false pauses deliveries (they queue up), true resumes them"
    )


class DeliveryListParams(PageParams):
    status: Literal["pending", "delivered", "failed"] | None = Field(
        None, description="Only deliveries in this state"
    )
    per_page: PerPage = Field(20, description=f"Deliveries per page, 1 to {MAX_PER_PAGE}")


class NoParams(Params):
    """An action without parameters (its body, if any, is ignored)."""
