"""The API's door of the event service: a request's parameters into its typed inputs
(app/events/commands.py). The wire's forms are read here and nowhere else: lenient dates,
booleans and numbers, a venue or organizers as IDs, `{id}` objects, comma lists or inline
records, terms as IDs, slugs or names. What cannot be read is kept in the input for the
service to refuse after its checks of the caller and the record (app/core/web/refusals.py)."""

from datetime import datetime, tzinfo
from typing import Any

from app.core.errors import note
from app.core.rules.constants import MAX_ID
from app.core.rules.dates import ZoneError, parse_zone, read_when
from app.core.web.refusals import Refusals, Refused
from app.events.commands import CostValue, EventRemoval, EventWrite, LinkRef, Scope, TermRef
from app.events.params import MAX_LINKED, EventDeleteParams, EventWriteParams, ScopeParams
from app.http.coercion import decimal
from app.http.params import parse_later
from app.http.raw_params import RawParams
from app.organizers.params import OrganizerWriteParams
from app.posts.door import post_fields, record_write
from app.posts.params import PostWriteParams
from app.venues.params import VenueWriteParams

FLAGS = ("show_map", "show_map_link", "hide_from_listings", "sticky", "featured")
INLINE: dict[str, type[PostWriteParams]] = {
    "venue": VenueWriteParams,
    "organizer": OrganizerWriteParams,
}


def event_write(raw: RawParams, site_zone: tzinfo) -> EventWrite:
    """An event's create or update; a date without an offset is a wall time, a relative one
    ("tomorrow 9am") counted in the zone sent, else the site's."""
    params, refused = parse_later(EventWriteParams, raw)
    sent = params.model_fields_set
    zone = _zone(params.timezone, site_zone)
    notes = dict(refused.notes)
    dates: dict[str, datetime | None] = {}
    for name in ("start_date", "end_date"):
        dates[name] = None
        value = getattr(params, name)
        if value is not None:
            try:
                dates[name] = read_when(value, zone)
            except ValueError:
                notes.setdefault(name, note("bad_date", name=name))
    flags = {flag: getattr(params, flag) for flag in FLAGS}
    return EventWrite(
        title=params.title,
        description=params.description,
        excerpt=params.excerpt,
        start=dates["start_date"],
        end=dates["end_date"],
        timezone=params.timezone,
        all_day=params.all_day,
        cost=_cost(params.cost) if "cost" in sent else None,
        website=(params.website or "") if "website" in sent else None,
        **flags,
        categories=_term_refs("categories", params.categories) if "categories" in sent else None,
        tags=_term_refs("tags", params.tags) if "tags" in sent else None,
        venue=_venue(params.venue, site_zone) if "venue" in sent else None,
        organizers=_organizers(params.organizer, site_zone) if "organizer" in sent else None,
        recurrence=(params.recurrence or []) if "recurrence" in sent else None,
        post=post_fields(params, site_zone),
        scope=_scope(raw),
        names=tuple(raw),
        refused=Refusals(notes, refused.error),
    )


def event_removal(raw: RawParams) -> EventRemoval:
    """A DELETE; a `scope` it cannot read is refused before its `force`, as the service
    reads them."""
    params, refused = parse_later(EventDeleteParams, raw)
    return EventRemoval(params.force, _scope(raw), refused)


def _scope(raw: RawParams) -> Scope | Refused | None:
    params, refused = parse_later(ScopeParams, raw)
    if "scope" in refused:
        return Refused(refused.notes["scope"])
    return params.scope


def _zone(name: str | None, default: tzinfo) -> tzinfo:
    try:
        return parse_zone(name) if name and name.strip() else default
    except ZoneError:
        return default  # refused with the parameters


def _cost(value: Any) -> CostValue | Refused:
    """A text, a number or a list of them (null: none)."""
    if value is None:
        return ""
    if not isinstance(value, str | int | float | list):
        return Refused(note("bad_cost"))
    if isinstance(value, list) and not all(isinstance(v, str | int | float) for v in value):
        return Refused(note("bad_cost"))
    return value


def _term_refs(name: str, raw: Any) -> list[TermRef] | Refused:
    """Term references of a write's `categories`/`tags`: IDs or texts."""
    if raw in (None, "", []):
        return []
    refs: list[TermRef] = []
    for item in raw if isinstance(raw, list) else [raw]:
        if isinstance(item, bool) or not isinstance(item, int | str):
            return Refused(note("not_a_list", name=name))
        parts = [item] if isinstance(item, int) else [p.strip() for p in item.split(",")]
        for part in parts:
            if isinstance(part, str) and part.isascii() and part.isdigit():
                part = decimal(part) or 0  # too long to be an ID: refused below, as 0 is
            if isinstance(part, int) and not 0 < part <= MAX_ID:
                return Refused(note("invalid_id", name=name, max=MAX_ID))
            if part != "":
                refs.append(part)
    if len(refs) > MAX_LINKED:
        return Refused(("too_many_items", {"name": name, "max": MAX_LINKED}))
    return refs


# ---- linked venues and organizers ---------------------------------------------------------


def _as_id(value: Any) -> int | None:
    """A positive integer ID from an int or a digit string, else None."""
    if isinstance(value, bool):
        return None
    number = decimal(value) if isinstance(value, str) else value
    return number if isinstance(number, int) and 0 < number <= MAX_ID else None


def _is_empty(value: Any) -> bool:
    if value in (None, "", 0, "0", [], {}):
        return True
    return isinstance(value, dict) and all(v in (None, "", []) for v in value.values())


def _venue(raw: Any, zone: tzinfo) -> list[LinkRef] | Refused:
    """The venue a write names, as a list of at most one item ([]: unlink)."""
    if isinstance(raw, list) and len(raw) == 1:
        raw = raw[0]
    if _is_empty(raw):
        return []
    if isinstance(raw, list):
        return Refused(note("one_venue", count=len(raw)))
    return [_reference("venue", raw, zone)]


def _organizers(raw: Any, zone: tzinfo) -> list[LinkRef] | Refused:
    """The organizers a write names, in order ([]: unlink them all)."""
    if _is_empty(raw):
        return []
    if isinstance(raw, str) and "," in raw:
        items: list[Any] = [part for part in raw.split(",") if part.strip()]
    elif isinstance(raw, list):
        items = raw
    else:
        items = [raw]
    if len(items) > MAX_LINKED:
        return Refused(note("too_many_items", name="organizer", max=MAX_LINKED))
    return [_reference("organizer", item, zone) for item in items]


def _reference(kind: str, item: Any, zone: tzinfo) -> LinkRef:
    """The record an item names: an ID, an `{id}` object, or an inline record (its fields
    in any letter case)."""
    if isinstance(item, dict) and _as_id(item.get("id")) is None and kind in item:
        fields = {key.lower(): value for key, value in item.items()}
        return record_write(INLINE[kind], kind, fields, zone)
    record_id = _as_id(item.get("id") if isinstance(item, dict) else item)
    if record_id is None:
        return Refused(note("bad_link", name=kind, field=kind))
    return record_id
