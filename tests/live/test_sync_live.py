"""Clients that stay in sync, against a real `almanac serve` with real commits: the changes
feed followed through a long random sequence of writes ends where a fresh download does;
late commits are not skipped; expired and foreign tokens; 304s on the response-cache path;
If-Match races (docs/design.md#changes-feed and #etags-and-conditional-writes)."""

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.factories import API
from tests.live.harness import add_user, almanac_server, fresh_database

PLURAL = {"event": "events", "venue": "venues", "organizer": "organizers",
          "category": "categories", "tag": "tags"}  # fmt: skip
Key = tuple[str, int]


@dataclass
class Site:
    base: str
    database: str
    editor: tuple[str, str]

    def url(self, path: str) -> str:
        return f"{self.base}{API}{path}"


@asynccontextmanager
async def _site(database_url: str, name: str) -> AsyncIterator[Site]:
    async with fresh_database(database_url, name, migrated=True) as url:
        _, password = await add_user(url, "syncer", "editor")
        async with almanac_server(url) as base:
            yield Site(base, url, ("syncer", password))


@pytest.fixture(scope="module")
async def site(database_url: str) -> AsyncIterator[Site]:
    """One site for the tests that each follow the feed from a token of their own, over
    records of their own (a server started is seconds of the suite's time)."""
    async with _site(database_url, "almanac_sync_test") as site:
        yield site


@pytest.fixture
async def own_site(database_url: str) -> AsyncIterator[Site]:
    """A site of the test's own: the random writer's series and its mirrors' full
    downloads touch everything."""
    async with _site(database_url, "almanac_sync_own") as site:
        yield site


