"""The Events screen's query (app/desk/screens/event_table.py): GET parameters to the
list's typed query and back to links. Pure: no database, no client."""

from datetime import datetime, time
from urllib.parse import parse_qs
from zoneinfo import ZoneInfo

import pytest

from app.core.errors import Problems
from app.core.rules.paging import Page
from app.desk.screens.event_rows import when_text
from app.desk.screens.event_table import FIRST_DAY, LAST_DAY, PER_PAGE, Pages, TableQuery
from app.events.query import EventQuery

ZONE = ZoneInfo("Europe/Bratislava")


def _typed(query: TableQuery) -> tuple[EventQuery, Problems]:
    problems = Problems()
    return query.event_query(ZONE, problems), problems


def test_an_empty_query_asks_for_every_date_one_row_per_series_latest_first() -> None:
    asked, problems = _typed(TableQuery.read({}))
    assert not problems.notes
    assert asked.start_date == datetime.combine(FIRST_DAY, time.min, ZONE)
    assert asked.end_date == datetime.combine(LAST_DAY, time.min, ZONE)
    assert not asked.strict  # whole days: the end date's day included
    assert asked.first_of_series
    assert (asked.orderby, asked.descending) == ("start_date", True)
    assert TableQuery.read({}).paging(Problems()) == Page(1, PER_PAGE)
    assert asked.statuses is None  # the list's default visibility for the caller


def test_filters_pass_through_by_the_apis_names_and_empty_fields_are_no_filter() -> None:
    values = {"search": " jazz ", "status": "pending", "categories": "", "start_date": "2026-01-02"}
    query = TableQuery.read(values)
    asked, _ = _typed(query)
    assert asked.search == "jazz"
    assert asked.statuses == ("pending",)
    assert asked.start_date == datetime(2026, 1, 2, tzinfo=ZONE)
    assert asked.end_date == datetime.combine(LAST_DAY, time.min, ZONE)
    assert asked.categories is None
    assert "categories" not in parse_qs(query.query())
    assert _typed(TableQuery.read({"categories": "12"}))[0].categories == (12,)
    assert _typed(TableQuery.read({"categories": "jazz"}))[0].categories == ("jazz",)


def test_values_the_screen_does_not_know_are_not_sent() -> None:
    asked, _ = _typed(TableQuery.read({"include": "5", "password": "x", "status": ["draft", "x"]}))
    assert asked.include is None
    assert asked.password is None
    assert asked.statuses == ("draft",)  # the first of a repeated key


def test_a_series_expanded_is_each_of_its_dates() -> None:
    asked, _ = _typed(TableQuery.read({"post_parent": "7"}))
    assert (asked.post_parent, asked.first_of_series) == (7, False)


@pytest.mark.parametrize(
    ("values", "names"),
    [
        ({"start_date": "someday"}, ["start_date"]),
        ({"end_date": "2026-13-01", "post_parent": "abc"}, ["end_date", "post_parent"]),
        ({"orderby": "colour", "order": "up"}, ["orderby", "order"]),
        ({"status": "lost"}, ["status"]),
    ],
)
def test_what_the_screen_cannot_read_is_named(values: dict[str, str], names: list[str]) -> None:
    _, problems = _typed(TableQuery.read(values))
    assert list(problems.notes) == names


def test_a_page_is_read_and_its_size_bounded() -> None:
    problems = Problems()
    assert TableQuery.read({"page": "3", "per_page": "50"}).paging(problems) == Page(3, 50)
    assert TableQuery.read({"page": "x", "per_page": "101"}).paging(problems) == Page(1, PER_PAGE)
    assert list(problems.notes) == ["page", "per_page"]


def test_links_keep_the_filters_and_leave_out_defaults() -> None:
    query = TableQuery.read({"search": "jazz", "page": "3"})
    assert parse_qs(query.query()) == {"search": ["jazz"], "page": ["3"]}
    assert parse_qs(query.page_query(1)) == {"search": ["jazz"]}
    assert parse_qs(query.status_query("trash")) == {"status": ["trash"]}  # a tab alone
    assert "status" not in parse_qs(TableQuery.read({"status": "draft"}).status_query(""))


@pytest.mark.parametrize(
    ("orderby", "order", "column", "expected"),
    [
        ("start_date", "desc", "start_date", ("start_date", "asc")),
        ("start_date", "asc", "start_date", ("start_date", "desc")),
        ("start_date", "desc", "title", ("title", "asc")),
        ("title", "asc", "modified", ("modified", "desc")),
    ],
)
def test_a_column_heading_sorts_by_it_or_turns_the_order_round(
    orderby: str, order: str, column: str, expected: tuple[str, str]
) -> None:
    query = TableQuery.read({"orderby": orderby, "order": order, "page": "2"})
    link = parse_qs(query.sort_query(column))
    got = (link.get("orderby", ["start_date"])[0], link.get("order", ["desc"])[0])
    assert got == expected
    assert "page" not in link  # back to the first page
    assert query.sorted_as(orderby) == ("ascending" if order == "asc" else "descending")
    assert query.sorted_as("id") is None


@pytest.mark.parametrize(
    ("number", "total", "count", "previous", "following", "past"),
    [
        (1, 0, 0, None, None, False),
        (1, 20, 1, None, None, False),
        (1, 21, 2, None, 2, False),
        (2, 21, 2, 1, None, False),
        (3, 21, 2, 2, None, True),
    ],
)
def test_pages(
    number: int, total: int, count: int, previous: int | None, following: int | None, past: bool
) -> None:
    pages = Pages(number, 20, total)
    assert (pages.count, pages.previous, pages.next, pages.past_the_end) == (
        count,
        previous,
        following,
        past,
    )


@pytest.mark.parametrize(
    ("language", "all_day", "end", "expected"),
    [
        ("en", False, "2027-06-08 22:00:00", "Jun 8, 2027, 3:00\u202fPM – 10:00\u202fPM"),
        ("de", False, "2027-06-09 02:00:00", "08.06.2027, 15:00 – 09.06.2027, 02:00"),
        ("sk", True, "2027-06-10 23:59:59", "8. 6. 2027 – 10. 6. 2027"),
        ("en", True, "2027-06-08 23:59:59", "Jun 8, 2027"),
    ],
)
def test_an_events_dates_in_the_desks_language(
    language: str, all_day: bool, end: str, expected: str
) -> None:
    start = datetime(2027, 6, 8, 15)
    assert when_text(start, datetime.fromisoformat(end), all_day, language) == expected
