"""Calendar feeds (`/events.ics`, `/events/{id}.ics`, `/events/by-slug/{slug}.ics`): every
feed is read by two independent parsers, icalendar and vobject, and its bytes are checked on
the wire (CRLF, folding at 75 octets).

Zone definitions are read from the feed's own VTIMEZONEs (icalendar's `to_tz` without the
name lookup, vobject's own), so the DST instants below test what the feed says, not the
parsers' zone databases."""

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import icalendar
import vobject
from httpx import AsyncClient, Response
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Venue
from tests.factories import API, AuthFor, create_post

FEED = f"{API}/events.ics"
# A window that holds every dated event below (the feed's default reaches one year ahead).
WINDOW = {"start_date": "2027-01-01", "end_date": "2028-06-30"}


class Feed:
    """One feed as both parsers read it."""

    def __init__(self, response: Response) -> None:
        assert response.status_code == 200, response.text
        assert response.headers["content-type"] == "text/calendar; charset=utf-8"
        self.raw = response.content
        check_wire(self.raw)
        self.ical = icalendar.Calendar.from_ical(self.raw)
        self.vobj = vobject.readOne(self.raw.decode("utf-8"))
        self.zones = {
            str(zone["TZID"]): zone.to_tz(lookup_tzid=False) for zone in self.ical.timezones
        }

    @property
    def name(self) -> str:
        """X-WR-CALNAME (and NAME, the same): icalendar reads both as unknown properties,
        escapes kept; vobject unescapes them."""
        names = {unescape(self.ical[key].to_ical().decode()) for key in ("X-WR-CALNAME", "NAME")}
        names |= {self.vobj.contents[key][0].value for key in ("x-wr-calname", "name")}
        assert len(names) == 1, names
        return names.pop()

    @property
    def uids(self) -> list[str]:
        from_ical = [str(event["UID"]) for event in self.ical.events]
        from_vobject = [event.uid.value for event in self.vobj.contents.get("vevent", [])]
        assert from_ical == from_vobject
        return from_ical

    def ids(self) -> list[int]:
        return [int(uid.split("@")[0]) for uid in self.uids]

    def event(self, event_id: int) -> tuple[icalendar.Event, Any]:
        """The VEVENT of an event in both parsers' forms."""
        uid = f"{event_id}@testserver"
        ical = [e for e in self.ical.events if str(e["UID"]) == uid]
        vobj = [e for e in self.vobj.contents.get("vevent", []) if e.uid.value == uid]
        assert len(ical) == len(vobj) == 1, self.raw.decode()
        return ical[0], vobj[0]

    def instants(self, event_id: int) -> tuple[datetime, datetime]:
        """DTSTART and DTEND as UTC instants, the same in both parsers."""
        ical, vobj = self.event(event_id)
        moments = []
        for name in ("DTSTART", "DTEND"):
            prop = ical[name]
            value = prop.dt
            tzid = prop.params.get("TZID")
            if tzid is not None:  # the feed's own zone definition, not the parser's database
                value = value.replace(tzinfo=self.zones[str(tzid)])
            moments.append(value.astimezone(UTC))
        independent = [vobj.dtstart.value.astimezone(UTC), vobj.dtend.value.astimezone(UTC)]
        assert moments == independent
        return moments[0], moments[1]


def unescape(text: str) -> str:
    """An escaped TEXT value (RFC 5545 §3.3.11) as text."""
    return re.sub(r"\\([\\;,nN])", lambda m: "\n" if m[1] in "nN" else m[1], text)


def check_wire(raw: bytes) -> None:
    """CRLF line endings only; no line longer than 75 octets; folds never split a UTF-8
    character (each physical line decodes on its own)."""
    assert raw.startswith(b"BEGIN:VCALENDAR\r\n")
    assert raw.endswith(b"END:VCALENDAR\r\n")
    assert b"\n" not in raw.replace(b"\r\n", b"")
    assert b"\r" not in raw.replace(b"\r\n", b"")
    for line in raw.split(b"\r\n")[:-1]:
        assert len(line) <= 75, line
        line.decode("utf-8")


async def feed(client: AsyncClient, path: str = FEED, **params: Any) -> Feed:
    headers = params.pop("headers", {})
    return Feed(await client.get(path, params=params, headers=headers))


