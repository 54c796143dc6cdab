"""Markup on the public pages, whoever wrote it (docs/design.md, Markup from untrusted
writers): an editor's or an administrator's description keeps its markup in the API, but a
page prints only the allowed rich text, under a Content-Security-Policy whose one script
allowance is the response's nonce. A page shown to a desk session is `Cache-Control:
private`. Through HTTP, into PostgreSQL, as a visitor's browser would read the pages."""

import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import pytest
from httpx import AsyncClient, Response
from sqlalchemy.ext.asyncio import AsyncSession

from tests.desk_support import DeskUserFactory, desk_login
from tests.factories import API, Auth, AuthFor, create_record, make_event

TOMORROW = (datetime.now(UTC) + timedelta(days=1)).date()
SENTINEL = "pwned"  # what every hostile payload would write somewhere if it ran

# One payload per way markup can run code; each would set document.title (or more).
HOSTILE = {
    "script": f"<script>document.title='{SENTINEL}'</script>",
    "onerror": f"<img src=\"x.png\" onerror=\"document.title='{SENTINEL}'\">",
    "javascript href": f"<a href=\"javascript:document.title='{SENTINEL}'\">js link</a>",
    "entity-hidden javascript href": f'<a href="jav&#x09;ascript&colon;{SENTINEL}()">hidden</a>',
    "style expression": f'<p style="width: expression({SENTINEL}())">expression</p>',
    "style url(javascript:)": f"<p style=\"background: url(javascript:{SENTINEL}())\">url</p>",
    "style escaped expression": f'<p style="width: ex\\70 ression({SENTINEL}())">escaped</p>',
    "svg onload": f'<svg onload="{SENTINEL}()"><circle r="1"></circle></svg>',
    "iframe srcdoc": f"<iframe srcdoc=\"<script>parent.{SENTINEL}()</script>\"></iframe>",
    "object": f'<object data="javascript:{SENTINEL}()"></object><embed src="{SENTINEL}.swf">',
    "form": f'<form action="https://evil.test/"><button formaction="javascript:{SENTINEL}()">go</button></form>',
    "meta refresh": f'<meta http-equiv="refresh" content="0;url=javascript:{SENTINEL}()">',
    "base": '<base href="https://evil.test/">',
    "details ontoggle": f'<details open ontoggle="{SENTINEL}()"><summary>s</summary></details>',
    "style element": f"<style>body {{ background: url(https://evil.test/{SENTINEL}) }}</style>",
    "mutation": f"<math><mtext><table><mglyph><style><img src=x onerror={SENTINEL}()>",
}  # fmt: skip

# The rich text the desk's toolbar makes (app/desk/events/editor.py TOOLBAR), and a few more
# allowed tags: each must reach the page as written.
ALLOWED = (
    "<h2>Programme</h2>",
    "<h3>Details</h3>",
    "<p><strong>strong</strong> <em>em</em> <b>bold</b> <i>italic</i></p>",
    '<p><a href="https://example.org/tickets">tickets</a></p>',
    "<ul><li>first</li><li>second</li></ul>",
    "<ol><li>one</li></ol>",
    "<blockquote>quoted</blockquote>",
    '<p style="text-align:center">centred</p>',
    '<p><img src="https://images.example.org/hall.jpg" alt="Hall"></p>',
)


def markup(label: str) -> str:
    """A description: the allowed rich text, a label to find it by, every hostile payload."""
    return f"<p>{label}</p>" + "".join(ALLOWED) + "".join(HOSTILE.values())


