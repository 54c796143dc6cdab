"""ETags on every GET of the namespace, 304 for If-None-Match, Cache-Control, and
conditional writes with If-Match (docs/design.md#etags-and-conditional-writes). These run
in process, without the response cache (tests/live/test_sync_live.py covers the cached path)."""

from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient, Response
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from app.core.asgi.pipeline import EdgePipeline
from app.core.caching.etags import etag_of, tag_responses
from tests.factories import API, AuthFor, create_record

PLURALS = ("events", "venues", "organizers")


class Moved(Exception):
    """The resource changed between two requests of one round (a 200 with a new ETag)."""


async def assert_revalidates(client: AsyncClient, url: str, tries: int = 1, **options: Any) -> str:
    """GET `url` twice, the second time with the first's ETag: 304 without a body.

    `tries` > 1 for a resource that moves with the whole database cluster (the changes feed's
    token carries PostgreSQL's snapshot, which other test workers' transactions advance): a
    round in which the resource honestly changed, a 200 with another ETag, starts again; a 200
    with the ETag that was sent is a failure at once."""
    for _ in range(tries - 1):
        try:
            return await _revalidation_round(client, url, dict(options))
        except Moved:
            continue
    return await _revalidation_round(client, url, options, last=True)


async def _revalidation_round(
    client: AsyncClient, url: str, options: dict[str, Any], last: bool = False
) -> str:
    first = await client.get(url, **options)
    assert first.status_code == 200, first.text
    etag = first.headers["etag"]
    assert etag == etag_of(first.content)
    headers = {**options.pop("headers", {}), "If-None-Match": etag}

    async def conditional(if_none_match: str) -> Response:
        answer = await client.get(
            url, headers={**headers, "If-None-Match": if_none_match}, **options
        )
        if answer.status_code == 200 and answer.headers["etag"] != etag and not last:
            raise Moved
        return answer

    again = await conditional(etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == etag
    assert again.headers["cache-control"] == first.headers["cache-control"]
    assert "content-type" not in again.headers
    other = await conditional('"other", W/' + etag)
    assert other.status_code == 304  # a list of tags, weak comparison
    changed = await client.get(url, headers={**headers, "If-None-Match": '"stale"'}, **options)
    assert changed.status_code == 200
    if changed.headers["etag"] != etag and not last:
        raise Moved
    assert changed.content == first.content
    return str(etag)


@pytest.mark.parametrize("plural", PLURALS)
async def test_record_and_list_gets_carry_etags(
    client: AsyncClient, editor: AuthFor, plural: str
) -> None:
    record = await create_record(client, editor, plural, "Tagged")
    single = await assert_revalidates(client, f"{API}/{plural}/{record['id']}")
    by_slug = await assert_revalidates(client, f"{API}/{plural}/by-slug/{record['slug']}")
    assert by_slug == single  # the same representation
    await assert_revalidates(client, f"{API}/{plural}")
    await assert_revalidates(client, f"/de{API}/{plural}/{record['id']}")
    signed_in = await client.get(f"{API}/{plural}/{record['id']}", headers=editor.basic)
    assert signed_in.headers["cache-control"] == "private, no-cache"
    anonymous = await client.get(f"{API}/{plural}/{record['id']}")
    assert anonymous.headers["cache-control"] == "public, no-cache"


async def test_terms_and_the_feed_carry_etags(client: AsyncClient, editor: AuthFor) -> None:
    term = await client.post(f"{API}/categories", json={"name": "Jazz"}, headers=editor.basic)
    await assert_revalidates(client, f"{API}/categories/{term.json()['id']}")
    await assert_revalidates(client, f"{API}/categories")
    await assert_revalidates(client, f"{API}/tags")
    await assert_revalidates(client, f"{API}/changes", tries=50)


async def test_errors_carry_no_etag(client: AsyncClient) -> None:
    missing = await client.get(f"{API}/events/999999", headers={"If-None-Match": "*"})
    assert missing.status_code == 404
    assert "etag" not in missing.headers


async def test_a_response_with_its_own_etag_is_left_alone() -> None:
    """The contract with routes that tag themselves (the iCalendar feeds): their ETag and
    their own If-None-Match handling are kept as they are."""

    async def feed(request: Request) -> PlainTextResponse:
        return PlainTextResponse("BEGIN:VCALENDAR", headers={"ETag": '"own"'})

    app = EdgePipeline(Starlette(routes=[Route(f"{API}/events.ics", feed)]), [tag_responses])
    async with AsyncClient(transport=ASGITransport(app=app), base_url="http://t") as client:
        response = await client.get(f"{API}/events.ics", headers={"If-None-Match": '"own"'})
    assert response.status_code == 200  # the route did not answer the condition: not ours to
    assert response.headers["etag"] == '"own"'
    assert "cache-control" not in response.headers


# ---- If-Match ----------------------------------------------------------------------


@pytest.mark.parametrize("plural", PLURALS)
@pytest.mark.parametrize("by", ["id", "slug"])
async def test_if_match_guards_updates_and_deletes(
    client: AsyncClient, editor: AuthFor, plural: str, by: str
) -> None:
    record = await create_record(client, editor, plural, "Guarded")
    url = f"{API}/{plural}/{record['id'] if by == 'id' else 'by-slug/' + record['slug']}"
    name = {"events": "title", "venues": "venue", "organizers": "organizer"}[plural]
    read = await client.get(url, headers=editor.basic)
    etag = read.headers["etag"]

    changed = await client.patch(
        url, json={name: "First"}, headers={**editor.basic, "If-Match": etag}
    )
    assert changed.status_code == 200, changed.text
    # The answer's ETag is the one a GET returns right after.
    after = await client.get(url, headers=editor.basic)
    assert changed.headers["etag"] == after.headers["etag"] != etag

    stale = await client.patch(
        url, json={name: "Second"}, headers={**editor.basic, "If-Match": etag}
    )
    assert stale.status_code == 412
    assert stale.json()["code"] == "rest_precondition_failed"
    assert stale.json()["data"]["status"] == 412
    assert (await client.get(url, headers=editor.basic)).content == after.content  # unchanged

    refused = await client.delete(url, headers={**editor.basic, "If-Match": etag})
    assert refused.status_code == 412
    current = after.headers["etag"]
    # A compressing proxy turns strong tags weak: the W/ form names the same JSON.
    weak = await client.patch(
        url, json={name: "Third"}, headers={**editor.basic, "If-Match": f'"x", W/{current}'}
    )
    assert weak.status_code == 200
    trashed = await client.delete(url, headers={**editor.basic, "If-Match": weak.headers["etag"]})
    assert trashed.status_code == 200
    if plural == "events":
        assert "etag" not in trashed.headers  # a trashed event's GET is a 403: no tag
    else:
        # (A trashed record's slug is freed: read it by ID.)
        by_id = await client.get(f"{API}/{plural}/{record['id']}", headers=editor.basic)
        assert trashed.headers["etag"] == by_id.headers["etag"]


async def test_if_match_star_needs_the_record(client: AsyncClient, editor: AuthFor) -> None:
    event = await create_record(client, editor, "events", "Starred")
    star = {**editor.basic, "If-Match": "*"}
    url = f"{API}/events/{event['id']}"
    assert (await client.patch(url, json={"title": "Any"}, headers=star)).status_code == 200
    deleted = await client.delete(url, params={"force": "true"}, headers=star)
    assert deleted.status_code == 200
    assert "etag" not in deleted.headers
    assert (await client.patch(url, json={"title": "Gone"}, headers=star)).status_code == 404
    # A trashed event has no representation a GET returns: only `*` passes.
    other = await create_record(client, editor, "events", "Trashed")
    url = f"{API}/events/{other['id']}"
    etag = (await client.get(url)).headers["etag"]
    assert (await client.delete(url, headers=editor.basic)).status_code == 200
    restore = {"status": "publish"}
    tagged = await client.patch(url, json=restore, headers={**editor.basic, "If-Match": etag})
    assert tagged.status_code == 412
    assert (await client.patch(url, json=restore, headers=star)).status_code == 200


async def test_permissions_come_before_preconditions(client: AsyncClient, editor: AuthFor) -> None:
    event = await create_record(client, editor, "events", "Locked")
    url = f"{API}/events/{event['id']}"
    anonymous = await client.patch(url, json={"title": "x"}, headers={"If-Match": '"stale"'})
    assert anonymous.status_code == 401


async def test_if_match_on_terms(client: AsyncClient, editor: AuthFor) -> None:
    created = await client.post(f"{API}/tags", json={"name": "Folk"}, headers=editor.basic)
    url = f"{API}/tags/{created.json()['id']}"
    etag = (await client.get(url)).headers["etag"]
    assert created.headers["etag"] == etag  # a create answers the new record's tag
    renamed = await client.post(
        url, json={"name": "Folk music"}, headers={**editor.basic, "If-Match": etag}
    )
    assert renamed.status_code == 200
    assert renamed.headers["etag"] == (await client.get(url)).headers["etag"]
    stale = await client.post(
        url, json={"name": "Folk again"}, headers={**editor.basic, "If-Match": etag}
    )
    assert stale.status_code == 412
    assert (await client.get(url)).json()["name"] == "Folk music"
    gone = await client.delete(url, headers={**editor.basic, "If-Match": etag})
    assert gone.status_code == 412
    assert (await client.get(url)).status_code == 200
    current = renamed.headers["etag"]
    assert (
        await client.delete(url, headers={**editor.basic, "If-Match": current})
    ).status_code == 200


async def test_precondition_message_is_translated(client: AsyncClient, editor: AuthFor) -> None:
    event = await create_record(client, editor, "events", "Übersetzt")
    url = f"/de{API}/events/{event['id']}"
    failed = await client.patch(
        url, json={"title": "x"}, headers={**editor.basic, "If-Match": '"a"'}
    )
    assert failed.status_code == 412
    assert "If-Match" in failed.json()["message"]
    assert failed.json()["message"].startswith("Der Datensatz")


@pytest.mark.parametrize("plural", PLURALS)
async def test_a_create_answers_the_new_records_etag(
    client: AsyncClient, editor: AuthFor, plural: str
) -> None:
    name = {"events": "title", "venues": "venue", "organizers": "organizer"}[plural]
    payload = {
        name: "Fresh",
        **({"start_date": "+1 day", "end_date": "+2 days"} if plural == "events" else {}),
    }
    created = await client.post(f"{API}/{plural}", json=payload, headers=editor.basic)
    assert created.status_code == 201
    read = await client.get(created.headers["location"], headers=editor.basic)
    assert created.headers["etag"] == read.headers["etag"]
    assert created.content != read.content  # the GET's body has more (json_ld): its own tag
