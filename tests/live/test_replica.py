"""A real primary and a streaming standby `APPLY_DELAY` behind it (tests/standby.py), and
`almanac serve` with two workers reading from the standby: no answer staler than the lag
(anonymous, signed in, cached callers), read-your-writes, the standby stopped and started,
and a lag beyond REPLICA_MAX_LAG. Conditions are polled for within bounds, never timed."""

import asyncio
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import asyncpg
import httpx
import pytest

from app.core.database.engine import asyncpg_url, raw_dsn
from app.core.database.migrate import upgrade
from app.core.database.replica import format_lsn, parse_lsn
from app.core.rules.constants import VERSION_SEQUENCE
from tests.factories import API
from tests.live.harness import POLL, add_user, almanac, private_postgres
from tests.live.test_instances import Instance, serving
from tests.standby import Standby, streaming_standby

APPLY_DELAY = "1s"
LONG_DELAY = "20s"  # beyond MAX_LAG, with room for a loaded machine
MAX_LAG = "8"  # the webhook worker's commits keep the replica about APPLY_DELAY behind
BOUND = 30.0  # seconds a condition may take to come true (far beyond the lag)
EVENTS = f"{API}/events"
TOTALS_HITS = 'almanac_cache_lookups_total{cache="totals",result="hit"}'
LOG_SEQUENCE = (
    f"SELECT setval('{VERSION_SEQUENCE}', last_value), nextval('{VERSION_SEQUENCE}')"
    f" FROM {VERSION_SEQUENCE}"
)


@dataclass(frozen=True)
class Setup:
    instance: Instance
    standby: Standby
    primary_url: str
    editor: tuple[str, str]


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[Any, Standby]]:
    with private_postgres("replica") as primary, streaming_standby(primary, APPLY_DELAY) as standby:
        yield primary, standby


@pytest.fixture(scope="module")
async def setup(servers: tuple[Any, Standby]) -> AsyncIterator[Setup]:
    primary, standby = servers
    url = asyncpg_url(primary.get_uri("postgres"))
    await asyncio.to_thread(upgrade, url)  # what `almanac migrate` runs, in this process
    editor = ("editor", (await add_user(url, "editor", "editor"))[1])
    replica = {
        "DATABASE_READ_URL": standby.url("postgres"),
        "REPLICA_MAX_LAG": MAX_LAG,
        "REPLICA_CHECK_INTERVAL": "0.1",
        "READ_YOUR_WRITES_WAIT": "3",
        "LOGIN_FAILURES_LIMIT": "100",  # the removed user's refusals are failures too
    }
    async with serving(url, 2, **replica) as instance:
        yield Setup(instance, standby, url, editor)


async def until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not await check():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(POLL)


def event(title: str, day: int = 1, month: int = 5) -> dict[str, str]:
    date = f"2027-{month:02}-{day:02}"
    return {"title": title, "start_date": f"{date} 10:00", "end_date": f"{date} 11:00"}


async def metric(http: httpx.AsyncClient, sample: str) -> float:
    """A sample of /metrics (summed over the workers), 0 when absent."""
    text = (await http.get("/metrics")).text
    found = re.search(rf"^{re.escape(sample)} (\S+)$", text, re.M)
    return float(found[1]) if found else 0.0


async def reads(http: httpx.AsyncClient, server: str) -> float:
    """Reads answered from `server` so far, by every worker."""
    return await metric(http, f'almanac_db_reads_total{{server="{server}"}}')


def readers(count: int, http: httpx.AsyncClient) -> Callable[[], Awaitable[bool]]:
    """Whether `count` workers read from the replica (each samples it on its own)."""

    async def check() -> bool:
        return await metric(http, "almanac_replica_readers") == count

    return check


def client(setup: Setup, **options: Any) -> httpx.AsyncClient:
    """A client that opens a connection per request: the two workers both answer some."""
    fresh = httpx.Limits(max_keepalive_connections=0)
    return httpx.AsyncClient(base_url=setup.instance.base, limits=fresh, **options)


