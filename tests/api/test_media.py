"""The media library through HTTP: uploads of real files made by Pillow, their sizes and
files, what is refused (and that nothing of it is stored), rights, deleting, languages."""

import io
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from httpx import AsyncClient, Response
from PIL import Image as PILImage
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.app_services import app_services
from app.core.settings import get_settings
from app.importer.images import CopyLimits
from app.main import create_app
from app.media.processing import FULL, process
from app.media.prune import prune
from app.media.repository import MediaRepository
from app.media.storage import LocalStorage
from app.models import Image
from tests.api.test_import import Site, run
from tests.factories import API, Auth, AuthFor, create_post, create_record
from tests.media_files import (
    GPS_IFD,
    ORIENTATION,
    noise,
    opened,
    picture,
    png_bomb,
    with_gps_and_orientation,
)

MEDIA = f"{API}/media"
MAX_UPLOAD = 300_000
MAX_PIXELS = 4_000_000


@pytest.fixture(scope="module")
def media_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("media")


@pytest.fixture(scope="module")
async def app(database_url: str, media_dir: Path) -> AsyncIterator[FastAPI]:
    """The app with its media library in a directory of this module, and small limits."""
    settings = get_settings().model_copy(
        update={
            "database_url": database_url,
            "media_dir": media_dir,
            "max_upload_bytes": MAX_UPLOAD,
            "max_image_pixels": MAX_PIXELS,
        }
    )
    app = create_app(settings)
    yield app
    await app_services(app).failed_logins.close()


def stored(media_dir: Path) -> set[str]:
    """Every file in the library's directory (temporary ones included)."""
    return {str(p.relative_to(media_dir)) for p in media_dir.rglob("*") if p.is_file()}


async def upload(
    client: AsyncClient,
    who: AuthFor | None,
    data: bytes,
    filename: str = "photo.jpg",
    content_type: str = "image/jpeg",
    **fields: Any,
) -> Response:
    headers = who.basic if who else {}
    return await client.post(
        MEDIA,
        files={"file": (filename, data, content_type)},
        data={k: str(v) for k, v in fields.items()},
        headers=headers,
    )


async def uploaded(client: AsyncClient, who: AuthFor, data: bytes, **fields: Any) -> Any:
    response = await upload(client, who, data, **fields)
    assert response.status_code == 201, response.text
    return response.json()


async def fetch(client: AsyncClient, url: str) -> Response:
    response = await client.get(url.removeprefix("http://testserver"))
    assert response.status_code == 200, url
    return response


async def library_rows(db: AsyncSession) -> int:
    return await db.scalar(select(func.count()).where(Image.file.is_not(None))) or 0


# ---- accepted files -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "mime", "extension"),
    [
        ("JPEG", "image/jpeg", "jpg"),
        ("PNG", "image/png", "png"),
        ("GIF", "image/gif", "gif"),
        ("WEBP", "image/webp", "webp"),
        ("AVIF", "image/avif", "avif"),
    ],
)
async def test_every_accepted_format(
    client: AsyncClient, editor: AuthFor, fmt: str, mime: str, extension: str
) -> None:
    body = await uploaded(client, editor, picture(fmt), filename="holiday.bin", title="Sea")
    assert body["mime_type"] == mime
    assert body["extension"] == extension
    assert (body["width"], body["height"]) == (400, 300)
    assert body["title"] == "Sea"
    assert body["author"] == str(editor.id)
    assert list(body["sizes"]) == ["thumbnail", "medium", FULL]
    assert {n: (s["width"], s["height"]) for n, s in body["sizes"].items()} == {
        "thumbnail": (150, 150),
        "medium": (300, 225),
        FULL: (400, 300),
    }
    assert body["sizes"][FULL]["url"] == body["url"]
    for size in body["sizes"].values():
        assert size["mime-type"] == mime
        served = await fetch(client, size["url"])
        assert served.headers["content-type"] == mime
        assert served.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert len(served.content) == size["filesize"]
        assert opened(served.content).size == (size["width"], size["height"])
        # The name is the server's: a content hash, never the client's name.
        assert "holiday" not in size["url"]
        webp = (size.get("sources") or {}).get("image/webp")
        if fmt == "WEBP":
            assert webp is None
        else:
            served = await fetch(client, webp["url"])
            assert served.headers["content-type"] == "image/webp"
            assert opened(served.content).format == "WEBP"
    read = await client.get(f"{MEDIA}/{body['id']}", headers=editor.basic)
    assert read.json() == body


