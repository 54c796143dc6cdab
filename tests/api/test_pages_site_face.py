"""The site's face through HTTP (app/pages/face.py): SITE_NAME in the header, the titles,
Open Graph and the feeds; SITE_LOGO (an image of the media library) in the header and as the
pages' Open Graph image; SITE_ACCENT, legible in light and dark mode; a header and a footer
text per language, sanitised; and the settings' refusals."""

import re
from datetime import UTC, datetime, timedelta

import pytest
from fastapi import FastAPI
from httpx import AsyncClient
from pydantic import ValidationError

from app.core.app_services import app_services
from app.core.rules.contrast import contrast, parse_hex
from app.core.settings import Settings
from app.pages.face import DARK_BACKGROUNDS, LIGHT_BACKGROUNDS
from tests.factories import API, AuthFor, create_record
from tests.media_files import picture

DAY = (datetime.now(UTC) + timedelta(days=2)).date().isoformat()


def meta(html: str, name: str) -> str | None:
    found = re.search(rf'<meta property="{name}" content="([^"]*)">', html)
    return found.group(1) if found else None


def brand(html: str) -> str:
    found = re.search(r'<a class="brand" href="[^"]*">(.*?)</a>', html, re.S)
    assert found, html
    return found.group(1)


async def concert(client: AsyncClient, editor: AuthFor, **fields: object) -> dict[str, object]:
    return await create_record(
        client,
        editor,
        "events",
        "Harbour Concert",
        start_date=f"{DAY} 19:00:00",
        end_date=f"{DAY} 21:00:00",
        **fields,
    )


async def test_without_settings_the_host_names_the_site(client: AsyncClient) -> None:
    html = (await client.get("/events/list/")).text
    assert brand(html) == "<span>testserver</span>"  # no logo
    assert re.search(r"<title>[^<]* · testserver</title>", html)
    assert meta(html, "og:site_name") == "testserver"
    assert "og:image" not in html
    assert '<html lang="en">' in html  # no accent of the site's own
    assert 'class="site-text"' not in html


async def test_the_site_name_in_header_titles_open_graph_and_feeds(
    client: AsyncClient, app: FastAPI, editor: AuthFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_services(app).settings, "site_name", "Riverside & Co")
    event = await concert(client, editor, excerpt="<p>Brass on the quay.</p>")
    for path in ("/events/list/", "/de/events/month/", "/sk/events/today/"):
        html = (await client.get(path)).text
        assert brand(html) == "<span>Riverside &amp; Co</span>", path
        assert re.search(r"<title>[^<]* · Riverside &amp; Co</title>", html), path
        assert meta(html, "og:site_name") == "Riverside &amp; Co"
        assert meta(html, "og:url") == f"http://testserver{path}"
    # The event page: its own title and description in Open Graph, once each.
    page = (await client.get(f"/event/{event['slug']}/")).text
    assert meta(page, "og:title") == "Harbour Concert"
    assert meta(page, "og:description") == "Brass on the quay."
    assert page.count('property="og:title"') == 1
    assert "<title>Harbour Concert · Riverside &amp; Co</title>" in page
    # The 404 page too (no record, no session behind it).
    missing = await client.get("/de/events/list/page/2/more/")
    assert missing.status_code == 404
    assert brand(missing.text) == "<span>Riverside &amp; Co</span>"
    # The feeds name their calendar after the site.
    feed = await client.get(f"{API}/events.ics")
    assert feed.status_code == 200
    unfolded = feed.text.replace("\r\n ", "")
    assert re.search(r"X-WR-CALNAME:Riverside & Co \u2013 ", unfolded), unfolded[:400]


