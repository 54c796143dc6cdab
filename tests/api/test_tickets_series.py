"""Tickets of a series (docs/design.md#tickets-and-rsvp): one pool for the whole series, or a
ticket of one date, named by the date's ID or by `date`."""

from typing import Any

from httpx import AsyncClient

from tests.factories import API, AuthFor, create_record
from tests.tickets import make_ticket, rsvp


async def series_dates(client: AsyncClient, editor: AuthFor) -> list[dict[str, Any]]:
    series = await create_record(
        client, editor, "events", "Weekly class", recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"]
    )
    listed = await client.get(
        f"{API}/events",
        params={"post_parent": series["id"], "start_date": "now", "end_date": "+1 year"},
    )
    dates: list[dict[str, Any]] = listed.json()["events"]
    assert len(dates) == 3
    assert dates[0]["id"] == series["id"]
    return dates


async def test_a_ticket_for_the_series_one_date_or_a_day(
    client: AsyncClient, editor: AuthFor
) -> None:
    first, second, third = await series_dates(client, editor)
    pool = await make_ticket(client, editor, event=first["id"], name="Season")
    assert (pool["event"], pool["date"]) == (first["id"], None)
    one = await make_ticket(client, editor, event=second["id"], name="Week 2")
    assert (one["event"], one["date"]) == (second["id"], second["start_date"][:10])
    by_day = await make_ticket(
        client, editor, event=first["id"], name="Week 3", date=third["start_date"][:10]
    )
    assert (by_day["event"], by_day["date"]) == (third["id"], third["start_date"][:10])
    # A date's tickets: its own and the series'.
    listed = await client.get(f"{API}/tickets", params={"event": second["id"]})
    assert [item["id"] for item in listed.json()["tickets"]] == [pool["id"], one["id"]]
    answer = await rsvp(client, one["id"])
    assert answer.json()["event"] == second["id"]
    assert (await rsvp(client, pool["id"], email="b@example.org")).json()["event"] == first["id"]


async def test_a_day_without_a_date_is_a_400(client: AsyncClient, editor: AuthFor) -> None:
    first, *_ = await series_dates(client, editor)
    response = await client.post(
        f"{API}/tickets",
        json={"event": first["id"], "name": "Nope", "date": "2020-01-01"},
        headers=editor.basic,
    )
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == ["date"]
    malformed = await client.post(
        f"{API}/tickets",
        json={"event": first["id"], "name": "Nope", "date": "next week"},
        headers=editor.basic,
    )
    assert malformed.status_code == 400
    assert "YYYY-MM-DD" in malformed.json()["data"]["params"]["date"]
