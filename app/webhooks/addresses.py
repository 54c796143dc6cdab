"""Where webhooks may go: http(s) URLs whose host resolves to public addresses only.

A receiver URL is checked when the subscription is made and again at every delivery,
after DNS resolution (a name may point elsewhere by then), and the delivery connects to
the very address that was checked, not to a second lookup's answer (DNS rebinding).
Loopback, private, link-local (169.254.169.254, the cloud metadata service), shared
(100.64.0.0/10, another provider's metadata address), multicast, reserved and unspecified
addresses are refused unless WEBHOOKS_ALLOW_PRIVATE is set (tests, intranets); so are IPv6
addresses carrying such an IPv4 address. Which addresses are public is decided in one place
for webhooks and the importer: app/core/security/addresses.py."""

from dataclasses import dataclass
from urllib.parse import urlsplit

from app.core.security.addresses import Unresolvable, addresses_of, first_not_public

MAX_URL_LENGTH = 2000


class Refused(Exception):
    """The URL is not one webhooks may be sent to; the message says why (in English: it is
    stored in the delivery log and shown in parameter notes as a value)."""


@dataclass(frozen=True, slots=True)
class Target:
    url: str
    scheme: str
    host: str  # as written (the Host header, and the TLS server name)
    port: int


def parse_url(url: str) -> Target:
    """The URL's parts, if it is an absolute http(s) URL with a host."""
    if len(url) > MAX_URL_LENGTH:
        raise Refused(f"longer than {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused("not a valid URL") from None
    if parts.scheme not in ("http", "https"):
        raise Refused("only http and https URLs are allowed")
    if not parts.hostname:
        raise Refused("the URL has no host")
    default = 443 if parts.scheme == "https" else 80
    return Target(url, parts.scheme, parts.hostname, port or default)


async def resolve(target: Target, allow_private: bool) -> str:
    """An address of the target's host that webhooks may connect to (the first public one;
    every one must be public, so that no lookup can pick a private one later)."""
    try:
        addresses = await addresses_of(target.host, target.port)
    except Unresolvable:
        raise Refused(f"the host {target.host} cannot be resolved") from None
    if not allow_private:
        refused = first_not_public(addresses)
        if refused is not None:
            raise Refused(
                f"the host {target.host} has a loopback, private, link-local or reserved "
                f"address ({refused}); set WEBHOOKS_ALLOW_PRIVATE=true to allow it"
            )
    return str(addresses[0])


async def check_url(url: str, allow_private: bool) -> Target:
    """The target of a URL a subscription may use, or Refused."""
    target = parse_url(url)
    await resolve(target, allow_private)
    return target