async def test_the_logo_from_the_media_library(
    client: AsyncClient, app: FastAPI, editor: AuthFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    upload = await client.post(
        f"{API}/media",
        files={"file": ("logo.png", picture("PNG", (900, 300)), "image/png")},
        headers=editor.basic,
    )
    assert upload.status_code == 201, upload.text
    image = upload.json()
    monkeypatch.setattr(app_services(app).settings, "site_logo", image["id"])
    html = (await client.get("/sk/events/list/")).text
    logo = re.search(r'<img src="([^"]+)" width="(\d+)" height="(\d+)" alt="">', brand(html))
    assert logo, brand(html)
    url, width, height = logo.group(1), int(logo.group(2)), int(logo.group(3))
    # A size twice the header's height (48 px) or more, not the cropped thumbnail, not the
    # whole file; its proportions.
    assert 96 <= height < 300
    assert width == height * 3
    assert url != image["url"]
    assert url.endswith(".webp")
    stored = await client.get(url.removeprefix("http://testserver"))
    assert stored.status_code == 200
    assert stored.headers["content-type"] == "image/webp"
    assert meta(html, "og:image") == url  # the pages' picture when they have none
    # An event with a picture of its own shows that one.
    photo = await client.post(
        f"{API}/media",
        files={"file": ("quay.jpg", picture("JPEG", (800, 600)), "image/jpeg")},
        headers=editor.basic,
    )
    event = await concert(client, editor, image=photo.json()["id"])
    page = (await client.get(f"/event/{event['slug']}/")).text
    assert meta(page, "og:image") == photo.json()["url"]
    assert page.count('property="og:image"') == 1
    # A logo that is gone (deleted, or a wrong ID): the name alone, the page as ever.
    monkeypatch.setattr(app_services(app).settings, "site_logo", image["id"] + 1000)
    gone = await client.get("/events/list/")
    assert gone.status_code == 200
    assert "<img" not in brand(gone.text)


@pytest.mark.parametrize(
    ("asked", "light_kept"),
    [("#0b57d0", True), ("#FFD500", False), ("#8a2be2", True), ("#c0f", False)],
)
async def test_the_accent_is_legible_in_light_and_dark_mode(
    client: AsyncClient,
    app: FastAPI,
    monkeypatch: pytest.MonkeyPatch,
    asked: str,
    light_kept: bool,
) -> None:
    accent = Settings(site_accent=asked).site_accent
    assert accent is not None
    assert re.fullmatch(r"#[0-9a-f]{6}", accent)
    monkeypatch.setattr(app_services(app).settings, "site_accent", accent)
    html = (await client.get("/events/list/")).text
    style = re.search(r'<html lang="en" style="([^"]+)">', html)
    assert style, html[:300]
    values = dict(re.findall(r"(--site-accent(?:-dark)?): (#[0-9a-f]{6})", style.group(1)))
    light, dark = values["--site-accent"], values["--site-accent-dark"]
    assert (light == accent) is light_kept
    for colour, grounds in ((light, LIGHT_BACKGROUNDS), (dark, DARK_BACKGROUNDS)):
        for ground in grounds:
            assert contrast(parse_hex(colour), parse_hex(ground)) >= 4.5, (colour, ground)
    # Buttons: white text on the light accent, near-black (the stylesheet's) on the dark one.
    assert contrast(parse_hex(light), parse_hex("#ffffff")) >= 4.5
    assert contrast(parse_hex(dark), parse_hex("#0b0b10")) >= 4.5


async def test_header_and_footer_texts_per_language_sanitised(
    client: AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(
        site_header_text='{"en": "Welcome <em>aboard</em><script>alert(1)</script>", '
        '"de": "Willkommen an Bord"}',
        site_footer_text='A <a href="https://example.org/" onclick="x()">river</a> & a quay',
    )
    for name in ("site_header_text", "site_footer_text"):
        monkeypatch.setattr(app_services(app).settings, name, getattr(settings, name))
    english = (await client.get("/events/list/")).text
    header = re.search(r'</header>\s*<p class="site-text">(.*?)</p>', english, re.S)
    assert header, english
    assert header.group(1) == "Welcome <em>aboard</em>"
    assert "alert(1)" not in english
    footer = re.search(r'<footer class="site">\s*<p class="site-text">(.*?)</p>', english, re.S)
    assert footer
    assert 'href="https://example.org/"' in footer.group(1)
    assert "onclick" not in footer.group(1)
    german = (await client.get("/de/events/list/")).text
    assert '<p class="site-text">Willkommen an Bord</p>' in german
    assert '<a href="https://example.org/"' in german  # one footer for every language
    # A language without its own text: the default language's.
    slovak = (await client.get("/sk/events/list/")).text
    assert '<p class="site-text">Welcome <em>aboard</em></p>' in slovak


def test_the_settings_read_and_refuse() -> None:
    assert Settings(site_accent=" #ABC ").site_accent == "#aabbcc"
    assert Settings(site_accent="").site_accent is None
    assert Settings(site_header_text="Hello").site_header_text == {"*": "Hello"}
    assert Settings(site_header_text='{"sk": "Ahoj", "de": " "}').site_header_text == {"sk": "Ahoj"}
    assert Settings(site_footer_text="").site_footer_text == {}
    settings = Settings(site_header_text='{"en": "Hi", "sk": "Ahoj"}', default_language="en")
    assert settings.site_text(settings.site_header_text, "de") == "Hi"
    assert settings.site_text(settings.site_header_text, "sk") == "Ahoj"
    for bad in (
        {"site_accent": "red"},
        {"site_accent": "#12345"},
        {"site_accent": "#gggggg"},
        {"site_logo": 0},
        {"site_header_text": '{"fr": "Bonjour"}'},
        {"site_header_text": '{"en": '},
        {"site_footer_text": "x" * 2001},
        {"site_name": "n" * 201},
    ):
        with pytest.raises(ValidationError):
            Settings(**bad)  # type: ignore[arg-type]
