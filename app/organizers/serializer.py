"""The organizer object (reference §3.7, with every key always present: DESIGN §4)."""

from typing import Any

from app.core.urls import Urls
from app.organizers.repository import OrganizerRecord
from app.posts.serializer import json_ld_text, post_body, public_url

KIND = "organizer"
FIELDS = ("phone", "website", "email")


def organizer_body(
    record: OrganizerRecord, urls: Urls, *, json_ld: bool = False, redact: bool = False
) -> dict[str, Any]:
    """The organizer; `json_ld` for single reads, `redact` for a password the caller lacks."""
    ld = organizer_json_ld if json_ld else None
    return post_body(record, urls, kind=KIND, fields=FIELDS, json_ld=ld, redact=redact)


def organizer_json_ld(record: OrganizerRecord, urls: Urls) -> dict[str, Any]:
    """schema.org Person (reference §3.8); `url` is the website, as the reference shows."""
    return {
        "@type": "Person",
        "name": record.name,
        "description": json_ld_text(record.description),
        "url": record.website or public_url(record, urls, kind=KIND),
        "telephone": record.phone,
        "email": record.email,
        "sameAs": record.website,
    }
