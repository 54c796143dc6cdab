"""The API's door of the attendee service: a request's parameters into its typed inputs
(app/attendees/commands.py), what it cannot read kept for the service to refuse after its
checks of the caller (app/core/web/refusals.py)."""

from typing import Any

from app.attendees.commands import AttendeeQuery
from app.attendees.params import AttendeeCsvParams, AttendeeListParams, MessageParams
from app.core.web.refusals import Refusals
from app.http.params import parse_later
from app.http.raw_params import RawParams


def attendee_query(raw: RawParams) -> tuple[AttendeeQuery, dict[str, Any]]:
    """(the query, the filters as the list's links echo them)."""
    params, refused = parse_later(AttendeeListParams, raw)
    query = AttendeeQuery(params.event, params.ticket, params.status, params.search, refused)
    echoed = params.model_dump(
        exclude_none=True, exclude={"i18n_language", "page", "per_page"}, exclude_defaults=True
    )
    return query, echoed


def csv_event(raw: RawParams) -> tuple[int | None, Refusals]:
    params, refused = parse_later(AttendeeCsvParams, raw)
    return params.event, refused


def event_message(raw: RawParams) -> tuple[MessageParams, Refusals]:
    return parse_later(MessageParams, raw)
