"""The event as a post kind: its repository, writer and bodies for the shared behaviour, and
the reference's event-only rules (trashed: no longer available; protected: refused)."""

from app.core.rules.permissions import may_see_some_attendees
from app.events.params import REQUIRED_ON_CREATE, EventWriteParams
from app.events.records import EventRecord
from app.events.repository.events import EventRepository
from app.events.schemas import Event, EventList
from app.events.serializer import render_events
from app.events.writer import EventWriter
from app.http.context import RequestContext
from app.posts.kind import PostKind


def event_repository(ctx: RequestContext) -> EventRepository:
    """The reads of one request: with the attendance figures for a caller who may see some
    event's attendees (the body shows them where `can_see_attendees`)."""
    return EventRepository(
        ctx.session,
        ctx.language,
        ctx.settings.default_language,
        attendance=may_see_some_attendees(ctx.user),
    )


EVENTS = PostKind[EventRecord](
    name="event",
    plural="events",
    label="an event",
    store=event_repository,
    writer=EventWriter,
    render=render_events,
    write_params=EventWriteParams,
    required=REQUIRED_ON_CREATE,
    schema=Event,
    list_schema=EventList,
    gone_when_trashed=True,
    refuses_protected=True,
    names_other_kinds=True,
)
