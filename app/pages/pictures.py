"""Events' images on the pages: which of the media library's sizes a list's thumbnail, a
photo card or an event page shows, their `srcset`, and the box each takes (the image's own
width and height, so that the page does not move when it loads).

An image body is the API's (app/posts/images.py): `url`, `width` and `height` when known,
and for an upload its `sizes` (thumbnail 150x150 cropped, medium, medium_large, large and
full: each `{width, height, url}`) and `alt`. An image recorded by its URL has no sizes:
it is shown as it is."""

from dataclasses import dataclass
from typing import Any

# A size whose shape differs from the image's by more than this is a crop (the library's
# square thumbnail): it is no candidate where the image shows whole.
SHAPE_TOLERANCE = 0.02
# The event page's column (almanac.css: .event-page .image at most 48rem of 16 px).
PAGE_WIDTH = 768
# A list's thumbnail: a square box of 6rem (almanac.css, .event-thumb), 2x for sharp screens.
THUMB_WIDTH = 96
# A photo card: at most about 24rem wide (three a row on a wide screen, one on a phone).
CARD_WIDTH = 384
CARD_SIZES = "(max-width: 40rem) calc(100vw - 2rem), 24rem"


@dataclass(frozen=True, slots=True)
class Picture:
    """An `<img>`'s attributes: the source, its candidates (`srcset`, `sizes`: empty when
    the image has no sizes), the dimensions of `src` when known, and the text."""

    src: str
    srcset: str = ""
    sizes: str = ""
    width: int | None = None
    height: int | None = None
    alt: str = ""


@dataclass(frozen=True, slots=True)
class Candidate:
    url: str
    width: int
    height: int


def _positive(entry: dict[str, Any], *names: str) -> bool:
    return all(isinstance(entry.get(name), int) and entry[name] > 0 for name in names)


def _candidates(image: dict[str, Any], whole: bool) -> list[Candidate]:
    """The image's sizes, narrowest first; `whole`: only those of the image's own shape
    (none cropped)."""
    sizes = image.get("sizes")
    if not isinstance(sizes, dict):
        return []
    found = [
        Candidate(str(size["url"]), size["width"], size["height"])
        for size in sizes.values()
        if isinstance(size, dict) and size.get("url") and _positive(size, "width", "height")
    ]
    if whole and _positive(image, "width", "height"):
        shape = image["width"] / image["height"]
        found = [c for c in found if abs(c.width / c.height - shape) <= shape * SHAPE_TOLERANCE]
    # One candidate a width (a size as large as the full image is the same picture).
    by_width = {candidate.width: candidate for candidate in sorted(found, key=lambda c: -c.height)}
    return sorted(by_width.values(), key=lambda c: c.width)


def _srcset(candidates: list[Candidate]) -> str:
    return ", ".join(f"{c.url} {c.width}w" for c in candidates)


def _fitting(candidates: list[Candidate], width: int) -> Candidate:
    """The narrowest candidate at least `width` wide, else the widest."""
    return next((c for c in candidates if c.width >= width), candidates[-1])


def _picture(image: Any, whole: bool, width: int, sizes: str) -> Picture | None:
    """The image as a box about `width` CSS pixels wide shows it (`src` sharp at twice that
    where a size is), with every candidate for the browser to choose from."""
    if not isinstance(image, dict) or not image.get("url"):
        return None
    alt = str(image.get("alt") or "")
    candidates = _candidates(image, whole)
    if not candidates:
        return Picture(str(image["url"]), width=image.get("width"), height=image.get("height"), alt=alt)  # fmt: skip
    chosen = _fitting(candidates, width * 2)
    return Picture(chosen.url, _srcset(candidates), sizes, chosen.width, chosen.height, alt)


def thumbnail(image: Any) -> Picture | None:
    """A list's thumbnail: the library's square thumbnail and larger sizes (cropped by the
    box to a square)."""
    return _picture(image, False, THUMB_WIDTH, f"{THUMB_WIDTH}px")


def card_picture(image: Any) -> Picture | None:
    """A photo card's image (cropped by the card's box to its shape)."""
    return _picture(image, True, CARD_WIDTH, CARD_SIZES)


def page_picture(image: Any) -> Picture | None:
    """The event page's image at its own size: `width` and `height` the full image's (a
    small image is never stretched beyond them), the candidates of its own shape only (a
    square crop would be drawn into the image's box), `sizes` no wider than the image."""
    found = _picture(image, True, PAGE_WIDTH, "")
    if found is None:
        return None
    width, height = image.get("width"), image.get("height")
    if not found.srcset:
        return found
    shown = min(int(width or PAGE_WIDTH), PAGE_WIDTH)
    sizes = f"(max-width: {shown}px) 100vw, {shown}px"
    return Picture(image["url"], found.srcset, sizes, width or None, height or None, found.alt)
