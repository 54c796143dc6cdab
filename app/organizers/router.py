"""Organizers: `/organizers`, `/organizers/{id}`, `/organizers/by-slug/{slug}` (interface §4.6)."""

from typing import ClassVar

from pydantic import Field

from app.organizers.repository import OrganizerRepository
from app.organizers.serializer import organizer_body
from app.posts.router import Email, Name, Phone, PostKind, PostWriteParams, Website, post_router
from app.posts.schemas import Organizer, OrganizerList


class OrganizerWriteParams(PostWriteParams):
    NAME: ClassVar[str] = "organizer"

    organizer: Name = Field("", description="Organizer name (required on create)")
    phone: Phone = Field("", description="Phone number")
    website: Website = Field("", description="Website URL (empty clears)")
    email: Email = Field("", description="E-mail address (not validated, as the reference)")


ORGANIZERS = PostKind(
    name="organizer",
    plural="organizers",
    repository=OrganizerRepository,
    write_params=OrganizerWriteParams,
    body=organizer_body,
    schema=Organizer,
    list_schema=OrganizerList,
)

router = post_router(ORGANIZERS)
