"""Images of venues and organizers: by URL (recorded, never fetched) or by ID."""

import itertools
from typing import Any

import pytest
from httpx import AsyncClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Image
from tests.factories import API, AuthFor, create_post

NUMBERS = itertools.count(1)


async def venue(client: AsyncClient, who: AuthFor, **fields: Any) -> dict[str, Any]:
    """A new venue (each its own name: a create identical to a venue answers that venue)."""
    return await create_post(client, who, "venues", venue=f"Hall {next(NUMBERS)}", **fields)


async def test_a_url_is_recorded_once_and_reused(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    # .invalid never resolves: the service must not try to fetch the image.
    url = "https://images.invalid/photos/Hall.JPG?size=large"
    first = await venue(client, editor, image=url)
    assert first["image"] == {"url": url, "id": first["image"]["id"], "extension": "jpg"}
    second = await venue(client, editor, image=url)
    organizer = await create_post(client, editor, "organizers", organizer="Org", image=url)
    assert second["image"] == organizer["image"] == first["image"]
    count = await db.scalar(select(func.count()).select_from(Image).where(Image.url == url))
    assert count == 1
    other = await venue(client, editor, image="http://images.invalid/no-extension")
    assert other["image"]["extension"] == ""
    assert other["image"]["id"] != first["image"]["id"]


async def test_an_image_id_links_the_known_image(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    image = Image(url="https://cdn.invalid/known.png", extension="png", width=640, height=480)
    db.add(image)
    await db.commit()
    expected = {
        "url": "https://cdn.invalid/known.png",
        "id": image.id,
        "extension": "png",
        "width": 640,
        "height": 480,
    }
    assert (await venue(client, editor, image=image.id))["image"] == expected
    assert (await venue(client, editor, image=str(image.id)))["image"] == expected
    listed = (await client.get(f"{API}/venues")).json()["venues"]
    assert [item["image"] for item in listed] == [expected, expected]


@pytest.mark.parametrize(
    "value",
    [
        999999,
        "999999",
        -1,
        "foo bar",
        "ftp://images.invalid/a.png",
        "https://",
        "//images.invalid/a.png",
        "https://images.invalid/a b.png",
        "https://" + "a" * 2050 + ".invalid/x.png",
        True,
        1.5,
        ["https://images.invalid/a.png"],
        {"nothing": 1},
    ],
)
async def test_bad_images_are_400_naming_image(
    client: AsyncClient, editor: AuthFor, value: Any
) -> None:
    for plural, name in (("venues", "venue"), ("organizers", "organizer")):
        response = await client.post(
            f"{API}/{plural}", json={name: "X", "image": value}, headers=editor.basic
        )
        assert response.status_code == 400, (plural, value)
        body = response.json()
        assert body["code"] == "rest_invalid_param"
        assert body["data"]["params"] == {
            "image": "image must be the ID of an existing image or an http(s) URL; empty clears it."
        }


@pytest.mark.parametrize("empty", ["", 0, "0", None, False])
async def test_empty_values_clear_the_image(
    client: AsyncClient, editor: AuthFor, empty: Any
) -> None:
    record = await venue(client, editor, image="https://images.invalid/a.png")
    url = f"{API}/venues/{record['id']}"
    kept = await client.patch(url, json={"city": "Lyon"}, headers=editor.basic)
    assert kept.json()["image"] == record["image"]
    cleared = await client.patch(url, json={"image": empty}, headers=editor.basic)
    assert cleared.status_code == 200
    assert cleared.json()["image"] is False
    assert (await venue(client, editor, image=empty))["image"] is False


async def test_a_record_read_can_be_written_back(client: AsyncClient, editor: AuthFor) -> None:
    record = await venue(client, editor, image="https://images.invalid/round.webp", city="Rome")
    url = f"{API}/venues/{record['id']}"
    read = (await client.get(url)).json()
    written = await client.put(url, json=read, headers=editor.basic)
    assert written.status_code == 200
    body = written.json()
    assert body["image"] == record["image"]
    assert {k: v for k, v in body.items() if not k.startswith("modified")} == {
        k: v for k, v in record.items() if not k.startswith("modified")
    }
    replaced = await client.put(
        url, json={"image": {"url": "https://images.invalid/new.gif"}}, headers=editor.basic
    )
    assert replaced.json()["image"]["extension"] == "gif"
