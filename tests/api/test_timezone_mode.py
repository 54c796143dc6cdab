"""GET /events date filters and TIMEZONE_MODE: the reference compares the events' UTC
instants when the site zone is UTC or the mode is "site", and their local wall-clock times
otherwise (mode "event" on a site in another zone).

Three events on 2031-01-15 in three zones (January: New York UTC-5, Berlin UTC+1, Tokyo
UTC+9, no daylight saving time anywhere):

| event | local time (its zone)      | UTC                              |
|-------|----------------------------|----------------------------------|
| T     | 08:00-08:30 Asia/Tokyo     | 2031-01-14 23:00 - 23:30         |
| U     | 12:00-13:00 UTC            | 2031-01-15 12:00 - 13:00         |
| N     | 22:00-23:00 America/NY     | 2031-01-16 03:00 - 04:00         |

All three are on the 15th by their own clocks; by UTC, T is on the 14th and N on the 16th;
by Berlin's clock (the UTC bounds one hour earlier), T is on the 15th again.
"""

from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from pydantic import ValidationError
from sqlalchemy import text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.app_services import app_services
from app.core.database.sql import refresh_statistics
from app.core.settings import Settings
from app.core.web.urls import Urls
from app.events.listing import prepare
from app.events.query import EventQuery
from app.events.repository.events import EventRepository
from app.events.repository.list_query import EventListQuery
from app.http.context import RequestContext
from tests.factories import API, AuthFor

EVENTS = {
    "T": ("Asia/Tokyo", "2031-01-15 08:00:00", "2031-01-15 08:30:00"),
    "U": ("UTC", "2031-01-15 12:00:00", "2031-01-15 13:00:00"),
    "N": ("America/New_York", "2031-01-15 22:00:00", "2031-01-15 23:00:00"),
}

# (site zone, mode) -> how dates compare
CONFIGS = {
    ("UTC", "event"): "utc",  # a UTC site compares instants whatever the mode
    ("UTC", "site"): "utc",
    ("Etc/UTC", "event"): "utc",  # another name of UTC
    ("Europe/Berlin", "event"): "wall",  # event-local wall times against Berlin wall times
    ("Europe/Berlin", "site"): "berlin",  # instants against Berlin's day boundaries
}

# (parameters, expected events for "wall", "utc", "berlin"). Explicit start_date/end_date
# pairs keep the default window (two years from today) out of the way.
INCLUSIVE: list[tuple[dict[str, str], dict[str, str]]] = [
    (
        {"start_date": "2031-01-15", "end_date": "2031-01-25"},
        {"wall": "TUN", "utc": "UN", "berlin": "TUN"},
    ),
    (
        {"start_date": "2031-01-05", "end_date": "2031-01-15"},
        {"wall": "TUN", "utc": "TU", "berlin": "TU"},
    ),
    ({"starts_before": "2031-01-15"}, {"wall": "TUN", "utc": "TU", "berlin": "TU"}),
    ({"starts_after": "2031-01-14"}, {"wall": "TUN", "utc": "UN", "berlin": "TUN"}),
    ({"starts_after": "2031-01-15"}, {"wall": "", "utc": "N", "berlin": "N"}),
    ({"ends_before": "2031-01-15"}, {"wall": "TUN", "utc": "TU", "berlin": "TU"}),
    ({"ends_after": "2031-01-14"}, {"wall": "TUN", "utc": "UN", "berlin": "TUN"}),
    ({"ends_after": "2031-01-15"}, {"wall": "", "utc": "N", "berlin": "N"}),
]

# Strict values without an offset are UTC instants: the site zone only matters to "wall"
# (Berlin wall time = the value + 1 hour).
STRICT: list[tuple[dict[str, str], dict[str, str]]] = [
    (
        {"start_date": "2031-01-15 02:00:00", "end_date": "2031-01-25 00:00:00"},
        {"wall": "TUN", "utc": "UN", "berlin": "UN"},
    ),
    (
        {"start_date": "2031-01-05 00:00:00", "end_date": "2031-01-15 23:30:00"},
        {"wall": "TUN", "utc": "TU", "berlin": "TU"},
    ),
    ({"starts_before": "2031-01-15 23:30:00"}, {"wall": "TUN", "utc": "TU", "berlin": "TU"}),
    ({"starts_after": "2031-01-15 02:00:00"}, {"wall": "TUN", "utc": "UN", "berlin": "UN"}),
    ({"ends_before": "2031-01-15 23:30:00"}, {"wall": "TUN", "utc": "TU", "berlin": "TU"}),
    ({"ends_after": "2031-01-15 02:00:00"}, {"wall": "TUN", "utc": "UN", "berlin": "UN"}),
    # An explicit offset names the same instant in every mode.
    ({"starts_after": "2031-01-15 03:00:00+01:00"}, {"wall": "TUN", "utc": "UN", "berlin": "UN"}),
]


