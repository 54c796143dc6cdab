"""The attendee routes: `GET /attendees`, `GET /attendees/{id}`, `POST
/attendees/{id}/check-in`, `GET /attendees.csv?event=ID`, `POST /attendees/message`; for an
event's author, editors and administrators (app/attendees/service.py). Handlers parse, call
the service and render the bodies (app/attendees/serializer.py). Nothing here is cached:
the answers hold names and addresses."""

from fastapi import APIRouter
from starlette.responses import Response

from app.attendees.door import attendee_query, csv_event, event_message
from app.attendees.params import (
    AttendeeCsvParams,
    AttendeeListParams,
    CheckInParams,
    MessageParams,
)
from app.attendees.schemas import Attendee, AttendeeList, MessageQueued
from app.attendees.serializer import attendee_body, totals_body
from app.attendees.service import AttendeeService
from app.core.rules.permissions import ATTENDEES
from app.core.web.responses import json_response
from app.http.context import ContextDep, RequestContext
from app.http.openapi import api_doc
from app.http.pagination import PageDep, list_response
from app.http.routing import RecordId
from app.tickets.records import AttendeeRecord

router = APIRouter(tags=["attendees"])
ONE = "/attendees/{id:id}"
SEEN = (401, 403, 404)
PRIVATE = {"Cache-Control": "no-store"}


def one_attendee(record: AttendeeRecord, ctx: RequestContext) -> Response:
    return json_response(attendee_body(record, ctx.settings.site_zone), 200, PRIVATE)


@router.get(
    "/attendees",
    summary="List attendees (an event's, a ticket's, or all the caller may see)",
    **api_doc(
        query=AttendeeListParams,
        response=AttendeeList,
        errors=(400, *SEEN),
        paging_headers=True,
        needs=ATTENDEES,
    ),
)
async def list_attendees(page: PageDep, ctx: ContextDep) -> Response:
    query, echoed = attendee_query(ctx.raw)
    found = await AttendeeService(ctx).page(query, page)
    zone = ctx.settings.site_zone
    response = list_response(
        urls=ctx.urls,
        path="/attendees",
        key="attendees",
        kind="attendees",
        items=[attendee_body(record, zone) for record in found.records],
        total=found.total,
        page=page,
        filters=echoed,
        extra={"totals": totals_body(found.totals)},
    )
    response.headers.update(PRIVATE)
    return response


@router.get(
    "/attendees.csv",
    summary="An event's attendees as CSV (no event: all the caller may see)",
    response_class=Response,
    **api_doc(query=AttendeeCsvParams, errors=(400, *SEEN), needs=ATTENDEES),
)
async def attendees_csv(ctx: ContextDep) -> Response:
    service = AttendeeService(ctx)
    event, refused = csv_event(ctx.raw)
    refused.raise_any()
    text = await service.csv(event)
    name = "attendees.csv" if event is None else f"attendees-{event}.csv"
    headers = {**PRIVATE, "Content-Disposition": f'attachment; filename="{name}"'}
    return Response(text.encode(), 200, headers, "text/csv; charset=utf-8")


@router.post(
    "/attendees/message",
    summary="Write to every going and waitlisted attendee of an event",
    **api_doc(
        body=MessageParams,
        required=("event", "subject", "body"),
        response=MessageQueued,
        errors=(400, *SEEN, 413),
        needs=ATTENDEES,
    ),
)
async def message_attendees(ctx: ContextDep) -> Response:
    service = AttendeeService(ctx)
    params, refused = event_message(ctx.raw)
    refused.raise_any()
    queued = await service.message(params.event, params.subject, params.body)
    return json_response({"event": params.event, "queued": queued})


@router.get(
    ONE,
    summary="Read one attendee",
    **api_doc(response=Attendee, errors=SEEN, needs=ATTENDEES),
)
async def get_attendee(id: RecordId, ctx: ContextDep) -> Response:
    return one_attendee(await AttendeeService(ctx).read(id), ctx)


@router.post(
    ONE + "/check-in",
    summary="Check a going attendee in (a second time: 409 already-checked-in)",
    **api_doc(body=CheckInParams, response=Attendee, errors=(*SEEN, 409), needs=ATTENDEES),
)
async def check_in_attendee(id: RecordId, ctx: ContextDep) -> Response:
    return one_attendee(await AttendeeService(ctx).check_in(id), ctx)
