"""`almanac import` against a fake The Events Calendar site (tests/tec_source.py), into the
real database; what was imported is checked through almanac's own API."""

import html
import io
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from httpx import AsyncClient
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.importer import service as importer_service
from app.importer.client import RetryPolicy, SourceClient
from app.importer.service import Importer, ImportFailed, ImportOptions
from app.importer.summary import PlainProgress, Summary
from app.models import ImportMapping
from tests.factories import API, Auth, AuthFor
from tests.tec_source import FakeTEC

SOON = datetime(2027, 3, 1, 19, 0)
PASSWORD = "s3cret"


class Site:
    """A small site with every feature, and the IDs of its records."""

    def __init__(self) -> None:
        tec = self.tec = FakeTEC()
        self.music = tec.add_category("Music")
        self.jazz = tec.add_category("Jazz", parent=self.music)
        self.food = tec.add_category("Food &amp; Drink", slug="food-drink")
        self.free = tec.add_tag("free entry")
        self.outdoor = tec.add_tag("outdoors")
        self.hall = tec.add_venue(
            "Hall &#8220;A&#8221;",
            geo_lat=48.2,
            geo_lng=16.37,
            image={"url": "http://tec.test/hall.jpg", "id": 9, "extension": "jpg"},
        )
        self.park = tec.add_venue("Park", address="", city="Wien", show_map=False)
        self.club = tec.add_organizer("Jazz Club")
        self.office = tec.add_organizer("Culture Office", email="office@example.com")
        self.concert = tec.add_event(
            "Rock &#8211; Roll &amp; Jazz",
            SOON,
            venue=self.hall,
            organizers=[self.office, self.club],
            categories=[self.jazz, self.food],
            tags=[self.free],
            description="<p>Loud &amp; <strong>late</strong>.</p>",
            excerpt="<p>Loud</p>",
            cost="€15",
            cost_details={
                "currency_symbol": "€",
                "currency_code": "EUR",
                "currency_position": "prefix",
                "values": ["15"],
            },
            featured=True,
            sticky=True,
            image={
                "url": "http://tec.test/poster.png",
                "id": 7,
                "extension": "png",
                "width": 800,
                "height": 600,
            },
        )
        self.past = tec.add_event("Last Year", datetime(2025, 5, 1, 10, 0), venue=self.park)
        self.hidden = tec.add_event("Hidden", SOON, hide_from_listings=True, tags=[self.outdoor])
        self.draft = tec.add_event("Draft", SOON, status="draft")
        self.protected = tec.add_event(
            "Members", SOON, description="<p>Members only</p>", organizers=[self.club]
        )
        tec.passwords[self.protected] = PASSWORD
        self.festival = tec.add_event(
            "Festival", datetime(2027, 6, 5, 0, 0), hours=71, zone="UTC+2", all_day=True
        )


@pytest.fixture
def site(admin: AuthFor) -> Site:
    return Site()


async def run(
    maker: async_sessionmaker[AsyncSession],
    tec: FakeTEC,
    *,
    signed_in: bool = True,
    source: str = "http://tec.test",
    attempts: int = 3,
    progress: PlainProgress | None = None,
    **options: Any,
) -> Summary:
    login, password = ("admin", tec.users["admin"]) if signed_in else (None, None)
    password = options.pop("password", password)
    transport = httpx.ASGITransport(app=tec.app())
    async with SourceClient(
        source,
        login=login,
        password=password,
        transport=transport,
        retry=RetryPolicy(attempts=attempts, backoff=0),
    ) as client:
        shown = progress or PlainProgress(io.StringIO())
        return await Importer(maker, client, ImportOptions(**options), shown).run()


async def mapping(db: AsyncSession, kind: str) -> dict[int, int]:
    rows = await db.execute(
        select(ImportMapping.source_id, ImportMapping.local_id).where(ImportMapping.kind == kind)
    )
    return dict(rows.all())