def comparable(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """A record as the feed promises it: an event's embedded terms without their `count`,
    the one embedded field whose changes do not reach the event (docs/design.md); and
    without the `json_ld` a GET adds (to the event and its venue and organizers), which
    the list's items do not carry."""
    if kind != "event":
        return body
    strip = {"categories": {"count"}, "tags": {"count"}, "organizer": {"json_ld"}}
    return {
        key: [{k: v for k, v in item.items() if k not in strip[key]} for item in value]
        if key in strip and isinstance(value, list)
        else {k: v for k, v in value.items() if k != "json_ld"}
        if key == "venue" and isinstance(value, dict)
        else value
        for key, value in body.items()
        if key != "json_ld"
    }


@dataclass
class Mirror:
    """A client that downloads everything once, then follows the feed."""

    http: httpx.AsyncClient
    site: Site
    per_page: int = 100
    token: str = ""
    records: dict[Key, dict[str, Any]] = field(default_factory=dict)
    rounds: int = 0

    async def start(self) -> None:
        answer = await self.http.get(self.site.url("/changes"))
        assert answer.status_code == 200
        assert answer.json()["changes"] == []
        assert answer.json()["has_more"] is False
        self.token = answer.json()["next_since"]

    async def sync(self) -> list[dict[str, Any]]:
        seen = []
        while True:
            params = {"since": self.token, "per_page": self.per_page}
            answer = await self.http.get(self.site.url("/changes"), params=params)
            assert answer.status_code == 200, answer.text
            body = answer.json()
            for change in body["changes"]:
                key = (change["kind"], change["id"])
                if change["action"] == "upsert":
                    self.records[key] = comparable(change["kind"], change["record"])
                else:
                    assert change["record"] is None
                    self.records.pop(key, None)
            seen.extend(body["changes"])
            self.token = body["next_since"]
            self.rounds += 1
            if not body["has_more"]:
                return seen


WINDOW = {"start_date": "2020-01-01", "end_date": "2040-12-31"}


async def listed_events(http: httpx.AsyncClient, site: Site, per_page: int = 50) -> list[Any]:
    """Every event (occurrence) of the JSON list the caller may see, page by page."""
    found: list[Any] = []
    page = 1
    while True:
        query = {**WINDOW, "per_page": per_page, "page": page}
        answer = await http.get(site.url("/events"), params=query)
        if answer.status_code == 404 and found:
            break
        assert answer.status_code == 200, answer.text
        found.extend(answer.json()["events"])
        if page >= answer.json()["total_pages"]:
            break
        page += 1
    assert len({item["id"] for item in found}) == len(found)  # no date on two pages
    return found


async def download(http: httpx.AsyncClient, site: Site, known: set[Key]) -> dict[Key, Any]:
    """Everything the caller may read: a GET of each venue, organizer and term ever created,
    and the events of the list (occurrences: a series' dates, each with its ID), but those
    its GET refuses (password-protected ones the list shows redacted). An event's GET is
    its item in the list, its `json_ld` aside."""
    found = {}
    for kind, record_id in sorted(known):
        if kind == "event":
            continue
        answer = await http.get(site.url(f"/{PLURAL[kind]}/{record_id}"))
        assert answer.status_code < 500, answer.text
        if answer.status_code == 200:
            found[kind, record_id] = comparable(kind, answer.json())
    for item in await listed_events(http, site):
        answer = await http.get(site.url(f"/events/{item['id']}"))
        assert answer.status_code in (200, 403), answer.text
        if answer.status_code == 200:
            assert comparable("event", answer.json()) == comparable("event", item)
            found["event", item["id"]] = comparable("event", item)
    return found


class Writer:
    """Random writes through the API as an editor. `known`: every record ever created (a
    download GETs them all); `alive`: those not deleted, which new writes refer to."""

    def __init__(self, http: httpx.AsyncClient, site: Site, rng: random.Random) -> None:
        self.http, self.site, self.rng = http, site, rng
        self.known: set[Key] = set()
        self.alive: set[Key] = set()
        self.statuses: Counter[tuple[str, str, int]] = Counter()
        self.number = 0
        self.series: dict[int, str] = {}  # series ID -> the FREQ of its rule
        self.done: Counter[str] = Counter()  # series operations that succeeded, by name

    async def dates(self, series_id: int) -> list[int]:
        """The IDs of a series' dates (the editor's list), in order."""
        query = {**WINDOW, "post_parent": series_id, "per_page": 100}
        answer = await self.http.get(self.site.url("/events"), params=query)
        if answer.status_code != 200:
            return []
        return [item["id"] for item in answer.json()["events"]]

    def ids(self, kind: str) -> list[int]:
        return sorted(record_id for k, record_id in self.alive if k == kind)

    def some(self, kind: str, most: int) -> list[int]:
        ids = self.ids(kind)
        return self.rng.sample(ids, self.rng.randint(0, min(most, len(ids))))

    def name(self, prefix: str) -> str:
        self.number += 1
        return f"{prefix} {self.number}"

    async def call(
        self, method: str, kind: str, record_id: int | None, label: str = "", **options: Any
    ) -> None:
        series_id = record_id
        if kind == "date":  # a later date of the series `record_id` (not its first)
            later = (await self.dates(record_id or 0))[1:]
            if not later:
                return
            kind, record_id = "event", self.rng.choice(later)
        path = f"/{PLURAL[kind]}" + (f"/{record_id}" if record_id is not None else "")
        answer = await self.http.request(method, self.site.url(path), **options)
        assert answer.status_code < 500, answer.text
        self.statuses[method, kind, answer.status_code] += 1
        if answer.status_code < 300 and label:
            self.done[label] += 1
        if answer.status_code == 201:
            self.known.add((kind, answer.json()["id"]))
            self.alive.add((kind, answer.json()["id"]))
            if label == "series":
                rule = options["json"]["recurrence"][0]
                self.series[answer.json()["id"]] = rule.split("FREQ=")[1].split(";")[0]
        permanent = kind in ("category", "tag") or options.get("params") == {"force": "true"}
        if method == "DELETE" and answer.status_code == 200 and permanent:
            self.alive.discard((kind, record_id))  # type: ignore[arg-type]
            self.series.pop(record_id, None)  # type: ignore[arg-type]
        if answer.status_code == 200 and label == "single":
            self.series.pop(series_id, None)  # type: ignore[arg-type]
        if answer.status_code == 200 and label == "split":
            new = answer.json()["series_id"]
            if new != series_id:
                self.series[new] = self.series[series_id]  # type: ignore[index]
                self.known.add(("event", new))
                self.alive.add(("event", new))

    def new_series(self) -> dict[str, Any]:
        payload = self.new_event()
        # Within the server's horizon (two years): a series stores its dates up to it.
        payload["start_date"] = "2027" + payload["start_date"][4:]
        payload["end_date"] = payload["start_date"][:10] + " 12:00"
        freq = self.rng.choice(["WEEKLY", "DAILY"])
        payload["recurrence"] = [f"RRULE:FREQ={freq};COUNT={self.rng.randint(2, 6)}"]
        return payload

    def series_choices(self) -> list[tuple[float, str, str, int | None, dict[str, Any]]]:
        """Writes on a series: on the whole of it (its title, its rule's COUNT, back to a
        single event), and on one later date (an override, a split, a cancelled date)."""
        ops: list[tuple[float, str, str, int | None, dict[str, Any]]] = [
            (2, "POST", "event", None, {"json": self.new_series(), "label": "series"}),
        ]
        alive = sorted(s for s in self.series if ("event", s) in self.alive)
        for series in self.rng.sample(alive, min(1, len(alive))):
            count = self.rng.randint(1, 7)
            rule = {"recurrence": [f"RRULE:FREQ={self.series[series]};COUNT={count}"]}
            ops += [
                (2, "PATCH", "event", series, {"json": {"title": self.name("Series")},
                                               "label": "series title"}),
                (1.5, "PATCH", "event", series, {"json": rule, "label": "count"}),
                (2, "PATCH", "date", series, {"json": {"title": self.name("Once")},
                                              "label": "override"}),
                (1, "PATCH", "date", series, {"json": {"scope": "following",
                                                       "title": self.name("Later")},
                                              "label": "split"}),
                (1.5, "DELETE", "date", series, {"label": "cancel"}),
                (0.5, "PATCH", "event", series, {"json": {"recurrence": []}, "label": "single"}),
            ]  # fmt: skip
        return ops

    def new_event(self) -> dict[str, Any]:
        rng, venues = self.rng, self.ids("venue")
        payload: dict[str, Any] = {
            "title": self.name("Event"),
            "start_date": f"2031-0{rng.randint(1, 9)}-1{rng.randint(0, 9)} 10:00",
            "end_date": "2031-12-31 12:00",
            "status": rng.choice(["publish"] * 4 + ["draft", "pending", "private"]),
            "venue": rng.choice(venues) if venues and rng.random() < 0.7 else "",
            "organizer": self.some("organizer", 2),
            "categories": self.some("category", 2),
            "tags": self.some("tag", 2),
        }
        if rng.random() < 0.1:
            payload["password"] = "secret"
        return payload

    def choices(self) -> list[tuple[float, str, str, int | None, dict[str, Any]]]:
        """(weight, method, kind, record ID, request options) of every possible write."""
        rng = self.rng
        ops: list[tuple[float, str, str, int | None, dict[str, Any]]] = [
            (4, "POST", "event", None, {"json": self.new_event()}),
            (1, "POST", "venue", None, {"json": {"venue": self.name("Hall")}}),
            (1, "POST", "organizer", None, {"json": {"organizer": self.name("Crew")}}),
            (1, "POST", "category", None, {"json": {"name": self.name("Genre")}}),
            (1, "POST", "tag", None, {"json": {"name": self.name("Mood")}}),
        ]
        for event in self.some("event", 1):
            venues = self.ids("venue")
            status = rng.choice(["publish", "publish", "draft", "private", "pending"])
            ops += [
                (2, "PATCH", "event", event, {"json": {"title": self.name("Renamed")}}),
                (2, "PATCH", "event", event, {"json": {"status": status}}),
                (1, "DELETE", "event", event, {}),  # to the trash
                (1, "DELETE", "event", event, {"params": {"force": "true"}}),
                (2, "PATCH", "event", event,
                 {"json": {"venue": rng.choice(venues) if venues else ""}}),
                (1, "PATCH", "event", event, {"json": {"categories": self.some("category", 2),
                                                       "organizer": self.some("organizer", 3)}}),
            ]  # fmt: skip
        for kind in ("venue", "organizer"):
            for record in self.some(kind, 1):
                ops += [
                    (2, "PATCH", kind, record, {"json": {kind: self.name("Re")}}),
                    (
                        1,
                        "PATCH",
                        kind,
                        record,
                        {"json": {"status": rng.choice(["publish", "draft"])}},
                    ),
                    (0.6, "DELETE", kind, record, {"params": {"force": "true"}}),
                ]
        for kind in ("category", "tag"):
            for term in self.some(kind, 1):
                ops += [
                    (2, "POST", kind, term, {"json": {"name": self.name("Term")}}),
                    (0.6, "DELETE", kind, term, {}),
                ]
        return ops

    async def step(self) -> None:
        ops = self.choices() + self.series_choices()
        _, method, kind, record_id, options = self.rng.choices(ops, [op[0] for op in ops])[0]
        await self.call(method, kind, record_id, **options)


@pytest.mark.parametrize("seed", [17])
async def test_a_mirror_following_the_feed_ends_as_a_fresh_download(
    own_site: Site, seed: int
) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(auth=own_site.editor) as editor, httpx.AsyncClient() as anonymous:
        writer = Writer(editor, own_site, rng)
        for _ in range(15):  # something to download first
            await writer.step()
        mirrors = [Mirror(anonymous, own_site, per_page=3), Mirror(editor, own_site, per_page=7)]
        for mirror in mirrors:
            await mirror.start()  # the token first: nothing written meanwhile can be missed
            mirror.records = await download(mirror.http, own_site, writer.known)
        for _ in range(220):
            await writer.step()
            if rng.random() < 0.15:
                await rng.choice(mirrors).sync()
        succeeded = {(m, kind) for (m, kind, status), _ in writer.statuses.items() if status < 300}
        every = {(m, kind) for m in ("POST", "PATCH", "DELETE") for kind in PLURAL}
        every -= {("PATCH", "category"), ("PATCH", "tag")}  # terms are renamed by POST
        assert succeeded == every, writer.statuses
        labels = {"series", "series title", "count", "override", "split", "cancel", "single"}
        assert set(writer.done) == labels, writer.done
        for mirror in mirrors:
            await mirror.sync()
            truth = await download(mirror.http, own_site, writer.known)
            assert set(mirror.records) == set(truth)
            for key, body in truth.items():
                assert mirror.records[key] == body, key
            assert mirror.rounds > 5  # the feed was followed in many small steps
        # The callers see different things: drafts, private and protected events.
        assert set(mirrors[0].records) < set(mirrors[1].records)
        # Series were followed: the mirrors hold dates of several series, overridden ones.
        series_ids = {body["series_id"] for body in mirrors[1].records.values()
                      if "series_id" in body}  # fmt: skip
        assert len(series_ids) > 3
        kinds = {kind for kind, _ in mirrors[1].records}
        assert kinds == set(PLURAL)


async def test_changes_to_embedded_records_reach_their_events(site: Site) -> None:
    async with httpx.AsyncClient(auth=site.editor) as editor, httpx.AsyncClient() as anonymous:

        async def made(kind: str, payload: dict[str, Any]) -> int:
            answer = await editor.post(site.url(f"/{PLURAL[kind]}"), json=payload)
            assert answer.status_code == 201, answer.text
            return int(answer.json()["id"])

        venue = await made("venue", {"venue": "Hall"})
        organizer = await made("organizer", {"organizer": "Crew"})
        category = await made("category", {"name": "Jazz"})
        tag = await made("tag", {"name": "Loud"})
        event = await made("event", {
            "title": "Linked", "start_date": "2031-01-01 10:00", "end_date": "2031-01-01 11:00",
            "venue": venue, "organizer": [organizer], "categories": [category], "tags": [tag],
        })  # fmt: skip
        mirror = Mirror(anonymous, site)
        await mirror.start()
        renames = [
            ("venue", venue, {"venue": "New hall"}, lambda e: e["venue"]["venue"]),
            ("organizer", organizer, {"organizer": "New crew"},
             lambda e: e["organizer"][0]["organizer"]),
            ("category", category, {"name": "Free jazz"}, lambda e: e["categories"][0]["name"]),
            ("tag", tag, {"name": "Quiet"}, lambda e: e["tags"][0]["name"]),
        ]  # fmt: skip
        for kind, record_id, payload, shown in renames:
            changed = await editor.post(site.url(f"/{PLURAL[kind]}/{record_id}"), json=payload)
            assert changed.status_code == 200
            changes = {(c["kind"], c["id"]): c for c in await mirror.sync()}
            assert set(changes) == {(kind, record_id), ("event", event)}
            assert shown(changes["event", event]["record"]) == next(iter(payload.values()))
        # Translations are embedded too: a German venue name reaches the German event.
        german = Mirror(anonymous, site)
        german.site = Site(f"{site.base}/de", site.database, site.editor)
        await german.start()
        renamed = await editor.post(
            german.site.url(f"/venues/{venue}"), json={"venue": "Neue Halle"}
        )
        assert renamed.status_code == 200
        changes = {(c["kind"], c["id"]): c for c in await german.sync()}
        assert set(changes) == {("venue", venue), ("event", event)}
        assert changes["event", event]["record"]["venue"]["venue"] == "Neue Halle"
        await mirror.sync()  # (the English texts did not change)
        # A term's count is the one embedded field that does not log its events.
        await made("event", {"title": "Other", "start_date": "2031-01-02 10:00",
                             "end_date": "2031-01-02 11:00", "categories": [category]})  # fmt: skip
        logged = {(c["kind"], c["id"]) for c in await mirror.sync()}
        assert ("category", category) in logged
        assert ("event", event) not in logged


async def test_a_late_commit_is_not_skipped(site: Site) -> None:
    """A transaction that logs its change (drawing its sequence number) before another
    one, but commits after the feed has handed out the other one."""
    async with httpx.AsyncClient(auth=site.editor) as editor, httpx.AsyncClient() as anonymous:
        early = await editor.post(site.url("/venues"), json={"venue": "Early"})
        mirror = Mirror(anonymous, site)
        await mirror.start()
        engine = create_async_engine(
            site.database.replace("postgresql://", "postgresql+asyncpg://", 1)
        )
        try:
            async with engine.connect() as held:
                transaction = await held.begin()
                await held.execute(
                    text("UPDATE venues SET name = 'Held' WHERE id = :id"),
                    {"id": early.json()["id"]},
                )
                later = await editor.post(site.url("/venues"), json={"venue": "Later"})
                first = await mirror.sync()
                assert [(c["id"], c["record"]["venue"]) for c in first] == [
                    (later.json()["id"], "Later")
                ]
                assert await mirror.sync() == []  # still in flight: nothing, and no repeat
                await transaction.commit()
        finally:
            await engine.dispose()
        second = await mirror.sync()
        assert [(c["id"], c["record"]["venue"]) for c in second] == [(early.json()["id"], "Held")]
        assert await mirror.sync() == []


async def test_tokens_expire_with_the_kept_history(database_url: str) -> None:
    async with fresh_database(database_url, "almanac_sync_expiry", migrated=True) as url:
        auth = ("pruner", (await add_user(url, "pruner", "editor"))[1])
        # No history kept: the first write prunes everything before it.
        async with (
            almanac_server(url, CHANGES_RETENTION_DAYS="0") as base,
            httpx.AsyncClient(auth=auth) as client,
        ):
            site = Site(base, url, auth)
            old = (await client.get(site.url("/changes"))).json()["next_since"]
            await client.post(site.url("/tags"), json={"name": "First"})
            await client.post(site.url("/tags"), json={"name": "Second"})
            expired = await client.get(site.url("/changes"), params={"since": old})
            assert expired.status_code == 410
            assert expired.json()["code"] == "rest_sync_token_expired"
            german = await client.get(f"{base}/de{API}/changes", params={"since": old})
            assert german.json()["message"].startswith("Das Sync-Token")
            fresh = (await client.get(site.url("/changes"))).json()["next_since"]
            assert (await client.get(site.url("/changes"), params={"since": fresh})).json()[
                "changes"
            ] == []


async def test_revalidation_on_the_response_cache_path(site: Site) -> None:
    async with httpx.AsyncClient(auth=site.editor) as editor, httpx.AsyncClient() as anonymous:
        event = await editor.post(
            site.url("/events"),
            json={
                "title": "Cached",
                "start_date": "2031-01-01 10:00",
                "end_date": "2031-01-01 11:00",
            },
        )
        url = site.url(f"/events/{event.json()['id']}")

        async def get(tag: str | None = None) -> tuple[int, str, bytes, str]:
            answer = await anonymous.get(url, headers={"If-None-Match": tag} if tag else {})
            cache = answer.headers["x-almanac-cache"]
            return answer.status_code, cache, answer.content, answer.headers["etag"]

        status, cache, body, etag = await get()
        assert (status, cache) == (200, "miss")
        assert (await anonymous.get(url)).headers["cache-control"] == "public, no-cache"
        assert await get(etag) == (304, "hit", b"", etag)  # from the stored entry
        await editor.patch(url, json={"title": "Changed"})  # a new version and a new body
        status, cache, body, new_etag = await get(etag)
        assert (status, cache) == (200, "miss")
        assert new_etag != etag
        assert await get(new_etag) == (304, "hit", b"", new_etag)
        # Another write: a new version, the same body. The miss is answered with a 304, and
        # the whole body is stored for the next caller.
        await editor.post(site.url("/tags"), json={"name": "Unrelated"})
        assert await get(new_etag) == (304, "miss", b"", new_etag)
        assert await get() == (200, "hit", body, new_etag)


async def test_racing_writers_with_one_etag_get_one_200_and_one_412(site: Site) -> None:
    async with (
        httpx.AsyncClient(auth=site.editor) as first,
        httpx.AsyncClient(auth=site.editor) as second,
    ):
        event = await first.post(
            site.url("/events"),
            json={
                "title": "Contested",
                "start_date": "2031-01-01 10:00",
                "end_date": "2031-01-01 11:00",
            },
        )
        url = site.url(f"/events/{event.json()['id']}")
        for round_number in range(5):
            etag = (await first.get(url)).headers["etag"]
            answers = await asyncio.gather(
                first.patch(url, json={"title": f"A{round_number}"}, headers={"If-Match": etag}),
                second.patch(url, json={"title": f"B{round_number}"}, headers={"If-Match": etag}),
            )
            assert sorted(a.status_code for a in answers) == [200, 412]
            winner = next(a for a in answers if a.status_code == 200)
            final = await first.get(url)
            assert final.json()["title"] == winner.json()["title"]
            assert final.headers["etag"] == winner.headers["etag"]