def configure(app: FastAPI, monkeypatch: pytest.MonkeyPatch, zone: str, mode: str) -> None:
    monkeypatch.setattr(app_services(app).settings, "site_timezone", zone)
    monkeypatch.setattr(app_services(app).settings, "timezone_mode", mode)


async def add(
    client: AsyncClient, who: AuthFor, zone: str, start: str, end: str, title: str
) -> int:
    payload = {"title": title, "start_date": start, "end_date": end, "timezone": zone}
    response = await client.post(f"{API}/events", json=payload, headers=who.basic)
    assert response.status_code == 201, response.text
    event_id: int = response.json()["id"]
    return event_id


async def three_zones(client: AsyncClient, who: AuthFor) -> dict[int, str]:
    """The three events (created while the site is UTC); event ID -> its letter."""
    names = {}
    for name, (zone, start, end) in EVENTS.items():
        names[await add(client, who, zone, start, end, name)] = name
    return names


async def listed(client: AsyncClient, names: dict[int, str], params: dict[str, str]) -> str:
    response = await client.get(f"{API}/events", params=params)
    assert response.status_code == 200, response.text
    body = response.json()
    found = "".join(names[event["id"]] for event in body["events"])
    assert body["total"] == len(found)
    return "".join(sorted(found, key="TUN".index))


@pytest.mark.parametrize("strict", [False, True], ids=["inclusive", "strict"])
@pytest.mark.parametrize(("zone", "mode"), list(CONFIGS))
async def test_every_window_parameter(
    app: FastAPI,
    client: AsyncClient,
    editor: AuthFor,
    monkeypatch: pytest.MonkeyPatch,
    zone: str,
    mode: str,
    strict: bool,
) -> None:
    names = await three_zones(client, editor)
    configure(app, monkeypatch, zone, mode)
    comparison = CONFIGS[(zone, mode)]
    cases = STRICT if strict else INCLUSIVE
    extra = {"strict_dates": "true"} if strict else {}
    found = {str(params): await listed(client, names, {**params, **extra}) for params, _ in cases}
    expected = {str(params): events[comparison] for params, events in cases}
    assert found == expected


