"""What the ticket tests share: an event with a ticket made through the API, and RSVPs."""

from typing import Any

from httpx import AsyncClient, Response

from tests.factories import API, AuthFor, create_record


async def ticketed_event(
    client: AsyncClient, editor: AuthFor, *, event: dict[str, Any] | None = None, **ticket: Any
) -> tuple[int, dict[str, Any]]:
    """A published event (made by `editor`, with `event`'s fields) and a ticket on it with
    `ticket`'s fields: (the event's ID, the ticket's body)."""
    made = await create_record(client, editor, "events", "Concert", **(event or {}))
    body = await make_ticket(client, editor, event=made["id"], **ticket)
    return int(made["id"]), body


async def make_ticket(client: AsyncClient, who: AuthFor, **fields: Any) -> dict[str, Any]:
    fields.setdefault("name", "Entry")
    response = await client.post(f"{API}/tickets", json=fields, headers=who.basic)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def rsvp(
    client: AsyncClient, ticket_id: int, email: str = "ada@example.org", **fields: Any
) -> Response:
    payload = {"name": "Ada", "email": email, **fields}
    return await client.post(f"{API}/tickets/{ticket_id}/rsvp", json=payload)


async def ticket(client: AsyncClient, ticket_id: int, **headers: str) -> dict[str, Any]:
    response = await client.get(f"{API}/tickets/{ticket_id}", headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body
