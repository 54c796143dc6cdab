"""The public pages through HTTP (docs/design.md, Public pages): every route, in every
language, with the API's visibility rules, the reference's query parameters, the sitemap and
robots.txt. Records are made through the API, as an editor would."""

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from httpx import AsyncClient

from tests.factories import AuthFor, create_record

TODAY = datetime.now(UTC).date()


def day(offset: int) -> str:
    return (TODAY + timedelta(days=offset)).isoformat()


async def event(client: AsyncClient, editor: AuthFor, title: str, **fields: Any) -> dict[str, Any]:
    fields.setdefault("start_date", f"{day(1)} 18:00:00")
    fields.setdefault("end_date", f"{day(1)} 20:00:00")
    return await create_record(client, editor, "events", title, **fields)


def json_ld(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert match, "no JSON-LD"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


async def test_list_month_and_day_show_published_events(
    client: AsyncClient, editor: AuthFor
) -> None:
    await event(client, editor, "Jazz by the river")
    await event(client, editor, "Draft concert", status="draft")
    await event(client, editor, "Hidden rehearsal", hide_from_listings=True)
    for path in (
        "/events/",
        "/events/list/",
        f"/events/month/{day(1)[:7]}/",
        f"/events/{day(1)}/",
    ):
        response = await client.get(path)
        assert response.status_code == 200, (path, response.text[:500])
        assert response.headers["content-type"].startswith("text/html")
        assert "Jazz by the river" in response.text, path
        assert "Draft concert" not in response.text
        assert "Hidden rehearsal" not in response.text
