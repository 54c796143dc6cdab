"""Colour contrast as WCAG 2 measures it (relative luminance, a ratio from 1 to 21), and a
colour moved just far enough toward black or white to be legible on given backgrounds: the
site's accent colour (app/pages/face.py) keeps its hue and passes axe's contrast check."""

from collections.abc import Sequence

Rgb = tuple[int, int, int]

TEXT_CONTRAST = 4.5  # WCAG 2 AA, normal text
MIX_STEPS = 50  # 2% at a time: the first colour that passes, close to the one asked for


def parse_hex(colour: str) -> Rgb:
    """`#rrggbb` as its three channels."""
    digits = colour.lstrip("#")
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def to_hex(rgb: Rgb) -> str:
    return "#" + "".join(f"{channel:02x}" for channel in rgb)


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def luminance(rgb: Rgb) -> float:
    red, green, blue = (_linear(channel) for channel in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: Rgb, second: Rgb) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _mix(colour: Rgb, toward: Rgb, share: float) -> Rgb:
    red, green, blue = (
        round(own + (other - own) * share) for own, other in zip(colour, toward, strict=True)
    )
    return red, green, blue


def legible(
    colour: str, backgrounds: Sequence[str], toward: str, ratio: float = TEXT_CONTRAST
) -> str:
    """`colour` (`#rrggbb`) if text in it reaches `ratio` on every one of `backgrounds`,
    else the first mix of it toward `toward` (black for light backgrounds, white for dark
    ones) that does."""
    own, target = parse_hex(colour), parse_hex(toward)
    grounds = [parse_hex(background) for background in backgrounds]
    for step in range(MIX_STEPS + 1):
        mixed = _mix(own, target, step / MIX_STEPS)
        if all(contrast(mixed, ground) >= ratio for ground in grounds):
            return to_hex(mixed)
    return toward