def _frames() -> bytes:
    frames = [PILImage.new("RGB", (160, 160), (40 * i, 0, 0)) for i in range(1, 4)]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=100)
    return out.getvalue()


def _of_mode(mode: str, fmt: str, color: Any, **options: Any) -> bytes:
    out = io.BytesIO()
    PILImage.new(mode, (160, 160), color).save(out, format=fmt, **options)
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "mime"),
    [
        (_of_mode("I;16", "PNG", 3000), "image/png"),
        (_of_mode("LA", "PNG", (100, 50)), "image/png"),
        (_of_mode("P", "PNG", 0, transparency=0), "image/png"),
        (_of_mode("CMYK", "JPEG", (10, 20, 30, 40)), "image/jpeg"),
        (_of_mode("RGBA", "AVIF", (1, 2, 3, 100)), "image/avif"),
        (_frames(), "image/gif"),
    ],
    ids=[
        "png-16-bit",
        "png-grey-alpha",
        "png-palette-transparent",
        "jpeg-cmyk",
        "avif-alpha",
        "gif-animated",
    ],
)
async def test_unusual_colour_modes_and_animations(
    client: AsyncClient, editor: AuthFor, data: bytes, mime: str
) -> None:
    body = await uploaded(client, editor, data)
    assert body["mime_type"] == mime
    assert (body["sizes"]["thumbnail"]["width"], body["sizes"]["thumbnail"]["height"]) == (150, 150)
    full = opened((await fetch(client, body["url"])).content)
    assert getattr(full, "n_frames", 1) == 1  # an animation keeps its first frame
    webp = body["sizes"]["thumbnail"]["sources"]["image/webp"]
    assert opened((await fetch(client, webp["url"])).content).size == (150, 150)


async def test_a_raw_body_with_content_disposition(
    client: AsyncClient, editor: AuthFor, db: AsyncSession, media_dir: Path
) -> None:
    headers = {
        **editor.basic,
        "Content-Type": "image/png",
        "Content-Disposition": 'attachment; filename="../../etc/Rooftop view.png"',
    }
    response = await client.post(MEDIA, content=picture("PNG"), headers=headers)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["title"] == "Rooftop view"  # the name's stem, never a path
    encoded = {**headers, "Content-Disposition": "attachment; filename*=UTF-8''B%C3%BChne.png"}
    german = await client.post(MEDIA, content=picture("PNG"), headers=encoded)
    assert german.json()["title"] == "Bühne"
    assert response.headers["location"].endswith(f"{MEDIA}/{body['id']}")
    before = (await library_rows(db), stored(media_dir))
    for missing in ({}, {"Content-Disposition": "inline"}):
        headers = {**editor.basic, "Content-Type": "image/png", **missing}
        refused = await client.post(MEDIA, content=picture("PNG"), headers=headers)
        assert refused.status_code == 400
        assert refused.json()["code"] == "rest_upload_no_content_disposition"
    empty = await client.post(MEDIA, files={"title": (None, "x")}, headers=editor.basic)
    assert empty.status_code == 400
    assert empty.json()["code"] == "rest_upload_no_data"
    assert (await library_rows(db), stored(media_dir)) == before


async def test_a_png_named_jpg_is_a_png(client: AsyncClient, editor: AuthFor) -> None:
    body = await uploaded(client, editor, picture("PNG"), filename="cat.jpg")
    assert (body["mime_type"], body["extension"]) == ("image/png", "png")
    assert body["url"].endswith(".png")


# ---- refused files: a clear 400 or 413, and nothing stored ------------------------------

SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
HTML = b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>"


