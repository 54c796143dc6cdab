"""`Idempotency-Key` on creates (app/http/idempotency.py): a retried POST answers the first
one's response and creates nothing; keys are per user and bound to one request."""

from typing import Any

import pytest
from httpx import AsyncClient

from tests.factories import API, Auth, AuthFor, record_payload

KEY = {"Idempotency-Key": "create-7f3a"}


async def total(client: AsyncClient, who: AuthFor, plural: str, search: str) -> int:
    params = {"search": search}
    if plural in ("categories", "tags"):
        params["hide_empty"] = "false"  # new terms have no events
    answer = await client.get(f"{API}/{plural}", params=params, headers=who.basic)
    assert answer.status_code == 200, answer.text
    return int(answer.headers["X-WP-Total"])


async def post(
    client: AsyncClient, who: AuthFor, path: str, body: dict[str, Any], key: str | None
) -> Any:
    headers = {**who.basic, **({"Idempotency-Key": key} if key is not None else {})}
    return await client.post(f"{API}/{path}", json=body, headers=headers)


@pytest.mark.parametrize(
    ("plural", "body"),
    [
        ("venues", record_payload("venues", "Retried hall")),
        ("organizers", record_payload("organizers", "Retried band")),
        ("events", record_payload("events", "Retried concert")),
        ("categories", {"name": "Retried genre"}),
        ("tags", {"name": "Retried tag"}),
    ],
)
async def test_a_repeat_with_the_key_answers_the_first_and_creates_nothing(
    client: AsyncClient, editor: AuthFor, plural: str, body: dict[str, Any]
) -> None:
    first = await post(client, editor, plural, body, "retry-1")
    again = await post(client, editor, plural, body, "retry-1")
    assert first.status_code == again.status_code == 201, (first.text, again.text)
    assert again.content == first.content
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    search = next(iter(body.values()))
    assert await total(client, editor, plural, search) == 1


async def test_without_a_key_a_repeat_creates_again(client: AsyncClient, editor: AuthFor) -> None:
    # (Events: a venue or organizer of the same name is the same record, as in the reference.)
    body = record_payload("events", "Twice concert")
    for _ in range(2):
        assert (await post(client, editor, "events", body, None)).status_code == 201
    assert await total(client, editor, "events", "Twice concert") == 2


async def test_another_request_with_a_used_key_is_a_422(
    client: AsyncClient, editor: AuthFor
) -> None:
    first = await post(client, editor, "venues", record_payload("venues", "First hall"), "k-1")
    assert first.status_code == 201
    other = await post(client, editor, "venues", record_payload("venues", "Other hall"), "k-1")
    assert other.status_code == 422, other.text
    assert other.json()["code"] == "rest_idempotency_key_reused"
    assert "Idempotency-Key" in other.json()["message"]
    german = await client.post(
        f"{API}/venues",
        json=record_payload("venues", "Other hall"),
        headers={**editor.basic, "Idempotency-Key": "k-1", "Accept-Language": "de"},
    )
    assert german.status_code == 422
    assert german.json()["message"] != other.json()["message"]
    # The same key on another path is another request too.
    assert (await post(client, editor, "organizers", {"title": "X"}, "k-1")).status_code == 422
    assert await total(client, editor, "venues", "Other hall") == 0


async def test_keys_are_per_user(client: AsyncClient, auth: Auth) -> None:
    one, two = await auth("editor"), await auth("author")
    body = record_payload("events", "Shared key concert")
    first = await post(client, one, "events", body, "shared")
    second = await post(client, two, "events", body, "shared")
    assert first.status_code == second.status_code == 201
    assert "Idempotent-Replayed" not in second.headers
    assert first.json()["id"] != second.json()["id"]
    assert await total(client, one, "events", "Shared key concert") == 2


async def test_a_failed_create_leaves_no_key(client: AsyncClient, editor: AuthFor) -> None:
    bad = await post(client, editor, "venues", {"venue": ""}, "after-failure")
    assert bad.status_code == 400, bad.text
    good = await post(
        client, editor, "venues", record_payload("venues", "Later hall"), "after-failure"
    )
    assert good.status_code == 201, good.text


@pytest.mark.parametrize("key", ["", "x" * 256, "tab\there", "ключ".encode()])
async def test_a_malformed_key_is_a_400(
    client: AsyncClient, editor: AuthFor, key: str | bytes
) -> None:
    headers: dict[str, str | bytes] = {**editor.basic, "Idempotency-Key": key}
    answer = await client.post(
        f"{API}/venues", json=record_payload("venues", "Bad key hall"), headers=headers
    )
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == "rest_invalid_header"
    assert await total(client, editor, "venues", "Bad key hall") == 0
