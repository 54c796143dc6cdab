"""The venue object (with every key always present, docs/design.md#shapes, but its coordinates:
docs/design.md#places)."""

from collections.abc import Sequence
from typing import Any

from app.core.web.urls import Urls
from app.posts.serializer import View, json_ld_text, post_body, public_url
from app.venues.repository import VenueRecord

KIND = "venue"
FIELDS = (
    "address", "city", "country", "province", "state", "zip", "phone", "website",
    "stateprovince",
)  # fmt: skip
TRAILING = ("show_map", "show_map_link")
# After `stateprovince`, only for a venue that has coordinates, as the reference writes them;
# a password hides how they were found (and redaction shows the coordinates as 0).
COORDINATES = ("geo_lat", "geo_lng")
PRECISION = ("geo_precision",)


def render_venues(
    records: Sequence[VenueRecord], view: View, json_ld: bool = False
) -> list[dict[str, Any]]:
    return [venue_body(record, view, json_ld=json_ld) for record in records]


def venue_body(record: VenueRecord, view: View, *, json_ld: bool = False) -> dict[str, Any]:
    """The venue; `json_ld` for single reads; redacted when the view hides it."""
    ld = venue_json_ld if json_ld else None
    hidden = view.hides(record)
    fields: tuple[str, ...] = FIELDS
    if record.geo_lat is not None:
        fields += COORDINATES if hidden else COORDINATES + PRECISION
    body = post_body(record, view, kind=KIND, fields=fields, json_ld=ld, trailing=TRAILING)
    if json_ld and not hidden:
        geo = _geo(record)
        if geo is not None:
            body["json_ld"]["geo"] = geo
    return body


def _geo(record: VenueRecord) -> dict[str, Any] | None:
    """schema.org GeoCoordinates of a venue with coordinates (an event's `location` carries
    it too); a venue whose password hides it shows none, nor one without coordinates."""
    if record.geo_lat is None or record.geo_lng is None:
        return None
    return {"@type": "GeoCoordinates", "latitude": record.geo_lat, "longitude": record.geo_lng}


def venue_json_ld(record: VenueRecord, urls: Urls) -> dict[str, Any]:
    """schema.org Place with its PostalAddress (docs/design.md#shapes), which leaves out the empty
    parts of the address, as the reference does (its other keys stay, empty or not)."""
    address = {
        "streetAddress": record.address,
        "addressLocality": record.city,
        "addressRegion": record.stateprovince or record.province or record.state,
        "postalCode": record.zip,
        "addressCountry": record.country,
    }
    return {
        "@type": "Place",
        "name": record.name,
        "description": json_ld_text(record.description),
        "url": public_url(record, urls, kind=KIND),
        "address": {"@type": "PostalAddress", **{k: v for k, v in address.items() if v}},
        "telephone": record.phone,
        "sameAs": record.website,
    }
