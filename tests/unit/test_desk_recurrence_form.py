"""The editor's recurrence builder (`app.desk.events.recurrence_form`) both ways, table-driven.

Every line the builder writes must be one the API reads (`parse_recurrence`), and reading
lines back must give the builder's fields again, or keep the lines as they are.
"""

from datetime import date, datetime
from itertools import islice

import pytest

from app.desk.events.recurrence_form import (
    CUSTOM,
    DEFAULTS_FIELD,
    RepeatForm,
    follow_start,
    from_fields,
    from_lines,
    to_fields,
    to_lines,
)
from app.events.recurrence import parse_recurrence

ZONE = "Europe/Bratislava"
START = datetime(2027, 3, 9, 19, 0)  # a Tuesday, the 2nd Tuesday of March


def _dates(lines: list[str], count: int = 4) -> list[datetime]:
    return list(islice(parse_recurrence(lines, START, ZONE).starts(), count))


BUILT = [
    pytest.param(
        RepeatForm(frequency="daily", interval=2),
        ["RRULE:FREQ=DAILY;INTERVAL=2"],
        [datetime(2027, 3, 9, 19), datetime(2027, 3, 11, 19), datetime(2027, 3, 13, 19)],
        id="every-second-day",
    ),
    pytest.param(
        RepeatForm(frequency="weekly", weekdays=["TH", "TU"]),
        ["RRULE:FREQ=WEEKLY;BYDAY=TU,TH"],
        [datetime(2027, 3, 9, 19), datetime(2027, 3, 11, 19), datetime(2027, 3, 16, 19)],
        id="weekly-two-days-in-week-order",
    ),
    pytest.param(
        RepeatForm(frequency="monthly", month_day=9, ends="after", count=2),
        ["RRULE:FREQ=MONTHLY;BYMONTHDAY=9;COUNT=2"],
        [datetime(2027, 3, 9, 19), datetime(2027, 4, 9, 19)],
        id="monthly-day-n-twice",
    ),
    pytest.param(
        RepeatForm(frequency="monthly", monthly_by="weekday", week=2, weekday="TU"),
        ["RRULE:FREQ=MONTHLY;BYDAY=2TU"],
        [datetime(2027, 3, 9, 19), datetime(2027, 4, 13, 19), datetime(2027, 5, 11, 19)],
        id="monthly-second-tuesday",
    ),
    pytest.param(
        RepeatForm(frequency="monthly", monthly_by="weekday", week=-1, weekday="FR"),
        ["RRULE:FREQ=MONTHLY;BYDAY=-1FR"],
        [datetime(2027, 3, 9, 19), datetime(2027, 3, 26, 19), datetime(2027, 4, 30, 19)],
        id="monthly-last-friday",
    ),
    pytest.param(
        RepeatForm(frequency="yearly", ends="on", until=date(2029, 3, 9)),
        ["RRULE:FREQ=YEARLY;UNTIL=20290309"],
        [datetime(2027, 3, 9, 19), datetime(2028, 3, 9, 19), datetime(2029, 3, 9, 19)],
        id="yearly-until-a-day-inclusive",
    ),
    pytest.param(
        RepeatForm(
            frequency="weekly",
            weekdays=["TU"],
            ends="after",
            count=3,
            extra_dates=[date(2027, 3, 12)],
            excluded_dates=[date(2027, 3, 16)],
        ),
        [
            "RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3",
            "RDATE;VALUE=DATE:20270312",
            "EXDATE;VALUE=DATE:20270316",
        ],
        [datetime(2027, 3, 9, 19), datetime(2027, 3, 12, 19), datetime(2027, 3, 23, 19)],
        id="extra-and-excluded-dates",
    ),
]


@pytest.mark.parametrize(("form", "lines", "first"), BUILT)
def test_builder_writes_lines_the_api_expands(
    form: RepeatForm, lines: list[str], first: list[datetime]
) -> None:
    assert to_lines(form) == lines
    assert _dates(lines, len(first)) == first


@pytest.mark.parametrize(("form", "lines", "first"), BUILT)
def test_lines_read_back_give_the_same_builder(
    form: RepeatForm, lines: list[str], first: list[datetime]
) -> None:
    read = from_lines(lines, START, ZONE)
    assert read.frequency == form.frequency
    assert to_lines(read) == lines


def test_no_repetition_is_no_lines() -> None:
    assert to_lines(RepeatForm()) == []
    assert from_lines([], START, ZONE).frequency == ""
    assert from_lines(None, START, ZONE).frequency == ""


def test_defaults_fit_the_start() -> None:
    form = from_lines([], START, ZONE)
    assert (form.weekdays, form.month_day, form.week, form.weekday) == (["TU"], 9, 2, "TU")
    last = RepeatForm.starting(date(2027, 3, 30))  # the 5th Tuesday: "the last"
    assert last.week == -1


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(["RRULE:FREQ=WEEKLY;BYDAY=TU", "RRULE:FREQ=MONTHLY"], id="two-rules"),
        pytest.param(["RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2TU"], id="bymonth"),
        pytest.param(["RRULE:FREQ=HOURLY;COUNT=3"], id="hourly"),
        pytest.param(["RRULE:FREQ=MONTHLY;BYDAY=TU,TH"], id="monthly-several-weekdays"),
        pytest.param(["RDATE:20270312T190000Z"], id="dates-without-rule"),
        pytest.param(["RRULE:FREQ=DAILY", "EXDATE;TZID=Europe/Vienna:20270310T190000"], id="tzid"),
    ],
)
def test_what_the_builder_cannot_show_is_kept_as_it_is(lines: list[str]) -> None:
    form = from_lines(lines, START, ZONE)
    assert form.frequency == CUSTOM
    assert to_lines(form) == lines


