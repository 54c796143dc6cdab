"""Event bodies with their image, venue and organizers, loaded in a constant number of queries."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.images import image_body
from app.models import Image
from app.permissions import User, may
from app.repositories.events import EventRecord
from app.repositories.organizers import OrganizerRepository
from app.repositories.venues import VenueRepository
from app.serializers.events import event_body
from app.serializers.organizers import organizer_body
from app.serializers.posts import is_hidden_from
from app.serializers.venues import venue_body
from app.urls import Urls


async def event_bodies(
    session: AsyncSession,
    records: Sequence[EventRecord],
    urls: Urls,
    *,
    language: str,
    default_language: str,
    user: User,
    password: str | None = None,
    json_ld: bool = False,
) -> list[dict[str, Any]]:
    """Serialise events; password-protected ones are redacted unless the caller may see them."""
    image_ids = {r.image_id for r in records if r.image_id}
    venue_ids = {r.venue_id for r in records if r.venue_id}
    organizer_ids = {oid for r in records for oid in r.organizer_ids}
    images = (
        {row.id: row for row in await session.scalars(select(Image).where(Image.id.in_(image_ids)))}
        if image_ids
        else {}
    )
    venues = (
        await VenueRepository(session, language, default_language).get_many(list(venue_ids))
        if venue_ids
        else {}
    )
    organizers = (
        await OrganizerRepository(session, language, default_language).get_many(list(organizer_ids))
        if organizer_ids
        else {}
    )

    def readable(record: Any) -> bool:
        # A draft or trashed venue or organizer must not leak through a published event.
        return may(user, "read", record.author_id, record.status)

    bodies = []
    for record in records:
        venue = venues.get(record.venue_id) if record.venue_id else None
        linked = [organizers[oid] for oid in record.organizer_ids if oid in organizers]
        bodies.append(
            event_body(
                record,
                urls,
                image=image_body(images.get(record.image_id)) if record.image_id else False,
                venue=(
                    venue_body(
                        venue, urls, json_ld=json_ld, redact=is_hidden_from(venue, user, password)
                    )
                    if venue and readable(venue)
                    else []
                ),
                organizers=[
                    organizer_body(
                        organizer,
                        urls,
                        json_ld=json_ld,
                        redact=is_hidden_from(organizer, user, password),
                    )
                    for organizer in linked
                    if readable(organizer)
                ],
                json_ld=json_ld,
                redact=is_hidden_from(record, user, password),
            )
        )
    return bodies
