"""The Events screen's query: its GET parameters (bookmarkable, the API's own names), the
list parameters sent to the API's event list for them, and the links that keep them
(sorting, pages). No rule of visibility or validation lives here: the API's list decides
what a caller sees and which values are invalid."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

# What the screen reads from its query string, by the API's names (so a 400 names the field).
FILTERS = ("search", "status", "categories", "start_date", "end_date", "post_parent")
# `post_parent` (a series' ID): the table expands that series into its dates, a row each.
SERIES = "post_parent"
SORTS = ("start_date", "title", "modified")  # the table's sortable columns
ORDERS = ("asc", "desc")
DEFAULT_SORT = ("start_date", "desc")  # the latest events first, as an admin list shows
PER_PAGE = 20
# The list's default window is "from yesterday on"; the desk shows every date unless the
# filter says otherwise: these are the first and last days the API's dates accept.
FIRST_DAY = "0001-01-03"
LAST_DAY = "9999-12-28"
# The statuses the filter offers, in the order of the tabs (`""`: every status but trash).
STATUS_TABS = ("", "publish", "future", "draft", "pending", "private", "trash")
PENDING = "pending"


def _first(values: Mapping[str, Any], name: str) -> str:
    value = values.get(name)
    if isinstance(value, list):
        value = value[0] if value else None
    return value.strip() if isinstance(value, str) else ""


@dataclass(frozen=True)
class TableQuery:
    """The table's filters, sort and page as the query string gave them (strings, unparsed:
    the API parses them and names what it refuses)."""

    filters: dict[str, str] = field(default_factory=dict)
    orderby: str = DEFAULT_SORT[0]
    order: str = DEFAULT_SORT[1]
    page: str = "1"
    per_page: str = str(PER_PAGE)

    @classmethod
    def read(cls, values: Mapping[str, Any]) -> "TableQuery":
        """From a query string (empty fields are no filter: a submitted form sends them)."""
        filters = {name: _first(values, name) for name in FILTERS}
        return cls(
            filters={name: value for name, value in filters.items() if value},
            orderby=_first(values, "orderby") or DEFAULT_SORT[0],
            order=_first(values, "order") or DEFAULT_SORT[1],
            page=_first(values, "page") or "1",
            per_page=_first(values, "per_page") or str(PER_PAGE),
        )

    @property
    def status(self) -> str:
        return self.filters.get("status", "")

    @property
    def series(self) -> str:
        """The series expanded into its dates (its ID), or ""."""
        return self.filters.get(SERIES, "")

    def api_params(self) -> dict[str, Any]:
        """The event list's parameters: every date unless limited, one row per series (its
        first date in the window; the editor asks which dates a change is for), or, for
        one series expanded, each of its dates."""
        params: dict[str, Any] = {
            "start_date": FIRST_DAY,
            "end_date": LAST_DAY,
            **self.filters,
            "orderby": self.orderby,
            "order": self.order,
            "page": self.page,
            "per_page": self.per_page,
        }
        if not self.series:
            params["hide_subsequent_recurrences"] = "1"
        return params

    # ---- links ------------------------------------------------------------------------

    def query(self, **changes: str | None) -> str:
        """This query as a query string with `changes` (None drops a value), defaults left
        out so that links stay short."""
        values: dict[str, str | None] = {
            **self.filters,
            "orderby": self.orderby,
            "order": self.order,
            "page": self.page,
            "per_page": self.per_page,
        }
        values.update(changes)
        defaults = {
            "orderby": DEFAULT_SORT[0],
            "order": DEFAULT_SORT[1],
            "page": "1",
            "per_page": str(PER_PAGE),
        }
        kept = {
            name: value for name, value in values.items() if value and defaults.get(name) != value
        }
        return urlencode(kept)

    def sort_query(self, column: str) -> str:
        """The link of a column heading: sorted by it, the other way round when it already
        is; back to the first page."""
        if self.orderby == column:
            order = "asc" if self.order == "desc" else "desc"
        else:
            order = "asc" if column == "title" else "desc"
        return self.query(orderby=column, order=order, page=None)

    def sorted_as(self, column: str) -> str | None:
        """`aria-sort` of a column heading: ascending, descending, or None."""
        if self.orderby != column:
            return None
        return "ascending" if self.order == "asc" else "descending"

    def status_query(self, status: str) -> str:
        """A status tab: that status alone (its count is of every such event), in this
        order, first page."""
        tab = TableQuery({"status": status} if status else {}, self.orderby, self.order)
        return tab.query(per_page=self.per_page)

    def page_query(self, number: int) -> str:
        return self.query(page=str(number))

    def dates_query(self, series_id: int) -> str:
        """A series' dates: this table's filters and sort for that series, first dates first,
        first page."""
        return self.query(**{SERIES: str(series_id)}, orderby="start_date", order="asc", page=None)


@dataclass(frozen=True)
class Pages:
    """The pager's numbers: the page shown and how many there are."""

    number: int
    size: int
    total: int

    @property
    def count(self) -> int:
        return -(-self.total // self.size) if self.total else 0

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.count else None

    @property
    def past_the_end(self) -> bool:
        """A page after the last one: the API's list answers it 404 (app/http/pagination.py)."""
        return self.number > 1 and self.number > self.count