async def event(client: AsyncClient, who: AuthFor, title: str, **fields: Any) -> dict[str, Any]:
    payload = {"title": title, "start_date": "2027-05-10 18:00", "end_date": "2027-05-10 20:00"}
    response = await client.post(f"{API}/events", json={**payload, **fields}, headers=who.basic)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def json_ids(client: AsyncClient, path: str = f"{API}/events", **params: Any) -> list[int]:
    response = await client.get(path, params={**params, "per_page": 100})
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()["events"]]


# ---- the calendar and every property of an event ----------------------------------------


async def test_an_empty_feed_is_a_valid_calendar(client: AsyncClient) -> None:
    parsed = await feed(client)
    assert parsed.uids == []
    # RFC 5545 wants at least one component: the site zone's VTIMEZONE.
    assert list(parsed.zones) == ["UTC"]
    assert parsed.name == "testserver \u2013 Events"


async def test_calendar_properties(client: AsyncClient, editor: AuthFor) -> None:
    await event(client, editor, "Concert", timezone="Europe/Berlin")
    response = await client.get(FEED, params=WINDOW)
    parsed = Feed(response)
    cal, vcal = parsed.ical, parsed.vobj
    assert cal["PRODID"] == vcal.prodid.value == "-//almanac//Calendar feeds//EN"
    assert cal["VERSION"] == vcal.version.value == "2.0"
    assert cal["CALSCALE"] == vcal.calscale.value == "GREGORIAN"
    assert cal["METHOD"] == vcal.method.value == "PUBLISH"
    name = "testserver \u2013 Events: from 2027-01-01, until 2028-06-30"
    assert parsed.name == name
    assert cal["X-WR-TIMEZONE"] == "UTC"  # SITE_TIMEZONE
    assert b"\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n" in response.content
    assert b"\r\nX-PUBLISHED-TTL:PT1H\r\n" in response.content
    assert cal["REFRESH-INTERVAL"].dt == timedelta(hours=1)
    assert vcal.contents["x-published-ttl"][0].value == "PT1H"
    # One VTIMEZONE per zone used: only Berlin (a UTC event is written in UTC).
    assert list(parsed.zones) == ["Europe/Berlin"]
    assert response.headers["cache-control"] == "public, max-age=300"
    assert response.headers["etag"].startswith('"')


async def test_every_event_property(client: AsyncClient, editor: AuthFor, db: AsyncSession) -> None:
    venue = await create_post(
        client, editor, "venues", venue="Hall & Co", address="Main St 1", city="Berlin",
        zip="10115", country="Germany",
    )  # fmt: skip
    await db.execute(
        update(Venue).where(Venue.id == venue["id"]).values(geo_lat=52.52, geo_lng=13.405)
    )
    await db.commit()
    first = await create_post(
        client, editor, "organizers", organizer="Org", email="org@example.org"
    )
    second = await create_post(client, editor, "organizers", organizer="Second", email="")
    created = await event(
        client, editor, "Jazz &amp; more",
        description="<p>Doors at <b>7</b>.</p><p>Bring friends</p>",
        timezone="Europe/Berlin", venue=venue["id"], organizer=[first["id"], second["id"]],
        categories=["Concerts", "Jazz"], tags=["outdoor"],
        image="https://images.example.org/concert.jpg",
    )  # fmt: skip
    parsed = await feed(client, **WINDOW)
    ical, vobj = parsed.event(created["id"])
    assert ical["UID"] == f"{created['id']}@testserver"
    modified = datetime.fromisoformat(created["modified_utc"]).replace(tzinfo=UTC)
    assert ical["DTSTAMP"].dt == ical["LAST-MODIFIED"].dt == modified
    assert vobj.dtstamp.value == vobj.last_modified.value == modified
    assert ical["CREATED"].dt == datetime.fromisoformat(created["date_utc"]).replace(tzinfo=UTC)
    assert ical["SEQUENCE"] == int(vobj.sequence.value) == 0
    assert ical["DTSTART"].params["TZID"] == "Europe/Berlin"
    assert ical["DTSTART"].dt.replace(tzinfo=None) == datetime(2027, 5, 10, 18, 0)
    assert ical["DTEND"].dt.replace(tzinfo=None) == datetime(2027, 5, 10, 20, 0)
    assert b"DTSTART;TZID=Europe/Berlin:20270510T180000\r\n" in parsed.raw
    assert ical["SUMMARY"] == vobj.summary.value == "Jazz & more"
    assert ical["SUMMARY"].params["LANGUAGE"] == "en"
    text = "Doors at 7.\n\nBring friends"
    assert ical["DESCRIPTION"] == vobj.description.value == text
    html = "<p>Doors at <b>7</b>.</p><p>Bring friends</p>"
    assert ical["X-ALT-DESC"] == html
    assert ical["X-ALT-DESC"].params["FMTTYPE"] == "text/html"
    assert vobj.contents["x-alt-desc"][0].params["FMTTYPE"] == ["text/html"]
    assert ical["URL"] == vobj.url.value == created["url"]
    location = "Hall & Co, Main St 1, Berlin, 10115, Germany"
    assert ical["LOCATION"] == vobj.location.value == location
    assert (ical["GEO"].latitude, ical["GEO"].longitude) == (52.52, 13.405)
    assert vobj.geo.value == "52.52;13.405"
    assert ical["ORGANIZER"] == vobj.organizer.value == "mailto:org@example.org"
    assert ical["ORGANIZER"].params["CN"] == "Org"
    assert vobj.organizer.params["CN"] == ["Org"]
    assert ical["CONTACT"] == "Second"  # one ORGANIZER is allowed; the others are contacts
    assert list(ical["CATEGORIES"].cats) == ["Concerts", "Jazz"]
    assert vobj.categories.value == ["Concerts", "Jazz"]
    assert ical["ATTACH"] == vobj.attach.value == "https://images.example.org/concert.jpg"
    assert ical["ATTACH"].params["FMTTYPE"] == "image/jpeg"
    assert ical["STATUS"] == vobj.status.value == "CONFIRMED"
    assert ical["CLASS"] == vobj.contents["class"][0].value == "PUBLIC"