async def replica_status(http: httpx.AsyncClient) -> dict[str, Any]:
    ready = await http.get("/readyz")
    assert ready.status_code == 200, ready.text
    status: dict[str, Any] = ready.json()["replica"]
    return status


def titles(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [e["title"] for e in response.json()["events"]]


def test_positions_read_and_written_as_postgresql_does() -> None:
    assert format_lsn(0x16B374D848) == "16/B374D848"
    assert parse_lsn("16/b374d848") == 0x16B374D848
    assert parse_lsn(format_lsn(2**64 - 1)) == 2**64 - 1
    for malformed in ("", "16", "16/", "/1", "0x1/2", "1/2/3", "123456789/1", "g/1"):
        assert parse_lsn(malformed) is None


async def test_no_anonymous_answer_staler_than_the_lag(setup: Setup) -> None:
    async with (
        client(setup, auth=setup.editor) as editor,
        client(setup) as anonymous,
    ):
        kept = (await editor.post(EVENTS, json=event("Kept concert"))).json()["id"]
        trashed = (await editor.post(EVENTS, json=event("Trashed concert", 2))).json()["id"]
        searched = {"search": "concert"}

        async def shows(wanted: set[str], params: dict[str, str] | None = None) -> bool:
            return set(titles(await anonymous.get(EVENTS, params=params))) == wanted

        before = {"Kept concert", "Trashed concert"}
        await until(lambda: shows(before), "the replica has the first events")
        # Warm both workers' response caches: the list and the search, under this version.
        for params in (None, searched):
            await until(cache_hit(anonymous, params), "a cached answer")
        assert (await anonymous.get(f"{EVENTS}/{trashed}")).status_code == 200

        # A new event, a new title and a trashed event, each written on the primary.
        assert (await editor.post(EVENTS, json=event("New concert", 3))).status_code == 201
        renamed = await editor.post(f"{EVENTS}/{kept}", json={"title": "Renamed concert"})
        assert renamed.status_code == 200
        assert (await editor.delete(f"{EVENTS}/{trashed}")).status_code == 200
        after = {"Renamed concert", "New concert"}

        await until(lambda: shows(after), "the anonymous list shows the writes")
        await until(lambda: shows(after, searched), "the anonymous search shows the writes")
        # From then on no worker answers from before the writes, cached or not.
        for _ in range(8):
            assert await shows(after)
            assert await shows(after, searched)
            assert (await anonymous.get(f"{EVENTS}/{trashed}")).status_code == 403  # trashed
        await until(cache_hit(anonymous), "the fresh answer cached again")


async def until_replayed(setup: Setup) -> None:
    """Until the standby has replayed everything the primary has written so far."""
    primary = await asyncpg.connect(raw_dsn(setup.primary_url))
    standby = await asyncpg.connect(raw_dsn(setup.standby.url("postgres")))
    written = await primary.fetchval("SELECT pg_current_wal_lsn()")

    async def replayed() -> bool:
        return bool(await standby.fetchval("SELECT pg_last_wal_replay_lsn()") >= written)

    await until(replayed, "the standby has replayed what the primary wrote")
    await primary.close()
    await standby.close()


def cache_hit(http: httpx.AsyncClient, params: dict[str, str] | None = None) -> Callable[[], Awaitable[bool]]:  # fmt: skip
    """Whether an anonymous read of the list is answered from the response cache."""

    async def check() -> bool:
        return (await http.get(EVENTS, params=params)).headers["x-almanac-cache"] == "hit"

    return check


async def test_signed_in_totals_follow_the_writes(setup: Setup) -> None:
    """The bug this guards against: a total filed under the standby's own reading of the
    version sequence, which moves only when the primary logs the sequence (32 numbers
    ahead), so a total counted before a write was served after it. Each round first has the
    sequence logged (`setval`, then one number) and replayed, so that the write's own
    numbers are not logged: the standby's reading stays where it was."""
    primary = await asyncpg.connect(raw_dsn(setup.primary_url))
    async with (
        client(setup, auth=setup.editor) as editor,  # never writes: no position to bring
        client(setup, auth=setup.editor) as writer,
        client(setup) as ops,
    ):
        params = {"per_page": "50", "start_date": "2027-06-01", "end_date": "2027-06-30"}

        async def listed() -> tuple[int, int]:
            page = await editor.get(EVENTS, params=params)
            assert page.status_code == 200, page.text
            return len(page.json()["events"]), int(page.headers["X-WP-Total"])

        for day in (1, 2):
            await primary.execute(LOG_SEQUENCE)
            await until_replayed(setup)
            hits = await metric(ops, TOTALS_HITS)

            async def cached_total(day: int = day, hits: float = hits) -> bool:  # counted, reused
                assert await listed() == (day - 1, day - 1)
                return await metric(ops, TOTALS_HITS) > hits

            await until(cached_total, "a total counted on the replica reused")
            created = await writer.post(EVENTS, json=event(f"June {day}", day, month=6))
            assert created.status_code == 201

            async def counted(day: int = day) -> bool:
                found = await listed()
                assert found[0] == found[1] or found[0] < day  # a page and its total agree
                return found == (day, day)

            await until(counted, "the signed-in list and its total show the new event")
            for _ in range(6):
                assert await listed() == (day, day)
        # The sync feed reads its snapshot on the replica as well.
        changes = await editor.get(f"{API}/changes")
        assert changes.status_code == 200, changes.text
    await primary.close()


async def test_a_removed_user_and_a_changed_role_take_effect_at_once(setup: Setup) -> None:
    async def added(login: str) -> tuple[str, str]:
        out = await almanac(setup.primary_url, "users", "add", login, "--role", "author")
        return login, out.split()[-1]

    drafts = {"status": "draft"}  # an author's list of drafts; a subscriber may not ask
    async with (
        client(setup, auth=await added("leaving")) as leaving,
        client(setup, auth=await added("demoted")) as demoted,
        client(setup) as ops,
    ):
        for _ in range(6):  # each worker caches the callers
            assert (await leaving.get(EVENTS, params=drafts)).status_code == 200
            assert (await demoted.get(EVENTS, params=drafts)).status_code == 200
        await until_replayed(setup)
        # The replica keeps the users as they were for LONG_DELAY, and is read from until
        # its lag passes MAX_LAG: credentials and roles are never read there.
        await asyncio.to_thread(setup.standby.set_apply_delay, LONG_DELAY)
        await almanac(setup.primary_url, "users", "remove", "leaving")
        primary = await asyncpg.connect(raw_dsn(setup.primary_url))
        await primary.execute("UPDATE users SET role = 'subscriber' WHERE login = 'demoted'")
        await primary.close()
        replica_before = await reads(ops, "replica")
        for _ in range(6):
            assert (await leaving.get(EVENTS)).status_code == 401
            refused = await demoted.get(EVENTS, params=drafts)
            assert refused.status_code == 400, refused.text  # status_publish_only
        assert await reads(ops, "replica") >= replica_before + 12  # the reads were the replica's
        await asyncio.to_thread(setup.standby.set_apply_delay, APPLY_DELAY)
        await until(readers(2, ops), "both workers read from the replica again")


async def served_by(http: httpx.AsyncClient, request: Awaitable[httpx.Response]) -> str:
    """The server that answered `request` (nothing else reads meanwhile: /metrics does not)."""
    before = {server: await reads(http, server) for server in ("primary", "replica")}
    response = await request
    assert response.status_code == 200, response.text
    moved = [s for s in before if await reads(http, s) > before[s]]
    assert len(moved) == 1, moved
    return moved[0]


async def test_read_your_writes_and_a_lag_beyond_the_limit(setup: Setup) -> None:
    async with (
        client(setup, auth=setup.editor) as writer,
        client(setup, auth=setup.editor) as other,
        client(setup) as ops,
    ):
        await asyncio.to_thread(setup.standby.set_apply_delay, LONG_DELAY)
        created = await writer.post(EVENTS, json=event("Mine", 5))
        assert created.status_code == 201
        position = created.headers["X-Almanac-Position"]
        assert re.fullmatch(r"[0-9A-F]+/[0-9A-F]+", position)
        assert f"almanac_position={position}" in created.headers["set-cookie"]
        assert "HttpOnly" in created.headers["set-cookie"]
        mine = f"{EVENTS}/{created.json()['id']}"

        # Without a position the replica answers: it has not replayed the write.
        replica_before = await reads(ops, "replica")
        assert (await other.get(mine)).status_code == 404
        assert await reads(ops, "replica") > replica_before
        # The writer's client sends the cookie back, another one the header: the replica is
        # waited for (READ_YOUR_WRITES_WAIT) and then the primary reads the write.
        assert await served_by(ops, writer.get(mine)) == "primary"
        assert await served_by(ops, other.get(mine, headers={"X-Almanac-Position": position})) == "primary"  # fmt: skip
        malformed = await other.get(mine, headers={"X-Almanac-Position": "yesterday"})
        assert malformed.status_code == 400
        assert malformed.json()["code"] == "rest_invalid_header"

        # Beyond REPLICA_MAX_LAG every read goes to the primary, and /readyz says so.
        await until(readers(0, ops), "no worker reads from the lagging replica")
        status = await replica_status(ops)
        assert (status["status"], status["reads"]) == ("lagging", "primary")
        assert status["lag_seconds"] > status["max_lag_seconds"]
        assert await served_by(ops, other.get(mine)) == "primary"
        assert await metric(ops, "almanac_replica_lag_seconds") > float(MAX_LAG)

        await asyncio.to_thread(setup.standby.set_apply_delay, APPLY_DELAY)
        await until(readers(2, ops), "both workers read from the replica again")
        assert (await replica_status(ops))["status"] == "streaming"
        # A position the replica has replayed: the replica answers.
        assert await served_by(ops, other.get(mine, headers={"X-Almanac-Position": position})) == "replica"  # fmt: skip
        # A new write's position: the replica is waited for, within READ_YOUR_WRITES_WAIT
        # (well above its APPLY_DELAY), and answers.
        renamed = await writer.post(mine, json={"title": "Mine, renamed"})
        assert renamed.status_code == 200
        fresh = {"X-Almanac-Position": renamed.headers["X-Almanac-Position"]}
        read = other.get(mine, headers=fresh)
        assert await served_by(ops, read) == "replica"
        assert (await other.get(mine, headers=fresh)).json()["title"] == "Mine, renamed"


async def test_the_standby_stopped_and_started(setup: Setup) -> None:
    async with (
        client(setup, auth=setup.editor) as editor,
        client(setup) as anonymous,
    ):
        await asyncio.to_thread(setup.standby.stop)

        await until(readers(0, anonymous), "no worker reads from the stopped standby")
        status = await replica_status(anonymous)
        assert (status["status"], status["reads"]) == ("down", "primary")
        created = await editor.post(EVENTS, json=event("While down", 7))
        assert created.status_code == 201
        # Every read is answered by the primary, the new event included.
        for _ in range(6):
            assert "While down" in titles(await anonymous.get(EVENTS))
            assert (await editor.get(f"{EVENTS}/{created.json()['id']}")).status_code == 200

        await asyncio.to_thread(setup.standby.start)
        await until(readers(2, anonymous), "both workers read from the restarted standby")
        replica_before = await reads(anonymous, "replica")

        async def caught_up() -> bool:  # uncached reads (`_`): each one asks a server
            return "While down" in titles(await anonymous.get(EVENTS, params={"_": "1"}))

        # Within REPLICA_MAX_LAG the replica answers even before it has replayed the write
        # made while it was down; it catches up, and its reads count as the replica's.
        await until(caught_up, "the restarted standby has replayed the write")
        assert await reads(anonymous, "replica") > replica_before