@pytest.mark.parametrize(
    ("data", "filename", "content_type", "reason"),
    [
        (HTML, "cat.png", "image/png", "not an image of an accepted type"),
        (SVG, "logo.svg", "image/svg+xml", "not an image of an accepted type"),
        (picture("JPEG")[:2000], "cut.jpg", "image/jpeg", "truncated or damaged"),
        (png_bomb(), "bomb.png", "image/png", f"more than {MAX_PIXELS} pixels"),
        (picture("BMP", (100, 80)), "old.bmp", "image/bmp", "not an image of an accepted type"),
        (picture("TIFF", (100, 80)), "scan.tif", "image/tiff", "not an image of an accepted type"),
    ],
    ids=["html-named-png", "svg", "truncated-jpeg", "decompression-bomb", "bmp", "tiff"],
)
async def test_refused_files_are_400_and_leave_nothing(
    client: AsyncClient,
    editor: AuthFor,
    db: AsyncSession,
    media_dir: Path,
    data: bytes,
    filename: str,
    content_type: str,
    reason: str,
) -> None:
    before = (await library_rows(db), stored(media_dir))
    response = await upload(client, editor, data, filename, content_type)
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "rest_upload_invalid_image"
    assert reason in body["message"]
    assert (await library_rows(db), stored(media_dir)) == before


async def test_the_pixel_cap_is_a_setting(
    client: AsyncClient, editor: AuthFor, db: AsyncSession
) -> None:
    # A real (small) file of 2100 × 2000 pixels: over this app's MAX_IMAGE_PIXELS.
    data = picture("PNG", (2100, 2000))
    assert len(data) < MAX_UPLOAD
    response = await upload(client, editor, data, "wide.png", "image/png")
    assert response.status_code == 400
    assert f"more than {MAX_PIXELS} pixels" in response.json()["message"]
    assert await library_rows(db) == 0


async def test_files_over_the_byte_limit_are_413(
    client: AsyncClient, editor: AuthFor, db: AsyncSession, media_dir: Path
) -> None:
    before = (await library_rows(db), stored(media_dir))
    just_over = noise((320, 320))  # a little over MAX_UPLOAD_BYTES
    assert MAX_UPLOAD < len(just_over) < MAX_UPLOAD + 20_000
    response = await upload(client, editor, just_over, "big.png", "image/png")
    assert response.status_code == 413
    assert response.json()["code"] == "rest_upload_file_too_big"
    assert str(MAX_UPLOAD) in response.json()["message"]
    raw = await client.post(
        MEDIA,
        content=just_over,
        headers={**editor.basic, "Content-Disposition": "attachment; filename=big.png"},
    )
    assert raw.status_code == 413
    far_over = await upload(client, editor, noise((700, 700)), "huge.png", "image/png")
    assert far_over.status_code == 413  # refused by the body limit, before any parsing
    assert far_over.json()["code"] == "rest_payload_too_large"
    assert (await library_rows(db), stored(media_dir)) == before


# ---- what is kept of a file -------------------------------------------------------------


async def test_exif_and_its_gps_position_are_gone(client: AsyncClient, editor: AuthFor) -> None:
    original = opened(with_gps_and_orientation())
    assert original.getexif().get_ifd(GPS_IFD)  # the test's file has a position
    body = await uploaded(client, editor, with_gps_and_orientation())
    for size in body["sizes"].values():
        urls = [size["url"], size["sources"]["image/webp"]["url"]]
        for url in urls:
            content = (await fetch(client, url)).content
            image = opened(content)
            assert not image.getexif(), url
            assert "exif" not in image.info
            assert b"SecretCam" not in content


async def test_a_broken_exif_block_is_dropped(client: AsyncClient, editor: AuthFor) -> None:
    out = io.BytesIO()
    broken = b"Exif\x00\x00II*\x00\x08\x00\x00\x00\x05\x00\x12\x01\x03"  # cut short
    PILImage.new("RGB", (200, 150), (9, 9, 9)).save(out, format="JPEG", exif=broken)
    body = await uploaded(client, editor, out.getvalue())
    assert (body["width"], body["height"]) == (200, 150)
    full = opened((await fetch(client, body["url"])).content)
    assert not full.getexif()
    assert "exif" not in full.info


