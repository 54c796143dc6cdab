"""A fake The Events Calendar site for the importer's tests: a small ASGI app that answers
like the reference (tests/fixtures/tec/ holds records copied from real responses; records
here are built from them), called in process through `httpx.ASGITransport`.

What it reproduces: discovery (the `Link` header, `/wp-json/`), the namespace's lists with
`per_page` capped at 50, `total_pages` and `next_rest_url`; the event list's default window
starting today and its hiding of events hidden from listings; status visibility (anonymous:
published only); password redaction in lists and the 403 of a protected single event;
`hide_empty` terms; WordPress's own `/wp/v2/<post type>` listing (with passwords in
`context=edit` for a signed-in editor) and `/wp/v2/users/me`; HTTP Basic application
passwords; uploaded files (`files`). Tests change the records between runs and can make
routes fail (`fail`), move paths to another address (`redirects`), point the `Link` header
elsewhere (`link`), or drop the Authorization header as a misconfigured proxy does
(`drop_authorization`). Served in process (`app()`), or over real HTTP (`served`).
"""

import asyncio
import base64
import contextlib
import copy
import json
import math
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime, time, timedelta, timezone, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from tests.live.harness import wait_until_listening

FIXTURES = Path(__file__).parent / "fixtures" / "tec"
HOST = "http://tec.test"
WP_DATE = "%Y-%m-%d %H:%M:%S"
KINDS = {"events": "event", "venues": "venue", "organizers": "organizer"}
POST_TYPES = {"tribe_events": "events", "tribe_venue": "venues", "tribe_organizer": "organizers"}
REDACTED_TEXTS = ("description", "excerpt", "cost", "website", "email", "phone", "zip")
REDACTED_FLAGS = ("all_day", "show_map", "show_map_link", "hide_from_listings", "sticky")


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data


def _details(text: str) -> dict[str, str]:
    date, clock = text.split(" ")
    year, month, day = date.split("-")
    hour, minutes, seconds = clock.split(":")
    return {
        "year": year,
        "month": month,
        "day": day,
        "hour": hour,
        "minutes": minutes,
        "seconds": seconds,
    }


