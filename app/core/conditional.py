"""Conditional requests (RFC 9110 §13): whether an `If-None-Match` names a response's ETag."""


def _opaque(tag: str) -> str:
    """The tag without its weakness marker: If-None-Match compares weakly (§13.1.2)."""
    tag = tag.strip()
    return tag[2:] if tag.startswith("W/") else tag


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """Does the header (`*` or a list of entity tags) name `etag`? Then the client's copy
    is current, and a GET is answered 304 Not Modified."""
    if not if_none_match or not etag:
        return False
    if if_none_match.strip() == "*":
        return True
    wanted = _opaque(etag)
    return any(_opaque(tag) == wanted for tag in if_none_match.split(","))
