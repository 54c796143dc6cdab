"""The options of `almanac import`, apart from the command itself: building the parser of
every `almanac` command must not load the importer (httpx, rich), which `serve` never needs."""

import argparse
from datetime import UTC, datetime

from app.core.rules.dates import parse_when

PASSWORD_VARIABLE = "ALMANAC_IMPORT_PASSWORD"


def since_date(value: str) -> datetime:
    """`--since`: a date or date and time (UTC unless it carries an offset)."""
    try:
        return parse_when(value, UTC)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {value!r}") from None


# Tries per request to the source, unless --attempts says otherwise (the client's RetryPolicy).
DEFAULT_ATTEMPTS = 5


def attempts_count(value: str) -> int:
    """`--attempts`: a whole number from 1 to 20."""
    if not value.isdigit() or not 1 <= int(value) <= 20:
        raise argparse.ArgumentTypeError(f"not a number from 1 to 20: {value!r}")
    return int(value)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", help="the site's URL, or its …/wp-json/tribe/events/v1 base URL")
    parser.add_argument(
        "--user",
        help="login on the source, with --password, sent to the source's own scheme, host and "
        "port only (default: none: what anonymous visitors see)",
    )
    parser.add_argument(
        "--password",
        help=f"a WordPress application password of --user "
        f"(default: the environment variable ${PASSWORD_VARIABLE})",
    )
    parser.add_argument(
        "--owner", help="local user owning the records (default: first administrator)"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="read and decide, write nothing (default: off)"
    )
    parser.add_argument(
        "--since",
        type=since_date,
        help="only records modified since this date, UTC (default: all records)",
    )
    parser.add_argument(
        "--prune",
        action="store_true",
        help="trash local records gone from the source (default: off: they stay)",
    )
    parser.add_argument(
        "--copy-images",
        action="store_true",
        help="download the records' images into the media library, once, and show the copies; "
        "only from the source itself or public addresses (default: off: images stay links to "
        "the source)",
    )
    parser.add_argument(
        "--attempts",
        type=attempts_count,
        default=DEFAULT_ATTEMPTS,
        help="tries per request to the source before giving up; timeouts, connection errors, "
        f"429 and 5xx are tried again with growing waits (default: {DEFAULT_ATTEMPTS})",
    )
