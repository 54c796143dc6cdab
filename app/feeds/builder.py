"""The iCalendar text of a feed, built with the icalendar library from the events' records
and their JSON bodies.

The bodies are the ones the JSON routes answer with (app/events/serializer.py), so a feed
shows exactly what the caller may see there: a protected event's body is already redacted
(no description, venue, organizers, categories or image), a draft venue is already left out.
The records add what the bodies only have as text: instants, zones, the revision.

Every value comes from the data, none from the clock (DTSTAMP is the event's last change):
the same data gives the same bytes, hence the same ETag.
"""

import mimetypes
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from icalendar import Calendar, Event, vCalAddress, vDuration, vRecur, vText

from app.core.rules.dates import parse_zone
from app.core.rules.html import html_to_text
from app.events.records import EventRecord
from app.feeds.rendered import RENDERED, event_key
from app.feeds.timezones import zone_component
from app.posts.serializer import View

PRODID = "-//almanac//Calendar feeds//EN"
REFRESH = timedelta(hours=1)  # REFRESH-INTERVAL and X-PUBLISHED-TTL: how often to poll
STATUS = {"publish": "CONFIRMED", "private": "CONFIRMED", "trash": "CANCELLED"}  # else TENTATIVE
ADDRESS_PARTS = ("address", "city", "stateprovince", "zip", "country")
END = b"END:VCALENDAR\r\n"


@dataclass(frozen=True, slots=True)
class FeedInfo:
    """What the calendar says about itself."""

    name: str  # X-WR-CALNAME
    site_timezone: str  # X-WR-TIMEZONE
    host: str  # of the UIDs
    language: str  # of the texts
    source: str  # the feed's own URL
    built: datetime  # when (only its year shows, in an empty feed's VTIMEZONE)


@dataclass(frozen=True, slots=True)
class Rules:
    """A series' recurrence as its VEVENT carries it (RFC 5545 §3.8.5): RRULE values with
    UNTIL in the form DTSTART has, RDATE and EXDATE as UTC instants (written like DTSTART)."""

    rrules: tuple[str, ...]
    rdates: tuple[datetime, ...]
    exdates: tuple[datetime, ...]

    def key(self) -> list[str]:
        """What the rendered VEVENT's cache key adds (app/feeds/rendered.py)."""
        rdates, exdates = (
            (m.isoformat() for m in self.rdates),
            (m.isoformat() for m in self.exdates),
        )
        return [*self.rrules, "RDATE", *rdates, "EXDATE", *exdates]


@dataclass(frozen=True, slots=True)
class Item:
    """One event as the caller may see it: a single event, a series (its own first date
    and its `rules`), or an override of one date of a series (a record whose `content_id`
    is not its series': it carries a RECURRENCE-ID)."""

    record: EventRecord
    body: dict[str, Any]
    rules: Rules | None = None