async def test_organizer_without_email_is_its_page(client: AsyncClient, editor: AuthFor) -> None:
    organizer = await create_post(client, editor, "organizers", organizer="Quiet", email="")
    created = await event(client, editor, "Talk", organizer=[organizer["id"]])
    ical, vobj = (await feed(client, **WINDOW)).event(created["id"])
    assert ical["ORGANIZER"] == vobj.organizer.value == organizer["url"]
    assert ical["ORGANIZER"].params["CN"] == "Quiet"
    assert "GEO" not in ical
    assert "LOCATION" not in ical
    assert "ATTACH" not in ical


async def test_sequence_grows_with_every_change(client: AsyncClient, editor: AuthFor) -> None:
    created = await event(client, editor, "Changing")
    sequences = []
    for title in ("Changed once", "Changed twice"):
        parsed = await feed(client, **WINDOW)
        sequences.append(int(parsed.event(created["id"])[0]["SEQUENCE"]))
        patch = await client.patch(
            f"{API}/events/{created['id']}", json={"title": title}, headers=editor.basic
        )
        assert patch.status_code == 200
    # A translation is a change of the event too.
    german = await client.patch(
        f"/de{API}/events/{created['id']}", json={"title": "Geändert"}, headers=editor.basic
    )
    assert german.status_code == 200
    last = await feed(client, **WINDOW)
    sequences.append(int(last.event(created["id"])[0]["SEQUENCE"]))
    assert sequences[0] < sequences[1] < sequences[2]
    assert last.event(created["id"])[0]["SUMMARY"] == "Changed twice"


async def test_changes_around_an_event_show_at_once(client: AsyncClient, editor: AuthFor) -> None:
    """Serialised events are reused while nothing they show changes (app/feeds/rendered.py):
    a renamed venue or organizer is a new LOCATION or ORGANIZER at once, although the event
    itself (and so its SEQUENCE) did not change."""
    venue = await create_post(client, editor, "venues", venue="Old hall", city="Graz")
    organizer = await create_post(client, editor, "organizers", organizer="Old org", email="")
    created = await event(client, editor, "Around", venue=venue["id"], organizer=[organizer["id"]])
    before, _ = (await feed(client, **WINDOW)).event(created["id"])
    assert before["LOCATION"] == "Old hall, Graz"
    for path, body in (
        (f"/venues/{venue['id']}", {"venue": "New hall"}),
        (f"/organizers/{organizer['id']}", {"organizer": "New org", "email": "new@example.org"}),
    ):
        changed = await client.post(f"{API}{path}", json=body, headers=editor.basic)
        assert changed.status_code == 200
    after, vobj = (await feed(client, **WINDOW)).event(created["id"])
    assert after["LOCATION"] == vobj.location.value == "New hall, Graz"
    assert after["ORGANIZER"] == "mailto:new@example.org"
    assert after["ORGANIZER"].params["CN"] == "New org"
    assert after["SEQUENCE"] == before["SEQUENCE"]
    german, _ = (await feed(client, f"/de{FEED}", **WINDOW)).event(created["id"])
    assert german["SUMMARY"].params["LANGUAGE"] == "de"