class Harmful(HTMLParser):
    """What of a parsed page could run script: elements, attributes and URLs a browser
    would act on. Text is text (escaped markup in a title is harmless)."""

    ELEMENTS = frozenset(
        {"iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math", "base"}
        | {"style", "noscript", "template"}
    )
    URL_ATTRIBUTES = frozenset(
        {"href", "src", "action", "formaction", "data", "poster", "background", "xlink:href"}
    )

    def __init__(self, nonce: str | None) -> None:
        super().__init__(convert_charrefs=True)
        self.nonce = nonce
        self.found: list[str] = []
        self.scripts = 0
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "script":
            self.scripts += 1
            self._in_script = True
            # The site's own scripts (the filter bar's, the RSVP form's) are served from its
            # assets; any other script, inline or not, is content that would run.
            own = re.fullmatch(r"http://testserver/assets/[a-z-]+\.js", values.get("src", ""))
            if values.get("type") != "application/ld+json" and own is None:
                self.found.append(f"<script {values}>")
            if self.nonce is None or values.get("nonce") != self.nonce:
                self.found.append(f"a script without the response's nonce: {values}")
        if tag in self.ELEMENTS:
            self.found.append(f"<{tag}>")
        if tag == "form" and values.get("class") not in ("search", "password", "filter-bar"):
            self.found.append(f"<form {values}>")
        if tag == "meta" and "http-equiv" in values:
            self.found.append(f"<meta {values}>")
        for name, value in values.items():
            squeezed = re.sub(r"[\x00-\x20]", "", value).lower()
            if name.startswith("on") or name == "srcdoc":
                self.found.append(f"<{tag} {name}>")
            if name in self.URL_ATTRIBUTES and squeezed.startswith(("javascript:", "vbscript:", "data:text")):  # fmt: skip
                self.found.append(f"<{tag} {name}={value!r}>")
            if name == "style" and re.search(r"expression|url\(|javascript|\\|behavior", squeezed):
                self.found.append(f"<{tag} style={value!r}>")
            if SENTINEL in value:
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        # Script text is the JSON-LD's data (its texts are HTML-escaped, tojson escapes `<`).
        if not self._in_script and SENTINEL in data:
            self.found.append(f"text {data[:80]!r}")


def nonce_of(response: Response) -> str | None:
    policy = response.headers.get("content-security-policy", "")
    found = re.search(r"'nonce-([^']+)'", policy)
    return found.group(1) if found else None


def assert_harmless_page(response: Response) -> None:
    assert response.status_code == 200, (response.url, response.text[:300])
    checker = Harmful(nonce_of(response))
    checker.feed(response.text)
    checker.close()
    assert checker.found == [], response.url


async def hostile_site(client: AsyncClient, who: AuthFor) -> dict[str, str]:
    """A venue, an organizer, a category, a tag and an event of them, every description and
    excerpt `markup(...)`, written by `who`; the pages that show each, by what they show."""
    venue = await create_record(client, who, "venues", "Old Mill", description=markup("VENUE-TEXT"))
    organizer = await create_record(
        client, who, "organizers", "Film Society", description=markup("ORGANIZER-TEXT")
    )
    terms = {}
    for plural, name in (("categories", "Cinema"), ("tags", "Night")):
        made = await client.post(
            f"{API}/{plural}",
            json={"name": name, "description": markup(f"{plural.upper()}-TEXT")},
            headers=who.basic,
        )
        assert made.status_code == 201, made.text
        terms[plural] = made.json()["slug"]
    event = await create_record(
        client,
        who,
        "events",
        "Film <img src=x onerror=alert(7)> night",
        start_date=f"{TOMORROW} 18:00:00",
        end_date=f"{TOMORROW} 20:00:00",
        description=markup("DESCRIPTION-TEXT"),
        excerpt=markup("EXCERPT-TEXT"),
        venue=venue["id"],
        organizer=[organizer["id"]],
        categories=[terms["categories"]],
        tags=[terms["tags"]],
    )
    # The API keeps an editor's markup as written (the reference's `unfiltered_html`).
    assert "<script>" in event["description"]
    category, tag = terms["categories"], terms["tags"]
    return {
        f"/event/{event['slug']}/": "DESCRIPTION-TEXT",
        f"/de/event/{event['slug']}/": "DESCRIPTION-TEXT",
        "/events/list/": "EXCERPT-TEXT",
        f"/events/{TOMORROW}/": "EXCERPT-TEXT",
        f"/events/month/{TOMORROW:%Y-%m}/": event["slug"],
        f"/venue/{venue['slug']}/": "VENUE-TEXT",
        f"/organizer/{organizer['slug']}/": "ORGANIZER-TEXT",
        f"/events/category/{category}/": "CATEGORIES-TEXT",
        f"/events/tag/{tag}/": "TAGS-TEXT",
        f"/events/category/{category}/month/": event["slug"],
    }


@pytest.mark.parametrize("role", ["editor", "administrator"])
async def test_hostile_markup_of_editors_and_administrators_is_gone_from_every_page(
    client: AsyncClient, auth: Auth, role: str
) -> None:
    pages = await hostile_site(client, await auth(role))
    for path, shown in pages.items():
        response = await client.get(path)
        assert shown in response.text, path  # the record's markup is on this page
        assert_harmless_page(response)
        if shown.endswith("-TEXT"):
            for allowed in ALLOWED:
                assert allowed in response.text, (path, allowed)


