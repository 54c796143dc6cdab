"""The event list's typed query (app/events/query.py), the door that reads the API's
parameters into it (app/events/wire.py) and the window the list applies
(app/events/listing.py `apply_window`). Pure: no database."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.core.errors import Problems
from app.events.listing import apply_window, default_window
from app.events.params import EventListParams
from app.events.query import EventQuery, ListWindow
from app.events.repository.list_query import EventListFilters
from app.events.wire import event_query, list_echo

ZONE = ZoneInfo("Europe/Bratislava")
NOW = datetime(2026, 3, 10, 12, 0, 30, tzinfo=UTC)


def read(**params: object) -> tuple[EventQuery, Problems]:
    problems = Problems()
    return event_query(EventListParams(**params), ZONE, NOW, problems, 25.0), problems


def test_a_query_refuses_wall_times_without_a_zone() -> None:
    with pytest.raises(ValueError, match="ends_after"):
        EventQuery(ends_after=datetime(2026, 1, 1))


def test_dates_are_read_in_the_sites_zone_unless_strict_then_in_utc() -> None:
    query, _ = read(start_date="2026-03-29 10:00")
    assert query.start_date == datetime(2026, 3, 29, 10, tzinfo=ZONE)
    assert not query.strict
    query, _ = read(start_date="2026-03-29 10:00", strict_dates="Yes")
    assert query.start_date == datetime(2026, 3, 29, 10, tzinfo=UTC)
    assert query.strict
    offset, _ = read(start_date="2026-03-29T10:00:00+02:00", strict_dates="1")
    assert offset.start_date == datetime(2026, 3, 29, 8, tzinfo=UTC)


def test_relative_dates_are_read_at_the_requests_moment() -> None:
    query, _ = read(starts_after="+5 days", strict_dates="on")
    assert query.starts_after == NOW + timedelta(days=5)


def test_include_ignores_every_date_and_lists_become_tuples() -> None:
    query, problems = read(include="3, 4", start_date="2026-01-01", venue="7", categories="jazz,9")
    assert query.include == (3, 4)
    assert query.start_date is None
    assert (query.venues, query.categories) == ((7,), ("jazz", 9))
    assert not problems.notes


def test_flags_statuses_and_order() -> None:
    query, _ = read(status="any", order="DESC", orderby="title", hide_subsequent_recurrences="1")
    assert query.statuses is None  # `any`: the caller's default
    assert (query.orderby, query.descending, query.first_of_series) == ("title", True, True)
    query, _ = read(status="draft,pending", featured="no")
    assert (query.statuses, query.featured) == (("draft", "pending"), False)


def test_the_echo_is_the_applied_window_in_the_references_forms_and_order() -> None:
    params = EventListParams(search="jazz", strict_dates="true", order="asc", venue="5")
    window = ListWindow(start_date=datetime(2026, 3, 9, 23, 59), end_date=datetime(2028, 3, 10))
    echo = list_echo(params, window, None)
    assert echo == {
        "start_date": "2026-03-09 23:59:00",
        "end_date": "2028-03-10 00:00:00",
        "search": "jazz",
        "status": "publish",
        "venue": [5],
        "strict_dates": "1",
        "order": "asc",
    }


def window(query: EventQuery, utc: bool = False) -> tuple[ListWindow, EventListFilters]:
    filters = EventListFilters()
    return apply_window(filters, query, ZONE, utc, NOW, default_window), filters


def test_asked_dates_become_whole_days_of_the_site_unless_strict() -> None:
    asked = datetime(2026, 3, 12, 23, 30, tzinfo=UTC)  # 00:30 on the 13th in Bratislava
    applied, filters = window(EventQuery(start_date=asked, end_date=asked))
    assert applied.start_date == datetime(2026, 3, 13)
    assert applied.end_date == datetime(2026, 3, 13, 23, 59, 59)
    assert (filters.start_min, filters.end_max) == (applied.start_date, applied.end_date)
    strict, filters = window(EventQuery(start_date=asked, strict=True), utc=True)
    assert strict.start_date == datetime(2026, 3, 13, 0, 30)  # the site's wall time, echoed
    assert filters.start_min == asked  # the instant itself, compared with instants


def test_the_default_window_unless_a_relative_bound_or_include() -> None:
    applied, _ = window(EventQuery())
    assert (applied.start_date, applied.end_date) == (
        datetime(2026, 3, 9),
        datetime(2028, 3, 10, 23, 59, 59),
    )
    relative, filters = window(EventQuery(ends_after=NOW, strict=True))
    assert [name for name, _ in relative.items()] == ["ends_after"]
    assert filters.start_min is None
    included, filters = window(EventQuery(include=(1,), start_date=NOW))
    assert included.items() == []
    assert filters.include == [1]