# ---- time: DST, all-day and multi-day ----------------------------------------------------


async def test_utc_instants_across_dst(client: AsyncClient, editor: AuthFor) -> None:
    cases = [
        # zone, local start, UTC start (summer and winter on both sides of the Atlantic)
        ("Europe/Berlin", "2027-07-01 10:00", datetime(2027, 7, 1, 8, 0, tzinfo=UTC)),
        ("Europe/Berlin", "2027-01-15 10:00", datetime(2027, 1, 15, 9, 0, tzinfo=UTC)),
        ("America/New_York", "2027-07-04 18:00", datetime(2027, 7, 4, 22, 0, tzinfo=UTC)),
        ("America/New_York", "2027-12-01 18:00", datetime(2027, 12, 1, 23, 0, tzinfo=UTC)),
        # Right after the spring change in Berlin (02:00 CET became 03:00 CEST).
        ("Europe/Berlin", "2027-03-28 03:30", datetime(2027, 3, 28, 1, 30, tzinfo=UTC)),
        ("UTC", "2027-06-01 12:00", datetime(2027, 6, 1, 12, 0, tzinfo=UTC)),
        # An offset zone: a VTIMEZONE of one observance.
        ("UTC+5:30", "2027-06-01 12:00", datetime(2027, 6, 1, 6, 30, tzinfo=UTC)),
    ]
    created = []
    for zone, start, _ in cases:
        end = start[:11] + "23:00"
        created.append(
            await event(client, editor, start, timezone=zone, start_date=start, end_date=end)
        )
    parsed = await feed(client, **WINDOW)
    for (zone, _, expected), body in zip(cases, created, strict=True):
        start, _ = parsed.instants(body["id"])
        assert start == expected, zone
        assert body["utc_start_date"] == expected.strftime("%Y-%m-%d %H:%M:%S")
    utc_event = parsed.event(created[-2]["id"])[0]
    assert "TZID" not in utc_event["DTSTART"].params
    assert b"DTSTART:20270601T120000Z" in parsed.raw
    assert set(parsed.zones) == {"Europe/Berlin", "America/New_York", "UTC+5:30"}


async def test_vtimezone_onsets_are_the_real_transitions(
    client: AsyncClient, editor: AuthFor
) -> None:
    """Each observance's onset (DTSTART minus TZOFFSETFROM, RFC 5545 §3.6.5) is the instant
    the zone database changes the offset."""
    await event(client, editor, "Berlin", timezone="Europe/Berlin")
    await event(client, editor, "New York", timezone="America/New_York")
    parsed = await feed(client, **WINDOW)
    onsets: dict[str, set[datetime]] = {}
    for zone in parsed.ical.timezones:
        for part in zone.subcomponents:
            before = part["TZOFFSETFROM"].td
            if before != part["TZOFFSETTO"].td:
                onset = (part["DTSTART"].dt - before).replace(tzinfo=UTC)
                onsets.setdefault(str(zone["TZID"]), set()).add(onset)
    assert onsets == {
        "Europe/Berlin": {
            datetime(2027, 3, 28, 1, 0, tzinfo=UTC),
            datetime(2027, 10, 31, 1, 0, tzinfo=UTC),
        },
        "America/New_York": {
            datetime(2027, 3, 14, 7, 0, tzinfo=UTC),
            datetime(2027, 11, 7, 6, 0, tzinfo=UTC),
        },
    }
    berlin = {str(z["TZID"]): z for z in parsed.ical.timezones}["Europe/Berlin"]
    names = [(type(part).__name__, str(part["TZNAME"])) for part in berlin.subcomponents]
    assert ("TimezoneDaylight", "CEST") in names
    assert ("TimezoneStandard", "CET") in names


