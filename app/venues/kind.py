"""The venue as a post kind: the shared repository, writer and routes, with its own fields."""

from app.posts.kind import post_kind
from app.venues.params import VenueWriteParams
from app.venues.repository import VenueRepository
from app.venues.schemas import Venue, VenueList
from app.venues.serializer import render_venues
from app.venues.writer import VenueWriter

VENUES = post_kind(
    name="venue",
    repository=VenueRepository,
    params=VenueWriteParams,
    render=render_venues,
    schema=Venue,
    list_schema=VenueList,
    writer_type=VenueWriter,
)
