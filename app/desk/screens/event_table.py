"""The Events screen's query: its GET parameters (bookmarkable, the API's own names), the
typed list query they ask for (the event list service's `EventQuery`: app/events/query.py),
and the links that keep them (sorting, pages). No rule of visibility lives here: the list
decides what a caller sees, and refuses unknown categories or series by name."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, tzinfo
from typing import Any, get_args
from urllib.parse import urlencode

from app.core.errors import Problems, note
from app.core.rules.constants import MAX_ID, STATUSES
from app.core.rules.paging import Page
from app.events.query import EventQuery, OrderBy
from app.http.pagination import MAX_PER_PAGE

# What the screen reads from its query string, by the API's names (so a 400 names the field).
FILTERS = ("search", "status", "categories", "start_date", "end_date", "post_parent")
# `post_parent` (a series' ID): the table expands that series into its dates, a row each.
SERIES = "post_parent"
SORTS = ("start_date", "title", "modified")  # the table's sortable columns
ORDERS = ("asc", "desc")
DEFAULT_SORT = ("start_date", "desc")  # the latest events first, as an admin list shows
PER_PAGE = 20
# The list's default window is "from yesterday on"; the desk shows every date unless the
# filter says otherwise: these are the first and last days the list's dates accept.
FIRST_DAY = date(1, 1, 3)
LAST_DAY = date(9999, 12, 28)
# The table's sort columns: every order of the list but distance, which needs a place the
# desk's filter does not take.
ORDER_BY: dict[str, OrderBy] = {name: name for name in get_args(OrderBy) if name != "distance"}
ANY_STATUS = "any"  # every status but trash, as the API's list names it
# The statuses the filter offers, in the order of the tabs (`""`: every status but trash).
STATUS_TABS = ("", "publish", "future", "draft", "pending", "private", "trash")
PENDING = "pending"


def _first(values: Mapping[str, Any], name: str) -> str:
    value = values.get(name)
    if isinstance(value, list):
        value = value[0] if value else None
    return value.strip() if isinstance(value, str) else ""


def _day(text: str | None, name: str, problems: Problems) -> date | None:
    """A date field's day (YYYY-MM-DD, what a date input sends); none when empty."""
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        problems.add(name, note("bad_date", name=name))
        return None


def _number(text: str, name: str, problems: Problems) -> int | None:
    """A positive whole number (an ID, a page), or None and a note."""
    if text.isascii() and text.isdigit() and 0 < int(text) <= MAX_ID:
        return int(text)
    problems.add(name, note("invalid_id", name=name, max=MAX_ID))
    return None


def _choice(text: str, name: str, choices: tuple[str, ...], problems: Problems) -> str:
    value = text.lower()
    if value not in choices:
        problems.add(name, note("not_one_of", name=name, choices=", ".join(choices)))
    return value


def _reference(text: str) -> int | str:
    """A category's ID (the filter's choices) or its slug (a link)."""
    return int(text) if text.isascii() and text.isdigit() else text


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

    def event_query(self, zone: tzinfo, problems: Problems) -> EventQuery:
        """The list this query asks for: every date unless limited (whole days of the site's
        zone), one row per series (its first date in the window; the editor asks which
        dates a change is for), or, for one series expanded, each of its dates. A value
        the screen cannot read is noted in `problems`, by its field's name."""
        start = _day(self.filters.get("start_date"), "start_date", problems) or FIRST_DAY
        end = _day(self.filters.get("end_date"), "end_date", problems) or LAST_DAY
        status = self.status
        if status and status != ANY_STATUS and status not in STATUSES:
            problems.add("status", note("not_one_of", name="status", choices=", ".join(STATUSES)))
        category = self.filters.get("categories")
        series = _number(self.series, "post_parent", problems) if self.series else None
        orderby = _choice(self.orderby, "orderby", tuple(ORDER_BY), problems)
        order = _choice(self.order, "order", ORDERS, problems)
        return EventQuery(
            start_date=datetime.combine(start, time.min, zone),
            end_date=datetime.combine(end, time.min, zone),
            search=self.filters.get("search") or None,
            categories=None if category is None else (_reference(category),),
            statuses=(status,) if status and status != ANY_STATUS else None,
            post_parent=series,
            first_of_series=not self.series,
            orderby=ORDER_BY.get(orderby, "start_date"),
            descending=order == "desc",
        )

    def paging(self, problems: Problems) -> Page:
        """The page asked for (the first, of the default size, when it cannot be read)."""
        number = _number(self.page, "page", problems) or 1
        size = _number(self.per_page, "per_page", problems) or PER_PAGE
        if size > MAX_PER_PAGE:
            problems.add("per_page", note("per_page_too_large", max=MAX_PER_PAGE))
            size = PER_PAGE
        return Page(number, size)

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