async def test_the_orientation_flag_is_applied(client: AsyncClient, editor: AuthFor) -> None:
    # Stored 450 × 300 with "rotate 90° clockwise to show" (6): shown 300 × 450.
    data = with_gps_and_orientation(orientation=6, size=(450, 300))
    body = await uploaded(client, editor, data)
    assert (body["width"], body["height"]) == (300, 450)
    full = opened((await fetch(client, body["url"])).content)
    assert full.size == (300, 450)
    assert ORIENTATION not in full.getexif()
    # The left half (red) is on top once turned.
    red, _, blue = full.convert("RGB").getpixel((100, 10))  # type: ignore[misc]
    assert red > 150
    assert blue < 100
    assert body["sizes"]["medium"]["width"] < body["sizes"]["medium"]["height"]


async def test_sizes_are_never_enlarged(client: AsyncClient, editor: AuthFor) -> None:
    small = await uploaded(client, editor, picture("PNG", (120, 90)))
    assert list(small["sizes"]) == [FULL]
    narrow = await uploaded(client, editor, picture("PNG", (100, 400)))
    # Cropped to fill 150 × 150 as far as the image reaches: 100 wide stays 100.
    assert (narrow["sizes"]["thumbnail"]["width"], narrow["sizes"]["thumbnail"]["height"]) == (
        100,
        150,
    )
    assert (narrow["sizes"]["medium"]["width"], narrow["sizes"]["medium"]["height"]) == (75, 300)
    large = await uploaded(client, editor, picture("JPEG", (1100, 900)))
    dimensions = {n: (s["width"], s["height"]) for n, s in large["sizes"].items()}
    assert dimensions == {
        "thumbnail": (150, 150),
        "medium": (300, 245),
        "medium_large": (768, 628),
        "large": (1024, 838),
        FULL: (1100, 900),
    }


# ---- rights ----------------------------------------------------------------------------


async def test_rights_follow_the_roles(client: AsyncClient, auth: Auth) -> None:
    editor, author, other = await auth("editor"), await auth("author"), await auth("author")
    contributor, subscriber = await auth("contributor"), await auth("subscriber")
    data = picture("PNG", (160, 160))
    assert (await upload(client, None, data)).status_code == 401
    assert (await upload(client, subscriber, data)).status_code == 403
    # Contributors: only for a draft of their own.
    refused = await upload(client, contributor, data)
    assert refused.status_code == 403
    assert refused.json()["code"] == "rest_cannot_upload"
    draft = await create_post(client, contributor, "venues", venue="My hall")
    assert draft["status"] == "draft"
    others = await create_post(client, author, "venues", venue="Their hall")
    assert (await upload(client, contributor, data, post=others["id"])).status_code == 403
    bad = await upload(client, contributor, data, post=999_999_999)
    assert bad.status_code == 400
    assert "post must be the ID of an event, venue or organizer" in str(bad.json())
    mine = await uploaded(client, contributor, data, post=draft["id"])
    assert mine["post"] == draft["id"]
    by_author = await uploaded(client, author, data)
    # Contributors see their own uploads; authors and up the whole library.
    seen = await client.get(MEDIA, headers=contributor.basic)
    assert [m["id"] for m in seen.json()["media"]] == [mine["id"]]
    assert (
        await client.get(f"{MEDIA}/{by_author['id']}", headers=contributor.basic)
    ).status_code == 403
    assert (await client.get(f"{MEDIA}/{mine['id']}", headers=other.basic)).status_code == 200
    assert (await client.get(MEDIA)).status_code == 401
    assert (await client.get(MEDIA, headers=subscriber.basic)).status_code == 403
    # Authors manage their own images only; editors every image.
    url = f"{MEDIA}/{by_author['id']}"
    assert (await client.patch(url, json={"title": "x"}, headers=other.basic)).status_code == 403
    assert (await client.delete(url, headers=other.basic)).status_code == 403
    assert (
        await client.patch(url, json={"title": "Mine"}, headers=author.basic)
    ).status_code == 200
    mine_url = f"{MEDIA}/{mine['id']}"
    patched = await client.patch(mine_url, json={"alt_text": "Hall"}, headers=contributor.basic)
    assert patched.status_code == 200
    assert (await client.delete(url, headers=editor.basic)).status_code == 200
    assert (await client.get(url, headers=editor.basic)).status_code == 404


