"""The Events screen's query (app/desk/screens/event_table.py): GET parameters to the API's
list parameters and back to links. Pure: no database, no client."""

from urllib.parse import parse_qs

import pytest

from app.desk.screens.event_rows import when_text
from app.desk.screens.event_table import FIRST_DAY, LAST_DAY, PER_PAGE, Pages, TableQuery


def test_an_empty_query_asks_for_every_date_one_row_per_series_latest_first() -> None:
    params = TableQuery.read({}).api_params()
    assert params["start_date"] == FIRST_DAY
    assert params["end_date"] == LAST_DAY
    assert params["hide_subsequent_recurrences"] == "1"
    assert (params["orderby"], params["order"]) == ("start_date", "desc")
    assert (params["page"], params["per_page"]) == ("1", str(PER_PAGE))
    assert "status" not in params  # the API's default visibility for the caller


def test_filters_pass_through_by_the_apis_names_and_empty_fields_are_no_filter() -> None:
    values = {"search": " jazz ", "status": "pending", "categories": "", "start_date": "2026-01-02"}
    query = TableQuery.read(values)
    params = query.api_params()
    assert params["search"] == "jazz"
    assert params["status"] == "pending"
    assert params["start_date"] == "2026-01-02"
    assert params["end_date"] == LAST_DAY
    assert "categories" not in params
    assert "categories" not in parse_qs(query.query())


def test_values_the_screen_does_not_know_are_not_sent() -> None:
    params = TableQuery.read({"include": "5", "password": "x", "status": ["draft", "x"]})
    sent = params.api_params()
    assert "include" not in sent
    assert "password" not in sent
    assert sent["status"] == "draft"  # the first of a repeated key


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
    body = {"start_date": "2027-06-08 15:00:00", "end_date": end, "all_day": all_day}
    assert when_text(body, language) == expected
