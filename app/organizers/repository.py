"""Organizers: post-like records with contact details, linked through `event_organizers`."""

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, exists

from app.models import Event, Organizer, OrganizerTranslation, event_organizers
from app.posts.records import PostRecord
from app.posts.repository import PostRepository

CONTACT_FIELDS = ("phone", "website", "email")


@dataclass(slots=True)
class OrganizerRecord(PostRecord):
    phone: str
    website: str
    email: str


class OrganizerRepository(PostRepository[OrganizerRecord]):
    model = Organizer
    translation = OrganizerTranslation
    owner = "organizer_id"
    record_type = OrganizerRecord
    matched_fields = frozenset({"name", "description", "excerpt", "phone", "email", "website"})

    def own_columns(self) -> list[Any]:
        return [getattr(Organizer, name) for name in CONTACT_FIELDS]

    def search_columns(self) -> list[Any]:
        return self.own_columns()

    def linked_events(self, *conditions: Any) -> Any:
        links = event_organizers.join(Event, Event.id == event_organizers.c.event_id)
        return (
            exists()
            .select_from(links)
            .where(event_organizers.c.organizer_id == Organizer.id, *conditions)
        )

    async def unlink(self, record_id: int) -> None:
        await self.session.execute(
            delete(event_organizers).where(event_organizers.c.organizer_id == record_id)
        )
