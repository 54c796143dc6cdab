"""Event bodies with their image, venue and organizers (already loaded with the events)."""

from collections.abc import Sequence
from typing import Any

from app.core.permissions import User, may
from app.core.urls import Urls
from app.events.repository import EventRecord
from app.events.serializer import event_body
from app.organizers.serializer import organizer_body
from app.posts.images import image_body
from app.posts.repository import PostRecord
from app.posts.serializer import is_hidden_from
from app.venues.serializer import venue_body


def event_bodies(
    records: Sequence[EventRecord],
    urls: Urls,
    *,
    user: User,
    password: str | None = None,
    json_ld: bool = False,
) -> list[dict[str, Any]]:
    """Serialise events; password-protected ones are redacted unless the caller may see them."""

    def readable(record: PostRecord) -> bool:
        # A draft or trashed venue or organizer must not leak through a published event.
        return may(user, "read", record.author_id, record.status)

    return [
        event_body(
            record,
            urls,
            image=image_body(record.image),
            venue=(
                venue_body(
                    record.venue,
                    urls,
                    json_ld=json_ld,
                    redact=is_hidden_from(record.venue, user, password),
                )
                if record.venue and readable(record.venue)
                else []
            ),
            organizers=[
                organizer_body(
                    organizer,
                    urls,
                    json_ld=json_ld,
                    redact=is_hidden_from(organizer, user, password),
                )
                for organizer in record.organizers
                if readable(organizer)
            ],
            json_ld=json_ld,
            redact=is_hidden_from(record, user, password),
        )
        for record in records
    ]