# ---- records showing an image, deleting ----------------------------------------------------


async def test_a_delete_is_refused_while_the_image_is_shown(
    client: AsyncClient, editor: AuthFor, media_dir: Path
) -> None:
    image = await uploaded(client, editor, picture("JPEG"), alt_text="The stage")
    venue = await create_post(client, editor, "venues", venue="Stage", image=image["id"])
    event = await create_record(client, editor, "events", "Gig", image=image["id"])
    for body in (venue, event):
        shown = body["image"]
        assert shown["id"] == image["id"]
        assert shown["url"] == image["url"]
        assert shown["sizes"] == image["sizes"]
        assert (shown["width"], shown["height"], shown["filesize"]) == (400, 300, image["filesize"])
        assert shown["alt"] == "The stage"
    digest = image["url"].rsplit("/", 1)[-1].split(".")[0]
    names = {name for name in stored(media_dir) if digest in name}
    assert len(names) == 6  # 3 sizes, each with its WebP variant
    url = f"{MEDIA}/{image['id']}"
    refused = await client.delete(url, headers=editor.basic)
    assert refused.status_code == 409
    assert refused.json()["code"] == "rest_media_in_use"
    assert refused.json()["data"]["used_by"] == sorted(
        [{"kind": "event", "id": event["id"]}, {"kind": "venue", "id": venue["id"]}],
        key=lambda used: (used["kind"], used["id"]),
    )
    assert (await client.get(url, headers=editor.basic)).status_code == 200
    forced = await client.delete(url, params={"force": "true"}, headers=editor.basic)
    assert forced.status_code == 200
    assert forced.json()["deleted"] is True
    assert forced.json()["previous"]["id"] == image["id"]
    assert (await client.get(f"{API}/venues/{venue['id']}")).json()["image"] is False
    assert not names & stored(media_dir)
    assert (await client.get(image["url"].removeprefix("http://testserver"))).status_code == 404


async def test_an_upload_failing_halfway_leaves_nothing(
    client: AsyncClient, editor: AuthFor, db: AsyncSession, media_dir: Path
) -> None:
    data = picture("JPEG", (500, 400), quality=71)
    processed = process(data, MAX_PIXELS)
    names = [
        processed.file_name(name, rendition) for name, rendition in processed.renditions.items()
    ]
    # The disk refuses the last file of the upload: a directory holds its name.
    blocker = media_dir / processed.file_name("medium", processed.webp["medium"])
    blocker.mkdir(parents=True)
    before = (await library_rows(db), stored(media_dir))
    response = await upload(client, editor, data)
    assert response.status_code == 500
    assert response.json()["code"] == "rest_upload_not_stored"
    assert (await library_rows(db), stored(media_dir)) == before
    assert not set(names) & stored(media_dir)
    blocker.rmdir()
    assert (await upload(client, editor, data)).status_code == 201


# ---- texts, lists, the changes feed, the docs -------------------------------------------------


async def test_texts_as_they_are_change_nothing(
    client: AsyncClient, editor: AuthFor, maker: async_sessionmaker[AsyncSession]
) -> None:
    """Sending the texts an image has keeps its `modified` (issue 41), and names a field
    it does not take."""
    image = await uploaded(client, editor, picture("PNG"), title="Stage", alt_text="A stage")
    async with maker() as session:
        await session.execute(
            text("UPDATE images SET modified_at = modified_at - interval '1 day' WHERE id = :id"),
            {"id": image["id"]},
        )
        await session.commit()
    url = f"{MEDIA}/{image['id']}"
    aged = (await client.get(url, headers=editor.basic)).json()
    same = await client.put(
        url, json={"title": "Stage", "alt_text": "A stage", "alt": "typo"}, headers=editor.basic
    )
    assert same.status_code == 200
    assert same.json()["modified"] == aged["modified"]
    assert same.headers["X-Almanac-Ignored"] == "alt"
    changed = await client.patch(url, json={"title": "Hall"}, headers=editor.basic)
    assert changed.json()["modified"] != aged["modified"]


