"""Where the importer's requests may go, and which of them carry the source's credentials.

The source is named by the operator: its origin (scheme, host and port of the URL given) is
trusted, on any address (a site on the intranet, or on 127.0.0.1 in the tests), and is the
only one that ever gets the credentials. Everything else is the source's word, and a
source may be hostile or compromised: an API root in its `Link` header, a redirect, an
image URL. Those are fetched only from public addresses (app/core/security/addresses.py, the
check webhooks use), every address of the name checked, on every redirect hop, and the
connection goes to the address that was checked (a second lookup could answer another).

A refusal says one neutral thing whatever the reason (no address, or not a public one), and
a non-public address is never connected to: a summary that told "connection refused" from
"not an image" for an address of the operator's network would make the importer a port
scanner for whoever controls the source.
"""

from dataclasses import dataclass
from typing import Any

import httpx

from app.core.security.addresses import Unresolvable, addresses_of, first_not_public

NOT_PUBLIC = "refused: not a public address"


class NotPublic(Exception):
    """A URL outside the source that is not on a public address (or not http(s))."""

    def __init__(self) -> None:
        super().__init__(NOT_PUBLIC)


@dataclass(frozen=True, slots=True)
class Origin:
    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return f"{self.scheme}://{host}" + ("" if self.port == default else f":{self.port}")


def origin_of(url: httpx.URL | str) -> Origin | None:
    """The URL's origin; None when it is not an http(s) URL with a host."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError):
        return None
    if parsed.scheme not in ("http", "https") or not parsed.raw_host:
        return None
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    # The ASCII form (IDNA for international names): what is resolved and compared.
    return Origin(parsed.scheme, parsed.raw_host.decode("ascii").lower(), port)


@dataclass(frozen=True, slots=True)
class Hop:
    """One request's destination: the URL to send (pinned to the checked address when the
    host is not the source's) and what keeps the name in it (Host header, TLS name)."""

    url: httpx.URL
    trusted: bool  # the source's own origin
    headers: dict[str, str]
    extensions: dict[str, Any]


async def route(url: httpx.URL, source: Origin) -> Hop:
    """Where a request for `url` goes, or NotPublic."""
    origin = origin_of(url)
    if origin is None:
        raise NotPublic
    if origin == source:
        return Hop(url, True, {}, {})
    try:
        found = await addresses_of(origin.host, origin.port)
    except Unresolvable:
        raise NotPublic from None
    if first_not_public(found) is not None:
        raise NotPublic
    # Connect to the checked address; the name stays in Host and in TLS (SNI, and the
    # certificate's check).
    address = str(found[0])
    headers = {"Host": url.netloc.decode("ascii")}
    extensions = {"sni_hostname": origin.host} if origin.scheme == "https" else {}
    return Hop(url.copy_with(host=address), False, headers, extensions)
