"""Where the desk lives: `/desk/...` in the default language, `/<lang>/desk/...` in any of
ours (after the root path), and which local paths a sign-in may return to."""

import re
from urllib.parse import urlsplit

from app.i18n import LANGUAGES

DESK = "desk"
STATIC = "static"
_LANGUAGE = "|".join(LANGUAGES)
# The desk's part of a path after the root path: `/desk`, `/de/desk/events/12/edit`, ...
DESK_PATH = re.compile(rf"^(?:/(?P<language>{_LANGUAGE}))?/{DESK}(?P<rest>/.*)?$")
# What a sign-in's `next` may name: a desk path of this site, with a query at most.
SAFE_NEXT = re.compile(rf"^(?:/(?:{_LANGUAGE}))?/{DESK}(?:/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?$")


def desk_parts(relative: str) -> tuple[str | None, str] | None:
    """(the path's language segment or None, the part after `/desk/` without a leading slash)
    for a desk path, None for any other."""
    match = DESK_PATH.match(relative)
    if match is None:
        return None
    return match["language"], (match["rest"] or "/").lstrip("/")


def is_static(relative: str) -> bool:
    parts = desk_parts(relative)
    return parts is not None and parts[1].startswith(f"{STATIC}/")


def safe_next(value: str | None, root_path: str) -> str | None:
    """`value` if it is a desk path of this site (after the root path), else None: a
    sign-in never sends anyone to another site (no open redirect)."""
    if not value or len(value) > 2000 or "\\" in value or any(ord(c) < 0x21 for c in value):
        return None
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or parts.fragment or value.startswith("//"):
        return None
    path = parts.path
    if root_path:
        if not path.startswith(f"{root_path}/"):
            return None
        path = path[len(root_path) :]
    if SAFE_NEXT.match(path) is None or "/../" in f"{path}/" or "/./" in f"{path}/":
        return None
    return value
