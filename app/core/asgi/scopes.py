"""Reading a raw ASGI request (`scope`), for the edge steps that run before Starlette
builds a `Request`: one place for how a header is found and what makes a caller anonymous."""

from starlette.types import Scope


def header(scope: Scope, name: bytes) -> str | None:
    """The value of request header `name` (lower-case bytes, as ASGI gives names), if sent."""
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def signed_in(scope: Scope) -> bool:
    """Whether the request carries credentials: such answers depend on the caller, so they
    are neither stored by the response cache nor by shared caches (Cache-Control private)."""
    return any(key in (b"authorization", b"cookie") for key, _ in scope.get("headers", []))