async def get(client: AsyncClient, path: str, auth: AuthFor | None, **params: Any) -> Any:
    headers = auth.basic if auth else {}
    response = await client.get(f"{API}/{path}", params=params, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


# ---- comparing almanac's answers with the source's ------------------------------------

SHARED_POST = ("status", "date_utc", "modified_utc", "description", "excerpt", "slug")
SHARED_EVENT = (
    *SHARED_POST,
    "all_day", "start_date", "start_date_details", "end_date", "end_date_details",
    "utc_start_date", "utc_start_date_details", "utc_end_date", "utc_end_date_details",
    "timezone", "timezone_abbr", "cost", "cost_details", "show_map", "show_map_link",
    "hide_from_listings", "sticky", "featured",
)  # fmt: skip
SHARED_VENUE = (
    *SHARED_POST,
    "address", "city", "country", "province", "state", "zip", "phone", "website",
    "stateprovince", "show_map", "show_map_link",
)  # fmt: skip
SHARED_ORGANIZER = (*SHARED_POST, "phone", "website", "email")
SHARED_TERM = ("description", "slug", "taxonomy")


def same_fields(source: dict[str, Any], local: dict[str, Any], fields: tuple[str, ...]) -> None:
    for name in fields:
        if name in source:
            assert local.get(name, "") == source[name], name


def same_image(source: Any, local: Any) -> None:
    if source is False:
        assert local is False
        return
    for name in ("url", "extension", "width", "height"):
        assert local.get(name) == source.get(name), name


def same_term(source: dict[str, Any], local: dict[str, Any], ids: dict[int, int]) -> None:
    assert local["id"] == ids[source["id"]]
    assert local["name"] == html.unescape(source["name"])
    assert local.get("parent", 0) == (ids[source["parent"]] if source.get("parent") else 0)
    same_fields(source, local, SHARED_TERM)


def same_venue(source: dict[str, Any], local: dict[str, Any], ids: dict[int, int]) -> None:
    assert local["id"] == ids[source["id"]]
    assert local["venue"] == html.unescape(source["venue"])
    same_fields(source, local, SHARED_VENUE)
    same_image(source.get("image", False), local["image"])


def same_organizer(source: dict[str, Any], local: dict[str, Any], ids: dict[int, int]) -> None:
    assert local["id"] == ids[source["id"]]
    assert local["organizer"] == html.unescape(source["organizer"])
    same_fields(source, local, SHARED_ORGANIZER)
    same_image(source.get("image", False), local["image"])


def same_event(
    source: dict[str, Any], local: dict[str, Any], ids: dict[str, dict[int, int]]
) -> None:
    assert local["id"] == ids["event"][source["id"]]
    assert local["title"] == html.unescape(source["title"])
    same_fields(source, local, SHARED_EVENT)
    same_image(source["image"], local["image"])
    if source["website"] != source["url"]:
        assert local["website"] == source["website"]
    else:  # no website of its own: each answers with its permalink
        assert local["website"] == local["url"]
    for taxonomy, kind in (("categories", "category"), ("tags", "tag")):
        assert len(local[taxonomy]) == len(source[taxonomy])
        by_id = {term["id"]: term for term in local[taxonomy]}
        for term in source[taxonomy]:
            same_term(term, by_id[ids[kind][term["id"]]], ids[kind])
    if source["venue"]:
        same_venue(source["venue"], local["venue"], ids["venue"])
    else:
        assert local["venue"] == []
    assert len(local["organizer"]) == len(source["organizer"])
    for theirs, ours in zip(source["organizer"], local["organizer"], strict=True):
        same_organizer(theirs, ours, ids["organizer"])


async def all_ids(db: AsyncSession) -> dict[str, dict[int, int]]:
    return {
        kind: await mapping(db, kind) for kind in ("category", "tag", "venue", "organizer", "event")
    }


# ---- tests ------------------------------------------------------------------------------


async def test_signed_in_import_answers_like_the_source(
    site: Site,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    client: AsyncClient,
    admin: AuthFor,
) -> None:
    summary = await run(maker, site.tec)
    assert summary.exit_status == 0, summary.lines()
    counts = summary.kinds
    assert (counts["category"].created, counts["tag"].created) == (3, 2)
    assert (counts["venue"].created, counts["organizer"].created) == (2, 2)
    assert counts["event"].created == 6  # the past, hidden, draft and protected ones too
    assert counts["event"].missing == 0
    ids = await all_ids(db)
    tec = site.tec
    for source_id, event in tec.events.items():
        params = {"password": tec.passwords[source_id]} if source_id in tec.passwords else {}
        local = await get(client, f"events/{ids['event'][source_id]}", admin, **params)
        same_event(tec.render_event(event), local, ids)
    for source_id, venue in tec.venues.items():
        same_venue(
            venue, await get(client, f"venues/{ids['venue'][source_id]}", admin), ids["venue"]
        )
    for source_id, organizer in tec.organizers.items():
        local = await get(client, f"organizers/{ids['organizer'][source_id]}", admin)
        same_organizer(organizer, local, ids["organizer"])
    for source_id, term in tec.categories.items():
        local = await get(client, f"categories/{ids['category'][source_id]}", admin)
        same_term(term, local, ids["category"])
    for source_id, term in tec.tags.items():
        same_term(term, await get(client, f"tags/{ids['tag'][source_id]}", admin), ids["tag"])


async def test_the_sources_coordinates_are_kept_as_typed(
    site: Site,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    client: AsyncClient,
    admin: AuthFor,
) -> None:
    """A venue's coordinates on the source were typed there: `exact`, never replaced by a
    guess; one without them is placed from its city, as a write would place it."""
    tec = site.tec
    stage = tec.add_venue("Stage", city="Wien", country="Austria")
    await run(maker, tec)
    ids = await mapping(db, "venue")
    hall = await get(client, f"venues/{ids[site.hall]}", admin)
    assert (hall["geo_lat"], hall["geo_lng"], hall["geo_precision"]) == (48.2, 16.37, "exact")
    placed = await get(client, f"venues/{ids[stage]}", admin)
    assert placed["geo_precision"] == "city"
    assert abs(placed["geo_lat"] - 48.21) < 0.1  # Wien
    tec.touch(tec.venues[stage], city="Graz")
    tec.touch(tec.venues[site.hall], city="Graz", geo_lat=47.07, geo_lng=15.44)
    assert (await run(maker, tec)).exit_status == 0
    placed = await get(client, f"venues/{ids[stage]}", admin)
    assert (placed["geo_precision"], round(placed["geo_lat"])) == ("city", 47)  # moved to Graz
    hall = await get(client, f"venues/{ids[site.hall]}", admin)
    assert (hall["geo_lat"], hall["geo_lng"], hall["geo_precision"]) == (47.07, 15.44, "exact")


async def test_entities_in_titles_become_text(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession, client: AsyncClient
) -> None:
    await run(maker, site.tec)
    ids = await all_ids(db)
    event = await get(client, f"events/{ids['event'][site.concert]}", None)
    assert event["title"] == "Rock – Roll & Jazz"
    assert event["description"] == "<p>Loud &amp; <strong>late</strong>.</p>"  # HTML kept
    assert event["venue"]["venue"] == "Hall “A”"
    food = await get(client, f"categories/{ids['category'][site.food]}", None)
    assert food["name"] == "Food & Drink"
    # The order of organizers is the source's.
    assert [o["id"] for o in event["organizer"]] == [
        ids["organizer"][site.office],
        ids["organizer"][site.club],
    ]


async def test_protected_event_keeps_its_password(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession, client: AsyncClient
) -> None:
    await run(maker, site.tec)
    local = (await mapping(db, "event"))[site.protected]
    refused = await client.get(f"{API}/events/{local}")
    assert refused.status_code == 403
    assert refused.json()["code"] == "event-password-protected"
    shown = await get(client, f"events/{local}", None, password=PASSWORD)
    assert shown["description"] == "<p>Members only</p>"


async def test_anonymous_import_sees_published_records_only(
    site: Site,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    client: AsyncClient,
    admin: AuthFor,
) -> None:
    draft_venue = site.tec.add_venue("Secret Room", status="draft")
    summary = await run(maker, site.tec, signed_in=False)
    events = await mapping(db, "event")
    # Past and hidden events are found (wide window, WordPress's own listing).
    assert set(events) == {site.concert, site.past, site.hidden, site.festival}
    assert draft_venue not in await mapping(db, "venue")
    skipped = dict(summary.kinds["event"].skipped)
    assert "password-protected" in skipped[site.protected]
    assert summary.exit_status == 1
    listed = await get(client, "events", None, per_page=50, start_date="2000-01-01")
    assert len(listed["events"]) == 3  # the hidden one stays out of public lists


@pytest.mark.usefixtures("admin")
async def test_pages_through_every_list(
    maker: async_sessionmaker[AsyncSession], db: AsyncSession, client: AsyncClient, admin: AuthFor
) -> None:
    tec = FakeTEC()
    venues = [tec.add_venue(f"Venue {n}") for n in range(55)]
    start = datetime(2027, 1, 1, 9, 0)
    for n in range(120):
        tec.add_event(f"Event {n}", start + timedelta(hours=n), venue=venues[n % 55])
    summary = await run(maker, tec)
    assert summary.exit_status == 0
    assert summary.kinds["event"].created == 120
    assert summary.kinds["venue"].created == 55
    assert len(await mapping(db, "event")) == 120
    assert any("events?" in r and "page=3" in r and "per_page=50" in r for r in tec.requests)
    assert any("venues?" in r and "page=2" in r for r in tec.requests)
    listed = await get(client, "events", admin, per_page=100, start_date="2026-12-31")
    assert listed["total"] == 120


async def test_a_500_in_the_middle_is_retried(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    for n in range(60):
        site.tec.add_event(f"More {n}", SOON + timedelta(days=n))
    site.tec.failures["events?"] = 0
    site.tec.failures["page=2"] = 2  # twice, then it answers
    summary = await run(maker, site.tec, attempts=3)
    assert summary.exit_status == 0, summary.lines()
    assert len(await mapping(db, "event")) == 66


async def test_a_persistent_failure_is_reported(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    site.tec.failures["/venues?"] = 100
    summary = await run(maker, site.tec, attempts=2, prune=True)
    assert summary.exit_status == 1
    assert any("listing venues" in failure and "500" in failure for failure in summary.failures)
    # The events still came over, with the venues they embed.
    assert len(await mapping(db, "event")) == 6
    assert set(await mapping(db, "venue")) == {site.hall, site.park}
    assert any("venues not pruned" in note for note in summary.notes)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda e: e.pop("title"), "malformed: title"),
        (lambda e: e.update(start_date="someday soon"), "invalid start_date"),
        (lambda e: e.update(timezone="Mars/Olympus"), "invalid timezone"),
        (lambda e: e.update(status="inherit"), "malformed: status"),
        # Fails after the event and its links were written: all of it is rolled back.
        (lambda e: e.update(slug="x" * 250), "not written"),
    ],
)
async def test_a_malformed_record_is_reported_and_skipped(
    site: Site,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    client: AsyncClient,
    admin: AuthFor,
    change: Callable[[dict[str, Any]], Any],
    reason: str,
) -> None:
    broken = site.tec.add_event("Broken", SOON, categories=[site.music], organizers=[site.club])
    change(site.tec.events[broken])
    summary = await run(maker, site.tec)
    assert summary.exit_status == 1
    skipped = dict(summary.kinds["event"].skipped)
    assert reason in skipped[broken]
    assert summary.kinds["event"].created == 6
    assert broken not in await mapping(db, "event")
    found = await get(client, "events", admin, search="Broken", start_date="2000-01-01")
    assert found["events"] == []
    assert any(f"skipped event {broken}" in line for line in summary.lines())


