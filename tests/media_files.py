"""Real image files for the media tests, made with Pillow (and by hand where a real file
would be too large to make: a decompression bomb's header)."""

import io
import random
import struct
import zlib
from typing import Any

from PIL import Image

GPS_IFD = 0x8825
ORIENTATION = 0x0112


def picture(fmt: str = "JPEG", size: tuple[int, int] = (400, 300), **options: Any) -> bytes:
    """A two-coloured picture (left red, right blue) in `fmt`."""
    width, height = size
    image = Image.new("RGB", size, (220, 30, 30))
    image.paste((30, 30, 220), (width // 2, 0, width, height))
    out = io.BytesIO()
    image.save(out, format=fmt, **options)
    return out.getvalue()


def with_gps_and_orientation(orientation: int = 1, size: tuple[int, int] = (300, 200)) -> bytes:
    """A JPEG carrying a GPS position, a camera make and the given orientation flag."""
    exif = Image.Exif()
    exif[ORIENTATION] = orientation
    exif[0x010F] = "SecretCam"  # Make
    exif.get_ifd(GPS_IFD).update({1: "N", 2: (48.0, 12.0, 30.0), 3: "E", 4: (16.0, 22.0, 5.0)})
    return picture("JPEG", size, exif=exif.tobytes())


def noise(size: tuple[int, int]) -> bytes:
    """A PNG that does not compress: a little over 3 bytes per pixel."""
    width, height = size
    image = Image.frombytes(
        "RGB", size, random.Random(width * height).randbytes(width * height * 3)
    )
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=0)
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bomb(width: int = 50_000, height: int = 50_000) -> bytes:
    """A tiny PNG whose header claims `width` × `height` pixels (2.5 billion by default)."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit grey
    row = b"\x00" + b"\x00" * width
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(row * 4))
        + _chunk(b"IEND", b"")
    )


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def noise_jpeg(size: tuple[int, int], quality: int = 95) -> bytes:
    """A real JPEG of random noise: it does not compress, so a phone photo's size in bytes
    (about 1.2 bytes per pixel at this quality) comes from a picture of modest dimensions."""
    width, height = size
    data = random.Random(width * height).randbytes(width * height * 3)
    out = io.BytesIO()
    Image.frombytes("RGB", size, data).save(out, format="JPEG", quality=quality)
    return out.getvalue()
