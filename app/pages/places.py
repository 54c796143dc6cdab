"""Where a page's events are: each listed event with its venue's point (and its distance from
the place the visitor asked about), the map's markers (one per venue, with its events), and
the link to a point on OpenStreetMap that a page without a map shows instead."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.core.rules.geography import Point
from app.i18n.dates import Dates
from app.pages.content import ListedEvent
from app.pages.links import PageLinks

OPENSTREETMAP = "https://www.openstreetmap.org/"
ZOOM = 16  # a street's width: where a venue's map link opens


def openstreetmap_link(point: Point | None) -> str | None:
    """The point on OpenStreetMap's own site, marked, at a street's zoom."""
    if point is None:
        return None
    lat, lng = f"{point.lat:.6f}", f"{point.lng:.6f}"
    return f"{OPENSTREETMAP}?mlat={lat}&mlon={lng}#map={ZOOM}/{lat}/{lng}"


@dataclass(frozen=True, slots=True)
class PlacedEvent:
    """A listed event, its venue's point when the visitor may see one, and its distance in
    km from the place searched near (None without one)."""

    event: ListedEvent
    point: Point | None
    distance: float | None = None

    @property
    def map_link(self) -> str | None:
        return openstreetmap_link(self.point)


def markers(placed: Sequence[PlacedEvent], links: PageLinks, dates: Dates) -> list[dict[str, Any]]:
    """One marker per venue with a point, in the order of its first event, with its events
    (title, day and page): the map script's data (app/pages/static/map.js)."""
    found: dict[int | None, dict[str, Any]] = {}
    for item in placed:
        if item.point is None:
            continue
        # By venue, not by point: venues placed at their city's centre share one.
        venue_id = item.event.record.venue_id
        if venue_id not in found:
            found[venue_id] = venue_marker(item.event["venue"], item.point, [], links, dates)
        found[venue_id]["events"].append(_entry(item.event, links, dates))
    return list(found.values())


def venue_marker(
    venue: dict[str, Any],
    point: Point,
    events: Sequence[ListedEvent],
    links: PageLinks,
    dates: Dates,
) -> dict[str, Any]:
    """A venue's marker (its body's name and page) with `events`."""
    return {
        "lat": point.lat,
        "lng": point.lng,
        "name": venue["venue"],
        "url": links.localize(venue["url"]),
        "events": [_entry(event, links, dates) for event in events],
    }


def _entry(event: ListedEvent, links: PageLinks, dates: Dates) -> dict[str, str]:
    return {
        "title": event["title"],
        "url": links.localize(event["url"]),
        "when": dates.short_day(event.record.start_local.date()),
    }
