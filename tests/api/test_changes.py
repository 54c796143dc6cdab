"""The changes feed in process: the body of a change, per-caller visibility, languages and
bad tokens. (These run inside one rolled-back transaction, which the feed sees as still in
flight, so they look at what a change holds, not at how often it comes: the ordering and
exactly-once rules are tested with real commits in tests/live/test_sync_live.py.)"""

import base64
import hashlib
import hmac
import re
from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.changes.repository import MAC_BYTES, token_key
from app.core.caching.etags import etag_of
from app.core.settings import get_settings
from app.core.web.responses import dumps
from tests.factories import API, Auth, AuthFor, create_record

FEED = f"{API}/changes"


async def token(client: AsyncClient, prefix: str = "") -> str:
    answer = await client.get(f"{prefix}{FEED}")
    assert answer.status_code == 200
    body = answer.json()
    assert body["changes"] == []
    assert body["has_more"] is False
    return str(body["next_since"])


async def changes(
    client: AsyncClient, since: str, headers: dict[str, str] | None = None, prefix: str = ""
) -> dict[tuple[str, int], dict[str, Any]]:
    answer = await client.get(f"{prefix}{FEED}", params={"since": since}, headers=headers or {})
    assert answer.status_code == 200, answer.text
    assert answer.json()["has_more"] is False
    return {(c["kind"], c["id"]): c for c in answer.json()["changes"]}