async def test_all_day_and_multi_day_events(client: AsyncClient, editor: AuthFor) -> None:
    one_day = await event(
        client, editor, "Fair", all_day=True, start_date="2027-02-10", end_date="2027-02-10"
    )
    three_days = await event(
        client, editor, "Festival", all_day=True, timezone="Europe/Berlin",
        start_date="2027-02-10", end_date="2027-02-12",
    )  # fmt: skip
    overnight = await event(
        client, editor, "Night", timezone="Europe/Berlin",
        start_date="2027-02-10 22:00", end_date="2027-02-12 06:00",
    )  # fmt: skip
    parsed = await feed(client, **WINDOW)
    for body, end in ((one_day, date(2027, 2, 11)), (three_days, date(2027, 2, 13))):
        ical, vobj = parsed.event(body["id"])
        assert ical["DTSTART"].params["VALUE"] == "DATE"
        assert ical["DTSTART"].dt == vobj.dtstart.value == date(2027, 2, 10)
        assert ical["DTEND"].dt == vobj.dtend.value == end  # exclusive (RFC 5545 §3.6.1)
    start, end = parsed.instants(overnight["id"])
    assert (start, end) == (
        datetime(2027, 2, 10, 21, 0, tzinfo=UTC),
        datetime(2027, 2, 12, 5, 0, tzinfo=UTC),
    )
    # All-day events need no VTIMEZONE.
    assert set(parsed.zones) == {"Europe/Berlin"}


# ---- text: entities, scripts, folding ----------------------------------------------------


async def test_entities_non_latin_text_and_folding(client: AsyncClient, editor: AuthFor) -> None:
    title = "Caf&eacute; &amp; Bar \u2013 \u6771\u4eac\u30b3\u30f3\u30b5\u30fc\u30c8 " + (
        "\u0416\u0438\u0432\u0430\u044f \u043c\u0443\u0437\u044b\u043a\u0430; " * 6
    )
    description = "<p>" + "&lt;Tom&gt; &amp; \u00e9\u00e8 \u2603 \U0001f3b5, " * 20 + "</p>"
    created = await event(client, editor, title, description=description)
    parsed = await feed(client, **WINDOW)
    ical, vobj = parsed.event(created["id"])
    summary = (
        "Caf\u00e9 & Bar \u2013 \u6771\u4eac\u30b3\u30f3\u30b5\u30fc\u30c8 "
        + "\u0416\u0438\u0432\u0430\u044f \u043c\u0443\u0437\u044b\u043a\u0430; " * 6
    ).strip()
    assert ical["SUMMARY"] == vobj.summary.value == summary
    text = ("<Tom> & \u00e9\u00e8 \u2603 \U0001f3b5, " * 20).strip()
    assert ical["DESCRIPTION"] == vobj.description.value == text
    # The long lines were folded (continuation lines start with a space) and unfold intact.
    assert b"\r\n " in parsed.raw
    unfolded = parsed.raw.replace(b"\r\n ", b"")
    assert "SUMMARY;LANGUAGE=en:Caf\u00e9 & Bar".encode() in unfolded
    assert b"\\;" in unfolded  # TEXT escaping of the semicolons


# ---- which events: filters, window, visibility, the JSON list ----------------------------


async def test_feed_holds_exactly_the_json_list(client: AsyncClient, editor: AuthFor) -> None:
    hall = await create_post(client, editor, "venues", venue="Hall")
    org = await create_post(client, editor, "organizers", organizer="Org")
    made = [
        await event(client, editor, "Jazz night", categories=["Concerts"], venue=hall["id"]),
        await event(client, editor, "Rock night", categories=["Concerts"], featured=True),
        await event(client, editor, "Lecture", tags=["science"], organizer=[org["id"]]),
        await event(client, editor, "Draft", status="draft", categories=["Concerts"]),
        await event(client, editor, "Hidden", hide_from_listings=True),
        await event(
            client, editor, "Late", start_date="2027-11-01 10:00", end_date="2027-11-01 11:00"
        ),
        await event(client, editor, "Secret", password="pw", categories=["Concerts"]),
    ]
    assert len(made) == 7
    filters: list[dict[str, Any]] = [
        {},
        {"categories": "concerts"},
        {"tags": "science"},
        {"venue": hall["id"]},
        {"organizer": org["id"]},
        {"featured": "true"},
        {"featured": "false"},
        {"search": "night"},
        {"start_date": "2027-10-01", "end_date": "2027-12-31"},
        {"starts_after": "2027-05-10 17:00", "ends_before": "2027-05-10 21:00"},
        {"include": f"{made[0]['id']},{made[2]['id']}"},
        {"orderby": "title", "order": "desc"},
    ]
    for params in filters:
        query = {**WINDOW, **params} if "start_date" not in params else params
        expected = await json_ids(client, **query)
        assert (await feed(client, **query)).ids() == expected, params
    # The editor sees the draft in both, the anonymous caller in neither.
    editor_list = await client.get(
        f"{API}/events", params={**WINDOW, "per_page": 100}, headers=editor.basic
    )
    editor_feed = await feed(client, **WINDOW, headers=editor.basic)
    assert editor_feed.ids() == [item["id"] for item in editor_list.json()["events"]]
    assert made[3]["id"] in editor_feed.ids()
    anonymous = (await feed(client, **WINDOW)).ids()
    assert made[3]["id"] not in anonymous
    assert made[4]["id"] not in anonymous


