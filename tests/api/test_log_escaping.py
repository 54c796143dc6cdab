"""A log line is one line: what a client sends (a path with %0A or %00, a query, a header, a
login) cannot split it, forge the next one or write raw control bytes, in either format."""

import json
import logging
import logging.config

import pytest
from httpx import AsyncClient

from app.core.observability.logs import logging_config
from app.core.observability.request_id import RequestIdFilter
from tests.factories import API

FORGED = "\n2026-11-24T12:00:00+0000 INFO almanac.access [x] GET /admin 200"


def formatted(log_format: str, record: logging.LogRecord) -> str:
    """The record as `almanac serve` writes it in `log_format` (the handler's own
    formatter and filters, built from the same configuration)."""
    config = logging_config(log_format, "info")
    formatter = logging.config.DictConfigurator(config).configure_formatter(
        config["formatters"]["almanac"]
    )
    RequestIdFilter().filter(record)
    return str(formatter.format(record))


@pytest.fixture
async def access_record(client: AsyncClient, caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    """The access line of a request whose path and query carry a line break, a NUL and a
    terminal escape."""
    caplog.set_level(logging.INFO, logger="almanac.access")
    await client.get(
        f"{API}/events/%0A2026-11-24T12:00:00+0000%20INFO%20forged%00%1B[31m",
        params={"search": "a\nb\x00"},
    )
    [record] = [r for r in caplog.records if r.name == "almanac.access"]
    return record


def test_the_text_format_escapes_control_characters(access_record: logging.LogRecord) -> None:
    line = formatted("text", access_record)
    assert "\n" not in line
    assert "\x00" not in line
    assert "\x1b" not in line
    # The query as sent (percent-encoded), after the decoded path.
    assert "/events/\\n2026-11-24T12:00:00+0000 INFO forged\\x00\\x1b[31m?search=a%0Ab%00 " in line


def test_the_json_format_escapes_them_too(access_record: logging.LogRecord) -> None:
    line = formatted("json", access_record)
    assert "\n" not in line
    assert "\x00" not in line
    assert "\x1b" not in line
    fields = json.loads(line)
    assert fields["path"].startswith(f"{API}/events/\n2026-11-24T12:00:00+0000 INFO forged\x00")


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_any_logged_value_is_one_line(log_format: str) -> None:
    """A user name or a header value logged by any code: the message is escaped, whatever
    argument carried the control characters."""
    record = logging.LogRecord(
        "almanac.errors", logging.WARNING, __file__, 1, "unknown user %s from %s",
        (f"bob{FORGED}", "agent\r\x07"), None,
    )  # fmt: skip
    line = formatted(log_format, record)
    assert "\n" not in line
    assert "\r" not in line
    assert "\x07" not in line
    if log_format == "text":
        assert line.endswith("unknown user bob\\n2026-11-24T12:00:00+0000 INFO almanac.access "
                             "[x] GET /admin 200 from agent\\r\\x07")  # fmt: skip
    else:
        assert json.loads(line)["message"] == f"unknown user bob{FORGED} from agent\r\x07"
