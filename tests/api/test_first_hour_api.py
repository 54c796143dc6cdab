"""The first hour, third pass (issue 41), the API's side: 403s that say what the operation
needs, /doc's credentials per operation, writes that say what they ignored or why they
could not read the body, and a no-change write that leaves `modified` alone."""

import logging
from typing import Any

import httpx
import pytest
from httpx import AsyncClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.rules.permissions import Role
from app.users.service import Accounts
from tests.factories import API, Auth, AuthFor, create_record

SIGNED_IN = [{"basicAuth": []}, {"bearerAuth": []}]


async def test_a_403_says_what_the_operation_needs_and_the_callers_role(
    client: AsyncClient, auth: Auth, editor: AuthFor
) -> None:
    response = await client.post(
        f"{API}/webhooks", json={"url": "https://example.com/hook"}, headers=editor.basic
    )
    assert response.status_code == 403
    assert response.json()["message"] == (
        f"Webhooks are managed by administrators; {editor.login} is an editor."
    )
    assert response.json()["data"] == {"status": 403, "role": "editor"}
    listing = await client.get(f"{API}/webhooks", headers={**editor.basic, "Accept-Language": "sk"})
    assert (
        listing.json()["message"] == f"Webhooky spravujú administrátori; {editor.login} je editor."
    )
    # An author changing another's venue; a contributor changing their own published one
    # (made by an editor, then given to the contributor).
    author = await auth("author")
    venue = await client.post(f"{API}/venues", json={"venue": "Hall"}, headers=editor.basic)
    changed = await client.patch(
        f"{API}/venues/{venue.json()['id']}",
        json={"venue": "Mine"},
        headers={**author.basic, "Accept-Language": "de"},
    )
    assert changed.status_code == 403
    assert changed.json()["message"] == (
        f"Einträge anderer ändern Redakteure und Administratoren; {author.login} ist ein Autor."
    )
    contributor = await auth("contributor")
    given = await client.post(
        f"{API}/venues",
        json={"venue": "Given", "author": contributor.id},
        headers=editor.basic,
    )
    assert given.status_code == 201, given.text
    own = await client.patch(
        f"{API}/venues/{given.json()['id']}", json={"venue": "x"}, headers=contributor.basic
    )
    assert own.json()["message"] == (
        "Published records are changed by authors (their own), editors and administrators; "
        f"{contributor.login} is a contributor."
    )
    # Giving a record to somebody else, and deleting another's image.
    gift = await client.post(
        f"{API}/venues", json={"venue": "Gift", "author": editor.id}, headers=author.basic
    )
    assert gift.json()["message"] == (
        "Records are given to another user by editors and administrators; "
        f"{author.login} is an author."
    )


def _security(doc: dict[str, Any], path: str, method: str) -> Any:
    return doc["paths"][path][method].get("security", doc["security"])


async def test_doc_marks_the_operations_that_need_signing_in(client: AsyncClient) -> None:
    doc = (await client.get(f"{API}/doc")).json()
    optional = [{}, *SIGNED_IN]
    for path in ("/events", "/venues", "/categories", "/events/{id}"):
        assert _security(doc, path, "get") == optional, path
    for path, method, role in (
        ("/media", "get", "contributor"),
        ("/media/{id}", "get", "contributor"),
        ("/webhooks", "get", "administrator"),
        ("/webhooks/{id}/deliveries", "get", "administrator"),
        ("/webhooks", "post", "administrator"),
        ("/events", "post", "contributor"),
        ("/tags/{id}", "patch", "editor"),
        ("/categories", "post", "author"),
    ):
        operation = doc["paths"][path][method]
        assert operation["security"] == SIGNED_IN, (path, method)
        assert operation["x-almanac-role"] == role, (path, method)


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


