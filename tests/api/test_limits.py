"""Limits that keep one caller from holding the database (docs/design.md, Limits): how deep
lists may be paged, pages past the end answered from the total, and anonymous reads' share
of the connection pool."""

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.app_services import app_services
from app.core.database.pool_share import AnonymousReads
from app.core.rules.paging import MAX_LIST_DEPTH
from app.core.settings import get_settings
from app.pages.views import LAST_LIST_PAGE
from tests.factories import API, AuthFor, create_record, make_event


@pytest.mark.parametrize("plural", ["events", "venues", "organizers", "categories", "tags"])
async def test_a_page_beyond_the_depth_bound_is_400_naming_it(
    client: AsyncClient, plural: str
) -> None:
    deepest = await client.get(
        f"{API}/{plural}", params={"page": MAX_LIST_DEPTH // 100, "per_page": 100}
    )
    assert deepest.status_code == 404  # in bounds: an empty list's page past the end
    beyond = await client.get(
        f"{API}/{plural}", params={"page": MAX_LIST_DEPTH // 100 + 1, "per_page": 100}
    )
    assert beyond.status_code == 400, beyond.text
    body = beyond.json()
    assert body["code"] == "rest_invalid_param"
    reason = body["data"]["params"]["page"]
    assert str(MAX_LIST_DEPTH) in reason
    assert "start_date" in reason


async def test_the_depth_bound_is_named_with_the_other_invalid_parameters(
    client: AsyncClient,
) -> None:
    response = await client.get(
        f"{API}/events",
        params={"page": 10_000, "start_date": "whenever", "i18n_language": "de"},
    )
    assert response.status_code == 400
    params = response.json()["data"]["params"]
    assert set(params) == {"page", "start_date"}
    assert "höchstens 5000" in params["page"]


async def test_a_page_past_the_end_is_404_without_reading_the_rows_before_it(
    client: AsyncClient, db: AsyncSession, statements: list[str]
) -> None:
    for _ in range(3):
        await make_event(db)
    statements.clear()
    beyond = await client.get(f"{API}/events", params={"page": 40, "per_page": 100})
    assert beyond.status_code == 404
    assert beyond.json()["data"] == {"status": 404, "total": 3, "total_pages": 1}
    read = [sql for sql in statements if "FROM occurrences" in sql or "FROM events" in sql]
    assert read, "the total is counted"
    assert not [sql for sql in read if "OFFSET" in sql], "no page of rows was walked"


async def test_a_deeper_page_in_the_list_is_still_read(
    client: AsyncClient, db: AsyncSession
) -> None:
    start = datetime.now(UTC) + timedelta(days=1)
    created = [await make_event(db, start=start + timedelta(hours=n)) for n in range(12)]
    second = await client.get(f"{API}/events", params={"page": 2, "per_page": 9})
    assert second.status_code == 200
    body = second.json()
    assert [event["id"] for event in body["events"]] == created[9:]
    assert (body["total"], body["total_pages"]) == (12, 2)


async def test_a_list_page_beyond_the_bound_is_the_400_page(client: AsyncClient) -> None:
    last = await client.get(f"/events/list/page/{LAST_LIST_PAGE}/")
    assert last.status_code == 404  # in bounds: past the end of an empty calendar
    beyond = await client.get(f"/events/list/page/{LAST_LIST_PAGE + 1}/")
    assert beyond.status_code == 400
    assert beyond.headers["content-type"].startswith("text/html")
    assert f"at most {LAST_LIST_PAGE} pages" in beyond.text
    german = await client.get(f"/de/events/list/page/{LAST_LIST_PAGE + 1}/")
    assert german.status_code == 400
    assert f"höchstens {LAST_LIST_PAGE} Seiten" in german.text


def test_anonymous_reads_get_all_but_a_quarter_of_the_pool() -> None:
    settings = get_settings().model_copy(update={"db_pool_size": 10, "db_max_overflow": 10})
    assert AnonymousReads.of(settings).size == 15
    reserved = settings.model_copy(update={"db_reserved_connections": 4})
    assert AnonymousReads.of(reserved).size == 16


@pytest.fixture
async def anonymous_reads_busy(app: FastAPI) -> AsyncIterator[AnonymousReads]:
    """Every anonymous slot taken, as that many slow anonymous reads would hold them."""
    reads: AnonymousReads = app_services(app).anonymous_reads
    wait = reads.wait
    reads.wait = 0.2
    for _ in range(reads.size):
        await reads.slots.acquire()
    try:
        yield reads
    finally:
        for _ in range(reads.size):
            reads.slots.release()
        reads.wait = wait


async def test_busy_anonymous_reads_leave_connections_for_everybody_else(
    client: AsyncClient, editor: AuthFor, anonymous_reads_busy: AnonymousReads
) -> None:
    anonymous = await client.get(f"{API}/venues", timeout=10)
    assert anonymous.status_code == 503
    assert anonymous.json()["code"] == "rest_unavailable"
    assert anonymous.headers["Retry-After"]
    page = await client.get("/events/list/", timeout=10)
    assert page.status_code == 503
    signed_in = await client.get(f"{API}/venues", headers=editor.basic, timeout=10)
    assert signed_in.status_code == 200
    created = await create_record(client, editor, "venues", "Hall")
    wrong = await client.get(f"{API}/venues", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401  # bad credentials are no way around the share
    anonymous_reads_busy.slots.release()  # one anonymous read finishes
    try:
        after = await client.get(f"{API}/venues/{created['id']}", timeout=10)
        assert after.status_code == 200
    finally:
        await anonymous_reads_busy.slots.acquire()


async def test_each_door_takes_its_share_of_the_pool(
    client: AsyncClient, anonymous_reads_busy: AnonymousReads
) -> None:
    """The doors open their request contexts alike (app/http/context.py), with their own
    share: a page is an anonymous read whatever its method (the password form too); the
    desk takes none (its sign-in form is how people get out of the anonymous share)."""
    password_form = await client.post("/event/anything/", data={"post_password": "x"})
    assert password_form.status_code == 503
    signin = await client.get("/desk/signin", timeout=10)
    assert signin.status_code == 200
