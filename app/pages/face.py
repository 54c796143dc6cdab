"""The site's face on every page (docs/configuration.md, "The site's face"): its name
(`SITE_NAME`, else the public site's host), its logo (`SITE_LOGO`, an image of the media
library: a size just large enough for the header, with its width and height), its accent
colour (`SITE_ACCENT`, moved toward black or white as far as legible text needs on the
stylesheet's backgrounds, in light and in dark mode), and a header and a footer text per
language (a few inline tags kept, the rest escaped)."""

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.core.rules.contrast import legible
from app.core.rules.html import inline_text
from app.core.settings import Settings
from app.core.web.urls import Urls
from app.media.repository import MediaRecord

# The backgrounds links sit on in almanac.css (--almanac-bg, -surface, -today), in its
# light and its dark scheme: keep them in step with it.
LIGHT_BACKGROUNDS = ("#ffffff", "#f4f4f7", "#fff4c2")
DARK_BACKGROUNDS = ("#121216", "#1d1d24", "#3b3413")
LOGO_HEIGHT = 48  # CSS pixels (almanac.css `.brand img`): a size twice that is sharp
CROPPED_SIZES = frozenset({"thumbnail"})  # squares cut out of the image: never a logo


@dataclass(frozen=True, slots=True)
class Logo:
    url: str
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class SiteFace:
    name: str
    logo: Logo | None = None
    accent: str = ""  # the custom properties of the page's `style` attribute, or ""
    header: str = ""  # sanitised markup
    footer: str = ""


def site_name(settings: Settings, site: str) -> str:
    """`SITE_NAME`, else the public site's host (and port)."""
    return settings.site_name or site.split("://", 1)[-1]


@lru_cache(maxsize=16)
def accent_properties(accent: str | None) -> str:
    """The custom properties almanac.css reads the site's accent from, legible in light
    and in dark mode (text on the accent: white in light mode, near-black in dark mode,
    which the stylesheet's own colours already are)."""
    if not accent:
        return ""
    light = legible(accent, LIGHT_BACKGROUNDS, "#000000")
    dark = legible(accent, DARK_BACKGROUNDS, "#ffffff")
    return f"--site-accent: {light}; --site-accent-dark: {dark}"


@lru_cache(maxsize=64)
def _sanitised(text: str) -> str:
    return inline_text(text)


def logo_of(image: MediaRecord | None, urls: Urls) -> Logo | None:
    """The smallest uncropped size of `image` at least twice the header's height (else its
    largest, else the file), as WebP when it has that variant."""
    if image is None:
        return None
    sizes: list[dict[str, Any]] = [
        size
        for name, size in image.sizes.items()
        if name not in CROPPED_SIZES and size.get("file") and size.get("height")
    ]
    sizes.sort(key=lambda size: int(size["height"]))
    chosen = next((size for size in sizes if size["height"] >= 2 * LOGO_HEIGHT), None)
    if chosen is None:
        if not image.file or not image.height:
            return None
        chosen = {"file": image.file, "width": image.width, "height": image.height}
    variant = (chosen.get("sources") or {}).get("image/webp") or chosen
    return Logo(urls.media(variant["file"]), int(chosen["width"]), int(chosen["height"]))


def site_face(
    settings: Settings, language: str, urls: Urls, logo: MediaRecord | None = None
) -> SiteFace:
    header = settings.site_text(settings.site_header_text, language)
    footer = settings.site_text(settings.site_footer_text, language)
    return SiteFace(
        name=site_name(settings, urls.site),
        logo=logo_of(logo, urls),
        accent=accent_properties(settings.site_accent),
        header=_sanitised(header) if header else "",
        footer=_sanitised(footer) if footer else "",
    )
