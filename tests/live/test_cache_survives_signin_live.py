"""The response cache of a real `almanac serve` (the cache needs the server's lifespan) against
writes that change no content: a desk sign-in, a failed one, a sign-out and ending another
session draw no data version, so a cached list stays a hit; a content write through the desk
or the API is seen at once, also when the same request wrote a desk session too
(app/core/database/engine.py `not_content`)."""

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.desk_support import ACCOUNT_PASSWORD, csrf_token
from tests.factories import API
from tests.live.desk_harness import add_desk_user
from tests.live.harness import accounts_of, almanac_server, fresh_database

VERSION = "SELECT last_value FROM events_version_seq"
WINDOW = {"start_date": "2030-01-01", "end_date": "2030-12-31"}


@dataclass
class Site:
    base: str
    database_url: str
    login: str
    app_password: str


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[Site]:
    async with fresh_database(database_url, "almanac_cache_signin_live", migrated=True) as url:
        async with accounts_of(url) as accounts:
            app_password = await add_desk_user(accounts, "cacher", "editor")
        async with almanac_server(url) as base:
            yield Site(base, url, "cacher", app_password)


async def _list(anonymous: httpx.AsyncClient, site: Site) -> httpx.Response:
    answer = await anonymous.get(f"{site.base}{API}/events", params=WINDOW)
    assert answer.status_code == 200, answer.text
    return answer


async def _sign_in(desk: httpx.AsyncClient, site: Site, password: str = ACCOUNT_PASSWORD) -> int:
    answer = await desk.post(
        f"{site.base}/desk/signin", data={"login": site.login, "password": password}
    )
    return answer.status_code


async def _csrf(desk: httpx.AsyncClient, site: Site) -> str:
    home = await desk.get(f"{site.base}/desk/")
    assert home.status_code == 200, home.text
    return csrf_token(home)


async def _sql(site: Site, statement: str) -> Any:
    """Run `statement` on the served database (committed); its first value."""
    engine = create_async_engine(site.database_url)
    try:
        async with engine.begin() as connection:
            return (await connection.execute(text(statement))).scalar()
    finally:
        await engine.dispose()


async def test_desk_sessions_keep_the_cache_and_content_writes_do_not(site: Site) -> None:
    api_auth = (site.login, site.app_password)
    async with (
        httpx.AsyncClient() as anonymous,
        httpx.AsyncClient() as desk,
        httpx.AsyncClient() as other_browser,
        httpx.AsyncClient(auth=api_auth) as writer,
    ):
        first = await _list(anonymous, site)
        cached = await _list(anonymous, site)
        assert (first.headers["x-almanac-cache"], cached.headers["x-almanac-cache"]) == (
            "miss",
            "hit",
        )

        version = await _sql(site, VERSION)

        async def still_cached() -> None:
            assert await _sql(site, VERSION) == version
            again = await _list(anonymous, site)
            assert again.headers["x-almanac-cache"] == "hit"
            assert again.content == cached.content

        assert await _sign_in(desk, site, "not the password") == 401
        await still_cached()
        assert await _sign_in(desk, site) == 303
        await still_cached()
        token = await _csrf(desk, site)
        assert await _sign_in(other_browser, site) == 303
        await still_cached()
        ended = await desk.post(f"{site.base}/desk/sessions/end-others", data={"csrf_token": token})
        assert ended.status_code == 303, ended.text
        await still_cached()
        signed_out = await desk.post(f"{site.base}/desk/signout", data={"csrf_token": token})
        assert signed_out.status_code == 303, signed_out.text
        assert (await desk.get(f"{site.base}/desk/")).status_code != 200
        await still_cached()

        # Content written through the desk: the next list is built anew and shows it. The
        # second time the session has been idle for a while, so the same request writes its
        # `last_seen_at` too (a write marked as no content): the database's answer still
        # has the version drawn after the commit, as many versions as the first time.
        assert await _sign_in(desk, site) == 303
        token = await _csrf(desk, site)
        drawn = []
        for title, day in (("Desk one", "2030-03-01"), ("Desk two", "2030-03-02")):
            if title == "Desk two":
                idle = "UPDATE desk_sessions SET last_seen_at = now() - interval '5 minutes'"
                await _sql(site, idle + " RETURNING 1")
            before = await _sql(site, VERSION)
            created = await desk.post(
                f"{site.base}/desk/events/new",
                data={
                    "csrf_token": token, "title": title,
                    "start_day": day, "start_time": "19:00", "end_day": day, "end_time": "21:00",
                    "timezone": "Europe/Berlin", "status": "publish",
                },
            )  # fmt: skip
            assert created.status_code == 303, created.text
            drawn.append(int(await _sql(site, VERSION)) - int(before))
            after_desk = await _list(anonymous, site)
            assert after_desk.headers["x-almanac-cache"] == "miss"
            assert after_desk.json()["events"][-1]["title"] == title
            assert (await _list(anonymous, site)).headers["x-almanac-cache"] == "hit"
        touched = "SELECT last_seen_at > now() - interval '1 minute' FROM desk_sessions"
        assert await _sql(site, touched) is True
        assert drawn[0] > 1
        assert drawn[1] == drawn[0]

        # And through the API.
        posted = await writer.post(
            f"{site.base}{API}/events",
            json={"title": "Written through the API", "start_date": "2030-04-01 10:00",
                  "end_date": "2030-04-01 11:00", "timezone": "Europe/Berlin"},
        )  # fmt: skip
        assert posted.status_code == 201, posted.text
        after_api = await _list(anonymous, site)
        assert after_api.headers["x-almanac-cache"] == "miss"
        titles = [e["title"] for e in after_api.json()["events"]]
        assert titles == ["Desk one", "Desk two", "Written through the API"]
