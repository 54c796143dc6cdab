"""A page of a list: which one and how long, and how deep a list may be paged; the services
and repositories take it, the API's door reads it from `page`/`per_page`
(app/http/pagination.py)."""

from dataclasses import dataclass

from app.core.rules.constants import MAX_ID

# How deep a list may be paged: page x per_page at most this. Skipping rows is work the
# database does for every request (about 85 µs a row on a wide event window), so a deep
# page is an anonymous caller's cheap way to hold a connection for seconds; beyond this, a
# client narrows the list instead (a later `start_date`), which an index finds at once.
MAX_LIST_DEPTH = 5000


@dataclass(frozen=True, slots=True)
class Page:
    number: int
    size: int

    @property
    def offset(self) -> int:
        # An offset past any table is an empty page (404), not an integer the database refuses.
        return min((self.number - 1) * self.size, MAX_ID)
