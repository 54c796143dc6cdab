"""Finding every record of the source: the reference's lists, paged, checked against
WordPress's own listing of each post type where the site exposes it.

The reference's event list hides events hidden from listings and starts at today by default:
it is asked for an explicit wide window, and any event WordPress lists that it did not is
fetched by ID (the single route answers hidden events too). Signed in as an editor,
WordPress's listing also gives each post's password, with which a protected record (which
the reference's lists redact) is fetched whole.
"""

from dataclasses import dataclass, field
from typing import Any

from app.importer.client import SourceClient, SourceError
from app.importer.source import is_redacted
from app.importer.summary import PLURALS, Summary

# The reference's `start_date`/`end_date` read "starts on or after" / "ends on or before".
WIDE_WINDOW = {"start_date": "1900-01-01 00:00:00", "end_date": "2999-12-31 23:59:59"}
POST_TYPES = {"event": "tribe_events", "venue": "tribe_venue", "organizer": "tribe_organizer"}
LIST_PARAMS: dict[str, dict[str, Any]] = {
    "category": {"hide_empty": "false"},
    "tag": {"hide_empty": "false"},
    "venue": {},
    "organizer": {},
    "event": WIDE_WINDOW,
}


@dataclass(slots=True)
class Listing:
    """The raw records of each kind by source ID (in the source's order), and whether each
    kind was listed completely (only then may `--prune` trash what is gone)."""

    records: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)
    complete: dict[str, bool] = field(default_factory=dict)


async def collect(client: SourceClient, kinds: tuple[str, ...], summary: Summary) -> Listing:
    listing = Listing()
    for kind in kinds:
        records: dict[int, dict[str, Any]] = {}
        listing.records[kind] = records
        try:
            await _list(client, kind, records)
            listing.complete[kind] = True
        except SourceError as exc:
            summary.failures.append(f"listing {PLURALS[kind]}: {exc}")
            listing.complete[kind] = False
            continue
        if kind in POST_TYPES:
            listing.complete[kind] = await _cover(client, kind, records, summary)
    return listing


async def _list(client: SourceClient, kind: str, records: dict[int, dict[str, Any]]) -> None:
    route = PLURALS[kind]
    async for page in client.pages(route, route, LIST_PARAMS[kind]):
        for item in page:
            source_id = item.get("id")
            if isinstance(source_id, int) and source_id > 0:
                records.setdefault(source_id, item)


async def _cover(
    client: SourceClient, kind: str, records: dict[int, dict[str, Any]], summary: Summary
) -> bool:
    """Add what WordPress lists and the reference did not, and protected records whole;
    whether coverage is verified. Records that cannot be fetched are reported as skipped."""
    counts = summary.kinds[kind]
    try:
        wordpress = await client.wp_listing(POST_TYPES[kind])
    except SourceError as exc:
        wordpress = None
        summary.notes.append(f"WordPress's listing of {PLURALS[kind]} failed: {exc}")
    if wordpress is None:
        if kind == "event":
            counts.missing = None
            summary.notes.append(
                f"the site does not expose /wp/v2/{POST_TYPES[kind]}: events hidden from "
                "listings cannot be found, so some may be missing"
            )
        return kind != "event"
    passwords = {
        item["id"]: item["password"]
        for item in wordpress
        if isinstance(item.get("id"), int) and isinstance(item.get("password"), str)
    }
    wanted = [item["id"] for item in wordpress if isinstance(item.get("id"), int)]
    to_fetch = [i for i in wanted if i not in records]
    to_fetch += [i for i, raw in records.items() if passwords.get(i) and is_redacted(kind, raw)]
    missing = 0
    for source_id in to_fetch:
        params = {"password": passwords[source_id]} if passwords.get(source_id) else None
        try:
            status, body = await client.single(f"{PLURALS[kind]}/{source_id}", params)
        except SourceError as exc:
            status, body = 0, {"code": str(exc)}
        if status == 200 and body.get("id") == source_id:
            records[source_id] = body
        elif source_id not in records:
            missing += 1
            reason = f"listed by WordPress but not readable here ({status} {body.get('code', '')})"
            summary.skip(kind, source_id, reason.replace(" )", ")"))
    for source_id, password in passwords.items():
        if source_id in records and password:
            records[source_id] = {**records[source_id], "password": password}
    counts.missing = missing
    return missing == 0
