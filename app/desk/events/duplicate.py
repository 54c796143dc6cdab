"""Duplicate an event (`POST /desk/events/<id>/duplicate`, from the Events table and the
editor): a new draft with the event's texts (and their translations), dates, recurrence,
venue, organizers, categories, tags, image and options, opened in the editor.

Nothing is decided here: the event is read with the API's read rule (a record the person may
not read is the API's refusal), and the copy is an ordinary create through the event
service as this person (their role may create a draft or not; the writer checks every
field, links the venue and terms by ID and expands the recurrence), then an update per
language for the translated texts. Password and slug are not copied: a copy gets its own
slug from its title, and a password is the original's secret."""

from fastapi import APIRouter
from starlette.responses import Response

from app.desk.events.editing import translation_write
from app.desk.screens.api_calls import (
    DeskWriter,
    service_context,
    translation_languages,
    write_step,
)
from app.events.commands import EventWrite
from app.events.records import EventRecord
from app.events.service import EventService
from app.i18n import DESK_TEXTS, N_
from app.posts.commands import PostFields

router = APIRouter()

COPY_STATUS = "draft"  # a copy is never public by surprise
TEXTS = ("title", "description", "excerpt")


def copy_write(record: EventRecord) -> EventWrite:
    """The create of a copy of `record` (a series' own record: its rules), linking the
    venue, organizers, terms and image by ID."""
    return EventWrite(
        title=record.title,
        description=record.description,
        excerpt=record.excerpt,
        start=record.start_local,  # wall times in the event's zone
        end=record.end_local,
        timezone=record.timezone,
        all_day=record.all_day,
        cost=record.cost,
        website=record.website or "",
        show_map=record.show_map,
        show_map_link=record.show_map_link,
        hide_from_listings=record.hide_from_listings,
        sticky=record.sticky,
        featured=record.featured,
        categories=[term.id for term in record.categories],
        tags=[term.id for term in record.tags],
        venue=[record.venue_id] if record.venue_id else None,
        organizers=[organizer.id for organizer in record.organizers],
        recurrence=list(record.recurrence) if record.recurrence else None,
        post=PostFields(status=COPY_STATUS, image=record.image_id or None),
    )


@router.post("/events/{event_id:id}/duplicate")
async def duplicate(event_id: int, desk: DeskWriter) -> Response:
    desk.require(desk.can.posts)
    reader = EventService(service_context(desk))
    record, _ = await reader.readable(event_id)
    if record.series_id and record.series_id != record.id:
        # One date of a series: the copy is of the whole series (its rules and first date).
        record, _ = await reader.readable(record.series_id)
    async with write_step(desk):
        copy = await EventService(service_context(desk)).create(copy_write(record))
        copy_id = copy.record.id
        for language in translation_languages(desk):
            translated, _ = await EventService(service_context(desk, language=language)).readable(
                record.id
            )
            texts = {
                name: getattr(translated, name)
                for name in TEXTS
                if getattr(translated, name) != getattr(record, name)
            }
            if texts:
                ctx = service_context(desk, language=language)
                await EventService(ctx).update(copy_id, translation_write(texts, "all"))
    said = DESK_TEXTS.gettext(desk.language, N_("A copy was made as a draft: this is the copy."))
    return desk.redirect(f"events/{copy_id}/edit", flash=said)