async def test_json_read_as_a_form_is_a_400_with_the_hint_on_every_write(
    client: AsyncClient, editor: AuthFor, admin: AuthFor
) -> None:
    event = await create_record(client, editor, "events", "Rooftop Jazz")
    hook = await client.post(
        f"{API}/webhooks", json={"url": "http://93.184.215.14/hook"}, headers=admin.basic
    )
    body = '{"title": "x", "description": "changed"}'
    for method, path, who in (
        ("PATCH", f"/events/{event['id']}", editor),
        ("PUT", f"/events/{event['id']}", editor),
        ("POST", f"/events/{event['id']}", editor),
        ("PATCH", f"/events/by-slug/{event['slug']}", editor),
        ("POST", "/venues", editor),
        ("PATCH", f"/webhooks/{hook.json()['id']}", admin),
    ):
        response = await client.request(
            method, f"{API}{path}", content=body, headers={**who.basic, **FORM}
        )
        assert response.status_code == 400, (method, path, response.text)
        assert response.json()["code"] == "rest_invalid_body"
        assert response.json()["message"].startswith(
            "The body looks like JSON but was read as a form, because its Content-Type is "
            "application/x-www-form-urlencoded"
        ), (method, path)
    # No Content-Type at all: said as "missing"; and nothing was written.
    response = await client.patch(f"{API}/events/{event['id']}", content=body, headers=editor.basic)
    assert response.status_code == 400
    assert "because its Content-Type is missing" in response.json()["message"]
    read = (await client.get(f"{API}/events/{event['id']}")).json()
    assert (read["title"], read["modified"]) == ("Rooftop Jazz", event["modified"])
    # A real form still writes.
    form = await client.patch(
        f"{API}/events/{event['id']}", data={"title": "Form"}, headers=editor.basic
    )
    assert form.status_code == 200
    assert form.json()["title"] == "Form"


async def _age(db: AsyncSession, table: str, record_id: int, column: str = "modified_at") -> None:
    """Move a record's `modified` a day back, so that a write's new one would differ."""
    await db.execute(
        text(f"UPDATE {table} SET {column} = {column} - interval '1 day' WHERE id = :id"),
        {"id": record_id},
    )
    await db.commit()


async def test_a_write_names_the_fields_it_ignored_and_no_change_keeps_modified(
    client: AsyncClient, editor: AuthFor, db: AsyncSession, caplog: pytest.LogCaptureFixture
) -> None:
    event = await create_record(client, editor, "events", "Typo Night")
    await _age(db, "events", event["id"])
    aged = (await client.get(f"{API}/events/{event['id']}")).json()
    assert aged["modified"] != event["modified"]
    with caplog.at_level(logging.DEBUG, logger="almanac.writes"):
        typo = await client.patch(
            f"{API}/events/{event['id']}", json={"titel": "typo"}, headers=editor.basic
        )
    assert typo.status_code == 200
    assert typo.headers["X-Almanac-Ignored"] == "titel"
    assert f"PATCH {API}/events/{event['id']} ignored the field(s) titel" in (caplog.text)
    # Nothing changed: `modified` is the one it had, in the answer and in a later read.
    assert (typo.json()["modified"], typo.json()["modified_utc"]) == (
        aged["modified"],
        aged["modified_utc"],
    )
    later = (await client.get(f"{API}/events/{event['id']}")).json()
    assert later["modified"] == aged["modified"]
    # The same title again: no change either; known fields are not named.
    same = await client.put(
        f"{API}/events/{event['id']}",
        json={"title": "Typo Night", "colour": "red", "scope": "all"},
        headers=editor.basic,
    )
    assert same.headers["X-Almanac-Ignored"] == "colour"
    assert same.json()["modified"] == aged["modified"]
    # A change is one.
    changed = await client.patch(
        f"{API}/events/{event['id']}", json={"title": "Fixed"}, headers=editor.basic
    )
    assert "X-Almanac-Ignored" not in changed.headers
    assert changed.json()["modified"] != aged["modified"]
    # Creates and other kinds say it too.
    venue = await client.post(
        f"{API}/venues", json={"venue": "Hall", "adress": "Main St 1"}, headers=editor.basic
    )
    assert venue.status_code == 201
    assert venue.headers["X-Almanac-Ignored"] == "adress"
    await _age(db, "venues", venue.json()["id"])
    aged_venue = (await client.get(f"{API}/venues/{venue.json()['id']}")).json()
    again = await client.post(
        f"{API}/venues/{venue.json()['id']}", json={"venue": "Hall"}, headers=editor.basic
    )
    assert again.json()["modified"] == aged_venue["modified"]
    tag = await client.post(
        f"{API}/tags", json={"name": "Jazz", "colour": "blue"}, headers=editor.basic
    )
    assert tag.headers["X-Almanac-Ignored"] == "colour"
    # Any name is a safe header value; a thousand are not all named.
    odd = await client.patch(
        f"{API}/tags/{tag.json()['id']}",
        json={"a,b\r\nX-Evil: 1": 1, "größe": 2, **{f"f{n}": n for n in range(30)}},
        headers=editor.basic,
    )
    assert odd.status_code == 200
    assert "x-evil" not in odd.headers
    named = odd.headers["X-Almanac-Ignored"].split(", ")
    assert named[:3] == ["a%2Cb%0D%0AX-Evil:%201", "gr%C3%B6%C3%9Fe", "f0"]
    assert named[-1] == "... 12 more"