async def test_markup_stored_outside_the_api_is_sanitised_on_its_pages(
    client: AsyncClient, db: AsyncSession
) -> None:
    """Records written before this rule, by the importer (as an administrator) or by SQL:
    the page sanitises what is stored, not what a write path let through."""
    await make_event(
        db,
        title="Imported night",
        slug="imported-night",
        description=markup("IMPORTED-TEXT"),
        excerpt=markup("IMPORTED-EXCERPT"),
    )
    for path, shown in (("/event/imported-night/", "IMPORTED-TEXT"), ("/events/list/", "IMPORTED-EXCERPT")):  # fmt: skip
        response = await client.get(path)
        assert shown in response.text, path
        assert_harmless_page(response)
        assert all(allowed in response.text for allowed in ALLOWED), path


async def test_hostile_markup_is_gone_for_a_signed_in_administrator_too(
    client: AsyncClient, auth: Auth, desk_user: DeskUserFactory
) -> None:
    """The page a desk session sees (it may show drafts) is sanitised as a visitor's is."""
    pages = await hostile_site(client, await auth("editor"))
    await desk_login(client, await desk_user("administrator"))
    for path in pages:
        assert_harmless_page(await client.get(path))


def policy_of(response: Response) -> dict[str, list[str]]:
    header = response.headers.get("content-security-policy")
    assert header, f"no Content-Security-Policy on {response.url}"
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


async def test_every_page_has_a_content_security_policy_and_its_scripts_the_nonce(
    client: AsyncClient, editor: AuthFor, auth: Auth
) -> None:
    pages = await hostile_site(client, editor)
    protected = await create_record(
        client, editor, "events", "Members only", password="sesame", excerpt="Members"
    )
    paths = [
        *pages,
        "/events/",
        "/sk/events/list/",
        f"/events/{TOMORROW}/",
        "/events/today/",
        f"/event/{protected['slug']}/",  # the password form
        "/event/no-such-event/",  # the 404 page
        "/events/nothing-here/list/",
        "/events/list/?tribe-bar-date=not-a-date",  # the 400 page
    ]
    nonces = set()
    for path in paths:
        response = await client.get(path)
        assert response.headers["content-type"].startswith("text/html"), path
        policy = policy_of(response)
        nonce = nonce_of(response)
        assert nonce is not None, path
        assert len(nonce) >= 22, path  # 128 bits or more, base64
        assert policy["script-src"] == [f"'nonce-{nonce}'"], path
        assert policy["object-src"] == ["'none'"]
        assert policy["base-uri"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"]
        assert policy["form-action"] == ["'self'", "http://testserver"]  # the site's URL
        assert policy["default-src"] == ["'self'"]
        assert "'unsafe-inline'" not in policy.get("style-src", []) + policy["script-src"]
        scripts = re.findall(r"<script\b[^>]*>", response.text)
        assert all(f'nonce="{nonce}"' in tag for tag in scripts), (path, scripts)
        nonces.add(nonce)
    assert len(nonces) == len(paths)  # a new one for every response
    posted = await client.post(f"/event/{protected['slug']}/", data={"post_password": "sesame"})
    assert posted.status_code == 200
    assert "Members only" in posted.text
    assert f'nonce="{nonce_of(posted)}"' in posted.text  # the event's JSON-LD
    # The desk keeps its own policy (its scripts are files of its own).
    desk = await client.get("/desk/signin")
    assert "'self'" in policy_of(desk)["script-src"]


async def test_a_page_shown_to_a_desk_session_is_private(
    client: AsyncClient, editor: AuthFor, desk_user: DeskUserFactory
) -> None:
    published = await create_record(client, editor, "events", "Open rehearsal")
    draft = await create_record(client, editor, "events", "Secret draft", status="draft")
    venue = await create_record(client, editor, "venues", "Hidden Hall", status="draft")
    paths = [
        f"/event/{draft['slug']}/",
        f"/event/{published['slug']}/",
        f"/venue/{venue['slug']}/",
        "/events/list/",
        f"/events/month/{TOMORROW:%Y-%m}/",
    ]
    for path in paths:
        anonymous = await client.get(path)
        assert "private" not in anonymous.headers.get("cache-control", ""), path
    await desk_login(client, await desk_user("editor"))
    shown_draft = await client.get(paths[0])
    assert "Secret draft" in shown_draft.text  # rendered for the session: a draft
    for path in paths:
        response = await client.get(path)
        assert response.status_code == 200, path
        cache_control = [part.strip() for part in response.headers["cache-control"].split(",")]
        assert "private" in cache_control, path
        assert not {"public", "s-maxage"} & {part.split("=")[0] for part in cache_control}
        assert "cookie" in response.headers["vary"].lower()
        head = await client.head(path)
        assert "private" in head.headers["cache-control"], path