async def test_echoed_dates_stay_in_site_time(
    app: FastAPI, client: AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The effective bounds in `rest_url` are site wall times in both modes (reference)."""
    for mode in ("event", "site"):
        configure(app, monkeypatch, "Europe/Berlin", mode)
        body = (
            await client.get(
                f"{API}/events",
                params={"start_date": "2031-01-15", "ends_after": "2031-01-15 12:00:00+00:00"},
            )
        ).json()
        assert "start_date=2031-01-15+00%3A00%3A00" in body["rest_url"]
        assert "ends_after=2031-01-15+23%3A59%3A59" in body["rest_url"]  # inclusive: the day
        strict = (
            await client.get(
                f"{API}/events",
                params={"starts_after": "2031-01-15 12:00:00", "strict_dates": "1"},
            )
        ).json()
        assert "starts_after=2031-01-15+13%3A00%3A00" in strict["rest_url"]  # UTC noon in Berlin


async def test_cached_totals_follow_the_mode(
    app: FastAPI,
    client: AsyncClient,
    editor: AuthFor,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Totals are cached per filter and data version: one filter asked in both modes, with no
    write in between, must count in each mode (a key without the mode would replay 0)."""
    names = await three_zones(client, editor)
    params = {"ends_after": "2031-01-15"}
    configure(app, monkeypatch, "Europe/Berlin", "event")
    assert await listed(client, names, params) == ""
    assert await listed(client, names, params) == ""  # from the cache this time
    configure(app, monkeypatch, "Europe/Berlin", "site")
    assert await listed(client, names, params) == "N"
    configure(app, monkeypatch, "Europe/Berlin", "event")
    assert await listed(client, names, params) == ""


async def test_default_window_on_a_utc_site_counts_instants(
    client: AsyncClient, editor: AuthFor
) -> None:
    """The default window (from 00:00 yesterday) on the default UTC site: an evening event in
    New York two days ago is yesterday in UTC (listed); a morning event in Tokyo yesterday is
    the day before in UTC (not listed)."""
    today = datetime.now(UTC).date()
    yesterday = today - timedelta(days=1)

    def wall(day: date, hour: int) -> str:
        return datetime.combine(day, time(hour)).strftime("%Y-%m-%d %H:%M:%S")

    evening = await add(
        client,
        editor,
        "America/New_York",
        wall(yesterday - timedelta(days=1), 21),
        wall(yesterday - timedelta(days=1), 22),
        "New York evening",
    )
    morning = await add(
        client, editor, "Asia/Tokyo", wall(yesterday, 8), wall(yesterday, 9), "Tokyo"
    )
    utc_start = datetime.combine(yesterday - timedelta(days=1), time(21)).replace(
        tzinfo=ZoneInfo("America/New_York")
    )
    assert utc_start.astimezone(UTC).date() == yesterday  # the premise, whatever the season
    body = (await client.get(f"{API}/events")).json()
    shown = [event["id"] for event in body["events"]]
    assert evening in shown
    assert morning not in shown


@pytest.mark.parametrize("mode", ["event", "site", "EVENT", " Site "])
def test_mode_setting_accepts_the_two_modes(mode: str) -> None:
    assert Settings(timezone_mode=mode).timezone_mode == mode.strip().lower()


@pytest.mark.parametrize("mode", ["", "utc", "local", "sites"])
def test_mode_setting_rejects_anything_else(mode: str) -> None:
    with pytest.raises(ValidationError, match="timezone_mode"):
        Settings(timezone_mode=mode)


@pytest.mark.parametrize(
    ("zone", "mode", "utc"),
    [
        ("UTC", "event", True),
        ("Etc/UTC", "event", True),
        ("Europe/London", "event", False),  # GMT in winter only
        ("Europe/Berlin", "event", False),
        ("Europe/Berlin", "site", True),
    ],
)
def test_which_sites_compare_instants(zone: str, mode: str, utc: bool) -> None:
    settings = Settings(site_timezone=zone, timezone_mode=mode)
    assert settings.list_dates_in_utc is utc


async def test_instant_comparisons_use_the_listing_indexes(db: AsyncSession) -> None:
    """On 100k events in three zones: the page walks `occurrences_listing_idx` from the
    local-time range the UTC bounds imply (not from the first event ever), and the count can be
    served by `occurrences_listing_utc_idx` (the planner prefers it once the table is vacuumed, which a
    test transaction cannot do: sequential scans are turned off to show that it applies)."""
    # A first batch, statistics, then the rest, as the seeder loads (docs/design.md#bulk-loads):
    # the large batch's checks go through the indexes whatever an earlier test left behind.
    for first, last in ((1, 1000), (1001, 100_000)):
        await db.execute(
            text(
                """
                INSERT INTO events (title, slug, status, start_at, end_at, start_local, end_local,
                    timezone, timezone_abbr, all_day, cost, cost_details, show_map, show_map_link,
                    hide_from_listings, sticky, featured, published_at, modified_at, description,
                    excerpt)
                SELECT 'Bulk ' || n, 'bulk-' || n,
                    CASE WHEN n % 10 = 0 THEN 'draft' ELSE 'publish' END, s AT TIME ZONE z,
                    (s + interval '2 hours') AT TIME ZONE z, s, s + interval '2 hours', z, 'X', false,
                    '', '{}', false, false, false, false, false, now(), now(), '', ''
                FROM (SELECT n, timestamp '2029-01-01' + (n * interval '20 minutes') AS s,
                             (ARRAY['UTC', 'America/New_York', 'Asia/Tokyo'])[n % 3 + 1] AS z
                      FROM generate_series(CAST(:first AS int), CAST(:last AS int)) AS n) AS series
                """
            ),
            {"first": first, "last": last},
        )
        await refresh_statistics(db, "events", "occurrences")
    settings = Settings(site_timezone="Europe/Berlin", timezone_mode="site")
    urls = Urls("http://test", "", "", "http://test")
    context = RequestContext({}, "en", None, db, urls, settings)
    berlin = ZoneInfo("Europe/Berlin")
    params = EventQuery(
        start_date=datetime(2031, 1, 15, tzinfo=berlin),
        end_date=datetime(2032, 1, 15, tzinfo=berlin),
    )
    request = await prepare(context, params)
    assert request.filters.utc
    query = EventListQuery(EventRepository(db, "en", "en"), request.filters)

    async def plan(statement: Any) -> str:
        compiled = statement.compile(
            dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}
        )
        return "\n".join(row[0] for row in await db.execute(text(f"EXPLAIN {compiled}")))

    page = await plan(query.page_statement(0, 9))
    assert "Index Scan using occurrences_listing_idx" in page or "occurrences_start_idx" in page
    assert "Index Cond: (start_local >=" in page
    # The events' tables are walked by their indexes; the tickets' table (empty here) may be
    # read whole for the body's `ticketed`, as a table of a few rows should be.
    assert "Seq Scan on occurrences" not in page
    assert "Seq Scan on events" not in page
    await db.execute(text("SET LOCAL enable_seqscan = off"))
    count = await plan(query.count_statement())
    assert "occurrences_listing_utc_idx" in count
    assert "Index Cond: (start_at >=" in count