async def test_second_run_changes_nothing_then_follows_edits_and_deletions(
    site: Site,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    client: AsyncClient,
    admin: AuthFor,
) -> None:
    await run(maker, site.tec)
    before = await all_ids(db)
    again = await run(maker, site.tec)
    assert again.exit_status == 0
    for kind, counts in again.kinds.items():
        assert (counts.created, counts.updated) == (0, 0), kind
        assert counts.unchanged == len(before[kind])
    tec = site.tec
    tec.touch(tec.events[site.concert], title="Rock &amp; Roll (moved)")
    tec.touch(tec.venues[site.park], city="Graz")
    del tec.events[site.past]
    del tec.tags[site.outdoor]
    tec.events[site.hidden]["links"]["tags"] = []
    tec.touch(tec.events[site.hidden])
    new = tec.add_event("New One", SOON)
    third = await run(maker, tec, prune=True)
    assert third.exit_status == 0, third.lines()
    assert third.kinds["event"].updated == 2
    assert third.kinds["event"].created == 1
    assert third.kinds["event"].pruned == 1
    assert third.kinds["tag"].pruned == 1
    assert third.kinds["venue"].updated == 1
    ids = await all_ids(db)
    assert ids["event"][site.concert] == before["event"][site.concert]  # never duplicated
    concert = await get(client, f"events/{ids['event'][site.concert]}", admin)
    same_event(tec.render_event(tec.events[site.concert]), concert, ids)
    gone = await client.get(f"{API}/events/{before['event'][site.past]}", headers=admin.basic)
    assert gone.json()["code"] == "event-no-longer-available"  # trashed
    missing_tag = await client.get(f"{API}/tags/{before['tag'][site.outdoor]}")
    assert missing_tag.status_code == 404
    assert new in ids["event"]
    # Pruned records stay pruned on the next run.
    fourth = await run(maker, tec, prune=True)
    assert fourth.kinds["event"].pruned == 0
    assert fourth.kinds["event"].unchanged == 6


