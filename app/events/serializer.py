"""The event object (docs/design.md#shapes) and its schema.org JSON-LD."""

import dataclasses
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from app.core.rules.dates import details_of, format_datetime, parse_zone
from app.core.rules.permissions import can_see_attendees, may
from app.core.web.urls import Urls
from app.events.records import EventRecord, EventSummary
from app.organizers.serializer import organizer_body
from app.posts.images import image_body
from app.posts.records import PostRecord
from app.posts.serializer import View, redact_body
from app.terms.serializer import embedded_term_body
from app.venues.serializer import venue_body


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def render_events(
    records: Sequence[EventRecord], view: View, json_ld: bool = False
) -> list[dict[str, Any]]:
    return [event_body(record, view, json_ld=json_ld) for record in records]


def _shown(view: View, record: PostRecord) -> bool:
    # A draft or trashed venue or organizer must not leak through a published event.
    return may(view.user, "read", record.author_id, record.status)


def public_url(event: EventRecord | EventSummary, urls: Urls) -> str:
    """The event's page; a date of a series has its own: the series' page and the day."""
    day = f"{event.start_local.date().isoformat()}/" if event.recurrence is not None else ""
    return urls.public(f"/event/{event.slug}/{day}")


def summary_body(event: EventSummary, urls: Urls) -> dict[str, Any]:
    """What a calendar grid shows of an event: the fields of the same names in its full
    body (`event_body`). None of them is redacted for a protected event."""
    return {
        "id": event.id,
        "url": public_url(event, urls),
        "title": event.title,
        "slug": event.slug,
        "start_date": format_datetime(event.start_local),
        "end_date": format_datetime(event.end_local),
        "status": event.status,
        "all_day": bool(event.all_day),
    }


def event_body(event: EventRecord, view: View, *, json_ld: bool = False) -> dict[str, Any]:
    """The event with its venue and organizers (those the caller may see); redacted when
    the view hides it (a protected event without its password)."""
    urls, site_zone = view.urls, view.zone
    start, end = format_datetime(event.start_local), format_datetime(event.end_local)
    utc_start, utc_end = format_datetime(event.start_at, UTC), format_datetime(event.end_at, UTC)
    venue = event.venue
    organizers = [o for o in event.organizers if _shown(view, o)]
    global_id = urls.global_id(event.id)
    recurring = event.recurrence is not None
    url = public_url(event, urls)
    body: dict[str, Any] = {
        "id": event.id,
        "global_id": global_id,
        "global_id_lineage": [global_id],
        "author": str(event.author_id or 0),
        "status": event.status,
        "date": format_datetime(event.published_at, site_zone),
        "date_utc": format_datetime(event.published_at, UTC),
        "modified": format_datetime(event.modified_at, site_zone),
        "modified_utc": format_datetime(event.modified_at, UTC),
        "url": url,
        "rest_url": urls.rest(f"/events/{event.id}"),
        "title": event.title,
        "description": event.description,
        "excerpt": event.excerpt,
        "slug": event.slug,
        "image": image_body(event.image, urls),
        "all_day": event.all_day,
        "start_date": start,
        "start_date_details": details_of(start),
        "end_date": end,
        "end_date_details": details_of(end),
        "utc_start_date": utc_start,
        "utc_start_date_details": details_of(utc_start),
        "utc_end_date": utc_end,
        "utc_end_date_details": details_of(utc_end),
        "timezone": event.timezone,
        "timezone_abbr": event.timezone_abbr,
        "cost": event.cost,
        "cost_details": event.cost_details,
        "website": event.website or url,  # the reference falls back to the permalink
        "show_map": event.show_map,
        "show_map_link": event.show_map_link,
        "hide_from_listings": event.hide_from_listings,
        "sticky": event.sticky,
        "featured": event.featured,
        "categories": [embedded_term_body(term, urls) for term in event.categories],
        "tags": [embedded_term_body(term, urls) for term in event.tags],
        "venue": venue_body(venue, view, json_ld=json_ld) if venue and _shown(view, venue) else [],
        "organizer": [organizer_body(o, view, json_ld=json_ld) for o in organizers],
        "custom_fields": [],
        # Event Tickets' fields, where the reference's add-on appends them.
        "ticketed": event.ticketed,
    }
    if event.attendance is not None and can_see_attendees(view.user, event.author_id):
        body["attendance"] = dataclasses.asdict(event.attendance)
    if recurring:
        body["series_id"] = event.series_id
        body["recurrence"] = event.recurrence
    if view.hides(event):
        body = redact_body(body)
    if json_ld:
        body["json_ld"] = event_json_ld(event, body)
    return body


def event_json_ld(event: EventRecord, body: dict[str, Any]) -> dict[str, Any]:
    """schema.org Event (docs/design.md#shapes), built from the already serialised body."""
    zone = parse_zone(event.timezone)
    data: dict[str, Any] = {
        "@context": "http://schema.org",
        "@type": "Event",
        "name": event.title,
        "description": event.excerpt or event.description,
        "url": body["url"],
        "eventAttendanceMode": "https://schema.org/OfflineEventAttendanceMode",
        "eventStatus": "https://schema.org/EventScheduled",
        "startDate": _iso(event.start_at.astimezone(zone)),
        "endDate": _iso(event.end_at.astimezone(zone)),
    }
    if body["image"]:
        data["image"] = body["image"]["url"]
    venue = body["venue"]
    if isinstance(venue, dict) and venue.get("json_ld"):
        data["location"] = venue["json_ld"]
    organizers = [o["json_ld"] for o in body["organizer"] if o.get("json_ld")]
    if organizers:
        data["organizer"] = organizers[0] if len(organizers) == 1 else organizers
    data["performer"] = "Organization"
    details = event.cost_details
    price = _offer_price(details.get("values") or [])
    if price is not None:
        data["offers"] = {
            "@type": "Offer",
            "price": price,
            "priceCurrency": details.get("currency_code", ""),
            "url": body["url"],
            "category": "primary",
            "availability": "inStock",
            "validFrom": _iso(event.published_at.astimezone(zone)),
        }
    return data


def _offer_price(values: list[str]) -> str | None:
    """schema.org wants a number: the lowest written amount, `0` for a free event."""
    for value in values:
        if value.strip().lower() == "free":
            return "0"
        if value.replace(".", "", 1).isdigit():
            return value
    return None