def test_utc_dates_the_api_writes_read_as_local_days() -> None:
    """The API cancels a date with an EXDATE in UTC and ends a series with a UTC UNTIL."""
    lines = ["RRULE:FREQ=WEEKLY;UNTIL=20270330T175959Z", "EXDATE:20270316T180000Z"]
    form = from_lines(lines, START, ZONE)
    assert (form.frequency, form.ends, form.until) == ("weekly", "on", date(2027, 3, 30))
    assert form.excluded_dates == [date(2027, 3, 16)]
    assert not form.kept_lines
    assert _dates(to_lines(form), 4) == _dates(lines, 4)


def test_a_date_at_another_time_is_kept_as_a_line() -> None:
    lines = ["RRULE:FREQ=WEEKLY", "RDATE:20270312T090000Z,20270313T180000Z"]
    form = from_lines(lines, START, ZONE)
    assert form.frequency == "weekly"
    assert form.extra_dates == [date(2027, 3, 13)]
    assert form.kept_lines == ["RDATE:20270312T090000Z"]
    assert sorted(_dates(to_lines(form), 5)) == sorted(_dates(lines, 5))


def test_html_fields_round_trip() -> None:
    form = RepeatForm(
        frequency="monthly",
        interval=3,
        monthly_by="weekday",
        week=-1,
        weekday="SU",
        ends="on",
        until=date(2028, 1, 1),
        extra_dates=[date(2027, 5, 1)],
        excluded_dates=[date(2027, 6, 27)],
    )
    errors: dict[str, str] = {}
    assert to_lines(from_fields(to_fields(form), errors)) == to_lines(form)
    assert errors == {}


@pytest.mark.parametrize(
    ("values", "field"),
    [
        pytest.param({"repeat": "daily", "repeat_interval": "0"}, "repeat_interval", id="zero"),
        pytest.param({"repeat": "daily", "repeat_interval": "x"}, "repeat_interval", id="text"),
        pytest.param({"repeat": "daily", "repeat_ends": "after"}, "repeat_count", id="no-count"),
        pytest.param(
            {"repeat": "daily", "repeat_ends": "on", "repeat_until": "31.12.2027"},
            "repeat_until",
            id="bad-until",
        ),
        pytest.param({"repeat": "daily", "repeat_rdate": ["2027-02-30"]}, "repeat_rdate", id="rd"),
        pytest.param({"repeat": "fortnightly"}, "repeat", id="unknown-frequency"),
    ],
)
def test_fields_that_cannot_be_read_are_named(values: dict[str, object], field: str) -> None:
    errors: dict[str, str] = {}
    from_fields(values, errors)
    assert field in errors


# ---- the builder's defaults follow the start date (issue 42) ------------------------------

SATURDAY = date(2026, 11, 28)  # the day the page was opened: the 4th Saturday
THURSDAY = date(2026, 12, 3)  # the start chosen: the 1st Thursday


def _opened(**changes: object) -> dict[str, object]:
    """A new event's form as opened on SATURDAY, then the start moved to THURSDAY."""
    values: dict[str, object] = {**to_fields(RepeatForm.starting(SATURDAY))}
    values.update({DEFAULTS_FIELD: SATURDAY.isoformat(), "start_day": THURSDAY.isoformat()})
    values.update(changes)
    return values


def test_untouched_defaults_follow_the_start_date() -> None:
    followed = follow_start(_opened(repeat="weekly"))
    assert followed["repeat_weekdays"] == ["TH"]
    assert followed["repeat_month_day"] == "3"
    assert (followed["repeat_week"], followed["repeat_weekday"]) == ("1", "TH")
    assert followed[DEFAULTS_FIELD] == THURSDAY.isoformat()
    lines = to_lines(from_fields({**followed, "repeat_ends": "after", "repeat_count": "4"}, {}))
    assert lines == ["RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=4"]
    start = datetime.combine(THURSDAY, START.time())
    found = list(islice(parse_recurrence(lines, start, ZONE).starts(), 10))
    assert [moment.date() for moment in found] == [date(2026, 12, 3 + 7 * n) for n in range(4)]


def test_what_the_person_changed_is_kept() -> None:
    followed = follow_start(
        _opened(repeat_weekdays=["MO", "SA"], repeat_month_day="15", repeat_week="-1")
    )
    assert followed["repeat_weekdays"] == ["MO", "SA"]
    assert followed["repeat_month_day"] == "15"
    assert (followed["repeat_week"], followed["repeat_weekday"]) == ("-1", "SA")


@pytest.mark.parametrize("shown", ["", "not a day", THURSDAY.isoformat()])
def test_no_defaults_day_or_the_same_day_changes_nothing(shown: str) -> None:
    values = _opened(**{DEFAULTS_FIELD: shown})
    assert follow_start(values) == values