async def test_a_deleted_record_comes_back(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession, client: AsyncClient
) -> None:
    await run(maker, site.tec)
    removed = site.tec.events.pop(site.past)
    await run(maker, site.tec, prune=True)
    site.tec.events[site.past] = removed
    back = await run(maker, site.tec, prune=True)
    assert back.kinds["event"].updated == 1
    event = await get(client, f"events/{(await mapping(db, 'event'))[site.past]}", None)
    assert (event["status"], event["slug"]) == ("publish", removed["slug"])


class StopAfter(PlainProgress):
    """Interrupts the run after `count` events, as Ctrl-C would."""

    def __init__(self, count: int) -> None:
        super().__init__(io.StringIO())
        self.count = count

    def advance(self, kind: str) -> None:
        super().advance(kind)
        if kind == "event" and self.done[kind] == self.count:
            raise KeyboardInterrupt


async def test_an_interrupted_run_continues(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    with pytest.raises(KeyboardInterrupt):
        await run(maker, site.tec, progress=StopAfter(3))
    assert len(await mapping(db, "event")) == 3
    summary = await run(maker, site.tec)
    assert summary.exit_status == 0
    assert "continued an interrupted run" in summary.notes
    assert summary.kinds["event"].unchanged == 3
    assert summary.kinds["event"].created == 3
    assert len(await mapping(db, "event")) == 6


async def test_dry_run_writes_nothing(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession, client: AsyncClient
) -> None:
    site.tec.events[site.past]["timezone"] = "Nowhere/Else"
    summary = await run(maker, site.tec, dry_run=True)
    assert summary.kinds["event"].created == 5
    assert "invalid timezone" in dict(summary.kinds["event"].skipped)[site.past]
    assert summary.kinds["category"].created == 3
    assert "would be created" in "\n".join(summary.lines())
    assert await db.scalar(select(func.count()).select_from(ImportMapping)) == 0
    listed = await get(client, "categories", None, hide_empty="false")
    assert listed["categories"] == []


async def test_since_leaves_older_records_alone(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    tec = site.tec
    tec.touch(tec.events[site.festival], title="Festival 2027")
    since = tec.now - timedelta(minutes=1)
    summary = await run(maker, tec, since=since)
    assert summary.kinds["event"].created == 1
    assert summary.kinds["event"].older == 5
    assert set(await mapping(db, "event")) == {site.festival}


async def test_coverage_without_wordpress_listing_is_reported(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    site.tec.expose_wp = False
    summary = await run(maker, site.tec, signed_in=False, prune=True)
    assert summary.kinds["event"].missing is None
    assert any("hidden from listings" in note for note in summary.notes)
    assert any("number missing is unknown" in line for line in summary.lines())
    assert site.hidden not in await mapping(db, "event")
    assert site.past in await mapping(db, "event")
    assert any("events not pruned" in note for note in summary.notes)


async def test_discovery(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    summary = await run(maker, site.tec, source="http://tec.test/wp-json/tribe/events/v1/")
    assert summary.source == "tec.test/wp-json/tribe/events/v1"
    assert summary.exit_status == 0
    # Another way to name the same site is the same source: nothing duplicated. (Named by
    # its base: the site's own `Link` names http://, another origin that gets no credentials.)
    again = await run(maker, site.tec, source="https://TEC.test/wp-json/tribe/events/v1")
    assert again.kinds["event"].unchanged == 6
    plain_wordpress = httpx.ASGITransport(app=_no_tec_app())
    async with SourceClient("http://wp.test", transport=plain_wordpress) as client:
        importer = Importer(maker, client, ImportOptions(), PlainProgress(io.StringIO()))
        with pytest.raises(ImportFailed, match="no tribe/events/v1"):
            await importer.run()


def _no_tec_app() -> Any:
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def index(_: Any) -> JSONResponse:
        return JSONResponse({"namespaces": ["wp/v2"]})

    return Starlette(routes=[Route("/{path:path}", index)])


async def test_owner_must_exist(site: Site, maker: async_sessionmaker[AsyncSession]) -> None:
    with pytest.raises(ImportFailed, match="no user 'nobody'"):
        await run(maker, site.tec, owner="nobody")


async def test_records_belong_to_the_owner_and_follow_its_rights(
    site: Site,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    client: AsyncClient,
    auth: Auth,
) -> None:
    author = await auth("author")
    site.tec.events[site.concert]["description"] = '<p onclick="x()">Hi<script>x()</script></p>'
    await run(maker, site.tec, owner=author.login)
    local = (await mapping(db, "event"))[site.concert]
    event = await get(client, f"events/{local}", None)
    assert event["author"] == str(author.id)
    assert event["description"] == "<p>Hi</p>"  # an author's markup is sanitised


def test_plain_progress_lines() -> None:
    out = io.StringIO()
    progress = PlainProgress(out, every=2)
    progress.start("event", 3)
    for _ in range(3):
        progress.advance("event")
    progress.finish("event")
    assert out.getvalue().splitlines() == [
        "events: 3 to go through",
        "events: 2/3",
        "events: done (3)",
    ]


def test_since_is_read_as_utc() -> None:
    from app.importer.arguments import since_date

    assert since_date("2026-11-01") == datetime(2026, 11, 1, tzinfo=UTC)
    assert since_date("2026-11-01 10:00+02:00") == datetime(2026, 11, 1, 8, tzinfo=UTC)


async def test_slugs_are_kept_as_the_source_has_them(
    site: Site,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    client: AsyncClient,
    admin: AuthFor,
) -> None:
    tec = site.tec
    cafe = tec.add_event("Café Night", SOON, slug="caf%c3%a9-night")
    local = await client.post(
        f"{API}/venues", json={"venue": "Our Park", "slug": "park"}, headers=admin.basic
    )
    assert local.status_code == 201
    summary = await run(maker, tec)
    assert summary.exit_status == 0
    event = await get(client, "events/by-slug/caf%25c3%25a9-night", None)
    assert event["id"] == (await mapping(db, "event"))[cafe]
    assert event["modified_utc"] == tec.events[cafe]["modified_utc"]  # not moved by the rename
    # A slug a local record already has: the next free one, as WordPress would give.
    park = await get(client, f"venues/{(await mapping(db, 'venue'))[site.park]}", None)
    assert park["slug"] == "park-2"
    assert (await get(client, "venues/by-slug/park", None))["id"] == local.json()["id"]


def test_rich_progress_bars() -> None:
    from rich.console import Console

    from app.importer.summary import RichProgress

    out = io.StringIO()
    progress = RichProgress(Console(file=out, force_terminal=True, width=80))
    progress.start("venue", 2)
    progress.advance("venue")
    progress.advance("venue")
    progress.finish("venue")
    progress.note("a note")
    progress.close()
    assert "venues" in out.getvalue()
    assert "2/2" in out.getvalue()
    assert "a note" in out.getvalue()


async def test_terms_merge_into_local_ones_and_keep_taken_slugs(
    site: Site,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    client: AsyncClient,
    admin: AuthFor,
) -> None:
    food = await client.post(
        f"{API}/categories", json={"name": "Food & Drink"}, headers=admin.basic
    )
    jazz = await client.post(f"{API}/categories", json={"name": "Jazz"}, headers=admin.basic)
    other = await client.post(
        f"{API}/tags", json={"name": "Local", "slug": "outdoors"}, headers=admin.basic
    )
    assert (food.status_code, jazz.status_code, other.status_code) == (201, 201, 201)
    await run(maker, site.tec)
    ids = await mapping(db, "category")
    # A local term of the same name under the same parent is that term; under another
    # parent (the source's Jazz is under Music) it is another term.
    assert ids[site.food] == food.json()["id"]
    assert ids[site.jazz] != jazz.json()["id"]
    tag = await get(client, f"tags/{(await mapping(db, 'tag'))[site.outdoor]}", None)
    assert tag["slug"] == "outdoors-2"
    site.tec.tags[site.outdoor]["name"] = "outside"
    second = await run(maker, site.tec)
    assert second.kinds["tag"].updated == 1
    tag = await get(client, f"tags/{(await mapping(db, 'tag'))[site.outdoor]}", None)
    assert (tag["name"], tag["slug"]) == ("outside", "outdoors-2")


class TimesOut(httpx.AsyncBaseTransport):
    """The fake site, but the first `count` requests for `fragment` time out."""

    def __init__(self, tec: FakeTEC, fragment: str, count: int) -> None:
        self.inner = httpx.ASGITransport(app=tec.app())
        self.fragment = fragment
        self.count = count

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.fragment in str(request.url) and self.count > 0:
            self.count -= 1
            raise httpx.ReadTimeout("timed out", request=request)
        return await self.inner.handle_async_request(request)


async def test_timeouts_are_retried(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    transport = TimesOut(site.tec, "/organizers", 2)
    async with SourceClient(
        "http://tec.test", transport=transport, retry=RetryPolicy(attempts=3, backoff=0)
    ) as client:
        summary = await Importer(maker, client, ImportOptions(), PlainProgress(io.StringIO())).run()
    assert summary.failures == []
    assert len(await mapping(db, "organizer")) == 2
    transport = TimesOut(site.tec, "/organizers", 3)
    async with SourceClient(
        "http://tec.test", transport=transport, retry=RetryPolicy(attempts=3, backoff=0)
    ) as client:
        summary = await Importer(maker, client, ImportOptions(), PlainProgress(io.StringIO())).run()
    assert summary.failures == [
        "listing organizers: http://tec.test/wp-json/tribe/events/v1/organizers: "
        "timed out (3 attempts)"
    ]
    assert summary.exit_status == 1


async def test_protected_venues_come_over_signed_in_only(
    site: Site,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    client: AsyncClient,
    admin: AuthFor,
) -> None:
    tec = site.tec
    cellar = tec.add_venue("Cellar", city="Wien", phone="+43 1 234")
    tec.passwords[cellar] = "cave"
    anonymous = await run(maker, tec, signed_in=False)
    assert "password-protected" in dict(anonymous.kinds["venue"].skipped)[cellar]
    assert cellar not in await mapping(db, "venue")
    signed_in = await run(maker, tec)
    assert signed_in.kinds["venue"].created == 1
    local = (await mapping(db, "venue"))[cellar]
    redacted = await get(client, f"venues/{local}", None)
    assert redacted["city"] == ""  # protected here too
    whole = await get(client, f"venues/{local}", None, password="cave")
    assert (whole["venue"], whole["city"], whole["phone"]) == ("Cellar", "Wien", "+43 1 234")


async def test_wrong_credentials_stop_the_run(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    with pytest.raises(ImportFailed, match="401"):
        await run(maker, site.tec, password="not the password")
    assert await db.scalar(select(func.count()).select_from(ImportMapping)) == 0


async def test_an_event_linking_a_protected_venue(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession, client: AsyncClient
) -> None:
    tec = site.tec
    cellar = tec.add_venue("Cellar")
    tec.passwords[cellar] = "cave"
    tasting = tec.add_event("Tasting", SOON, venue=cellar, organizers=[site.club])
    anonymous = await run(maker, tec, signed_in=False)
    reason = dict(anonymous.kinds["event"].skipped)[tasting]
    assert f"its venue {cellar} is password-protected" in reason
    assert tasting not in await mapping(db, "event")
    await run(maker, tec)
    local = (await mapping(db, "event"))[tasting]
    event = await get(client, f"events/{local}", None)
    assert event["venue"]["id"] == (await mapping(db, "venue"))[cellar]


async def analyses(db: AsyncSession) -> int:
    """How many times `events` has been analysed (statistics refreshed) so far."""
    await db.execute(text("SELECT pg_stat_clear_snapshot()"))
    count = await db.scalar(text("SELECT pg_stat_get_analyze_count('events'::regclass)"))
    return int(count or 0)


async def test_statistics_follow_what_an_import_wrote(
    site: Site, maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    """A first import into an empty database analyses the tables it grew after each kind,
    so that the plans of the next writes are made for their real size
    (docs/design.md#bulk-loads)."""
    before = await analyses(db)
    summary = await run(maker, site.tec)
    # At least: autovacuum may analyse the table too, whenever it likes.
    assert await analyses(db) - before >= len(summary.kinds)  # every kind wrote records


async def test_a_large_import_refreshes_statistics_as_it_goes(
    site: Site,
    maker: async_sessionmaker[AsyncSession],
    db: AsyncSession,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Within a kind too, every STATISTICS_EVERY records written (1 here)."""
    monkeypatch.setattr(importer_service, "STATISTICS_EVERY", 1)
    before = await analyses(db)
    summary = await run(maker, site.tec)
    written = sum(kind.created + kind.updated for kind in summary.kinds.values())
    assert written > len(summary.kinds)
    assert await analyses(db) - before >= written
