"""The changes feed's body, for the OpenAPI document."""

from typing import Any, Literal

from pydantic import Field

from app.http.schemas import Schema


class Change(Schema):
    kind: Literal["event", "venue", "organizer", "category", "tag", "attendee"]
    id: int
    action: Literal["upsert", "delete", "created", "cancelled", "checked_in", "updated"] = Field(
        description="upsert: the record is visible to the caller as `record`; delete: it is "
        "gone or no longer visible to the caller (trashed, deleted, unpublished, private). "
        "An attendee's: created, cancelled, checked_in, updated (another change of its status "
        "or places) or delete (gone)"
    )
    modified_utc: str = Field(description="When it last changed (UTC, Y-m-d H:i:s)")
    record: dict[str, Any] | None = Field(
        description="What a GET of the record returns to the caller; an attendee's `id`, "
        "`event`, `ticket`, `status`, `quantity` and `checked_in_at` (no name, no address); "
        "null for a delete"
    )


class Changes(Schema):
    changes: list[Change]
    next_since: str = Field(description="Opaque token: send it as `since` next time")
    has_more: bool = Field(description="More changes are waiting: ask again at once")