async def test_protected_events_show_no_protected_content(
    client: AsyncClient, editor: AuthFor
) -> None:
    venue = await create_post(client, editor, "venues", venue="Hall", city="Vienna")
    organizer = await create_post(client, editor, "organizers", organizer="O", email="o@x.org")
    secret = await event(
        client, editor, "Secret party", password="pw", description="<p>The code is 42</p>",
        venue=venue["id"], organizer=[organizer["id"]], categories=["Parties"],
        image="https://images.example.org/p.jpg",
    )  # fmt: skip
    ical, _ = (await feed(client, **WINDOW)).event(secret["id"])
    assert ical["SUMMARY"] == "Secret party"  # titles stay, as in the JSON list
    assert ical["CLASS"] == "CONFIDENTIAL"
    for hidden in ("DESCRIPTION", "X-ALT-DESC", "LOCATION", "ORGANIZER", "CATEGORIES", "ATTACH"):
        assert hidden not in ical, hidden
    unlocked, _ = (await feed(client, **WINDOW, password="pw")).event(secret["id"])
    assert unlocked["DESCRIPTION"] == "The code is 42"
    assert unlocked["LOCATION"] == "Hall, Vienna"
    # A single protected event is refused without its password, as its JSON route is.
    single = await client.get(f"{API}/events/{secret['id']}.ics")
    assert single.status_code == 403
    assert single.json()["code"] == "event-password-protected"
    opened = Feed(await client.get(f"{API}/events/{secret['id']}.ics", params={"password": "pw"}))
    assert opened.event(secret["id"])[0]["DESCRIPTION"] == "The code is 42"


async def test_default_window_and_limit(client: AsyncClient, editor: AuthFor) -> None:
    now = datetime.now(UTC)

    async def at(days: int, title: str) -> int:
        start = (now + timedelta(days=days)).strftime("%Y-%m-%d 12:00:00")
        end = (now + timedelta(days=days)).strftime("%Y-%m-%d 13:00:00")
        body = await event(client, editor, title, start_date=start, end_date=end)
        return int(body["id"])

    too_old, recent, soon, far, too_far = (
        await at(-31, "too old"), await at(-29, "recent"), await at(3, "soon"),
        await at(360, "far"), await at(372, "too far"),
    )  # fmt: skip
    ids = (await feed(client)).ids()
    assert ids == [recent, soon, far]
    assert too_old not in ids
    assert too_far not in ids
    assert (await feed(client, limit=2)).ids() == [recent, soon]
    assert (await feed(client, limit="1")).ids() == [recent]
    for bad in ("0", "5001", "many", "-1"):
        refused = await client.get(FEED, params={"limit": bad})
        assert refused.status_code == 400, bad
        assert refused.json()["code"] == "rest_invalid_param"
        assert "limit" in refused.json()["data"]["params"]
    assert (await client.get(FEED, params={"limit": "5000"})).status_code == 200
    # The list's own errors, as on the JSON list.
    assert (await client.get(FEED, params={"categories": "nope"})).status_code == 400
    assert (await client.get(FEED, params={"start_date": "not a date"})).status_code == 400