class FakeTEC:
    def __init__(self) -> None:
        self.categories: dict[int, dict[str, Any]] = {}
        self.tags: dict[int, dict[str, Any]] = {}
        self.venues: dict[int, dict[str, Any]] = {}
        self.organizers: dict[int, dict[str, Any]] = {}
        self.events: dict[int, dict[str, Any]] = {}
        self.passwords: dict[int, str] = {}  # post ID → its password
        self.users = {"admin": "abcd efgh ijkl mnop"}
        self.expose_wp = True
        self.failures: dict[str, int] = {}  # path fragment → 500s still to answer
        self.files: dict[str, tuple[bytes, str]] = {}  # path → (bytes, type): uploads
        self.file_credentials: list[str | None] = []  # the Authorization of each file request
        self.authorizations: list[str | None] = []  # the Authorization of every request
        self.requests: list[str] = []
        # Path prefix → the base URL it moved to: answered with a 302 there, unless the
        # request already came to that base (one app served on two ports).
        self.redirects: dict[str, str] = {}
        self.link: str | None = None  # the API root the `Link` header names (default: own)
        self.drop_authorization = False
        self.next_id = 100
        self.now = datetime(2026, 11, 21, 21, 44, tzinfo=UTC)
        self.host = HOST
        self._counts = None

    @property
    def rest(self) -> str:
        return f"{self.host}/wp-json/tribe/events/v1"

    # ---- building records ----------------------------------------------------------------

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def _post(self, template: str, status: str, **fields: Any) -> dict[str, Any]:
        record = fixture(template)
        post_id = fields.pop("id", None) or self._id()
        stamp = fields.pop("modified", self.now).strftime(WP_DATE)
        record.update(
            id=post_id,
            status=status,
            date=stamp,
            date_utc=stamp,
            modified=stamp,
            modified_utc=stamp,
            global_id=f"tec.test?id={post_id}",
            global_id_lineage=[f"tec.test?id={post_id}"],
        )
        record.update(fields)
        return record

    def add_category(self, name: str, parent: int = 0, **fields: Any) -> int:
        term = fixture("category")
        term_id = self._id()
        slug = fields.pop("slug", name.lower().replace(" ", "-").replace("&amp;", ""))
        term.update(id=term_id, name=name, slug=slug, parent=parent, **fields)
        term["description"] = fields.get("description", f"Events of {name}")
        self.categories[term_id] = term
        return term_id

    def add_tag(self, name: str, **fields: Any) -> int:
        term = fixture("tag")
        term_id = self._id()
        term.update(id=term_id, name=name, slug=name.lower().replace(" ", "-"), **fields)
        self.tags[term_id] = term
        return term_id

    def add_venue(self, name: str, status: str = "publish", **fields: Any) -> int:
        slug = fields.pop("slug", name.lower().replace(" ", "-"))
        venue = self._post("venue", status, venue=name, slug=slug, **fields)
        self.venues[venue["id"]] = venue
        return int(venue["id"])

    def add_organizer(self, name: str, status: str = "publish", **fields: Any) -> int:
        slug = fields.pop("slug", name.lower().replace(" ", "-"))
        organizer = self._post("organizer", status, organizer=name, slug=slug, **fields)
        self.organizers[organizer["id"]] = organizer
        return int(organizer["id"])

    def add_event(
        self,
        title: str,
        start: datetime,
        *,
        hours: float = 2,
        zone: str = "Europe/Berlin",
        status: str = "publish",
        venue: int | None = None,
        organizers: list[int] = (),  # type: ignore[assignment]
        categories: list[int] = (),  # type: ignore[assignment]
        tags: list[int] = (),  # type: ignore[assignment]
        **fields: Any,
    ) -> int:
        """An event starting at the local wall time `start` in `zone`."""
        slug = fields.pop("slug", None) or f"event-{self.next_id + 1}"
        event = self._post("event", status, title=title, slug=slug, **fields)
        event["url"] = f"{self.host}/event/{slug}/"
        event["rest_url"] = f"{self.rest}/events/{event['id']}"
        event.setdefault("website", event["url"])
        event["links"] = {
            "venue": venue,
            "organizers": list(organizers),
            "categories": list(categories),
            "tags": list(tags),
        }
        self.set_schedule(event, start, hours, zone)
        self.events[event["id"]] = event
        return int(event["id"])

    def set_schedule(self, event: dict[str, Any], start: datetime, hours: float, zone: str) -> None:
        tz: tzinfo = ZoneInfo(zone) if "/" in zone else timezone(timedelta(hours=int(zone[3:])))
        end = start + timedelta(hours=hours)
        if event.get("all_day"):
            end = datetime.combine(end.date(), time(23, 59, 59))
        utc_start = start.replace(tzinfo=tz).astimezone(UTC)
        utc_end = end.replace(tzinfo=tz).astimezone(UTC)
        for name, moment in (
            ("start_date", start),
            ("end_date", end),
            ("utc_start_date", utc_start),
            ("utc_end_date", utc_end),
        ):
            event[name] = moment.strftime(WP_DATE)
            event[f"{name}_details"] = _details(event[name])
        event["timezone"] = zone
        event["timezone_abbr"] = utc_start.astimezone(tz).tzname() if "/" in zone else zone

    def touch(self, record: dict[str, Any], **fields: Any) -> None:
        """Edit a record as WordPress does: its modification time moves on."""
        self.now += timedelta(minutes=5)
        record.update(fields)
        record["modified"] = record["modified_utc"] = self.now.strftime(WP_DATE)

    # ---- answering like the reference ----------------------------------------------------

    def _term_count(self, taxonomy: str, term_id: int) -> int:
        """Published events with the term (counted once per request)."""
        if self._counts is None:
            self._counts = Counter(
                (name, linked)
                for e in self.events.values()
                if e["status"] == "publish"
                for name in ("categories", "tags")
                for linked in e["links"][name]
            )
        return self._counts[(taxonomy, term_id)]

    def _embedded_term(self, term: dict[str, Any], taxonomy: str) -> dict[str, Any]:
        return {
            "name": term["name"],
            "slug": term["slug"],
            "term_group": 0,
            "term_taxonomy_id": term["id"],
            "taxonomy": term["taxonomy"],
            "description": term["description"],
            "parent": term.get("parent", 0),
            "count": self._term_count(taxonomy, term["id"]),
            "filter": "raw",
            "id": term["id"],
            "urls": term["urls"],
        }

    def render_event(self, event: dict[str, Any]) -> dict[str, Any]:
        body = {key: value for key, value in event.items() if key != "links"}
        links = event["links"]
        venue = self.venues.get(links["venue"]) if links["venue"] else None
        body["categories"] = [
            self._embedded_term(self.categories[i], "categories") for i in links["categories"]
        ]
        body["tags"] = [self._embedded_term(self.tags[i], "tags") for i in links["tags"]]
        body["venue"] = self._nested(venue, "venue") if venue else []
        body["organizer"] = [
            self._nested(self.organizers[i], "organizer") for i in links["organizers"]
        ]
        return body

    def _nested(self, record: dict[str, Any], kind: str) -> dict[str, Any]:
        """An embedded venue or organizer: redacted when protected (the reference's
        redaction goes through nested records)."""
        if self.passwords.get(record["id"]):
            return self._redacted(copy.deepcopy(record), kind)
        return copy.deepcopy(record)

    def _redacted(self, body: dict[str, Any], kind: str) -> dict[str, Any]:
        body = dict(body)
        for name in REDACTED_TEXTS:
            if name in body:
                body[name] = ""
        for name in (*REDACTED_FLAGS, "featured"):
            if name in body:
                body[name] = None
        body["image"] = False
        if kind in ("venue", "organizer"):
            body[kind] = []
        if kind == "event":
            body.update(categories=[], tags=[], venue=[], organizer=[])
        return body

    def _user(self, request: Request) -> str | None:
        header = "" if self.drop_authorization else request.headers.get("authorization", "")
        if not header.startswith("Basic "):
            return None
        login, _, password = base64.b64decode(header[6:]).decode().partition(":")
        return login if self.users.get(login) == password else "!"

    def _readable(self, record: dict[str, Any], user: str | None) -> bool:
        return record["status"] == "publish" or (user is not None and record["status"] != "trash")

    async def handle(self, request: Request) -> Response:
        path = request.url.path
        self._counts: Counter[tuple[str, int]] | None = None
        self.requests.append(f"{path}?{request.url.query}")
        self.authorizations.append(request.headers.get("authorization"))
        here = f"{request.url.scheme}://{request.url.netloc}"
        for prefix, base in self.redirects.items():
            if path.startswith(prefix) and base != here:
                query = f"?{request.url.query}" if request.url.query else ""
                return RedirectResponse(f"{base}{path}{query}", status_code=302)
        for fragment, left in list(self.failures.items()):
            if fragment in f"{path}?{request.url.query}" and left > 0:
                self.failures[fragment] = left - 1
                return JSONResponse({"code": "internal_server_error"}, status_code=500)
        if path in self.files:  # wp-content/uploads: public files
            data, media_type = self.files[path]
            self.file_credentials.append(request.headers.get("authorization"))
            return Response(data, media_type=media_type)
        user = self._user(request)
        if user == "!":
            return _error(401, "incorrect_password")
        if path == "/":
            link = f'<{self.link or self.host + "/wp-json/"}>; rel="https://api.w.org/"'
            return Response("<html></html>", media_type="text/html", headers={"Link": link})
        if path == "/wp-json/":
            namespaces = ["tribe/events/v1", *(["wp/v2"] if self.expose_wp else [])]
            return JSONResponse({"name": "TEC", "namespaces": namespaces, "routes": {}})
        if path == "/wp-json/tribe/events/v1":
            return JSONResponse(fixture("namespace"))
        if path.startswith("/wp-json/wp/v2/"):
            return self._wp(request, path.removeprefix("/wp-json/wp/v2/"), user)
        parts = path.removeprefix("/wp-json/tribe/events/v1/").split("/")
        if len(parts) == 1:
            return self._list(request, parts[0], user)
        if len(parts) == 2 and parts[1].isdigit():
            return self._single(request, parts[0], int(parts[1]), user)
        return _error(404, "rest_no_route")

    def _store(self, route: str) -> dict[int, dict[str, Any]]:
        stores: dict[str, dict[int, dict[str, Any]]] = {
            "events": self.events,
            "venues": self.venues,
            "organizers": self.organizers,
            "categories": self.categories,
            "tags": self.tags,
        }
        return stores[route]

    def _list(self, request: Request, route: str, user: str | None) -> Response:
        if route not in ("events", "venues", "organizers", "categories", "tags"):
            return _error(404, "rest_no_route")
        query = request.query_params
        per_page = min(int(query.get("per_page", "10")), 50)
        page = int(query.get("page", "1"))
        if route in ("categories", "tags"):
            taxonomy = route
            items = [
                t
                for t in self._store(route).values()
                if query.get("hide_empty") in ("false", "0")
                or self._term_count(taxonomy, t["id"]) > 0
            ]
        else:
            items = [r for r in self._store(route).values() if self._readable(r, user)]
        if route == "events":
            items = self._window(items, query.get("start_date"), query.get("end_date"))
            items.sort(key=lambda e: (e["start_date"], e["date_utc"], e["id"]))
        total = len(items)
        total_pages = math.ceil(total / per_page) if total else 0
        if page > max(total_pages, 1):
            return _error(404, "rest_post_invalid_page_number")
        shown = items[(page - 1) * per_page : page * per_page]
        body: dict[str, Any] = {
            route: [self._listed(route, r, query.get("password")) for r in shown],
            "rest_url": f"{self.rest}/{route}/?page={page}&per_page={per_page}",
        }
        if page < total_pages:
            body["next_rest_url"] = f"{self.rest}/{route}/?per_page={per_page}&page={page + 1}"
        body.update(total=total, total_pages=total_pages)
        headers = {"X-TEC-Total": str(total), "X-TEC-TotalPages": str(total_pages)}
        return JSONResponse(body, headers=headers)

    def _window(
        self, events: list[dict[str, Any]], start: str | None, end: str | None
    ) -> list[dict[str, Any]]:
        """Listed events: not hidden, starting on or after `start` (default: today), ending
        on or before `end`."""
        low = start or self.now.strftime("%Y-%m-%d 00:00:00")
        return [
            e
            for e in events
            if not e["hide_from_listings"]
            and e["start_date"] >= low
            and (end is None or e["end_date"] <= end)
        ]

    def _listed(self, route: str, record: dict[str, Any], password: str | None) -> dict[str, Any]:
        kind = KINDS.get(route)
        body = self.render_event(record) if route == "events" else copy.deepcopy(record)
        protected = self.passwords.get(record["id"])
        if kind and protected and password != protected:
            return self._redacted(body, kind)
        return body

    def _single(self, request: Request, route: str, record_id: int, user: str | None) -> Response:
        record = self._store(route).get(record_id) if route in KINDS else None
        if record is None:
            return _error(404, f"rest-{KINDS.get(route, route)}-not-found")
        if not self._readable(record, user):
            return _error(403, f"{KINDS[route]}-not-accessible")
        password = request.query_params.get("password")
        if route == "events":
            if self.passwords.get(record_id) and password != self.passwords[record_id]:
                return _error(403, "event-password-protected")
            return JSONResponse(self.render_event(record))
        return JSONResponse(self._listed(route, record, password))

    def _wp(self, request: Request, post_type: str, user: str | None) -> Response:
        if self.expose_wp and post_type == "users/me":
            if user is None:
                return _error(401, "rest_not_logged_in")
            return JSONResponse({"id": 1, "name": user})
        if not self.expose_wp or post_type not in POST_TYPES:
            return _error(404, "rest_no_route")
        query = request.query_params
        edit = query.get("context") == "edit"
        if edit and user is None:
            return _error(401, "rest_forbidden_context")
        per_page = min(int(query.get("per_page", "10")), 100)
        page = int(query.get("page", "1"))
        records = [
            r
            for r in self._store(POST_TYPES[post_type]).values()
            if r["status"] == "publish" or (edit and r["status"] != "trash")
        ]
        total_pages = math.ceil(len(records) / per_page) if records else 0
        shown = records[(page - 1) * per_page : page * per_page]
        items = []
        for record in shown:
            item = {
                "id": record["id"],
                "status": record["status"],
                "modified_gmt": record["modified_utc"].replace(" ", "T"),
            }
            if edit:
                item["password"] = self.passwords.get(record["id"], "")
            items.append(item)
        headers = {"X-WP-Total": str(len(records)), "X-WP-TotalPages": str(total_pages)}
        return JSONResponse(items, headers=headers)

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/{path:path}", self.handle)])


@contextlib.asynccontextmanager
async def served(tec: FakeTEC, port: int, *, second: bool = False) -> AsyncIterator[str]:
    """`tec` over real HTTP on 127.0.0.1:`port`; its `host` becomes that address, unless this
    is a `second` address of a site served already."""
    url = f"http://127.0.0.1:{port}"
    if not second:
        tec.host = url
    config = uvicorn.Config(tec.app(), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        await wait_until_listening(port)
        yield url
    finally:
        server.should_exit = True
        await task


def _error(status: int, code: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": code, "data": {"status": status}}, status)