async def test_texts_in_every_language(client: AsyncClient, editor: AuthFor) -> None:
    image = await uploaded(client, editor, picture("PNG"), title="Stage", alt_text="A stage")
    url = f"{MEDIA}/{image['id']}"
    german = await client.patch(
        url, json={"alt_text": "Eine Bühne", "caption": "<b>Abend</b>"}, headers=editor.basic,
        params={"i18n_language": "de"},
    )  # fmt: skip
    assert german.status_code == 200
    assert german.json()["alt_text"] == "Eine Bühne"
    assert german.json()["caption"] == "Abend"  # texts keep no markup
    english = (await client.get(url, headers=editor.basic)).json()
    assert (english["alt_text"], english["caption"]) == ("A stage", "Abend")
    assert english["title"] == "Stage"
    venue = await create_post(client, editor, "venues", venue="Bühne", image=image["id"])
    assert (await client.get(f"/de{API}/venues/{venue['id']}")).json()["image"][
        "alt"
    ] == "Eine Bühne"
    assert (await client.get(f"{API}/venues/{venue['id']}")).json()["image"]["alt"] == "A stage"
    too_long = await client.patch(url, json={"title": "x" * 201}, headers=editor.basic)
    assert too_long.status_code == 400
    # Conditional writes, as on every record: the ETag of the GET.
    read = await client.get(url, headers=editor.basic)
    stale = {**editor.basic, "If-Match": '"stale"'}
    assert (await client.patch(url, json={"title": "New"}, headers=stale)).status_code == 412
    fresh = {**editor.basic, "If-Match": read.headers["etag"]}
    assert (await client.patch(url, json={"title": "New"}, headers=fresh)).status_code == 200


async def test_the_list_pages_and_searches(client: AsyncClient, editor: AuthFor) -> None:
    for title in ("Harbour at dawn", "Market", "Harbour at night"):
        await uploaded(client, editor, picture("GIF", (60, 40)), title=title)
    page = await client.get(MEDIA, params={"per_page": 2}, headers=editor.basic)
    assert page.status_code == 200
    assert page.headers["x-wp-total"] == "3"
    assert [m["title"] for m in page.json()["media"]] == ["Harbour at night", "Market"]
    assert "next_rest_url" in page.json()
    found = await client.get(MEDIA, params={"search": "harbour"}, headers=editor.basic)
    assert [m["title"] for m in found.json()["media"]] == ["Harbour at night", "Harbour at dawn"]
    past = await client.get(MEDIA, params={"page": 9}, headers=editor.basic)
    assert past.status_code == 404
    venue = await create_post(client, editor, "venues", venue="Harbour hall")
    await uploaded(client, editor, picture("PNG", (60, 40)), title="Hall", post=venue["id"])
    of_venue = await client.get(MEDIA, params={"post": venue["id"]}, headers=editor.basic)
    assert [m["title"] for m in of_venue.json()["media"]] == ["Hall"]
    gifs = await client.get(MEDIA, params={"mime_type": "image/gif"}, headers=editor.basic)
    assert gifs.json()["total"] == 3
    both = await client.get(
        MEDIA, params={"mime_type": "image/gif,image/png"}, headers=editor.basic
    )
    assert both.json()["total"] == 4
    assert "mime_type=image%2Fgif%2Cimage%2Fpng" in both.json()["rest_url"]
    bad = await client.get(MEDIA, params={"mime_type": "text/html"}, headers=editor.basic)
    assert bad.status_code == 400
    assert "mime_type" in bad.json()["data"]["params"]


