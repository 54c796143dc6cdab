"""The options of `almanac import`, apart from the command itself: the command line
(app/cli/importing.py) must not load the importer (httpx, rich), which `serve` never needs."""

from dataclasses import dataclass
from datetime import UTC, datetime

from app.core.rules.dates import parse_when

PASSWORD_VARIABLE = "ALMANAC_IMPORT_PASSWORD"

# Tries per request to the source, unless --attempts says otherwise (the client's RetryPolicy).
DEFAULT_ATTEMPTS = 5
MAX_ATTEMPTS = 20


def since_date(value: str) -> datetime:
    """`--since`: a date or date and time (UTC unless it carries an offset)."""
    try:
        return parse_when(value, UTC)
    except ValueError:
        raise ValueError(f"not a date: {value!r}") from None


@dataclass(slots=True)
class ImportArguments:
    """What `almanac import` was asked (the command line's options)."""

    source: str
    user: str | None = None
    password: str | None = None
    owner: str | None = None
    dry_run: bool = False
    since: datetime | None = None
    prune: bool = False
    copy_images: bool = False
    attempts: int = DEFAULT_ATTEMPTS
