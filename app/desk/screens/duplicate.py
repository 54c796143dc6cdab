"""Duplicate an event (`POST /desk/events/<id>/duplicate`, from the Events table and the
editor): a new draft with the event's texts (and their translations), dates, recurrence,
venue, organizers, categories, tags, image and options, opened in the editor.

Nothing is decided here: the event is read with the API's read rule (a record the person may
not read is the API's refusal), and the copy is an ordinary create through the event
service as this person (their role may create a draft or not; the writer checks every
field, links the venue and terms by ID and expands the recurrence), then an update per
language for the translated texts. Password and slug are not copied: a copy gets its own
slug from its title, and a password is the original's secret."""

from typing import Any

from fastapi import APIRouter
from starlette.responses import Response

from app.desk.i18n import N_, gettext
from app.desk.screens.api_calls import (
    DeskWriter,
    service_context,
    translation_languages,
    write_step,
)
from app.events.records import EventRecord
from app.events.service import EventService

router = APIRouter()

COPY_STATUS = "draft"  # a copy is never public by surprise
TEXTS = ("title", "description", "excerpt")
WALL_TIME = "%Y-%m-%d %H:%M:%S"


def copy_params(record: EventRecord) -> dict[str, Any]:
    """The create parameters of a copy of `record` (a series' own record: its rules), by
    the API's write names and IDs."""
    params: dict[str, Any] = {
        **{name: getattr(record, name) for name in TEXTS},
        "status": COPY_STATUS,
        "start_date": record.start_local.strftime(WALL_TIME),
        "end_date": record.end_local.strftime(WALL_TIME),
        "timezone": record.timezone,
        "all_day": record.all_day,
        "cost": record.cost,
        "website": record.website or "",
        "show_map": record.show_map,
        "show_map_link": record.show_map_link,
        "hide_from_listings": record.hide_from_listings,
        "sticky": record.sticky,
        "featured": record.featured,
        "categories": [term.id for term in record.categories],
        "tags": [term.id for term in record.tags],
        "organizer": [organizer.id for organizer in record.organizers],
    }
    if record.venue_id:
        params["venue"] = record.venue_id
    if record.image_id:
        params["image"] = record.image_id
    if record.recurrence:
        params["recurrence"] = list(record.recurrence)
    return params


@router.post("/events/{event_id:id}/duplicate")
async def duplicate(event_id: int, desk: DeskWriter) -> Response:
    desk.require(desk.can.posts)
    reader = EventService(service_context(desk))
    record, _ = await reader.readable(event_id)
    if record.series_id and record.series_id != record.id:
        # One date of a series: the copy is of the whole series (its rules and first date).
        record, _ = await reader.readable(record.series_id)
    async with write_step(desk):
        copy_id, _ = await EventService(service_context(desk, copy_params(record))).create()
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
                ctx = service_context(desk, texts, language=language)
                await EventService(ctx).update(copy_id)
    said = gettext(desk.language, N_("A copy was made as a draft: this is the copy."))
    return desk.redirect(f"events/{copy_id}/edit", flash=said)
