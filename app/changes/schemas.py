"""The changes feed's body, for the OpenAPI document."""

from typing import Any, Literal

from pydantic import Field

from app.http.schemas import Schema


class Change(Schema):
    kind: Literal["event", "venue", "organizer", "category", "tag"]
    id: int
    action: Literal["upsert", "delete"] = Field(
        description="upsert: the record is visible to the caller as `record`; delete: it is "
        "gone or no longer visible to the caller (trashed, deleted, unpublished, private)"
    )
    modified_utc: str = Field(description="When it last changed (UTC, Y-m-d H:i:s)")
    record: dict[str, Any] | None = Field(
        description="What a GET of the record returns to the caller; null for a delete"
    )


class Changes(Schema):
    changes: list[Change]
    next_since: str = Field(description="Opaque token: send it as `since` next time")
    has_more: bool = Field(description="More changes are waiting: ask again at once")
