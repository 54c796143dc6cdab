"""The API's door of the ticket services: a request's parameters into their typed inputs
(app/tickets/commands.py), what it cannot read kept for the services to refuse after their
checks (app/core/web/refusals.py). Sale dates are read in the site's zone unless they name
an instant."""

from datetime import datetime, tzinfo
from typing import Any

from app.core.rules.dates import parse_when
from app.http.params import parse_later
from app.http.raw_params import RawParams
from app.tickets.commands import CLEARABLE, Rsvp, RsvpChange, TicketQuery, TicketWrite
from app.tickets.params import RsvpParams, TicketCreateParams, TicketListParams, TicketUpdateParams


def ticket_query(raw: RawParams) -> tuple[TicketQuery, dict[str, Any]]:
    """The query and the filters a list's links keep."""
    params, refused = parse_later(TicketListParams, raw)
    echoed: dict[str, Any] = {}
    if params.event is not None:
        echoed["event"] = params.event
    if params.on_sale is not None:
        echoed["on_sale"] = str(params.on_sale).lower()
    return TicketQuery(params.event, params.on_sale, params.password, refused), echoed


def ticket_create(raw: RawParams, zone: tzinfo) -> TicketWrite:
    params, refused = parse_later(TicketCreateParams, raw)
    return _write(params, refused, zone, event=params.event, day=params.date)


def ticket_update(raw: RawParams, zone: tzinfo) -> TicketWrite:
    params, refused = parse_later(TicketUpdateParams, raw)
    return _write(params, refused, zone)


def rsvp(raw: RawParams) -> Rsvp:
    params, refused = parse_later(RsvpParams, raw)
    return Rsvp(
        params.name or "",
        params.email or "",
        params.quantity or 1,
        params.going if params.going is not None else True,
        params.password,
        refused,
    )


def rsvp_change(raw: RawParams) -> RsvpChange:
    """A change through the signed link: `quantity`, `going` (the RSVP's parameters)."""
    params, refused = parse_later(RsvpParams, {"name": "-", "email": "x@x.x", **raw})
    sent = raw.keys()
    return RsvpChange(
        params.quantity if "quantity" in sent else None,
        params.going if "going" in sent else None,
        refused,
    )


def _write(params: TicketUpdateParams, refused: Any, zone: tzinfo, **where: Any) -> TicketWrite:
    sent = params.model_fields_set
    cleared = frozenset(
        name for name in CLEARABLE if name in sent and getattr(params, name) is None
    )
    return TicketWrite(
        where.get("event"),
        where.get("day"),
        params.name,
        params.description,
        params.capacity,
        params.max_per_person,
        _when(params.sale_starts, zone),
        _when(params.sale_ends, zone),
        params.waitlist,
        cleared,
        refused,
    )


def _when(value: Any, zone: tzinfo) -> datetime | None:
    return None if value is None else parse_when(value, zone)