async def test_filters_and_languages_name_the_calendar(
    client: AsyncClient, editor: AuthFor
) -> None:
    venue = await create_post(client, editor, "venues", venue="Opera")
    concerts = await client.post(
        f"{API}/categories", json={"name": "Concerts"}, headers=editor.basic
    )
    category = concerts.json()
    german_category = await client.patch(
        f"/de{API}/categories/{category['id']}", json={"name": "Konzerte"}, headers=editor.basic
    )
    assert german_category.status_code == 200
    created = await event(
        client, editor, "Evening concert", description="<p>Music</p>",
        categories=[category["id"]], venue=venue["id"], featured=True,
    )  # fmt: skip
    await event(client, editor, "Other", featured=False)
    german = await client.patch(
        f"/de{API}/events/{created['id']}",
        json={"title": "Abendkonzert", "description": "<p>Musik</p>"},
        headers=editor.basic,
    )
    assert german.status_code == 200
    params = {**WINDOW, "categories": "concerts", "venue": venue["id"], "featured": "1"}
    english = await feed(client, **params)
    assert english.ids() == [created["id"]]
    assert english.name == (
        "testserver \u2013 Events: Concerts, Venue: Opera, Featured, "
        "from 2027-01-01, until 2028-06-30"
    )
    for path, extra in ((f"/de{FEED}", {}), (FEED, {"i18n_language": "de"})):
        response = await client.get(path, params={**params, **extra})
        assert response.headers["content-language"] == "de"
        parsed = Feed(response)
        ical, vobj = parsed.event(created["id"])
        assert ical["SUMMARY"] == vobj.summary.value == "Abendkonzert"
        assert ical["SUMMARY"].params["LANGUAGE"] == "de"
        assert ical["DESCRIPTION"] == "Musik"
        assert list(ical["CATEGORIES"].cats) == ["Konzerte"]
        assert parsed.name == (
            "testserver \u2013 Veranstaltungen: Konzerte, Ort: Opera, Hervorgehoben, "
            "ab 2027-01-01, bis 2028-06-30"
        )
    searched = await feed(client, f"/sk{FEED}", search="concert", **WINDOW)
    assert "\u201econcert\u201c" in searched.name
    assert searched.ids() == [created["id"]]


# ---- single events ------------------------------------------------------------------------


async def test_single_event_feeds(client: AsyncClient, editor: AuthFor) -> None:
    created = await event(client, editor, "Solo", timezone="America/New_York")
    by_id = await feed(client, f"{API}/events/{created['id']}.ics")
    by_slug = await feed(client, f"{API}/events/by-slug/{created['slug']}.ics")
    assert by_id.ids() == by_slug.ids() == [created["id"]]
    assert by_id.raw == by_slug.raw
    assert by_id.name == "testserver \u2013 Solo"
    assert list(by_id.zones) == ["America/New_York"]
    german = await feed(client, f"/de{API}/events/{created['id']}.ics")
    assert german.event(created["id"])[0]["SUMMARY"].params["LANGUAGE"] == "de"
    # The JSON routes next to them are unchanged.
    assert (await client.get(f"{API}/events/by-slug/{created['slug']}")).json()["id"] == created[
        "id"
    ]
    assert (await client.get(f"{API}/events/{created['id']}")).status_code == 200
    # Hidden from listings: not in the list's feed, but its own feed is there (as its JSON).
    hidden = await event(client, editor, "Unlisted", hide_from_listings=True)
    assert (await feed(client, f"{API}/events/{hidden['id']}.ics")).ids() == [hidden["id"]]


async def test_single_event_errors_follow_the_json_route(
    client: AsyncClient, editor: AuthFor
) -> None:
    draft = await event(client, editor, "Draft", status="draft")
    venue = await create_post(client, editor, "venues", venue="A venue")
    cases = [
        f"/events/{draft['id']}",
        "/events/987654321",
        "/events/by-slug/no-such-event",
        f"/events/{venue['id']}",
    ]
    for path in cases:
        as_json = await client.get(f"{API}{path}")
        as_feed = await client.get(f"{API}{path}.ics")
        assert as_feed.status_code == as_json.status_code >= 400, path
        assert as_feed.json()["code"] == as_json.json()["code"], path
    signed_in = await client.get(f"{API}/events/{draft['id']}.ics", headers=editor.basic)
    ical, _ = Feed(signed_in).event(draft["id"])
    assert ical["STATUS"] == "TENTATIVE"
    assert signed_in.headers["cache-control"] == "private, no-cache"


# ---- polling: ETag, 304, the JSON list's Link -------------------------------------------


