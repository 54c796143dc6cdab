"""The first hour, third pass (issue 41), the API's side: 403s that say what the operation
needs, /doc's credentials per operation, writes that say what they ignored or why they
could not read the body, and a no-change write that leaves `modified` alone."""

from typing import Any

from httpx import AsyncClient

from tests.factories import API, Auth, AuthFor

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
