"""Logging: secrets never reach the logs.

The access log prints request paths with their query strings, which may carry an event
`password`; the filter masks such values before any handler formats the record.
"""

import logging
import re

SECRET_PARAMS = re.compile(r"((?:^|[?&])(?:password|pwd|token)=)[^&\s]*", re.IGNORECASE)


def mask_secrets(text: str) -> str:
    return SECRET_PARAMS.sub(r"\1***", text)


class SecretsFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(mask_secrets(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = mask_secrets(record.msg)
        return True


def install_secret_filters() -> None:
    for name in ("uvicorn.access", "uvicorn.error", "almanac.errors"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, SecretsFilter) for f in logger.filters):
            logger.addFilter(SecretsFilter())
