"""Which network addresses the server may fetch from or send to on someone else's word: the
one address check of webhooks (app/webhooks/addresses.py) and the importer
(app/importer/guard.py).

An address is public when it is globally reachable (Python's `is_global`, from IANA's
special-purpose registries) and not multicast. That refuses loopback, private (10/8,
172.16/12, 192.168/16, fc00::/7), link-local (169.254/16 with the cloud metadata service,
fe80::/10), shared (100.64/10, another provider's metadata address), unspecified, reserved
and documentation addresses.

IPv6 addresses that carry an IPv4 address are also judged by it, since a packet sent to them
may reach that IPv4 host (through a translator, a tunnel or the local stack): IPv4-mapped
(::ffff:0:0/96), IPv4-compatible (::/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo
(2001::/32, its server and client). Python judges some of these by the IPv6 prefix alone
(`::127.0.0.1` and `64:ff9b::7f00:1` are "global" to it), so the embedded address must be
public as well. The local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) is refused whole: the
IPv4 address sits at a place only the local network's translator knows, and it is never a
public destination anyway.
"""

import asyncio
import ipaddress
import socket

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_COMPATIBLE = ipaddress.IPv6Network("::/96")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_LOCAL_NAT64 = ipaddress.IPv6Network("64:ff9b:1::/48")


class Unresolvable(Exception):
    """The host name has no address."""


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (none for an ordinary one)."""
    if address.ipv4_mapped is not None:
        return [address.ipv4_mapped]
    if address.sixtofour is not None:
        return [address.sixtofour]
    if address.teredo is not None:
        return list(address.teredo)
    if address in _COMPATIBLE or address in _NAT64:
        # `::` and `::1` are in ::/96 too; they are refused as IPv6 already.
        return [ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)]
    return []


def is_public(address: IPAddress) -> bool:
    if isinstance(address, ipaddress.IPv6Address):
        if address in _LOCAL_NAT64:
            return False
        if not all(_is_public_one(inner) for inner in embedded_ipv4(address)):
            return False
        if address.ipv4_mapped is not None:
            return _is_public_one(address.ipv4_mapped)  # the prefix itself is not "global"
    return _is_public_one(address)


def _is_public_one(address: IPAddress) -> bool:
    return address.is_global and not address.is_multicast


def literal(host: str) -> IPAddress | None:
    """The address a host is written as (`127.0.0.1`, `::1` without brackets), if it is one."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


async def addresses_of(host: str, port: int) -> list[IPAddress]:
    """Every address the host resolves to (the host itself when it is an address)."""
    written = literal(host)
    if written is not None:
        return [written]
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Unresolvable(host) from None
    # A scope (`fe80::1%eth0`) is not part of the address.
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]
    if not addresses:
        raise Unresolvable(host)
    return addresses


def first_not_public(addresses: list[IPAddress]) -> IPAddress | None:
    """The first address that is not public: every one must be, since the connection may
    use any of them."""
    return next((address for address in addresses if not is_public(address)), None)
