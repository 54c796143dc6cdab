"""Content-Security-Policies, built in one place: the desk's (app/desk/headers.py) and the
public pages' (app/pages/headers.py). Both start from `BASE`, what keeps injected markup
from running or reaching out whatever a page loads: no plugins, no `<base>` to move the
page's relative URLs, no framing by other sites (clickjacking; X-Frame-Options says the
same to old browsers), forms posted to this site only. Each adds its own `script-src` (a
nonce drawn per response: no `'unsafe-inline'`) and what its pages load."""

import secrets
from collections.abc import Sequence
from typing import Final
from urllib.parse import urlsplit

# 144 random bits: 24 characters of base64url, the same length for every nonce.
NONCE_BYTES = 18

BASE: Final[dict[str, tuple[str, ...]]] = {
    "default-src": ("'self'",),
    "object-src": ("'none'",),
    "base-uri": ("'none'",),
    "frame-ancestors": ("'none'",),
    "form-action": ("'self'",),
}


def new_nonce() -> str:
    return secrets.token_urlsafe(NONCE_BYTES)


def origin_of(url: str | None) -> str | None:
    """`scheme://host[:port]` of an http(s) URL (a CDN's, the public site's), else None."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme in ("http", "https") and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return None


def content_security_policy(directives: dict[str, Sequence[str]]) -> str:
    """`BASE` with `directives` added (a directive named in both takes `directives`')."""
    merged = {**BASE, **directives}
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in merged.items())