async def test_a_changed_image_is_a_change_of_its_records(
    client: AsyncClient, editor: AuthFor
) -> None:
    image = await uploaded(client, editor, picture("PNG"))
    venue = await create_post(client, editor, "venues", venue="Pier", image=image["id"])
    event = await create_record(client, editor, "events", "Regatta", venue=venue["id"])
    since = (await client.get(f"{API}/changes")).json()["next_since"]
    patched = await client.patch(
        f"{MEDIA}/{image['id']}", json={"alt_text": "The pier"}, headers=editor.basic
    )
    assert patched.status_code == 200
    feed = await client.get(f"{API}/changes", params={"since": since})
    changes = {(c["kind"], c["id"]): c for c in feed.json()["changes"]}
    assert set(changes) >= {("venue", venue["id"]), ("event", event["id"])}
    assert changes["venue", venue["id"]]["record"]["image"]["alt"] == "The pier"
    assert changes["event", event["id"]]["record"]["venue"]["image"]["alt"] == "The pier"


async def test_the_routes_are_in_the_doc(client: AsyncClient) -> None:
    doc = (await client.get(f"{API}/doc", headers={"Accept": "application/json"})).json()
    paths = doc["paths"]
    media = next(path for path in paths if path.endswith("/media"))
    assert {"get", "post"} <= set(paths[media])
    body = paths[media]["post"]["requestBody"]["content"]
    assert {"multipart/form-data", "application/octet-stream"} <= set(body)
    one = next(path for path in paths if path.endswith("/media/{id}"))
    assert {"get", "patch", "delete"} <= set(paths[one])
    assert "409" in paths[one]["delete"]["responses"]


# ---- almanac media prune ------------------------------------------------------------------


async def test_prune_removes_only_files_no_image_names(
    client: AsyncClient, editor: AuthFor, db: AsyncSession, media_dir: Path
) -> None:
    kept = await uploaded(client, editor, picture("PNG", (170, 160)))
    orphan = "ab/" + "ab" * 16 + "-150x150.png"
    young = "cd/" + "cd" * 16 + ".png"
    for name in (orphan, young):
        (media_dir / name).parent.mkdir(exist_ok=True)
        (media_dir / name).write_bytes(b"left behind")
    partial = media_dir / ".partial" / "0123"
    partial.parent.mkdir(exist_ok=True)
    partial.write_bytes(b"half")
    an_hour_ago = time.time() - 3700
    for path in (media_dir / orphan, partial):
        os.utime(path, (an_hour_ago, an_hour_ago))
    storage = LocalStorage(media_dir)
    rehearsal = await prune(MediaRepository(db), storage, dry_run=True)
    assert rehearsal.removed == [orphan]
    assert (media_dir / orphan).exists()
    pruned = await prune(MediaRepository(db), storage)
    assert pruned.removed == [orphan]
    assert pruned.leftovers == 1
    left = stored(media_dir)
    assert orphan not in left
    assert young in left  # younger than the grace period: perhaps an upload committing
    assert ".partial/0123" not in left
    for size in kept["sizes"].values():
        assert (await fetch(client, size["url"])).status_code == 200
    (media_dir / young).unlink()


