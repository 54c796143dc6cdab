"""Logging: secrets never reach the logs, and a log line is one line.

The access log prints request paths with their query strings, which may carry an event
`password`, and an attendee's links carry their secret in the path; the filter masks such
values before any handler formats the record. What a
client sends (a path with `%0A` or `%00`, a header, a login) may hold control characters:
the text format escapes them, so that no request can split a line, forge the next one or
write raw bytes to a terminal. The JSON format escapes them already (JSON strings cannot
hold them raw).
"""

import logging
import logging.config
import re
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS

SECRET_PARAMS = re.compile(r"((?:^|[?&])(?:password|pwd|token)=)[^&\s]*", re.IGNORECASE)
# An attendee's signed links carry their secret in the path: the page that shows their name
# and address (`/rsvp/<id>/<token>/`, in any language) and the QR code's check-in
# (`/desk/check-in/<id>/<code>/`).
SECRET_PATHS = re.compile(r"(/(?:rsvp|desk/check-in)/\d+/)[^/?\s]+")


def mask_secrets(text: str) -> str:
    return SECRET_PATHS.sub(r"\1***", SECRET_PARAMS.sub(r"\1***", text))


class SecretsFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(mask_secrets(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = mask_secrets(record.msg)
        return True


def install_secret_filters() -> None:
    for name in ("uvicorn.access", "uvicorn.error", "almanac.errors", "almanac.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, SecretsFilter) for f in logger.filters):
            logger.addFilter(SecretsFilter())


# C0 and C1 controls, DEL, and the Unicode line and paragraph separators (line breaks to
# some readers): each becomes a visible escape, \n, \t, \x00 or \u2028.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape_controls(text: str) -> str:
    return _CONTROLS.sub(lambda m: _NAMED.get(m[0]) or ascii(m[0])[1:-1], text)


class TextFormatter(logging.Formatter):
    """The text format, with control characters in the line escaped (a traceback that
    follows an error line keeps its own line breaks: the app wrote it, not a client)."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return escape_controls(super().formatMessage(record))


# Every line carries the request id (`-` outside a request). Text for a terminal; JSON (one
# object per line, the extra fields of the access line as keys) for log collectors.
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(request_id)s %(message)s"
DATE_FORMAT = "%Y-%m-%dT%H:%M:%S%z"


# SQLAlchemy's pools log under their class's module and name (app.core.database.engine's
# MeteredPool) or under sqlalchemy.pool.
POOL_LOGGERS = ("sqlalchemy.pool", "app.core.database.engine.MeteredPool")


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    """A `logging.config.dictConfig` for the app and uvicorn (whose own access log is off:
    app/core/web/access.py writes one line per request instead)."""
    formatter: dict[str, Any] = (
        {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": JSON_FIELDS,
            "datefmt": DATE_FORMAT,
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            # uvicorn's copy of each message with terminal colours in it.
            "reserved_attrs": [*RESERVED_ATTRS, "color_message"],
        }
        if log_format == "json"
        else {
            "()": "app.core.observability.logs.TextFormatter",
            "fmt": TEXT_FORMAT,
            "datefmt": DATE_FORMAT,
        }
    )
    level = level.upper()
    pool_level = level if level == "DEBUG" else "WARNING"
    handler = ["almanac"]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request_id": {"()": "app.core.observability.request_id.RequestIdFilter"},
            "secrets": {"()": "app.core.observability.logs.SecretsFilter"},
        },
        "formatters": {"almanac": formatter},
        "handlers": {
            "almanac": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "almanac",
                "filters": ["request_id", "secrets"],
            }
        },
        "root": {"handlers": handler, "level": level},
        "loggers": {
            "uvicorn": {"handlers": handler, "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            # The pools' own lines ("Pool disposed ... Current Overflow: -10", one per pool
            # on every stop) read as trouble and say nothing an operator acts on; below
            # debug they are left out (`serve` says "stopped" once instead).
            **{name: {"level": pool_level} for name in POOL_LOGGERS},
        },
    }


def configure_logging(log_format: str, level: str) -> None:
    """Set up logging unless something already did (`almanac serve` passes the same
    configuration to uvicorn, which applies it in every worker; a test runner has its own)."""
    if not logging.getLogger().handlers:
        logging.config.dictConfig(logging_config(log_format, level))
    install_secret_filters()