async def test_doc_names_the_ignored_fields_header_on_writes(client: AsyncClient) -> None:
    doc = (await client.get(f"{API}/doc")).json()
    for path, method, status in (
        ("/events", "post", "201"),
        ("/events/{id}", "patch", "200"),
        ("/webhooks/{id}", "patch", "200"),
        ("/tags/{id}", "put", "200"),
    ):
        headers = doc["paths"][path][method]["responses"][status]["headers"]
        assert "X-Almanac-Ignored" in headers, (path, method)
    assert "X-Almanac-Ignored" not in doc["paths"]["/events/{id}"]["delete"]["responses"][
        "200"
    ].get("headers", {})


async def test_a_sign_in_failing_because_the_pepper_changed_says_so_in_the_log(
    client: AsyncClient, db: AsyncSession, editor: AuthFor, caplog: pytest.LogCaptureFixture
) -> None:
    # Issued under another pepper than the app's (as before APP_PASSWORD_PEPPER changed).
    user, password = await Accounts(db, "the pepper of last year").add("pepperdwight", Role.EDITOR)
    await db.commit()
    basic = httpx.BasicAuth(user.login, password)
    with caplog.at_level(logging.WARNING, logger="almanac.auth"):
        refused = await client.get(f"{API}/media", auth=basic)
        again = await client.get(f"{API}/media", auth=basic)
        # A wrong password of somebody whose passwords verify says nothing.
        wrong = await client.get(f"{API}/media", auth=httpx.BasicAuth(editor.login, "nope"))
    assert (refused.status_code, again.status_code, wrong.status_code) == (401, 401, 401)
    assert "pepper" not in refused.text.lower()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings  # once
    assert (
        "APP_PASSWORD_PEPPER changed since the application passwords of 'pepperdwight'"
        in (warnings[0])
    )


async def test_a_webhook_update_that_changes_nothing_keeps_updated(
    client: AsyncClient, admin: AuthFor, db: AsyncSession
) -> None:
    hook = await client.post(
        f"{API}/webhooks",
        json={"url": "http://93.184.215.14/hook", "description": "CRM"},
        headers=admin.basic,
    )
    await _age(db, "webhook_subscriptions", hook.json()["id"], column="updated_at")
    aged = (await client.get(f"{API}/webhooks/{hook.json()['id']}", headers=admin.basic)).json()
    same = await client.patch(
        f"{API}/webhooks/{aged['id']}",
        json={"description": "CRM", "active": True, "url": aged["url"]},
        headers=admin.basic,
    )
    assert same.status_code == 200
    assert same.json()["updated_utc"] == aged["updated_utc"]
    changed = await client.patch(
        f"{API}/webhooks/{aged['id']}", json={"description": "Sales"}, headers=admin.basic
    )
    assert changed.json()["updated_utc"] != aged["updated_utc"]
