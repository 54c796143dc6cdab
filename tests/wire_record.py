"""The wire recorder: a few hundred API requests and their exact answers, to prove that a
refactor leaves the API's responses byte-identical (issue 43).

    python -m tests.wire_record OUT.json             record (from a worktree's root)
    python -m tests.wire_record --compare A.json B.json

Recording runs `record_wire` below under pytest, so that it gets the suite's own fixtures
(tests/conftest.py: a fresh embedded PostgreSQL migrated from scratch, the in-process app,
`auth` users with application passwords) and factories (tests/factories.py). It is not a test:
neither the file name nor the function name is one pytest collects by default.

Everything is created in a fixed order on a fresh database with fixed dates, so IDs, slugs and
dates repeat from run to run. What truly varies is normalised (`normalise`): timestamps near
the time of the run (`modified`, the default window's bounds, feed stamps) and ETags, which
hash bodies holding such timestamps (each tag is named by the body it digests: "this body",
another, or for a 304 and a tag sent back, a hash of the earlier body's normalised text).
"""

import asyncio
import difflib
import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from httpx import AsyncClient, Response
from sqlalchemy.ext.asyncio import AsyncSession

from tests.factories import API, Auth, make_event
from tests.media_files import picture

OUT_VARIABLE = "WIRE_RECORD_OUT"
# The answer's headers that are part of the wire (not Date, request IDs, timings).
KEPT_HEADERS = (
    "content-type",
    "content-language",
    "vary",
    "cache-control",
    "etag",
    "link",
    "x-wp-total",
    "x-wp-totalpages",
    "location",
    "x-almanac-ignored",
    "allow",
)
ROLES = ("administrator", "editor", "author", "contributor", "subscriber")
TZ = "Europe/Bratislava"
PUBLISHED = "2026-01-15 09:00:00"  # a fixed publication date: `date` repeats, `modified` not


# --- Normalisation ------------------------------------------------------------------------

_SEP = r"(?:[ T]|%20|\+)"
_COLON = r"(?::|%3A)"
_DATETIME = re.compile(
    rf"(\d{{4}})-(\d{{2}})-(\d{{2}}){_SEP}(\d{{2}}){_COLON}(\d{{2}}){_COLON}(\d{{2}})"
    r"(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
)
_COMPACT = re.compile(r"\b(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z?\b")
_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DIGEST = re.compile(r'"[0-9a-f]{32}"')
_HTTP_DATE = re.compile(r"\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT")
_SECRET = re.compile(r"whsec_[A-Za-z0-9+/]+=*")  # a webhook's signing secret: random
NEAR = timedelta(days=2)
HORIZON = timedelta(days=730)  # the default window's end and the series' horizon


@dataclass
class Normaliser:
    """Replaces what differs between two runs of the same requests (see the module's doc)."""

    now: datetime = field(default_factory=lambda: datetime.now(UTC).replace(tzinfo=None))
    # The ETag a body has (its digest) -> a name of its normalised text, the same in every run.
    digests: dict[str, str] = field(default_factory=dict)

    def _label(self, moment: datetime) -> str | None:
        if abs(moment - self.now) <= NEAR:
            return "<now>"
        if abs(moment - (self.now + HORIZON)) <= NEAR + timedelta(days=1):
            return "<now+2y>"
        return None

    def _moment(self, match: re.Match[str]) -> str:
        parts = [int(part) for part in match.groups()]
        try:
            moment = datetime(*parts)  # type: ignore[arg-type]
        except ValueError:
            return match.group(0)
        return self._label(moment) or match.group(0)

    def text(self, value: str) -> str:
        value = _DATETIME.sub(self._moment, value)
        value = _COMPACT.sub(self._moment, value)
        value = _DATE.sub(self._moment, value)
        value = _SECRET.sub("whsec_<secret>", value)
        return _HTTP_DATE.sub("<http-date>", value)

    def etags(self, value: str, own: str | None = None) -> str:
        """The tags of an ETag, If-Match or If-None-Match header, each a body's digest
        (BLAKE2b, app/core/caching/etags.py), named by what it digests: `this body` (`own`), or
        with `own` None, an earlier answer's body (a hash of its normalised text: a 304's tag,
        a tag sent back). The tag of a write's answer digests the record's GET body, which a
        later GET may or may not show byte for byte (`modified` has one-second resolution):
        it is named only as another body's, so that runs agree."""
        named = []
        for tag in (part.strip() for part in value.split(",")):
            bare = tag.removeprefix("W/")
            if _DIGEST.fullmatch(bare):
                if own is None:
                    body = self.digests.get(bare, "no earlier body")
                else:
                    body = "this body" if bare == own else "another body"
                tag = tag.removesuffix(bare) + f'"<digest of {body}>"'
            named.append(tag)
        return ", ".join(named)


# --- Recording ----------------------------------------------------------------------------