def calendar(info: FeedInfo, items: Sequence[Item], view: View) -> bytes:
    """The feed: VCALENDAR with a VTIMEZONE per zone used and a VEVENT per event."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    # TEXT values (RFC 7986 NAME and its older X- form): commas and semicolons escaped.
    cal.add("x-wr-calname", vText(info.name))
    cal.add("name", vText(info.name))
    cal.add("x-wr-timezone", info.site_timezone)
    cal.add("refresh-interval", vDuration(REFRESH), parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", vDuration(REFRESH))
    cal.add("source", info.source, parameters={"VALUE": "URI"})
    zones: dict[str, list[datetime]] = {}
    for item in items:
        record = item.record
        if not record.all_day and parse_zone(record.timezone) is not UTC:
            dates = (*item.rules.rdates, *item.rules.exdates) if item.rules else ()
            zones.setdefault(record.timezone, []).extend((record.start_at, record.end_at, *dates))
    if not items:
        # A calendar holds at least one component (RFC 5545 §3.6): an empty feed describes
        # the site's zone, the one X-WR-TIMEZONE names.
        zones[info.site_timezone] = [info.built]
    for name, instants in sorted(zones.items()):
        cal.add_component(zone_component(name, instants))
    head = bytes(cal.to_ical())
    # The VEVENTs go where the calendar ends, each as icalendar serialised it (and reused
    # while its inputs stay the same, app/feeds/rendered.py).
    assert head.endswith(END)
    events = b"".join(_serialised(item, info, view) for item in items)
    return head[: -len(END)] + events + END


def _serialised(item: Item, info: FeedInfo, view: View) -> bytes:
    geo = _geo(item, view)
    recurrence: list[Any] | None = None
    if item.rules is not None:
        recurrence = item.rules.key()
    elif _overrides(item.record):
        recurrence = [item.record.series_id, item.record.original_start]
    key = event_key(item.record, item.body, (info.language, info.host, geo, recurrence))
    return RENDERED.get_or_build(key, lambda: bytes(vevent(item, info, geo).to_ical()))


def _overrides(record: EventRecord) -> bool:
    """An occurrence shown by an override row: a VEVENT with a RECURRENCE-ID."""
    return record.recurrence is not None and record.content_id != record.series_id


def _when(record: EventRecord) -> tuple[date | datetime, date | datetime, dict[str, str]]:
    """DTSTART, DTEND and their parameters: whole days for all-day events (the end date is
    exclusive, RFC 5545 §3.6.1), UTC for UTC events, else wall times with their TZID."""
    if record.all_day:
        return record.start_local.date(), record.end_local.date() + timedelta(days=1), {}
    start, zone = _moments(record, [record.start_at, record.end_at])
    return start[0], start[1], zone


def _moments(record: EventRecord, instants: Sequence[datetime]) -> tuple[list[Any], dict[str, str]]:
    """Instants of the event written as its DTSTART is (a series' RDATE, EXDATE and
    RECURRENCE-ID must have DTSTART's value type and zone, RFC 5545 §3.8.4.4, §3.8.5):
    local days, UTC, or wall times with the event's TZID."""
    zone = parse_zone(record.timezone)
    if record.all_day:
        return [moment.astimezone(zone).date() for moment in instants], {}
    if zone is UTC:
        return [moment.astimezone(UTC) for moment in instants], {}
    return [moment.astimezone(zone).replace(tzinfo=None) for moment in instants], {
        "TZID": record.timezone
    }


def vevent(item: Item, info: FeedInfo, geo: tuple[float, float] | None) -> Event:
    record, body = item.record, item.body
    texts = {"LANGUAGE": info.language}
    event = Event()
    # The dates of a series share its UID (RFC 5545 §3.8.4.7); a single event's series is
    # itself.
    uid = record.series_id if record.recurrence is not None else record.id
    event.add("uid", f"{uid}@{info.host}")
    event.add("dtstamp", record.modified_at.astimezone(UTC))
    event.add("created", record.published_at.astimezone(UTC))
    event.add("last-modified", record.modified_at.astimezone(UTC))
    event.add("sequence", record.revision)
    start, end, zone = _when(record)
    event.add("dtstart", start, parameters=zone)
    event.add("dtend", end, parameters=zone)
    _recurrence(event, item)
    event.add("summary", html_to_text(body["title"]), parameters=texts)
    if body["description"]:
        event.add("description", html_to_text(body["description"]), parameters=texts)
        event.add("x-alt-desc", vText(body["description"]), parameters={"FMTTYPE": "text/html"})
    event.add("url", body["url"], parameters={"VALUE": "URI"})
    _location(event, item, texts, geo)
    _organizers(event, body["organizer"])
    categories = [html_to_text(term["name"]) for term in body["categories"]]
    if categories:
        event.add("categories", categories)
    image = body["image"]
    if image:
        kind = mimetypes.guess_type(image["url"])[0]
        event.add("attach", image["url"], parameters={"FMTTYPE": kind} if kind else {})
    event.add("status", STATUS.get(record.status, "TENTATIVE"))
    event.add("class", _classification(record))
    return event


def _recurrence(event: Event, item: Item) -> None:
    """A series' RRULE, RDATE and EXDATE lines; an override's RECURRENCE-ID (the date the
    rules gave it, as DTSTART is written)."""
    record, rules = item.record, item.rules
    if rules is not None:
        for rule in rules.rrules:
            event.add("rrule", vRecur.from_ical(rule))
        for name, instants in (("rdate", rules.rdates), ("exdate", rules.exdates)):
            if instants:
                values, zone = _moments(record, instants)
                event.add(name, values, parameters=zone)
    elif _overrides(record) and record.original_start is not None:
        (original,), zone = _moments(record, [record.original_start])
        event.add("recurrence-id", original, parameters=zone)


def _classification(record: EventRecord) -> str:
    if record.status == "private":
        return "PRIVATE"
    return "CONFIDENTIAL" if record.password else "PUBLIC"


def _shown_venue(item: Item) -> dict[str, Any] | None:
    venue = item.body["venue"]
    return venue if isinstance(venue, dict) and venue else None


def _geo(item: Item, view: View) -> tuple[float, float] | None:
    """The venue's coordinates, when the body shows the venue and its password does not
    hide it."""
    record = item.record.venue
    if _shown_venue(item) is None or record is None or view.hides(record):
        return None
    if record.geo_lat is None or record.geo_lng is None:
        return None
    return record.geo_lat, record.geo_lng


def _location(
    event: Event, item: Item, texts: dict[str, str], geo: tuple[float, float] | None
) -> None:
    """LOCATION (name and address) and GEO, when the body shows the venue."""
    venue = _shown_venue(item)
    if venue is None:
        return
    # A venue its password hides has its texts emptied and its name as [] (the reference's
    # redaction of a `venue` key): no LOCATION then.
    name = venue["venue"] if isinstance(venue["venue"], str) else ""
    parts = [html_to_text(name), *(venue[part] for part in ADDRESS_PARTS)]
    location = ", ".join(part for part in parts if part)
    if location:
        event.add("location", location, parameters=texts)
    if geo is not None:
        event.add("geo", geo)


def _organizers(event: Event, organizers: list[dict[str, Any]]) -> None:
    """ORGANIZER (one is allowed) with its name and, where the e-mail is public, mailto;
    without one, the organizer's page. Further organizers become CONTACTs."""
    for position, organizer in enumerate(organizers):
        name = html_to_text(organizer["organizer"])
        email = organizer["email"].strip()
        if position == 0:
            address = vCalAddress(f"mailto:{email}" if email else organizer["url"])
            address.params["CN"] = vText(name)
            event.add("organizer", address)
        else:
            event.add("contact", f"{name} <{email}>" if email else name)
