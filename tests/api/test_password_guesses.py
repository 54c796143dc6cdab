"""Wrong record passwords are throttled per client with its failed logins
(docs/design.md, Passwords): a protected event's password cannot be guessed as fast as
requests go, through its read, the list's `password=` or the public page's form."""

from httpx import AsyncClient

from app.core.settings import get_settings
from tests.factories import API, AuthFor, create_record

LIMIT = get_settings().login_failures_limit


async def protected_event(client: AsyncClient, editor: AuthFor) -> int:
    event = await create_record(client, editor, "events", "Members only", password="secret")
    return int(event["id"])


async def test_wrong_event_passwords_are_throttled(client: AsyncClient, editor: AuthFor) -> None:
    event_id = await protected_event(client, editor)
    path = f"{API}/events/{event_id}"
    for attempt in range(LIMIT):
        wrong = await client.get(path, params={"password": f"guess-{attempt}"})
        assert wrong.status_code == 403, attempt
        assert wrong.json()["code"] == "event-password-protected"
    throttled = await client.get(path, params={"password": "secret"})
    assert throttled.status_code == 429
    assert throttled.json()["code"] == "rest_too_many_requests"
    assert "wrong passwords" in throttled.json()["message"]
    assert int(throttled.headers["Retry-After"]) >= 1
    listed = await client.get(f"{API}/events", params={"password": "secret"})
    assert listed.status_code == 429
    # Reading without a password is not a guess: still answered.
    assert (await client.get(path)).status_code == 403


async def test_right_passwords_and_unprotected_records_are_not_counted(
    client: AsyncClient, editor: AuthFor
) -> None:
    event_id = await protected_event(client, editor)
    open_event = await create_record(client, editor, "events", "Open to all")
    for _ in range(LIMIT + 2):
        right = await client.get(f"{API}/events/{event_id}", params={"password": "secret"})
        assert right.status_code == 200
        listed = await client.get(f"{API}/events", params={"password": "secret"})
        assert listed.status_code == 200
        other = await client.get(f"{API}/events/{open_event['id']}", params={"password": "x"})
        assert other.status_code == 200
    # An editor may read it anyway: a password they send guesses nothing.
    for _ in range(LIMIT + 2):
        edited = await client.get(
            f"{API}/events/{event_id}", params={"password": "nope"}, headers=editor.basic
        )
        assert edited.status_code == 200


async def test_a_list_password_that_opens_nothing_is_one_wrong_guess(
    client: AsyncClient, editor: AuthFor
) -> None:
    event_id = await protected_event(client, editor)
    for attempt in range(LIMIT):
        listed = await client.get(f"{API}/events", params={"password": f"guess-{attempt}"})
        assert listed.status_code == 200
    throttled = await client.get(f"{API}/events/{event_id}", params={"password": "secret"})
    assert throttled.status_code == 429


async def test_the_public_pages_password_form_is_throttled_too(
    client: AsyncClient, editor: AuthFor
) -> None:
    event = await create_record(client, editor, "events", "Members only", password="secret")
    page = event["url"].replace("http://testserver", "")
    for attempt in range(LIMIT):
        await client.post(page, data={"post_password": f"guess-{attempt}"})
    throttled = await client.get(f"{API}/events/{event['id']}", params={"password": "secret"})
    assert throttled.status_code == 429
