"""The organizer as a post kind: the shared repository, writer and routes, with its own fields."""

from app.organizers.params import OrganizerWriteParams
from app.organizers.repository import OrganizerRepository
from app.organizers.schemas import Organizer, OrganizerList
from app.organizers.serializer import render_organizers
from app.posts.kind import post_kind

ORGANIZERS = post_kind(
    name="organizer",
    repository=OrganizerRepository,
    params=OrganizerWriteParams,
    render=render_organizers,
    schema=Organizer,
    list_schema=OrganizerList,
)
