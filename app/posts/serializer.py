"""Response pieces every post-like record shares: the head of the object (IDs, author,
status, dates, links, texts, image), the global IDs, and password-protection redaction."""

import dataclasses
import hmac
import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, tzinfo
from typing import Any, TypeVar

from app.core.rules.dates import format_datetime
from app.core.rules.permissions import User, may
from app.core.web.urls import Urls
from app.posts.images import image_body
from app.posts.records import PostRecord, Protectable

R = TypeVar("R", bound=PostRecord)

# What a password hides (docs/design.md#passwords), wherever the key appears in the object.
REDACTED_TEXT = frozenset(
    {
        "description", "excerpt", "cost", "website", "virtual_url", "virtual_video_source",
        "email", "phone", "stateprovince", "zip", "province", "country", "city", "address",
    }
)  # fmt: skip
REDACTED_NULL = frozenset(
    {
        "all_day", "show_map", "show_map_link", "hide_from_listings", "sticky", "featured",
        "ticketed", "is_virtual",
    }
)  # fmt: skip
# `venue` and `organizer` are the events' relation keys; in a venue or organizer object
# they are the name, which therefore comes out as [] (a reference quirk kept on purpose).
REDACTED_LIST = frozenset({"categories", "tags", "venue", "organizer", "custom_fields"})
EMPTY_COST_DETAILS = {"currency_symbol": "", "currency_position": "", "currency_code": "", "values": []}  # fmt: skip


@dataclass(frozen=True, slots=True)
class View:
    """How records are shown to one request: its public URLs, the site time zone (of the
    publication dates), the caller and the password it sent for protected records."""

    urls: Urls
    zone: tzinfo
    user: User
    password: str | None = None

    def hides(self, record: Protectable) -> bool:
        """Must `record` be redacted for this caller (see is_hidden_from)?"""
        return is_hidden_from(record, self.user, self.password)


def post_head(record: PostRecord, view: View, *, kind: str) -> dict[str, Any]:
    """`id` to `image`, in the reference's order; the name goes under the key `kind`."""
    zone, urls = view.zone, view.urls
    return {
        "id": record.id,
        "author": str(record.author_id or 0),
        "status": record.status,
        "date": format_datetime(record.published_at, zone),
        "date_utc": format_datetime(record.published_at, UTC),
        "modified": format_datetime(record.modified_at, zone),
        "modified_utc": format_datetime(record.modified_at, UTC),
        "url": public_url(record, urls, kind=kind),
        kind: record.name,
        "description": record.description,
        "excerpt": record.excerpt,
        "slug": record.slug,
        "image": image_body(record.image, urls),
    }


def post_body(
    record: R,
    view: View,
    *,
    kind: str,
    fields: Sequence[str],
    json_ld: Callable[[R, Urls], dict[str, Any]] | None = None,
    trailing: Sequence[str] = (),
) -> dict[str, Any]:
    """The whole object: the head, the kind's `fields`, `json_ld` when given, the `trailing`
    fields and the global IDs; redacted (docs/design.md#passwords) when the view hides the record."""
    redact = view.hides(record)
    if redact:
        record = blank_protected(record)
    body = post_head(record, view, kind=kind)
    body.update((name, getattr(record, name)) for name in fields)
    if json_ld is not None:
        body["json_ld"] = json_ld(record, view.urls)
    body.update((name, getattr(record, name)) for name in trailing)
    body.update(global_ids(record, view.urls))
    return redact_body(body) if redact else body


def public_url(record: PostRecord, urls: Urls, *, kind: str) -> str:
    return urls.public(f"/{kind}/{record.slug}/")


def global_ids(record: PostRecord, urls: Urls) -> dict[str, Any]:
    global_id = urls.global_id(record.id)
    return {"global_id": global_id, "global_id_lineage": [global_id]}


def json_ld_text(text: str) -> str:
    """Texts in JSON-LD are HTML-escaped, as the reference's `esc_html` does."""
    return html.escape(text).replace("&#x27;", "&#039;")


# ---- password protection ---------------------------------------------------------------


def is_hidden_from(record: Protectable, user: User, password: str | None) -> bool:
    """Must `record` be redacted for this caller? Not without a password, not for a caller
    who sends the right one (compared in constant time), not for one who may edit it."""
    if not record.password:
        return False
    if password is not None and hmac.compare_digest(
        password.encode("utf-8", "surrogatepass"), record.password.encode()
    ):
        return False
    return not may(user, "edit", record.author_id, record.status)


def blank_protected(record: R) -> R:
    """The record with every protected text emptied and no image (names stay)."""
    names = {field.name for field in dataclasses.fields(record)} & REDACTED_TEXT
    emptied: dict[str, Any] = dict.fromkeys(names, "")
    return dataclasses.replace(record, image=None, **emptied)


def redact_body(body: dict[str, Any]) -> dict[str, Any]:
    """The password rule (docs/design.md#passwords) over the object and the objects nested in it (keys present only).

    `json_ld` is left alone: it is built from the blanked record instead.
    """
    redacted: dict[str, Any] = {}
    for key, value in body.items():
        if key in REDACTED_TEXT:
            value = ""
        elif key in REDACTED_NULL:
            value = None
        elif key in REDACTED_LIST:
            value = []
        elif key == "image":
            value = False
        elif key == "cost_details":
            value = {**EMPTY_COST_DETAILS, "values": []}
        elif key in ("geo_lat", "geo_lng"):
            value = 0
        elif key == "attendance":  # the reference's add-on nulls its figures
            value = dict.fromkeys(value, None)
        elif isinstance(value, dict) and key != "json_ld":
            value = redact_body(value)
        redacted[key] = value
    return redacted