def test_the_prune_command(database_url: str, tmp_path: Path) -> None:
    orphan = tmp_path / "media" / "ef" / ("ef" * 16 + ".jpg")
    orphan.parent.mkdir(parents=True)
    orphan.write_bytes(b"nobody's")
    env = {**os.environ, "DATABASE_URL": database_url, "ALMANAC_DATA_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "app.cli", "media", "prune", "--grace-minutes", "0"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"removed ef/{'ef' * 16}.jpg" in done.stdout
    assert "removed 1 file(s)" in done.stdout
    assert not orphan.exists()


# ---- almanac import --copy-images -----------------------------------------------------------


async def test_import_copies_images_once(
    client: AsyncClient, auth: Auth, maker: async_sessionmaker[AsyncSession], media_dir: Path
) -> None:
    await auth("administrator")  # the owner of imported records
    site = Site()
    tec = site.tec
    tec.files["/hall.jpg"] = (picture("JPEG", (640, 480)), "image/jpeg")
    tec.files["/poster.png"] = (picture("PNG", (800, 600)), "image/png")
    tec.files["/fake.jpg"] = (HTML, "image/jpeg")
    broken = {"url": "http://tec.test/fake.jpg", "id": 11, "extension": "jpg"}
    gone = {"url": "http://tec.test/gone.gif", "id": 12, "extension": "gif"}
    tec.add_organizer("Broken image", image=broken)
    tec.add_organizer("Gone image", image=gone)
    tec.add_organizer("Same hall picture", image=tec.venues[site.hall]["image"])
    options: dict[str, Any] = {
        "copy_images": True,
        "media": LocalStorage(media_dir),
        "copy_limits": CopyLimits(MAX_UPLOAD, MAX_PIXELS),
    }

    def downloads() -> list[str]:
        return [r for r in tec.requests if r.split("?")[0] in tec.files or "gone" in r]

    rehearsal = await run(maker, tec, dry_run=True, **options)
    assert "images not copied (dry run)" in rehearsal.notes
    assert downloads() == []

    summary = await run(maker, tec, **options)
    assert summary.images is not None
    assert (summary.images.copied, summary.images.reused) == (2, 0)
    failed = dict(summary.images.failed)
    assert failed["http://tec.test/gone.gif"] == "answered 404"
    assert "not an image of an accepted type" in failed["http://tec.test/fake.jpg"]
    assert "  images: 2 copied, 0 copied before, 2 failed" in summary.lines()
    assert summary.kinds["event"].created == 6  # the failures stopped nothing
    assert sorted(downloads()) == ["/fake.jpg?", "/gone.gif?", "/hall.jpg?", "/poster.png?"]
    # The source's credentials are for its API: images may live on another host.
    assert tec.file_credentials == [None, None, None]

    venues = (await client.get(f"{API}/venues", params={"per_page": 50})).json()["venues"]
    hall = next(v for v in venues if v["venue"].startswith("Hall"))
    assert hall["image"]["url"].startswith("http://testserver/media/")
    assert (hall["image"]["width"], hall["image"]["height"]) == (640, 480)
    assert set(hall["image"]["sizes"]) == {"thumbnail", "medium", "full"}
    organizers = (await client.get(f"{API}/organizers", params={"per_page": 50})).json()
    by_name = {o["organizer"]: o for o in organizers["organizers"]}
    assert by_name["Same hall picture"]["image"]["id"] == hall["image"]["id"]  # one copy
    assert by_name["Gone image"]["image"]["url"] == "http://tec.test/gone.gif"  # kept as it was
    events = (await client.get(f"{API}/events", params={"per_page": 50})).json()["events"]
    concert = next(e for e in events if e["image"] and e["image"]["extension"] == "png")
    assert list(concert["image"]["sizes"]) == ["thumbnail", "medium", "medium_large", "full"]
    assert (concert["image"]["width"], concert["image"]["height"]) == (800, 600)
    poster = (await fetch(client, concert["image"]["sizes"]["medium"]["url"])).content
    assert opened(poster).size == (300, 225)

    # Again: nothing copied before is downloaded (the failures are tried again).
    tec.requests.clear()
    again = await run(maker, tec, **options)
    assert again.images is not None
    assert (again.images.copied, again.images.reused) == (0, 0)
    assert sorted(downloads()) == ["/fake.jpg?", "/gone.gif?"]
    # A venue changed at the source names the old address again: it shows the copy, which
    # is not downloaded again.
    tec.touch(tec.venues[site.hall], city="Graz")
    tec.requests.clear()
    third = await run(maker, tec, **options)
    assert third.images is not None
    assert (third.images.copied, third.images.reused) == (0, 1)
    assert "/hall.jpg?" not in downloads()
    moved = (await client.get(f"{API}/venues/{hall['id']}")).json()
    assert moved["city"] == "Graz"
    assert moved["image"]["id"] == hall["image"]["id"]
