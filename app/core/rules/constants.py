"""Values that several packages must agree on, written once."""

from datetime import UTC, datetime, time
from typing import Final

# Record IDs are bigint columns. Numbers above this name nothing; keeping them (and page
# offsets) below it means no arithmetic on them can overflow the column type.
MAX_ID: Final = 2**62 - 1

# The API's namespace, under which every route of the interface is mounted.
NAMESPACE: Final = "calendar/events/v1"

# Statuses of events, venues and organizers (WordPress post statuses).
PUBLISH: Final = "publish"
TRASH: Final = "trash"
STATUSES: Final = ("publish", "future", "draft", "pending", "private", "trash")
UNPUBLISHED: Final = frozenset({"draft", "pending"})

# Every accepted instant must stay representable after conversion to any zone (offsets are
# within ±14 h) and after an all-day event is widened to whole days: two days of margin
# inside Python's (and the responses') years 1 to 9999.
EARLIEST: Final = datetime(1, 1, 3, tzinfo=UTC)
LATEST: Final = datetime(9999, 12, 29, 23, 59, 59, tzinfo=UTC)
END_OF_DAY: Final = time(23, 59, 59)

# The event list's date parameters; the last four are relative to each other, not a window.
DATE_PARAMS: Final = (
    "start_date",
    "end_date",
    "starts_before",
    "starts_after",
    "ends_before",
    "ends_after",
)

# WordPress's boolean words (rest_sanitize_boolean), compared in lower case.
TRUE_WORDS: Final = frozenset({"true", "1", "yes", "on"})
FALSE_WORDS: Final = frozenset({"false", "0", "no", "off", ""})

# The sequence every change to visible data draws from (database triggers and the app):
# cached responses and totals are valid only under the number they were built with.
VERSION_SEQUENCE: Final = "events_version_seq"
# A transaction-local setting the version triggers turn on (see the migration
# 2026-11-25-0100_content_written): whether the transaction wrote a content table.
CONTENT_WRITTEN_SETTING: Final = "almanac.content_written"
