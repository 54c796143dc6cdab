"""What finds the pages: `/sitemap.xml` (a sitemap index once there are more URLs than one
sitemap may hold), `/robots.txt` naming it, and the pages' own assets (the stylesheet and
`embed.js`, the map script and Leaflet's files), served by almanac itself: no CDN, nothing
remote."""

from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from fastapi import APIRouter, Request
from starlette.responses import FileResponse, Response

from app.core.app_services import services_of
from app.core.database.engine import MakerDep
from app.core.errors import no_route
from app.core.web.urls import urls_of
from app.pages.leaflet import LEAFLET_DIR, LEAFLET_FILES
from app.pages.paths import READS
from app.pages.repository import Entry, sitemap_count, sitemap_entries

discovery_router = APIRouter(include_in_schema=False)

SITEMAP_LIMIT = 50_000  # URLs per sitemap file (sitemaps.org)
XML = "application/xml; charset=utf-8"
ASSETS = Path(__file__).parent / "static"
ASSET_TYPES = {
    "almanac.css": "text/css; charset=utf-8",
    "embed.js": "text/javascript; charset=utf-8",
    "filter-bar.js": "text/javascript; charset=utf-8",
    "map.js": "text/javascript; charset=utf-8",
    "rsvp.js": "text/javascript; charset=utf-8",
}
# Assets change with a release only; a day, revalidated by their ETag after that.
ASSET_CACHE = "public, max-age=86400"


def _site(request: Request) -> str:
    settings = services_of(request).settings
    return urls_of(request, settings).site


@discovery_router.api_route("/robots.txt", methods=READS)
async def robots(request: Request) -> Response:
    text = f"User-agent: *\nAllow: /\nSitemap: {_site(request)}/sitemap.xml\n"
    return Response(text, media_type="text/plain; charset=utf-8")


@discovery_router.api_route("/sitemap.xml", methods=READS)
async def sitemap(request: Request, maker: MakerDep) -> Response:
    site = _site(request)
    limit = SITEMAP_LIMIT  # read here: smaller in a test
    async with maker() as session:
        total = await sitemap_count(session)
        if total > limit:
            parts = -(-total // limit)
            items = "".join(
                f"<sitemap><loc>{escape(site)}/sitemap-{n}.xml</loc></sitemap>"
                for n in range(1, parts + 1)
            )
            body = (
                '<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{items}'
                "</sitemapindex>\n"
            )
            return Response(body, media_type=XML)
        entries = await sitemap_entries(session, 0, limit)
    return Response(_urlset(site, entries), media_type=XML)


@discovery_router.api_route("/sitemap-{number:id}.xml", methods=READS)
async def sitemap_part(request: Request, number: int, maker: MakerDep) -> Response:
    limit = SITEMAP_LIMIT  # read here: smaller in a test
    entries: Sequence[Entry] = []
    if number >= 1:
        async with maker() as session:
            entries = await sitemap_entries(session, (number - 1) * limit, limit)
    if not entries:
        raise no_route()
    return Response(_urlset(_site(request), entries), media_type=XML)


def _urlset(site: str, entries: Sequence[Entry]) -> str:
    items = []
    for path, modified in entries:
        lastmod = f"<lastmod>{modified:%Y-%m-%d}</lastmod>" if modified else ""
        items.append(f"<url><loc>{escape(site + path)}</loc>{lastmod}</url>")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"{''.join(items)}</urlset>\n"
    )


@discovery_router.api_route("/assets/{name}", methods=READS)
async def asset(request: Request, name: str) -> Response:
    """The stylesheet and embed.js; a file of the same name in `TEMPLATES_DIR` wins."""
    if name not in ASSET_TYPES:
        raise no_route()
    settings = services_of(request).settings
    override = settings.templates_dir / name if settings.templates_dir else None
    path = override if override is not None and override.is_file() else ASSETS / name
    headers = {"Cache-Control": ASSET_CACHE, "Access-Control-Allow-Origin": "*"}
    return FileResponse(path, media_type=ASSET_TYPES[name], headers=headers)


@discovery_router.api_route("/assets/leaflet/{name:path}", methods=READS)
async def leaflet_asset(name: str) -> Response:
    """Leaflet's script, stylesheet and images, when the build installed them."""
    path = LEAFLET_DIR / name
    if name not in LEAFLET_FILES or not path.is_file():
        raise no_route()
    headers = {"Cache-Control": ASSET_CACHE}
    return FileResponse(path, media_type=LEAFLET_FILES[name], headers=headers)


@discovery_router.api_route("/embed.js", methods=READS)
async def embed(request: Request) -> Response:
    """`<script src="{site}/embed.js" async>`: the embeddable element."""
    return await asset(request, "embed.js")