async def test_a_change_holds_what_a_get_returns(client: AsyncClient, editor: AuthFor) -> None:
    since = await token(client)
    event = await create_record(client, editor, "events", "Concert", categories=["Jazz"])
    found = await changes(client, since)
    change = found["event", event["id"]]
    assert change["action"] == "upsert"
    get = await client.get(f"{API}/events/{event['id']}")
    assert change["record"] == get.json()
    # The record is the GET's body byte for byte: its digest is the GET's ETag.
    assert etag_of(dumps(change["record"])) == get.headers["etag"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", change["modified_utc"])
    category = event["categories"][0]["id"]
    term = found["category", category]
    assert term["record"] == (await client.get(f"{API}/categories/{category}")).json()
    assert list(change) == ["kind", "id", "action", "modified_utc", "record"]


async def test_visibility_is_per_caller(client: AsyncClient, editor: AuthFor) -> None:
    since = await token(client)
    draft = await create_record(client, editor, "events", "Draft", status="draft")
    key = ("event", draft["id"])
    as_editor = await changes(client, since, editor.basic)
    assert as_editor[key]["action"] == "upsert"
    assert as_editor[key]["record"]["status"] == "draft"
    assert key not in await changes(client, since)  # never public: not even its ID

    url = f"{API}/events/{draft['id']}"
    await client.patch(url, json={"status": "publish"}, headers=editor.basic)
    assert (await changes(client, since))[key]["action"] == "upsert"
    for change in ({"status": "private"}, {"status": "publish", "password": "pw"}):
        await client.patch(url, json=change, headers=editor.basic)
        assert (await changes(client, since))[key]["action"] == "delete"
        assert (await changes(client, since, editor.basic))[key]["action"] == "upsert"
    await client.delete(url, headers=editor.basic)  # trashed: gone for everybody
    assert (await changes(client, since, editor.basic))[key]["action"] == "delete"


async def test_drafts_never_published_are_not_in_the_anonymous_feed(
    client: AsyncClient, editor: AuthFor
) -> None:
    since = await token(client)
    draft = await create_record(client, editor, "events", "Draft", status="draft")
    pending = await create_record(client, editor, "venues", "Pending hall", status="pending")
    drafts = {("event", draft["id"]), ("venue", pending["id"])}
    assert not drafts & set(await changes(client, since))
    assert drafts <= set(await changes(client, since, editor.basic))

    # Published once, then unpublished: the anonymous caller may have it, so it is a delete.
    url = f"{API}/venues/{pending['id']}"
    for status in ("publish", "draft"):
        answer = await client.patch(url, json={"status": status}, headers=editor.basic)
        assert answer.status_code == 200, answer.text
    found = await changes(client, since)
    assert found["venue", pending["id"]]["action"] == "delete"
    assert ("event", draft["id"]) not in found
    # A never-published draft deleted for good stays unknown to anonymous callers.
    gone = await client.delete(
        f"{API}/events/{draft['id']}", params={"force": "true"}, headers=editor.basic
    )
    assert gone.status_code == 200, gone.text
    assert ("event", draft["id"]) not in await changes(client, since)


async def test_a_writer_hears_of_their_own_drafts_only(client: AsyncClient, auth: Auth) -> None:
    since = await token(client)
    editor, writer = await auth("editor"), await auth("contributor")
    other = await create_record(client, editor, "events", "Other's", status="draft")
    own = await create_record(client, writer, "events", "Own", status="draft")
    found = await changes(client, since, writer.basic)
    assert ("event", other["id"]) not in found
    assert found["event", own["id"]]["action"] == "upsert"
    trashed = await client.delete(f"{API}/events/{own['id']}", headers=writer.basic)
    assert trashed.status_code == 200, trashed.text  # trashed: gone for everybody
    found = await changes(client, since, writer.basic)
    assert found["event", own["id"]]["action"] == "delete"


async def test_deleted_records_are_deletes(client: AsyncClient, editor: AuthFor) -> None:
    since = await token(client)
    venue = await create_record(client, editor, "venues", "Hall")
    tag = (await client.post(f"{API}/tags", json={"name": "Rock"}, headers=editor.basic)).json()
    await client.delete(
        f"{API}/venues/{venue['id']}", params={"force": "true"}, headers=editor.basic
    )
    await client.delete(f"{API}/tags/{tag['id']}", headers=editor.basic)
    found = await changes(client, since, editor.basic)
    for key in (("venue", venue["id"]), ("tag", tag["id"])):
        assert found[key]["action"] == "delete"
        assert found[key]["record"] is None


async def test_records_come_in_the_request_language(client: AsyncClient, editor: AuthFor) -> None:
    since = await token(client, "/de")
    venue = await create_record(client, editor, "venues", "Halle")
    german = f"/de{API}/venues/{venue['id']}"
    await client.post(german, json={"venue": "Große Halle"}, headers=editor.basic)
    found = await changes(client, since, prefix="/de")
    record = found["venue", venue["id"]]["record"]
    assert record["venue"] == "Große Halle"
    assert record == (await client.get(german)).json()
    english = await changes(client, since)
    assert english["venue", venue["id"]]["record"]["venue"] == "Halle"


KEY = token_key(get_settings().app_password_pepper)


def forged(text: str, key: bytes = KEY) -> str:
    """A token of `text` ("cursor:xmin:xmax:xip,..."), signed with `key` as the app signs."""
    raw = text.encode()
    mac = hmac.new(key, raw, hashlib.sha256).digest()[:MAC_BYTES]
    return base64.urlsafe_b64encode(mac + raw).rstrip(b"=").decode()


def unsigned(since: str) -> str:
    return base64.urlsafe_b64decode(since + "==")[MAC_BYTES:].decode()


@pytest.mark.parametrize(
    "since",
    [
        "", "not a token", "!!!", forged("1:2:3"), forged("x:1:2:"), "A" * 20000,
        # Snapshots PostgreSQL would refuse: a 400, not a database error.
        forged("1:10:3:"), forged("1:3:10:11"), forged("1:3:10:5,4"), forged("1:0:10:"),
        forged(f"1:3:{2**64}:"), forged(f"{2**63}:3:10:"),
        # A well-formed token not signed by this server.
        forged("0:3:10:", key=b"another server"),
        base64.urlsafe_b64encode(b"0:3:10:").decode(),
    ],
)  # fmt: skip
async def test_a_token_that_is_not_one_is_a_400(client: AsyncClient, since: str) -> None:
    answer = await client.get(FEED, params={"since": since})
    assert answer.status_code == 400
    assert answer.json()["code"] == "rest_invalid_param"
    assert "since" in answer.json()["data"]["params"]


async def test_a_token_from_elsewhere_is_expired(client: AsyncClient) -> None:
    """Ahead of this database's log: from another database, or from before a restore."""
    snapshot = unsigned(await token(client)).split(":", 1)[1]
    answer = await client.get(FEED, params={"since": forged(f"999999999:{snapshot}")})
    assert answer.status_code == 410
    assert answer.json()["code"] == "rest_sync_token_expired"


@pytest.mark.parametrize("per_page", ["0", "101", "x"])
async def test_per_page_is_checked(client: AsyncClient, per_page: str) -> None:
    since = await token(client)
    answer = await client.get(FEED, params={"since": since, "per_page": per_page})
    assert answer.status_code == 400
    assert "per_page" in answer.json()["data"]["params"]


# ---- series: the feed's event IDs are occurrences, as the list's ----------------------


async def series_dates(client: AsyncClient, editor: AuthFor, count: int = 3) -> list[int]:
    """A weekly series of `count` dates: their occurrence IDs, in order."""
    payload = {
        "title": "Yoga", "start_date": "2027-03-02 19:00:00", "end_date": "2027-03-02 20:30:00",
        "timezone": "Europe/Berlin", "recurrence": [f"RRULE:FREQ=WEEKLY;COUNT={count}"],
    }  # fmt: skip
    created = await client.post(f"{API}/events", json=payload, headers=editor.basic)
    assert created.status_code == 201, created.text
    query = {"post_parent": created.json()["id"], "start_date": "2027-01-01",
             "end_date": "2027-12-31", "per_page": 50}  # fmt: skip
    listed = await client.get(f"{API}/events", params=query)
    ids = [item["id"] for item in listed.json()["events"]]
    assert len(ids) == count
    return ids


async def override_rows(db: AsyncSession) -> set[tuple[str, int]]:
    """The keys the feed would give the overrides' internal rows."""
    rows = await db.scalars(text("SELECT id FROM events WHERE series_id IS NOT NULL"))
    return {("event", row_id) for row_id in rows}


async def test_a_series_title_edit_is_an_upsert_of_each_date(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    dates = await series_dates(client, editor)
    overridden = await client.patch(
        f"{API}/events/{dates[2]}", json={"description": "<p>Outdoors</p>"}, headers=editor.basic
    )
    assert overridden.status_code == 200, overridden.text
    since = await token(client)
    edited = await client.patch(
        f"{API}/events/{dates[0]}", json={"title": "Hatha"}, headers=editor.basic
    )
    assert edited.status_code == 200, edited.text
    found = await changes(client, since)
    # Every date, the overridden one too (it follows the title); no internal override row.
    # (In process, the feed also hands out the series' creation: see the top.)
    assert {("event", date) for date in dates} <= set(found)
    overrides = await override_rows(db)
    assert len(overrides) == 1
    assert not overrides & set(found)
    for date in dates:
        change = found["event", date]
        assert change["action"] == "upsert"
        assert change["record"]["title"] == "Hatha"
        get = (await client.get(f"{API}/events/{date}")).json()
        assert change["record"] == get
    assert found["event", dates[2]]["record"]["description"] == "<p>Outdoors</p>"


async def test_a_cancelled_date_is_a_delete_of_its_id(client: AsyncClient, editor: AuthFor) -> None:
    dates = await series_dates(client, editor)
    since = await token(client)
    cancelled = await client.delete(f"{API}/events/{dates[1]}", headers=editor.basic)
    assert cancelled.status_code == 200, cancelled.text
    found = await changes(client, since, editor.basic)
    assert found["event", dates[1]]["action"] == "delete"
    assert found["event", dates[1]]["record"] is None
    # The other dates show the series' new rules (an EXDATE): upserts.
    for date in (dates[0], dates[2]):
        assert found["event", date]["action"] == "upsert"
        assert found["event", date]["record"]["recurrence"][-1].startswith("EXDATE:")


async def test_an_override_edit_is_an_upsert_of_its_date(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    dates = await series_dates(client, editor)
    since = await token(client)
    changed = await client.patch(
        f"{API}/events/{dates[1]}", json={"title": "Yoga outdoors"}, headers=editor.basic
    )
    assert changed.status_code == 200, changed.text
    found = await changes(client, since)
    # The date, and not the override's internal row (a delete of an ID never seen).
    overrides = await override_rows(db)
    assert len(overrides) == 1
    assert not overrides & set(found)
    change = found["event", dates[1]]
    assert change["action"] == "upsert"
    assert change["record"]["title"] == "Yoga outdoors"
    assert change["record"] == (await client.get(f"{API}/events/{dates[1]}")).json()
    again = await client.patch(
        f"{API}/events/{dates[1]}", json={"title": "Yoga in the park"}, headers=editor.basic
    )
    assert again.status_code == 200
    found = await changes(client, since)
    assert not overrides & set(found)
    assert found["event", dates[1]]["record"]["title"] == "Yoga in the park"
    other = await client.get(f"{API}/events/{dates[0]}")
    assert other.json()["title"] == "Yoga"  # the other dates keep the series' title


async def test_a_series_row_that_is_no_date_is_not_an_upsert(
    client: AsyncClient, editor: AuthFor
) -> None:
    """A split's new series has no date at its own start (the dates keep their IDs): its
    ID answers a GET but is not in the list, so the feed does not report it."""
    dates = await series_dates(client, editor, count=4)
    since = await token(client)
    split = await client.patch(
        f"{API}/events/{dates[2]}",
        json={"scope": "following", "title": "Evening yoga"},
        headers=editor.basic,
    )
    assert split.status_code == 200, split.text
    new_series = split.json()["series_id"]
    assert new_series not in dates
    found = await changes(client, since)
    assert found.get(("event", new_series), {"action": "delete"})["action"] == "delete"
    for date in dates[2:]:
        assert found["event", date]["record"]["title"] == "Evening yoga"
        assert found["event", date]["record"]["series_id"] == new_series
