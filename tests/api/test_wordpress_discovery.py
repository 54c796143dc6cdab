"""WordPress discovery, as WordPress clients expect it (docs/design.md#url-space-and-discovery):
the `Link: <root/>; rel="https://api.w.org/"` header on every response, HEAD wherever GET
works, OPTIONS answering a route's description, CORS preflights answered as before."""

import io
from typing import Any

import pytest
from httpx import AsyncClient
from PIL import Image

from tests.api.test_openapi import INTERFACE, wordpress_key
from tests.api.test_proxy import FORWARDED
from tests.factories import API, AuthFor, create_record

DISCOVERY = 'rel="https://api.w.org/"'


def discovery_links(headers: Any) -> list[str]:
    return [link for link in headers.get_list("link") if DISCOVERY in link]


PUBLIC_HOOK = "http://93.184.215.14/hook"


@pytest.fixture
async def urls(client: AsyncClient, editor: AuthFor, admin: AuthFor) -> dict[str, str]:
    """Every route of the interface with its placeholders filled by real records."""
    event = await create_record(client, editor, "events", "Discovery concert")
    venue = await create_record(client, editor, "venues", "Discovery hall")
    organizer = await create_record(client, editor, "organizers", "Discovery org")
    category = (
        await client.post(f"{API}/categories", json={"name": "Jazz"}, headers=editor.basic)
    ).json()
    tag = (await client.post(f"{API}/tags", json={"name": "loud"}, headers=editor.basic)).json()
    image = io.BytesIO()
    Image.new("RGB", (20, 20), (0, 90, 0)).save(image, format="PNG")
    files = {"file": ("green.png", image.getvalue(), "image/png")}
    media = (await client.post(f"{API}/media", files=files, headers=editor.basic)).json()
    # A subscription to a public address (written as one: no DNS), and its ping's delivery.
    webhook = (
        await client.post(f"{API}/webhooks", json={"url": PUBLIC_HOOK}, headers=admin.basic)
    ).json()
    ping = await client.post(f"{API}/webhooks/{webhook['id']}/test", headers=admin.basic)
    ticket = (
        await client.post(
            f"{API}/tickets", json={"event": event["id"], "name": "Entry"}, headers=editor.basic
        )
    ).json()
    attendee = (
        await client.post(
            f"{API}/tickets/{ticket['id']}/rsvp", json={"name": "Ada", "email": "ada@example.org"}
        )
    ).json()
    values = {"events": event, "venues": venue, "organizers": organizer, "categories": category,
              "tags": tag, "media": media, "webhooks": webhook, "tickets": ticket,
              "attendees": attendee}  # fmt: skip
    filled = {}
    for path in INTERFACE:
        record = values.get(path.split("/")[1].removesuffix(".ics"), event)
        url = path.replace("{id}", str(record["id"])).replace("{slug}", str(record.get("slug")))
        url = url.replace("{day}", event["start_date"][:10])
        url = url.replace("{delivery}", str(ping.json()["id"]))
        url += f"?event={event['id']}" if path == "/attendees.csv" else ""
        filled[path] = f"{API}{'' if path == '/' else url}"
    return filled


async def test_every_response_names_the_api_root(client: AsyncClient, editor: AuthFor) -> None:
    await create_record(client, editor, "venues", "One")
    await create_record(client, editor, "venues", "Two")
    link = '<http://testserver/>; rel="https://api.w.org/"'
    answers = [
        await client.get("/"),
        await client.get(f"{API}/venues", params={"per_page": 1}),  # paging Links too
        await client.get(f"{API}/venues/999999"),  # 404
        await client.delete(f"{API}/venues"),  # 405
        await client.post(f"{API}/events", json={}),  # 401
        await client.get("/nowhere"),
        await client.head(API),
        await client.options(f"{API}/events"),
        await client.get("/healthz"),
    ]
    for answer in answers:
        assert discovery_links(answer.headers) == [link], answer.request.url
    paged = answers[1].headers.get_list("link")
    assert any('rel="next"' in value for value in paged)
    # Under a language segment the index is still the root's.
    german = await client.get(f"/de{API}/tags")
    assert discovery_links(german.headers) == [link]
    # Behind a reverse proxy, the link names the public root.
    proxied = await client.get(f"{API}/tags", headers=FORWARDED)
    public = '<https://calendar.example.org/api/>; rel="https://api.w.org/"'
    assert discovery_links(proxied.headers) == [public]


async def test_head_wherever_get_works(
    client: AsyncClient, urls: dict[str, str], editor: AuthFor, admin: AuthFor
) -> None:
    readable = [url for path, url in urls.items() if "get" in INTERFACE[path]]
    for url in ["/", "/de/", *readable]:
        # The media library and attendees answer writers only, webhooks administrators only.
        writers = "/media" in url or "/attendees" in url
        caller = admin.basic if "/webhooks" in url else editor.basic if writers else {}
        headers = {"Accept": "application/json", **caller}
        got = await client.get(url, headers=headers)
        head = await client.head(url, headers=headers)
        assert got.status_code == 200, url
        assert head.status_code == 200, url
        assert head.content == b"", url
        assert head.headers["content-type"] == got.headers["content-type"], url
        if "/changes" in url:
            # The feed's token carries the database cluster's snapshot, which any transaction
            # elsewhere on the server (another test worker's) moves between the two requests:
            # the same kind of answer, not always the same bytes.
            assert int(head.headers["content-length"]) > 0, url
            continue
        assert head.headers["content-length"] == str(len(got.content)), url
        assert head.headers.get("etag") == got.headers.get("etag"), url
    # Conditional HEAD, and HEAD of what is not there.
    events = urls["/events"]
    etag = (await client.get(events)).headers["etag"]
    assert (await client.head(events, headers={"If-None-Match": etag})).status_code == 304
    missing = await client.head(f"{API}/events/999999")
    assert missing.status_code == 404
    assert missing.content == b""


async def test_options_describes_the_route(client: AsyncClient, urls: dict[str, str]) -> None:
    routes = (await client.get("/")).json()["routes"]
    for path, url in urls.items():
        answer = await client.options(url)
        assert answer.status_code == 200, url
        described = routes[wordpress_key(path)]
        assert answer.json() == described, url
        assert answer.headers["allow"] == ", ".join(described["methods"]), url
        assert {m.upper() for m in INTERFACE[path]} == set(described["methods"])
    record = (await client.options(urls["/events/{id}"])).json()
    assert record["namespace"] == "calendar/events/v1"
    update = next(e for e in record["endpoints"] if "PUT" in e["methods"])
    assert update["args"]["id"]["required"] is True
    assert update["args"]["categories"]["type"] == ["integer", "string", "null", "array"]
    # The route, not the record: an ID nobody has is still the route's description.
    assert (await client.options(f"{API}/events/999999")).json() == record
    index = await client.options("/")
    assert index.status_code == 200
    assert index.json() == routes["/"]
    assert index.headers["allow"] == "GET"
    german = await client.options(f"/de{API}/events")
    assert german.json()["_links"]["self"] == [{"href": f"http://testserver/de{API}/events"}]
    # No such route, or not a number where the route takes one: WordPress's 404.
    for nowhere in ("/nowhere", f"{API}/events/abc", f"/fr{API}/events"):
        answer = await client.options(nowhere)
        assert answer.status_code == 404, nowhere
        assert answer.json()["code"] == "rest_no_route"
