"""The changes feed in process: the body of a change, per-caller visibility, languages and
bad tokens. (These run inside one rolled-back transaction, which the feed sees as still in
flight, so they look at what a change holds, not at how often it comes: the ordering and
exactly-once rules are tested with real commits in tests/test_sync_live.py.)"""

import base64
import hashlib
import hmac
import re
from typing import Any

import pytest
from httpx import AsyncClient

from app.changes.repository import MAC_BYTES, token_key
from app.core.etags import etag_of
from app.core.responses import dumps
from app.core.settings import get_settings
from tests.factories import API, AuthFor, create_record

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
    anonymous = await changes(client, since)
    assert anonymous[key] == {**anonymous[key], "action": "delete", "record": None}

    url = f"{API}/events/{draft['id']}"
    await client.patch(url, json={"status": "publish"}, headers=editor.basic)
    assert (await changes(client, since))[key]["action"] == "upsert"
    for change in ({"status": "private"}, {"status": "publish", "password": "pw"}):
        await client.patch(url, json=change, headers=editor.basic)
        assert (await changes(client, since))[key]["action"] == "delete"
        assert (await changes(client, since, editor.basic))[key]["action"] == "upsert"
    await client.delete(url, headers=editor.basic)  # trashed: gone for everybody
    assert (await changes(client, since, editor.basic))[key]["action"] == "delete"


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