async def test_etag_and_not_modified(client: AsyncClient, editor: AuthFor) -> None:
    created = await event(client, editor, "Polled")
    first = await client.get(FEED, params=WINDOW)
    again = await client.get(FEED, params=WINDOW)
    etag = first.headers["etag"]
    assert again.headers["etag"] == etag
    assert again.content == first.content
    for header in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        cached = await client.get(FEED, params=WINDOW, headers={"If-None-Match": header})
        assert cached.status_code == 304, header
        assert cached.content == b""
        assert cached.headers["etag"] == etag
    stale = await client.get(FEED, params=WINDOW, headers={"If-None-Match": '"other"'})
    assert stale.status_code == 200
    single = await client.get(f"{API}/events/{created['id']}.ics")
    not_modified = await client.get(
        f"{API}/events/{created['id']}.ics", headers={"If-None-Match": single.headers["etag"]}
    )
    assert not_modified.status_code == 304
    patch = await client.patch(
        f"{API}/events/{created['id']}", json={"title": "Moved"}, headers=editor.basic
    )
    assert patch.status_code == 200
    changed = await client.get(FEED, params=WINDOW, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["etag"] != etag


async def test_json_list_links_its_feed(client: AsyncClient, editor: AuthFor) -> None:
    await event(client, editor, "Linked", categories=["Concerts"])
    response = await client.get(
        f"/de{API}/events",
        params={"categories": "concerts", "search": "Linked", "page": 1, "per_page": 5},
    )
    links = response.headers["link"].split(", <")
    alternate = [link for link in links if 'rel="alternate"' in link]
    assert len(alternate) == 1
    expected = f"http://testserver/de{API}/events.ics?search=Linked&categories=concerts"
    assert alternate[0].lstrip("<") == f'{expected}>; rel="alternate"; type="text/calendar"'
    url = expected
    # The linked feed holds the same events (its own window covers them).
    linked = Feed(await client.get(url))
    listed = await json_ids(client, f"/de{API}/events", categories="concerts", search="Linked")
    assert linked.ids() == listed
    # Editors' lists echo every status; their feed link keeps only what they asked for.
    editor_list = await client.get(f"{API}/events", headers=editor.basic)
    assert f'<http://testserver{API}/events.ics>; rel="alternate"' in editor_list.headers["link"]
    # An empty list links its feed as well.
    empty = await client.get(f"{API}/events", params={"search": "nothing-matches"})
    assert "events.ics?search=nothing-matches" in empty.headers["link"]


async def test_doc_describes_the_feeds(client: AsyncClient) -> None:
    doc = (await client.get(f"{API}/doc")).json()
    for path in ("/events.ics", "/events/{id}.ics", "/events/by-slug/{slug}.ics"):
        operation = doc["paths"][path]["get"]
        assert operation["tags"] == ["feeds"]
        ok = operation["responses"]["200"]
        assert list(ok["content"]) == ["text/calendar; charset=utf-8"]
        bad = operation["responses"]["400"]["content"]
        assert bad == {
            "application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}
        }
        assert ok["headers"]["ETag"]["required"] is True
        assert "304" in operation["responses"]
        names = {p["name"] for p in operation["parameters"]}
        assert {"i18n_language", "If-None-Match"} <= names
    listed = {p["name"]: p for p in doc["paths"]["/events.ics"]["get"]["parameters"]}
    assert listed["limit"]["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 5000,
        "default": 500,
    }
    assert {"categories", "tags", "venue", "organizer", "featured", "search", "start_date"} <= set(
        listed
    )
    assert "page" not in listed
    assert "per_page" not in listed
    single = {p["name"] for p in doc["paths"]["/events/{id}.ics"]["get"]["parameters"]}
    assert "password" in single
    assert "limit" not in single


async def test_namespace_description_gives_the_feed_window(client: AsyncClient) -> None:
    routes = (await client.get(API)).json()["routes"]
    feed = rf"{API}/events\.ics"  # keyed by pattern, as WordPress keys routes
    args = routes[feed]["endpoints"][0]["args"]
    today = datetime.now(UTC).date()
    assert args["start_date"]["default"] == f"{today - timedelta(days=30)} 00:00:00"
    assert args["end_date"]["default"].endswith(" 23:59:59")
    assert args["end_date"]["default"][:4] == str(today.year + 1)
    assert args["limit"]["default"] == 500
    assert routes[feed]["methods"] == ["GET"]
    assert routes[feed]["_links"]["self"] == [{"href": f"http://testserver{API}/events.ics"}]
    one = {rf"{API}/events/(?P<id>\d+)\.ics", rf"{API}/events/by-slug/(?P<slug>[^/]+)\.ics"}
    assert one <= set(routes)
