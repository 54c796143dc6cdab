"""Reading an uploaded image and making its sizes, with Pillow (docs/design.md#media).

The bytes decide what a file is, never its name or declared type: Pillow opens it with the
five accepted formats' decoders only, so HTML, SVG or anything else is no image. The image
is decoded fully (a truncated file fails here, not in a visitor's browser), turned upright
by its EXIF orientation and encoded again without any metadata (EXIF with its GPS position,
XMP, comments): only the ICC colour profile stays, since colours depend on it.
"""

import hashlib
import io
import logging
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageOps

# Pillow format -> (MIME type, file extension).
FORMATS: dict[str, tuple[str, str]] = {
    "JPEG": ("image/jpeg", "jpg"),
    "PNG": ("image/png", "png"),
    "GIF": ("image/gif", "gif"),
    "WEBP": ("image/webp", "webp"),
    "AVIF": ("image/avif", "avif"),
}
# Encoder settings per format: good quality at a reasonable size.
ENCODING: dict[str, dict[str, object]] = {
    "JPEG": {"quality": 88, "progressive": True},
    "PNG": {},
    "GIF": {},
    "WEBP": {"quality": 82, "method": 4},
    "AVIF": {"quality": 70},
}
WEBP = "WEBP"
HASH_LENGTH = 32

log = logging.getLogger("almanac.media")


@dataclass(frozen=True, slots=True)
class SizeSpec:
    """A WordPress image size: a box (0: unbounded), cropped to fill it or fitted inside."""

    name: str
    width: int
    height: int
    crop: bool = False


SIZES = (
    SizeSpec("thumbnail", 150, 150, crop=True),
    SizeSpec("medium", 300, 300),
    SizeSpec("medium_large", 768, 0),
    SizeSpec("large", 1024, 1024),
)
FULL = "full"


class BadImage(Exception):
    """Not an image almanac accepts; `key` names the message (app/core/i18n.py)."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass(frozen=True, slots=True)
class Rendition:
    """One encoded file: a size of the image in its own format, or its WebP variant."""

    width: int
    height: int
    format: str
    data: bytes

    @property
    def mime_type(self) -> str:
        return FORMATS[self.format][0]

    @property
    def extension(self) -> str:
        return FORMATS[self.format][1]


@dataclass(slots=True)
class Processed:
    """What an upload becomes: its sizes (`full` first), each with its WebP variant unless
    the image is WebP already. `digest` (of the full file) names all of its files."""

    format: str
    renditions: dict[str, Rendition] = field(default_factory=dict)
    webp: dict[str, Rendition] = field(default_factory=dict)
    digest: str = ""

    @property
    def full(self) -> Rendition:
        return self.renditions[FULL]

    def file_name(self, size: str, rendition: Rendition) -> str:
        """The server's name of a file: content-addressed, never the client's name. Two
        hex digits first make a directory level, so that no directory grows too large."""
        digest = self.digest
        suffix = "" if size == FULL else f"-{rendition.width}x{rendition.height}"
        return f"{digest[:2]}/{digest}{suffix}.{rendition.extension}"


def _open(data: bytes, max_pixels: int) -> Image.Image:
    # No `warnings.catch_warnings()` here: it changes process-wide state, and images are
    # processed in threads. Pillow refuses twice its own limit (an error), and our cap,
    # below its limit by default, is checked on the header right after.
    try:
        image = Image.open(io.BytesIO(data), formats=list(FORMATS))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        # (The warning where warnings are errors, as in the tests.)
        raise BadImage("media_too_many_pixels", max=max_pixels) from None
    except Exception:  # not an image, or a malformed header: Pillow raises many kinds
        raise BadImage("media_not_an_image") from None
    if image.format not in FORMATS:
        raise BadImage("media_not_an_image")
    # Checked on the header's dimensions, before a single pixel is decoded.
    if image.width * image.height > max_pixels:
        raise BadImage("media_too_many_pixels", max=max_pixels)
    try:
        image.load()  # the whole file: a truncated or corrupt one fails here
    except Exception:  # decoders fail in many ways (OSError, EOFError, RuntimeError, ...)
        raise BadImage("media_broken_image") from None
    return image


def _clean(image: Image.Image) -> Image.Image:
    """Upright, first frame only, and with no metadata left to be written again."""
    upright = ImageOps.exif_transpose(image) or image
    if upright is image:
        upright = image.copy()
    keep: dict[str | tuple[int, int], Any] = {
        key: image.info[key] for key in ("icc_profile", "transparency") if key in image.info
    }
    upright.info = keep
    return upright


def _encode(image: Image.Image, fmt: str) -> bytes:
    if fmt == "JPEG" and image.mode not in ("RGB", "L", "CMYK"):
        image = image.convert("RGB")
    if fmt in ("WEBP", "AVIF") and image.mode not in ("RGB", "RGBA"):
        has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        image = image.convert("RGBA" if has_alpha else "RGB")
    options = dict(ENCODING[fmt])
    icc = image.info.get("icc_profile")
    if icc and fmt != "GIF":
        options["icc_profile"] = icc
    if "transparency" in image.info and fmt in ("GIF", "PNG") and image.mode in ("P", "L"):
        options["transparency"] = image.info["transparency"]
    out = io.BytesIO()
    image.save(out, format=fmt, **options)
    return out.getvalue()


def _resized(image: Image.Image, spec: SizeSpec) -> Image.Image | None:
    """The image at `spec`, or None where it would not be smaller (never enlarged)."""
    width, height = image.size
    if image.mode == "P":  # resampling needs real colours, not palette indexes
        image = image.convert("RGBA")
    if spec.crop:
        if width <= spec.width and height <= spec.height:
            return None
        box = (min(width, spec.width), min(height, spec.height))
        return ImageOps.fit(image, box, Image.Resampling.LANCZOS)
    bound_height = spec.height or height
    if width <= spec.width and height <= bound_height:
        return None
    resized = image.copy()
    resized.thumbnail((spec.width, bound_height), Image.Resampling.LANCZOS)
    return resized


def process(data: bytes, max_pixels: int) -> Processed:
    """Check and re-encode an upload, and make its sizes; BadImage when it is refused.
    CPU-bound: callers run it in a worker thread."""
    original = _open(data, max_pixels)
    fmt = original.format
    assert fmt is not None  # _open() accepted it
    try:
        processed = _sized(_clean(original), fmt)
    except Exception:
        # Decoded, but with metadata or in a form the encoders refuse (a malformed EXIF
        # block, an odd mode or palette): the file's fault, logged in case it is ours.
        log.warning("image decoded but not re-encoded", exc_info=True)
        raise BadImage("media_broken_image") from None
    processed.digest = hashlib.sha256(processed.full.data).hexdigest()[:HASH_LENGTH]
    return processed


def _sized(image: Image.Image, fmt: str) -> Processed:
    processed = Processed(format=fmt)
    versions: dict[str, Image.Image] = {FULL: image}
    for spec in SIZES:
        resized = _resized(image, spec)
        if resized is not None:
            resized.info = dict(image.info)
            versions[spec.name] = resized
    for name, version in versions.items():
        processed.renditions[name] = Rendition(
            version.width, version.height, fmt, _encode(version, fmt)
        )
        if fmt != WEBP:
            processed.webp[name] = Rendition(
                version.width, version.height, WEBP, _encode(version, WEBP)
            )
    return processed
