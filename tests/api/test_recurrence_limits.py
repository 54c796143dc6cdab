"""Recurrence rules cannot hold a worker (issue 40): a rule that never advances, one denser
than hourly and one whose dates are decades apart each answer within seconds, as a 400 that
says why or as a series, through the API and the desk's preview."""

from typing import Any

from httpx import AsyncClient

from tests.bounds import within
from tests.desk_support import DeskUserFactory, desk_login
from tests.factories import API, AuthFor

EVENT = {
    "title": "Bounded",
    "start_date": "2027-03-01 19:00:00",
    "end_date": "2027-03-01 20:00:00",
    "timezone": "Europe/Berlin",
}
EVERY = {n: ",".join(str(i) for i in range(n)) for n in (24, 60)}
# Every second of every day of 28 days a month: 2.4 million candidates a month for dateutil.
DENSE = (
    "RRULE:FREQ=YEARLY;BYMONTHDAY=" + ",".join(str(d) for d in range(1, 29))
    + f";BYHOUR={EVERY[24]};BYMINUTE={EVERY[60]};BYSECOND={EVERY[60]}"
)  # fmt: skip
# Seconds: each answers in milliseconds now; a sparse rule took 5 s, the others for ever.
BOUND = 3


async def _post(client: AsyncClient, who: AuthFor, lines: list[str]) -> Any:
    with within(BOUND):
        return await client.post(
            f"{API}/events", json={**EVENT, "recurrence": lines}, headers=who.basic
        )


async def test_a_rule_that_never_advances_is_a_400(client: AsyncClient, auth: Any) -> None:
    author = await auth("author")
    for frequency in ("DAILY", "WEEKLY", "MONTHLY", "YEARLY", "HOURLY"):
        response = await _post(client, author, [f"RRULE:FREQ={frequency};INTERVAL=0"])
        assert response.status_code == 400, (frequency, response.text)
        message = response.json()["data"]["params"]["recurrence"]
        assert "INTERVAL from 1 to 1000" in message, message
    listed = await client.get(
        f"{API}/events", params={"search": "Bounded", "status": "draft,publish"},
        headers=author.basic,
    )  # fmt: skip
    assert listed.status_code in (200, 404)
    assert listed.status_code == 404 or listed.json()["events"] == []  # nothing written


async def test_a_rule_denser_than_hourly_is_a_400(client: AsyncClient, editor: AuthFor) -> None:
    for line in (
        DENSE,
        f"RRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE={EVERY[60]}",
        "RRULE:FREQ=HOURLY;BYMINUTE=0,30",
    ):
        response = await _post(client, editor, [line])
        assert response.status_code == 400, (line[:60], response.text)
        assert "more than 24 dates a day" in response.json()["data"]["params"]["recurrence"]
    # As dense as allowed: 24 a day.
    allowed = await _post(client, editor, ["RRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0,5,10,15;COUNT=8"])
    assert allowed.status_code == 201, allowed.text


async def test_sparse_rules_answer_and_keep_their_dates(
    client: AsyncClient, editor: AuthFor
) -> None:
    """Days that are a Monday 29 February come every 28 years: dateutil walked to the year 9999
    between them (7 s a rule, more with an UNTIL); the walk now stops WALK_YEARS ahead."""
    start = {"start_date": "2044-02-29 10:00:00", "end_date": "2044-02-29 11:00:00"}
    for line in (
        "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO",
        "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;UNTIL=99991231",
        "RRULE:FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO",
    ):
        with within(BOUND):
            response = await client.post(
                f"{API}/events", json={**EVENT, **start, "recurrence": [line]}, headers=editor.basic
            )
        assert response.status_code == 201, (line, response.text)
        series = response.json()
        query = {"start_date": "2044-01-01", "end_date": "2073-12-31", "post_parent": series["id"]}
        listed = await client.get(f"{API}/events", params=query)
        days = {event["start_date"][:10] for event in listed.json()["events"]}
        assert "2044-02-29" in days, days
        # The list's feed expands the same rules for its window's EXDATEs: the same bound.
        with within(BOUND):
            feed = await client.get(f"{API}/events.ics", params=query)
        assert feed.status_code == 200, feed.text[:200]
        rule = next(line for line in feed.text.splitlines() if line.startswith("RRULE:"))
        assert "BYMONTHDAY=29" in rule, rule


async def test_the_desk_preview_is_bounded_too(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    contributor = await desk_user("contributor")
    token = await desk_login(client, contributor)
    form = {
        "csrf_token": token,
        "title": "Preview",
        "start_day": "2027-03-01",
        "start_time": "19:00",
        "end_day": "2027-03-01",
        "end_time": "20:00",
        "repeat": "custom",
    }
    for lines, why in (("RRULE:FREQ=DAILY;INTERVAL=0", "never advances"), (DENSE, "too dense")):
        with within(BOUND):
            answer = await client.post("/desk/events/preview", data={**form, "repeat_lines": lines})
        assert answer.status_code == 400, (why, answer.text[:300])
        assert 'role="alert"' in answer.text