@dataclass
class Recorder:
    client: AsyncClient
    credentials: dict[str, dict[str, str]]
    normaliser: Normaliser = field(default_factory=Normaliser)
    entries: list[dict[str, Any]] = field(default_factory=list)

    async def call(
        self,
        method: str,
        url: str,
        who: str = "anonymous",
        *,
        params: dict[str, Any] | None = None,
        json_body: Any = None,
        form: dict[str, str] | None = None,
        content: bytes | str | None = None,
        files: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        sent = dict(headers or {})
        response = await self.client.request(
            method,
            url,
            params=params,
            json=json_body,
            data=form,
            content=content,
            files=files,
            headers={**self.credentials.get(who, {}), **sent},
        )
        request = response.request
        body = b"" if files else request.content
        norm = self.normaliser
        kept = {name: response.headers[name] for name in KEPT_HEADERS if name in response.headers}
        text = norm.text(response.text)
        digest = '"' + hashlib.blake2b(response.content, digest_size=16).hexdigest() + '"'
        if response.content:
            norm.digests[digest] = "body " + hashlib.sha256(text.encode()).hexdigest()[:16]
        for name in sent:
            if name.lower() in ("if-match", "if-none-match"):
                sent[name] = norm.etags(sent[name])
        if "etag" in kept:
            kept["etag"] = norm.etags(kept["etag"], None if response.status_code == 304 else digest)
        self.entries.append(
            {
                "request": {
                    "method": method,
                    "url": norm.text(str(request.url)),
                    "who": who,
                    "headers": sent,
                    "body": "<multipart>" if files else norm.text(body.decode()),
                },
                "status": response.status_code,
                "headers": {name: norm.text(value) for name, value in kept.items()},
                "body": text,
            }
        )
        return response

    async def made(self, url: str, who: str, body: dict[str, Any], **options: Any) -> Any:
        """POST `body` to `url` and return the created record's JSON (201 expected)."""
        response = await self.call("POST", url, who, json_body=body, **options)
        if response.status_code != 201:
            raise AssertionError(f"{url}: {response.status_code} {response.text}")
        return response.json()


async def _terms(rec: Recorder) -> dict[str, Any]:
    music = await rec.made(
        f"{API}/categories", "editor", {"name": "Music", "description": "Concerts"}
    )
    jazz = await rec.made(f"{API}/categories", "editor", {"name": "Jazz", "parent": music["id"]})
    theatre = await rec.made(f"{API}/categories", "editor", {"name": "Theatre"})
    outdoor = await rec.made(f"{API}/tags", "editor", {"name": "Outdoor"})
    family = await rec.made(f"{API}/tags", "editor", {"name": "Family"})
    for language, name in (("de", "Musik"), ("sk", "Hudba")):
        await rec.call(
            "POST",
            f"{API}/categories/{music['id']}",
            "editor",
            json_body={"name": name, "i18n_language": language},
        )
    await rec.call(
        "PATCH", f"/de{API}/tags/{outdoor['id']}", "editor", json_body={"name": "Im Freien"}
    )
    return {"music": music, "jazz": jazz, "theatre": theatre, "outdoor": outdoor, "family": family}


async def _linked(rec: Recorder) -> dict[str, Any]:
    hall = await rec.made(
        f"{API}/venues",
        "editor",
        {
            "venue": "Town Hall",
            "address": "Main Square 1",
            "city": "Bratislava",
            "country": "Slovakia",
            "zip": "811 01",
            "phone": "+421 2 1234 5678",
            "website": "https://hall.example",
            "description": "<p>The <b>old</b> hall</p>",
            "image": "https://images.invalid/hall.jpg",
            "date": PUBLISHED,
        },
    )
    park = await rec.made(
        f"{API}/venues", "editor", {"venue": "Park Stage", "city": "Vienna", "date": PUBLISHED}
    )
    arts = await rec.made(
        f"{API}/organizers",
        "editor",
        {"organizer": "City Arts", "email": "arts@example.org", "phone": "123", "date": PUBLISHED},
    )
    club = await rec.made(f"{API}/organizers", "author", {"organizer": "Jazz Club"})
    await rec.call(
        "PATCH",
        f"{API}/venues/{hall['id']}?i18n_language=de",
        "editor",
        json_body={"venue": "Rathaus"},
    )
    await rec.call(
        "PATCH",
        f"/sk{API}/organizers/{arts['id']}",
        "editor",
        json_body={"organizer": "Mestské umenie"},
    )
    return {"hall": hall, "park": park, "arts": arts, "club": club}


async def _events(rec: Recorder, db: AsyncSession, t: dict[str, Any], v: dict[str, Any]) -> Any:
    events = f"{API}/events"
    concert = await rec.made(
        events,
        "editor",
        {
            "title": "Spring Concert",
            "description": "<p>An evening of <em>jazz</em>.</p><script>x()</script>",
            "excerpt": "Jazz in spring",
            "start_date": "2027-03-12 19:00:00",
            "end_date": "2027-03-12 21:00:00",
            "timezone": TZ,
            "venue": v["hall"]["id"],
            "organizer": [v["arts"]["id"], v["club"]["id"]],
            "categories": [t["music"]["id"], t["jazz"]["slug"]],
            "tags": ["Outdoor", "new-tag"],
            "cost": "10 EUR",
            "featured": True,
            "website": "https://concert.example",
            "image": "https://images.invalid/poster.png",
            "date": PUBLISHED,
        },
    )
    for language, title in (("de", "Frühlingskonzert"), ("sk", "Jarný koncert")):
        await rec.call(
            "PUT",
            f"{events}/{concert['id']}",
            "editor",
            json_body={"title": title, "description": f"<p>{title}</p>", "i18n_language": language},
        )
    market = await rec.made(
        events,
        "editor",
        {
            "title": "Market Day",
            "start_date": "2027-04-03",
            "end_date": "2027-04-03",
            "all_day": "yes",
            "venue": v["park"]["id"],
            "tags": [t["family"]["id"]],
            "cost": ["0", "5"],
            "date": PUBLISHED,
        },
    )
    festival = await rec.made(
        events,
        "editor",
        {
            "title": "Summer Festival",
            "start_date": "2027-05-20 10:00",
            "end_date": "2027-05-23 22:00",
            "timezone": "UTC+2",
            "categories": ["theatre"],
            "venue": {"venue": "Riverside", "city": "Košice"},
            "date": PUBLISHED,
        },
    )
    weekly = await rec.made(
        events,
        "editor",
        {
            "title": "Weekly Class",
            "start_date": "2027-03-02 18:00:00",
            "end_date": "2027-03-02 19:30:00",
            "timezone": TZ,
            "recurrence": [
                "RRULE:FREQ=WEEKLY;COUNT=8",
                "EXDATE:20270316T170000Z",
                "RDATE:20270320T170000Z",
            ],
            "categories": [t["theatre"]["id"]],
            "date": PUBLISHED,
        },
    )
    club = await rec.made(
        events,
        "author",
        {
            "title": "Book Club",
            "start_date": "2027-03-04 17:00:00",
            "end_date": "2027-03-04 18:00:00",
            "recurrence": ["RRULE:FREQ=MONTHLY;BYDAY=1TH;COUNT=6"],
            "organizer": v["club"]["id"],
            "date": PUBLISHED,
        },
    )
    secret = await rec.made(
        events,
        "editor",
        {
            "title": "Secret Meeting",
            "description": "<p>The plan</p>",
            "excerpt": "Hush",
            "password": "s3cret",
            "start_date": "2027-03-20 20:00:00",
            "end_date": "2027-03-20 22:00:00",
            "date": PUBLISHED,
        },
    )
    draft = await rec.made(
        events,
        "editor",
        {
            "title": "Draft Plan",
            "status": "draft",
            "start_date": "2027-03-25 10:00",
            "end_date": "2027-03-25 11:00",
        },
    )
    private = await rec.made(
        events,
        "administrator",
        {
            "title": "Board Dinner",
            "status": "private",
            "start_date": "2027-03-26 19:00",
            "end_date": "2027-03-26 22:00",
            "date": PUBLISHED,
        },
    )
    pending = await rec.made(
        events,
        "contributor",
        {"title": "Open Mic", "start_date": "2027-03-27 20:00", "end_date": "2027-03-27 23:00"},
    )
    past = await rec.made(
        events,
        "editor",
        {
            "title": "Last Summer",
            "start_date": "2026-06-15 18:00",
            "end_date": "2026-06-15 20:00",
            "date": PUBLISHED,
        },
    )
    hidden = await rec.made(
        events,
        "editor",
        {
            "title": "Hidden Rehearsal",
            "start_date": "2027-03-13 10:00",
            "end_date": "2027-03-13 12:00",
            "hide_from_listings": True,
            "sticky": True,
            "date": PUBLISHED,
        },
    )
    # Children of the concert (the API has no parent field: tests/factories.py inserts them).
    for hour in (1, 2):
        start = datetime(2027, 3, 12, 20 + hour, tzinfo=UTC)
        await make_event(
            db, parent_id=concert["id"], start=start, title=f"Encore {hour}", slug=f"encore-{hour}"
        )
    return {
        "concert": concert,
        "market": market,
        "festival": festival,
        "weekly": weekly,
        "club": club,
        "secret": secret,
        "draft": draft,
        "private": private,
        "pending": pending,
        "past": past,
        "hidden": hidden,
    }


async def _media(rec: Recorder) -> None:
    await rec.call(
        "POST",
        f"{API}/media",
        "editor",
        files={"file": ("poster.png", picture("PNG", (40, 30)), "image/png")},
        form={"title": "Poster", "alt_text": "A poster"},
    )


async def _library(rec: Recorder, e: dict[str, Any]) -> None:
    """The media library's routes: uploads (whose right depends on the record they are for),
    lists and their filters, reads by role and language, updates with `If-Match`, and
    deletions (refused while a record shows the image)."""
    media = f"{API}/media"
    png = {"file": ("flyer.png", picture("PNG", (64, 48)), "image/png")}
    flyer = (await rec.call("POST", media, "author", files=png, form={"caption": "Spring"})).json()
    jpeg = {"file": ("stage.jpg", picture("JPEG", (320, 200)), "image/jpeg")}
    await rec.call("POST", media, "contributor", files=jpeg)  # 403: for no draft of theirs
    pending = e["pending"]["id"]
    stage = (
        await rec.call(
            "POST", media, "contributor", files=jpeg, form={"post": str(pending), "title": "Stage"}
        )
    ).json()
    await rec.call("POST", media, "editor", files=jpeg, form={"post": "999999"})
    await rec.call(
        "POST",
        media,
        "editor",
        content=b"not an image",
        headers={"Content-Type": "image/png", "Content-Disposition": "attachment; filename=x.png"},
    )
    for query in (
        {},
        {"search": "flyer"},
        {"author": flyer["author"]},
        {"post": pending},
        {"mime_type": "image/jpeg"},
        {"per_page": 1, "page": 2},
        {"author": "x"},
    ):
        await rec.call("GET", media, "editor", params=query)
    await rec.call("GET", media, "contributor")
    one, theirs = f"{media}/{flyer['id']}", f"{media}/{stage['id']}"
    for who in ("anonymous", "subscriber", "contributor", "author", "editor"):
        await rec.call("GET", one, who)
    await rec.call("GET", theirs, "contributor")
    await rec.call("GET", f"/de{one}", "author")
    await rec.call("GET", f"{media}/999999", "editor")
    # Updates: a stale version, the current one, a translation, someone else's image, a limit.
    await rec.call("PATCH", one, "author", json_body={"alt_text": "x"}, headers={"If-Match": '"x"'})
    etag = (await rec.call("GET", one, "author")).headers["ETag"]
    await rec.call(
        "PATCH", one, "author", json_body={"alt_text": "A flyer"}, headers={"If-Match": etag}
    )
    await rec.call("POST", f"/de{one}", "author", json_body={"title": "Flugblatt"})
    await rec.call("PUT", one, "author", json_body={"alt_text": "A flyer"})  # the same: no change
    await rec.call("PATCH", theirs, "author", json_body={"title": "Mine"})
    await rec.call("PATCH", one, "editor", json_body={"title": "x" * 300})
    await rec.call("GET", f"/sk{one}", "editor")
    # Deletions: in use (409), forced, twice, an unused image.
    await rec.call(
        "PATCH", f"{API}/events/{e['concert']['id']}", "editor", json_body={"image": flyer["id"]}
    )
    await rec.call("DELETE", one, "editor")
    await rec.call("DELETE", one, "editor", params={"force": "true"}, headers={"If-Match": '"x"'})
    etag = (await rec.call("GET", one, "editor")).headers["ETag"]
    await rec.call("DELETE", one, "editor", params={"force": "true"}, headers={"If-Match": etag})
    await rec.call("DELETE", one, "editor")
    await rec.call("GET", f"{API}/events/{e['concert']['id']}")
    await rec.call("DELETE", theirs, "author")
    await rec.call("DELETE", theirs, "contributor")
    await rec.call("GET", media, "editor")


async def _webhooks(rec: Recorder) -> None:
    """Webhook subscriptions: create (its secret shown once), list, read, update with
    `If-Match`, rotate the secret, a ping and the delivery log, retry, delete."""
    hooks = f"{API}/webhooks"
    public = "http://93.184.215.14/hook"  # a public address, written as one: no DNS needed
    await rec.call("POST", hooks, "editor", json_body={"url": public})
    for refused in ({}, {"url": "http://127.0.0.1/hook"}, {"url": public, "types": ["x.y"]}):
        await rec.call("POST", hooks, "administrator", json_body=refused)
    created = await rec.made(
        hooks,
        "administrator",
        {"url": public, "types": "event.upsert,venue.*", "description": "CRM"},
    )
    await rec.made(hooks, "administrator", {"url": public + "/2"})
    one = f"{hooks}/{created['id']}"
    await rec.call("GET", hooks, "administrator")
    await rec.call("GET", one, "administrator")
    await rec.call("GET", f"{hooks}/999999", "administrator")
    await rec.call("PATCH", one, "administrator", json_body={"active": False},
                   headers={"If-Match": '"x"'})  # fmt: skip
    etag = (await rec.call("GET", one, "administrator")).headers["ETag"]
    await rec.call(
        "PATCH",
        one,
        "administrator",
        json_body={"active": False, "types": ["*"], "description": "All"},
        headers={"If-Match": etag},
    )
    await rec.call("PATCH", one, "administrator", json_body={"active": "true"})
    await rec.call("PATCH", one, "administrator", json_body={"url": "http://10.0.0.1/"})
    await rec.call("POST", f"{one}/rotate-secret", "administrator")
    ping = (await rec.call("POST", f"{one}/test", "administrator")).json()
    await rec.call("POST", f"{one}/test", "administrator")
    await rec.call("POST", f"{hooks}/999999/test", "administrator")
    for query in ({}, {"status": "failed"}, {"per_page": 1, "page": 2}, {"status": "x"}):
        await rec.call("GET", f"{one}/deliveries", "administrator", params=query)
    delivery = f"{one}/deliveries/{ping['id']}"
    await rec.call("GET", delivery, "administrator")
    await rec.call("GET", f"{one}/deliveries/999999", "administrator")
    await rec.call("POST", f"{delivery}/retry", "administrator", headers={"If-Match": '"x"'})
    etag = (await rec.call("GET", delivery, "administrator")).headers["ETag"]
    await rec.call("POST", f"{delivery}/retry", "administrator", headers={"If-Match": etag})
    await rec.call("DELETE", one, "editor")
    await rec.call("DELETE", one, "administrator")
    await rec.call("DELETE", one, "administrator")
    await rec.call("GET", hooks, "administrator")


LIST_QUERIES: list[dict[str, Any]] = [
    {},
    {"per_page": 3},
    {"per_page": 3, "page": 2},
    {"per_page": 3, "page": 9},
    {"page": 0},
    {"per_page": 0},
    {"per_page": 51},
    {"per_page": "x"},
    {"start_date": "2027-03-01", "end_date": "2027-03-31"},
    {"start_date": "March 1 2027", "end_date": "1 April 2027"},
    {"start_date": "2027-03-10 12:00", "end_date": "2027-03-20T23:59:59"},
    {"start_date": "1803859200"},
    {"start_date": "2026-01-01", "end_date": "2026-12-31"},
    {"start_date": "2027-03-12", "end_date": "2027-03-12", "strict_dates": "true"},
    {"start_date": "2027-03-12", "end_date": "2027-03-12 23:59:59", "strict_dates": "yes"},
    {"start_date": "2027-03-12 20:00", "strict_dates": "1"},
    {"start_date": "not a date"},
    {"start_date": "2027-04-01", "end_date": "2027-03-01"},
    {"starts_after": "2027-03-10", "starts_before": "2027-03-21"},
    {"ends_after": "2027-05-21", "ends_before": "2027-06-01"},
    {"starts_after": "2027-03-01", "ends_before": "2027-03-15 00:00:00"},
    {"search": "concert"},
    {"search": "Jazz", "start_date": "2026-01-01"},
    {"search": "nothing-matches"},
    {"categories": "music"},
    {"categories": "jazz,theatre"},
    {"categories": "999999"},
    {"categories": "no-such"},
    {"tags": "outdoor"},
    {"tags": "family,outdoor"},
    {"featured": "true"},
    {"featured": "0"},
    {"featured": "maybe"},
    {"status": "draft"},
    {"status": "publish,pending,private,draft"},
    {"status": "bogus"},
    {"hide_subsequent_recurrences": "true"},
    {"hide_subsequent_recurrences": "1", "per_page": 4},
    {"orderby": "title"},
    {"orderby": "title", "order": "desc"},
    {"orderby": "end_date", "order": "DESC"},
    {"orderby": "date"},
    {"orderby": "id", "order": "desc"},
    {"orderby": "nonsense"},
    {"order": "sideways"},
    {"geoloc": "true", "geoloc_lat": "48.1", "geoloc_lng": "17.1"},
    {"ticketed": "true"},
]


async def _lists(rec: Recorder, e: dict[str, Any], t: dict[str, Any], v: dict[str, Any]) -> None:
    events = f"{API}/events"
    for query in LIST_QUERIES:
        await rec.call("GET", events, params=query)
    linked = [
        {"venue": v["hall"]["id"]},
        {"venue": f"{v['hall']['id']},{v['park']['id']}"},
        {"organizer": v["club"]["id"]},
        {"categories": t["music"]["id"]},
        {"tags": t["family"]["id"]},
        {"include": f"{e['concert']['id']},{e['market']['id']},{e['draft']['id']}"},
        {"post_parent": e["concert"]["id"]},
        {"post_parent": e["weekly"]["id"]},
        {"post_parent": e["weekly"]["id"], "hide_subsequent_recurrences": "true"},
        {"venue": "abc"},
        {"post_parent": "foo-bar"},
    ]
    for query in linked:
        await rec.call("GET", events, params=query)
    for who in ROLES:
        for query in ({}, {"status": "draft,pending,private"}, {"per_page": 5, "page": 2}):
            await rec.call("GET", events, who, params=query)
    for path in (f"/de{events}", f"/sk{events}"):
        await rec.call("GET", path, params={"per_page": 4})
        await rec.call("GET", path, params={"search": "koncert"})
    await rec.call("GET", events, params={"i18n_language": "de", "search": "Frühling"})
    await rec.call("GET", events, params={"i18n_language": "xx"})
    for accept in ("de-AT,de;q=0.9", "sk", "fr, sk;q=0.2, de;q=0.1", "de;q=0"):
        await rec.call("GET", events, params={"per_page": 2}, headers={"Accept-Language": accept})
    await rec.call("GET", f"/fr{events}")
    await rec.call("GET", f"{events}/")


async def _reads(rec: Recorder, e: dict[str, Any], t: dict[str, Any], v: dict[str, Any]) -> None:
    events = f"{API}/events"
    for name in ("concert", "market", "festival", "weekly", "club", "past", "hidden"):
        record = e[name]
        await rec.call("GET", f"{events}/{record['id']}")
        await rec.call("GET", f"{events}/by-slug/{record['slug']}")
    for name in ("draft", "private", "pending"):
        for who in ("anonymous", *ROLES):
            await rec.call("GET", f"{events}/{e[name]['id']}", who)
    concert = e["concert"]["id"]
    for prefix in ("/de", "/sk"):
        await rec.call("GET", f"{prefix}{events}/{concert}")
    await rec.call("GET", f"{events}/{concert}", params={"context": "edit"})
    await rec.call("GET", f"{events}/{concert}", "editor", params={"context": "edit"})
    await rec.call("GET", f"{events}/{concert}", headers={"Accept-Language": "sk"})
    await rec.call("GET", f"{events}/999999")
    await rec.call("GET", f"{events}/abc")
    await rec.call("GET", f"{events}/by-slug/no-such-event")
    # A series' dates: by the series' ID, by date IDs, by slug and day.
    weekly = e["weekly"]
    dates = await rec.call("GET", events, params={"post_parent": weekly["id"], "per_page": 20})
    for item in dates.json()["events"][:4]:
        await rec.call("GET", f"{events}/{item['id']}")
    for day in ("2027-03-02", "2027-03-09", "2027-03-16", "2027-03-20", "2027-03-03", "2027-13-01"):
        await rec.call("GET", f"{events}/by-slug/{weekly['slug']}/{day}")
    # Passwords.
    secret = e["secret"]
    for params in ({}, {"password": "wrong"}, {"password": "s3cret"}):
        await rec.call("GET", f"{events}/{secret['id']}", params=params)
    await rec.call("GET", f"{events}/{secret['id']}", "editor")
    await rec.call("GET", events, params={"search": "Secret"})
    await rec.call("GET", events, params={"search": "Secret", "password": "s3cret"})
    # Venues, organizers, terms.
    for plural, records in (
        ("venues", (v["hall"], v["park"])),
        ("organizers", (v["arts"], v["club"])),
    ):
        await rec.call("GET", f"{API}/{plural}")
        await rec.call("GET", f"{API}/{plural}", params={"per_page": 1, "page": 2})
        await rec.call("GET", f"{API}/{plural}", params={"search": "a"})
        await rec.call("GET", f"/de{API}/{plural}")
        await rec.call("GET", f"{API}/{plural}", "editor", params={"status": "draft"})
        for record in records:
            await rec.call("GET", f"{API}/{plural}/{record['id']}")
            await rec.call("GET", f"{API}/{plural}/by-slug/{record['slug']}")
            await rec.call("GET", f"/sk{API}/{plural}/{record['id']}")
        await rec.call("GET", f"{API}/{plural}/999999")
    for taxonomy, terms in (
        ("categories", (t["music"], t["jazz"], t["theatre"])),
        ("tags", (t["outdoor"], t["family"])),
    ):
        await rec.call("GET", f"{API}/{taxonomy}")
        await rec.call("GET", f"/de{API}/{taxonomy}")
        await rec.call("GET", f"{API}/{taxonomy}", params={"hide_empty": "true"})
        await rec.call("GET", f"{API}/{taxonomy}", params={"search": "mu", "orderby": "count"})
        await rec.call("GET", f"{API}/{taxonomy}", params={"per_page": 1, "page": 2})
        for term in terms:
            await rec.call("GET", f"{API}/{taxonomy}/{term['id']}")
            await rec.call("GET", f"/sk{API}/{taxonomy}/{term['id']}")
    await rec.call("GET", f"{API}/categories", params={"parent": t["music"]["id"]})
    # Discovery, the changes feed, media, webhooks, feeds, OPTIONS.
    for path in ("/", "/de", API, f"/sk{API}", f"{API}?context=embed", f"{API}?namespace=other"):
        await rec.call("GET", path)
    await rec.call("GET", f"{API}/changes")
    await rec.call("GET", f"{API}/changes", params={"since": "garbage"})
    for who in ("anonymous", "editor", "subscriber"):
        await rec.call("GET", f"{API}/media", who)
    for who in ("anonymous", "administrator", "editor"):
        await rec.call("GET", f"{API}/webhooks", who)
    for query in (
        {},
        {"start_date": "2027-03-01", "end_date": "2027-04-30"},
        {"categories": "music"},
    ):
        await rec.call("GET", f"{events}.ics", params=query)
    await rec.call("GET", f"{events}/{concert}.ics")
    await rec.call("GET", f"{events}/{weekly['id']}.ics")
    await rec.call("GET", f"{events}/by-slug/{weekly['slug']}.ics")
    await rec.call("GET", f"/de{events}/{concert}.ics")
    for path in (API, events, f"{events}/{concert}", f"{API}/venues", f"{API}/categories/1"):
        await rec.call("OPTIONS", path)
    await rec.call("DELETE", events, "editor")  # 405 with Allow


async def _conditional(rec: Recorder, e: dict[str, Any]) -> None:
    url = f"{API}/events/{e['market']['id']}"
    first = await rec.call("GET", url)
    tag = first.headers["etag"]
    await rec.call("GET", url, headers={"If-None-Match": tag})
    await rec.call("GET", url, headers={"If-None-Match": f'W/{tag}, "other"'})
    await rec.call("GET", url, headers={"If-None-Match": "*"})
    await rec.call("GET", url, headers={"If-None-Match": '"stale"'})
    listed = await rec.call("GET", f"{API}/events", params={"per_page": 2})
    await rec.call(
        "GET",
        f"{API}/events",
        params={"per_page": 2},
        headers={"If-None-Match": listed.headers["etag"]},
    )
    mine = await rec.call("GET", url, "editor")
    await rec.call(
        "PATCH", url, "editor", json_body={"excerpt": "x"}, headers={"If-Match": '"stale"'}
    )
    await rec.call(
        "PATCH",
        url,
        "editor",
        json_body={"excerpt": "Fresh food"},
        headers={"If-Match": mine.headers["etag"]},
    )
    await rec.call(
        "PATCH", url, "editor", json_body={"excerpt": "Again"}, headers={"If-Match": "*"}
    )
    await rec.call("GET", url, headers={"If-None-Match": tag})


async def _writes(rec: Recorder, e: dict[str, Any], t: dict[str, Any], v: dict[str, Any]) -> None:
    events = f"{API}/events"
    concert = f"{events}/{e['concert']['id']}"
    # Updates by every method, ignored fields, bad bodies.
    await rec.call(
        "PATCH", concert, "editor", json_body={"cost": "12 EUR", "titel": "typo", "url": "x"}
    )
    await rec.call(
        "PUT", concert, "editor", json_body={"sticky": "yes", "organizer": [v["arts"]["id"]]}
    )
    await rec.call("POST", concert, "editor", form={"excerpt": "Form excerpt", "unknown": "1"})
    await rec.call(
        "POST",
        concert,
        "editor",
        content='{"title": "json as form"}',
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    await rec.call(
        "POST", events, "editor", content='{"title": "x"}', headers={"Content-Type": "text/plain"}
    )
    await rec.call(
        "POST", events, "editor", content="{broken", headers={"Content-Type": "application/json"}
    )
    await rec.call("POST", events, "editor", json_body=["not", "an", "object"])
    await rec.call("POST", events, "editor", json_body={"title": "No dates"})
    await rec.call("POST", events, "editor", json_body={"start_date": "2027-03-01"})
    await rec.call(
        "POST",
        events,
        "editor",
        json_body={
            "title": "Bad rule",
            "start_date": "2027-03-01",
            "end_date": "2027-03-01 01:00",
            "recurrence": ["RRULE:FREQ=SECONDLY"],
        },
    )
    await rec.call("PATCH", concert, "editor", json_body={"venue": 999999})
    await rec.call("PATCH", concert, "editor", json_body={"status": "nonsense"})
    await rec.call(
        "PATCH",
        concert,
        "editor",
        json_body={"start_date": "2027-03-12 22:00", "end_date": "2027-03-12 20:00"},
    )
    await rec.call(
        "PATCH", concert, "editor", json_body={"title": "Frühlingskonzert 2", "i18n_language": "de"}
    )
    # Every role's writes.
    for who in ("anonymous", *ROLES):
        await rec.call(
            "POST",
            events,
            who,
            json_body={
                "title": f"By {who}",
                "start_date": "2027-06-01 10:00",
                "end_date": "2027-06-01 11:00",
                "date": PUBLISHED,
            },
        )
        await rec.call("PATCH", concert, who, json_body={"excerpt": f"Edited by {who}"})
        await rec.call("POST", f"{API}/tags", who, json_body={"name": f"tag-{who}"})
        await rec.call("POST", f"{API}/venues", who, json_body={"venue": f"Hall of {who}"})
    club = f"{events}/{e['club']['id']}"
    await rec.call("PATCH", club, "contributor", json_body={"title": "Not mine"})
    await rec.call("PATCH", club, "author", json_body={"excerpt": "Mine"})
    # A series: this, following, all.
    weekly = e["weekly"]
    dates = (
        await rec.call("GET", events, params={"post_parent": weekly["id"], "per_page": 20})
    ).json()
    ids = [item["id"] for item in dates["events"]]
    await rec.call("PATCH", f"{events}/{ids[1]}", "editor", json_body={"title": "Special Class"})
    await rec.call(
        "PATCH",
        f"{events}/{ids[2]}?scope=this",
        "editor",
        json_body={"start_date": "2027-03-24 19:00:00", "end_date": "2027-03-24 20:30:00"},
    )
    await rec.call(
        "PATCH", f"{events}/{ids[1]}", "editor", json_body={"featured": True}
    )  # not per date
    await rec.call("DELETE", f"{events}/{ids[3]}", "editor", params={"scope": "this"})
    await rec.call(
        "PATCH",
        f"{events}/{weekly['id']}",
        "editor",
        json_body={"excerpt": "Every Tuesday", "scope": "all"},
    )
    await rec.call(
        "PATCH",
        f"{events}/{ids[5]}",
        "editor",
        json_body={"title": "Advanced Class", "scope": "following"},
    )
    await rec.call(
        "PATCH", f"{events}/{ids[1]}", "editor", json_body={"title": "x", "scope": "sometimes"}
    )
    await rec.call("GET", events, params={"post_parent": weekly["id"], "per_page": 20})
    await rec.call("GET", events, params={"search": "Class", "per_page": 20})
    await rec.call("GET", f"{events}/by-slug/{weekly['slug']}/2027-03-09")
    await rec.call("GET", f"{events}/{weekly['id']}.ics")
    book = (await rec.call("GET", events, params={"post_parent": e["club"]["id"]})).json()["events"]
    await rec.call("DELETE", f"{events}/{book[3]['id']}", "author", params={"scope": "following"})
    await rec.call(
        "PATCH", club, "author", json_body={"start_date": "2027-03-04 18:00:00", "scope": "all"}
    )
    await rec.call("GET", events, params={"post_parent": e["club"]["id"]})
    # Terms, venues, organizers: updates and deletes.
    await rec.call(
        "PATCH", f"{API}/categories/{t['jazz']['id']}", "editor", json_body={"description": "Swing"}
    )
    await rec.call(
        "PUT", f"{API}/tags/{t['family']['id']}", "editor", json_body={"name": "Families"}
    )
    await rec.call("POST", f"{API}/categories", "editor", json_body={"name": "music"})
    await rec.call(
        "PATCH", f"{API}/venues/{v['park']['id']}", "editor", json_body={"city": "Wien", "bogus": 1}
    )
    await rec.call(
        "PATCH",
        f"{API}/organizers/by-slug/{v['arts']['slug']}",
        "editor",
        json_body={"phone": "456"},
    )
    await rec.call("GET", f"{events}/{e['concert']['id']}")
    await rec.call("GET", f"{events}/{e['market']['id']}")
    # Deletes: trash, force, the trashed record, a term.
    await rec.call("DELETE", f"{events}/{e['festival']['id']}", "author")
    await rec.call("DELETE", f"{events}/{e['festival']['id']}", "editor")
    await rec.call("GET", f"{events}/{e['festival']['id']}")
    await rec.call("GET", f"{events}/{e['festival']['id']}", "editor")
    await rec.call("DELETE", f"{events}/{e['hidden']['id']}", "editor", params={"force": "true"})
    await rec.call("GET", f"{events}/{e['hidden']['id']}", "editor")
    await rec.call("DELETE", f"{API}/tags/{t['outdoor']['id']}", "editor")
    await rec.call("DELETE", f"{API}/tags/{t['outdoor']['id']}", "editor", params={"force": "true"})
    await rec.call("DELETE", f"{API}/venues/{v['park']['id']}", "editor")
    await rec.call(
        "DELETE", f"{API}/organizers/{v['club']['id']}", "editor", params={"force": "true"}
    )
    await rec.call("DELETE", f"{events}/{e['weekly']['id']}", "editor", params={"force": "true"})
    # The state after all writes.
    for query in ({}, {"per_page": 50, "status": "publish,draft,pending,private,trash"}):
        await rec.call("GET", events, "administrator", params=query)
    await rec.call("GET", events, params={"per_page": 50, "start_date": "2026-01-01"})
    await rec.call("GET", f"{API}/categories")
    await rec.call("GET", f"{API}/tags")
    await rec.call("GET", f"{API}/venues", "editor")
    await rec.call("GET", f"{API}/organizers", "editor")
    await rec.call(
        "GET", f"{events}.ics", params={"start_date": "2027-01-01", "end_date": "2027-12-31"}
    )


async def record_wire(client: AsyncClient, auth: Auth, db: AsyncSession) -> None:
    """The whole recording (run by `main` under pytest, with the suite's fixtures)."""
    credentials = {role: (await auth(role)).basic for role in ROLES}
    rec = Recorder(client, credentials)
    terms = await _terms(rec)
    linked = await _linked(rec)
    events = await _events(rec, db, terms, linked)
    await _media(rec)
    await _lists(rec, events, terms, linked)
    await _reads(rec, events, terms, linked)
    await _conditional(rec, events)
    await _writes(rec, events, terms, linked)
    await _library(rec, events)
    await _webhooks(rec)
    text = json.dumps(rec.entries, ensure_ascii=False, indent=1) + "\n"
    await asyncio.to_thread(Path(os.environ[OUT_VARIABLE]).write_text, text)


# --- Comparing ----------------------------------------------------------------------------


def _readable(text: str) -> list[str]:
    try:
        return json.dumps(json.loads(text), ensure_ascii=False, indent=1).splitlines()
    except ValueError:
        return text.splitlines()


def _difference(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """What differs between two entries: a line per part, then a short diff of it."""
    lines: list[str] = []
    for part in ("request", "status", "headers", "body"):
        if a.get(part) == b.get(part):
            continue
        lines.append(f"  {part} differs")
        if part == "body":
            old, new = _readable(a["body"]), _readable(b["body"])
            if old == new:  # the same JSON, written otherwise (spaces, escapes): show where
                pairs = enumerate(zip(a["body"], b["body"], strict=False))
                at = next((i for i, (x, y) in pairs if x != y), len(a["body"]))
                old, new = (
                    [a["body"][max(at - 60, 0) : at + 60]],
                    [b["body"][max(at - 60, 0) : at + 60]],
                )
        else:
            old = json.dumps(a.get(part), indent=1, sort_keys=True).splitlines()
            new = json.dumps(b.get(part), indent=1, sort_keys=True).splitlines()
        diff = list(difflib.unified_diff(old, new, "A", "B", n=1, lineterm=""))
        lines.extend(f"    {line}" for line in diff[2:40])
        if len(diff) > 40:
            lines.append(f"    ... {len(diff) - 40} more diff lines")
    return lines


def compare(a_path: Path, b_path: Path, shown: int = 5) -> int:
    a, b = json.loads(a_path.read_text()), json.loads(b_path.read_text())
    out = sys.stdout
    differing = 0
    for index, (left, right) in enumerate(zip(a, b, strict=False)):
        if left == right:
            continue
        differing += 1
        if differing <= shown:
            request = left["request"]
            out.write(f"#{index} {request['method']} {request['url']} ({request['who']})\n")
            out.write("\n".join(_difference(left, right)) + "\n")
    if len(a) != len(b):
        out.write(f"A has {len(a)} responses, B has {len(b)}\n")
    if differing or len(a) != len(b):
        out.write(f"{differing} of {min(len(a), len(b))} responses differ\n")
        return 1
    out.write(f"{len(a)} responses identical\n")
    return 0


def main(arguments: list[str]) -> int:
    if len(arguments) == 3 and arguments[0] == "--compare":
        return compare(Path(arguments[1]), Path(arguments[2]))
    if len(arguments) != 1 or arguments[0].startswith("-"):
        sys.stderr.write(__doc__ or "")
        return 2
    out = Path(arguments[0]).resolve()
    command = [
        sys.executable,
        "-m",
        "pytest",
        __file__,
        "-q",
        "-n",
        "0",
        "-p",
        "no:cacheprovider",
        "-o",
        "python_functions=record_wire",
    ]
    env = {**os.environ, OUT_VARIABLE: str(out)}
    result = subprocess.run(command, env=env, check=False)
    if result.returncode == 0:
        sys.stdout.write(f"recorded {len(json.loads(out.read_text()))} responses in {out}\n")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
