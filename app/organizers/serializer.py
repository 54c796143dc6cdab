"""The organizer object (with every key always present: docs/design.md#shapes)."""

from collections.abc import Sequence
from typing import Any

from app.core.web.urls import Urls
from app.organizers.repository import OrganizerRecord
from app.posts.serializer import View, json_ld_text, post_body, public_url

KIND = "organizer"
FIELDS = ("phone", "website", "email")


def render_organizers(
    records: Sequence[OrganizerRecord], view: View, json_ld: bool = False
) -> list[dict[str, Any]]:
    return [organizer_body(record, view, json_ld=json_ld) for record in records]


def organizer_body(record: OrganizerRecord, view: View, *, json_ld: bool = False) -> dict[str, Any]:
    """The organizer; `json_ld` for single reads; redacted when the view hides it."""
    ld = organizer_json_ld if json_ld else None
    return post_body(record, view, kind=KIND, fields=FIELDS, json_ld=ld)


def organizer_json_ld(record: OrganizerRecord, urls: Urls) -> dict[str, Any]:
    """schema.org Person (docs/design.md#shapes); `url` is the website, as the reference shows."""
    return {
        "@type": "Person",
        "name": record.name,
        "description": json_ld_text(record.description),
        "url": record.website or public_url(record, urls, kind=KIND),
        "telephone": record.phone,
        "email": record.email,
        "sameAs": record.website,
    }
