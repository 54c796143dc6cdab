"""The ticket routes: `GET|POST /tickets`, `GET|PATCH|DELETE /tickets/{id}`, `POST
/tickets/{id}/rsvp` (anonymous, throttled). Handlers parse, call the services
(app/tickets/service.py, app/tickets/rsvp.py), which answer records, and render the bodies
(app/tickets/serializer.py)."""

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.core.caching.etags import etag_headers
from app.core.rules.permissions import POSTS
from app.core.web.responses import json_response
from app.http.context import ContextDep
from app.http.openapi import api_doc
from app.http.pagination import PageDep, list_response
from app.http.routing import RecordId
from app.tickets.door import rsvp, ticket_create, ticket_query, ticket_update
from app.tickets.params import (
    RsvpParams,
    TicketCreateParams,
    TicketListParams,
    TicketReadParams,
    TicketUpdateParams,
)
from app.tickets.rsvp import RsvpService
from app.tickets.schemas import RsvpAnswer, Ticket, TicketDeleted, TicketList
from app.tickets.serializer import answer_body, ticket_body
from app.tickets.service import TicketService

router = APIRouter(prefix="/tickets", tags=["tickets"])
# A ticket's `on_sale` turns with the clock, not with a write: its reads are not stored by
# the server's response cache, which keys answers by the data version
# (app/core/caching/cache.py); clients revalidate them by their ETag as any read.
CLOCKED = {"Cache-Control": "private, no-cache"}
ONE = "/{id:id}"
WRITERS = (401, 403, 404, 413)
ONE_WRITERS = (*WRITERS, 412)


@router.get(
    "",
    summary="List tickets (of an event: `event`)",
    **api_doc(
        query=TicketListParams, response=TicketList, errors=(401, 403, 404), paging_headers=True
    ),
)
async def list_tickets(page: PageDep, ctx: ContextDep) -> Response:
    query, echoed = ticket_query(ctx.raw)
    records, total = await TicketService(ctx).page(query, page)
    response = list_response(
        urls=ctx.urls,
        path="/tickets",
        key="tickets",
        kind="tickets",
        items=[ticket_body(record, ctx) for record in records],
        total=total,
        page=page,
        filters=echoed,
    )
    response.headers.update(CLOCKED)
    return response


@router.post(
    "",
    status_code=201,
    summary="Add a ticket to an event (who may edit the event)",
    **api_doc(
        body=TicketCreateParams,
        required=("event", "name"),
        response=Ticket,
        status=201,
        errors=WRITERS,
        needs=POSTS,
    ),
)
async def create_ticket(ctx: ContextDep) -> Response:
    service = TicketService(ctx)
    ticket = await service.create(ticket_create(ctx.raw, ctx.settings.site_zone))
    body = ticket_body(ticket, ctx)
    headers = {"Location": body["rest_url"], **etag_headers(service.etag(ticket))}
    return json_response(body, 201, headers)


@router.get(
    ONE,
    summary="Read a ticket (anyone who may read its event)",
    **api_doc(query=TicketReadParams, response=Ticket, errors=(401, 403, 404)),
)
async def get_ticket(id: RecordId, ctx: ContextDep) -> Response:
    password = ctx.raw.get("password")
    ticket = await TicketService(ctx).read(id, password if isinstance(password, str) else None)
    return json_response(ticket_body(ticket, ctx), 200, CLOCKED)


@router.patch(
    ONE,
    summary="Change a ticket (who may edit its event)",
    **api_doc(body=TicketUpdateParams, response=Ticket, errors=ONE_WRITERS, needs=POSTS),
)
async def update_ticket(id: RecordId, ctx: ContextDep) -> Response:
    write = ticket_update(ctx.raw, ctx.settings.site_zone)
    service = TicketService(ctx)
    ticket = await service.update(id, write)
    return json_response(ticket_body(ticket, ctx), 200, etag_headers(service.etag(ticket)))


@router.delete(
    ONE,
    summary="Delete a ticket and its attendees (who may edit its event)",
    **api_doc(response=TicketDeleted, errors=(401, 403, 404, 412), needs=POSTS),
)
async def delete_ticket(id: RecordId, ctx: ContextDep) -> Response:
    previous = await TicketService(ctx).delete(id)
    body = {"deleted": True, "previous": ticket_body(previous, ctx)}
    return json_response(body, 200, etag_headers(None))


@router.post(
    ONE + "/rsvp",
    status_code=201,
    summary="Answer a ticket: going (or waitlisted), or not going (anonymous, throttled)",
    **api_doc(
        body=RsvpParams,
        required=("name", "email"),
        response=RsvpAnswer,
        status=201,
        errors=(400, 401, 403, 404, 409, 412, 413, 429),
        anonymous=True,
    ),
)
async def rsvp_ticket(id: RecordId, ctx: ContextDep, request: Request) -> Response:
    client = request.client.host if request.client else "unknown"
    answered = await RsvpService(ctx).rsvp(id, rsvp(ctx.raw), client)
    return json_response(answer_body(answered.attendee, answered.manage_url), 201)
