"""Date and time-zone rules (`app.core.rules.dates`), table-driven, with a fixed `now`.

Pure functions only: no database, no HTTP client.
"""

from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from app.core.rules.dates import (
    ZoneError,
    date_details,
    format_datetime,
    parse_when,
    parse_zone,
    zone_abbreviation,
)

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")
# Wednesday 5 May 2027, 12:30:15 in Berlin (CEST, +02:00).
NOW = datetime(2027, 5, 5, 10, 30, 15, tzinfo=UTC)


# ---- parse_zone ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("Europe/Berlin", ZoneInfo("Europe/Berlin"), id="iana"),
        pytest.param("America/New_York", ZoneInfo("America/New_York"), id="iana-underscore"),
        pytest.param(" Europe/Berlin ", ZoneInfo("Europe/Berlin"), id="iana-trimmed"),
        pytest.param("UTC", UTC, id="utc"),
        pytest.param("utc", UTC, id="utc-lower"),
        pytest.param("UTC+2", timezone(timedelta(hours=2)), id="utc-plus-hours"),
        pytest.param(
            "UTC-5:30", timezone(-timedelta(hours=5, minutes=30)), id="utc-minus-hours-minutes"
        ),
        pytest.param(
            "UTC+0530", timezone(timedelta(hours=5, minutes=30)), id="utc-plus-without-colon"
        ),
        pytest.param("UTC+14", timezone(timedelta(hours=14)), id="utc-plus-14-is-the-limit"),
        pytest.param("UTC-14", timezone(timedelta(hours=-14)), id="utc-minus-14-is-the-limit"),
        pytest.param("UTC-0", UTC, id="utc-minus-zero"),
    ],
)
def test_parse_zone_accepts(value: str, expected: tzinfo) -> None:
    zone = parse_zone(value)
    assert zone == expected
    assert zone.utcoffset(NOW) == expected.utcoffset(NOW)


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("Mars/Olympus", id="unknown-name"),
        pytest.param("", id="empty"),
        pytest.param("   ", id="blank"),
        pytest.param("Europe", id="directory-of-the-zone-database"),
        pytest.param("UTC+15", id="offset-over-14h"),
        pytest.param("UTC+2:60", id="offset-minutes-over-59"),
        pytest.param("UTC-02:99", id="offset-minutes-99"),
        pytest.param("UTC+14:01", id="offset-just-over-14h"),
        pytest.param("UTC+", id="sign-without-hours"),
        pytest.param("../etc/passwd", id="path-traversal"),
        pytest.param("/etc/localtime", id="absolute-path"),
        pytest.param("Europe/" + "x" * 60, id="over-64-characters"),
    ],
)
def test_parse_zone_refuses(value: str) -> None:
    with pytest.raises(ZoneError):
        parse_zone(value)


def test_zone_error_is_a_value_error() -> None:
    assert issubclass(ZoneError, ValueError)


# ---- parse_when ------------------------------------------------------------------------


def berlin(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> datetime:
    return datetime(year, month, day, hour, minute, second, tzinfo=BERLIN)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        # Absolute forms: wall time in the zone given unless the value has an offset.
        pytest.param("2027-05-01 12:00:00", berlin(2027, 5, 1, 12, 0, 0), id="Y-m-d-H-i-s"),
        pytest.param("2027-05-01", berlin(2027, 5, 1, 0, 0, 0), id="Y-m-d"),
        pytest.param("2027-05-01T12:00:00", berlin(2027, 5, 1, 12, 0, 0), id="iso-no-offset"),
        pytest.param(
            "2027-05-01T12:00:00+02:00",
            datetime(2027, 5, 1, 12, 0, 0, tzinfo=timezone(timedelta(hours=2))),
            id="iso-with-offset",
        ),
        pytest.param(
            "2027-05-01T12:00:00-05:00",
            datetime(2027, 5, 1, 12, 0, 0, tzinfo=timezone(timedelta(hours=-5))),
            id="iso-with-negative-offset",
        ),
        pytest.param(
            "2027-05-01T12:00:00Z", datetime(2027, 5, 1, 12, 0, 0, tzinfo=UTC), id="iso-zulu"
        ),
        # Unix timestamps: instants, whatever the zone.
        pytest.param(1800000000, datetime(2027, 1, 15, 8, 0, 0, tzinfo=UTC), id="timestamp-int"),
        pytest.param(
            "1800000000", datetime(2027, 1, 15, 8, 0, 0, tzinfo=UTC), id="timestamp-string"
        ),
        pytest.param(
            " 1800000000 ", datetime(2027, 1, 15, 8, 0, 0, tzinfo=UTC), id="timestamp-spaces"
        ),
        pytest.param(0, datetime(1970, 1, 1, tzinfo=UTC), id="timestamp-zero"),
        pytest.param("-86400", datetime(1969, 12, 31, tzinfo=UTC), id="timestamp-negative"),
        # Relative forms, from NOW as seen in Berlin.
        pytest.param("now", berlin(2027, 5, 5, 12, 30, 15), id="now"),
        pytest.param("today", berlin(2027, 5, 5, 0, 0, 0), id="today"),
        pytest.param(" Today ", berlin(2027, 5, 5, 0, 0, 0), id="today-any-case-trimmed"),
        pytest.param("midnight", berlin(2027, 5, 5, 0, 0, 0), id="midnight"),
        pytest.param("tomorrow", berlin(2027, 5, 6, 0, 0, 0), id="tomorrow"),
        pytest.param("yesterday", berlin(2027, 5, 4, 0, 0, 0), id="yesterday"),
        pytest.param("+5 days", berlin(2027, 5, 10, 12, 30, 15), id="plus-5-days"),
        pytest.param("+2 hours", berlin(2027, 5, 5, 14, 30, 15), id="plus-2-hours"),
        pytest.param("next monday", berlin(2027, 5, 10, 0, 0, 0), id="next-monday"),
        pytest.param("Next Monday", berlin(2027, 5, 10, 0, 0, 0), id="next-monday-any-case"),
        pytest.param("tomorrow 9am", berlin(2027, 5, 6, 9, 0, 0), id="tomorrow-9am"),
        # The range ends: two days inside years 1 and 9999.
        pytest.param("0001-01-03T00:00:00Z", datetime(1, 1, 3, tzinfo=UTC), id="earliest-accepted"),
        pytest.param(
            "9999-12-29T23:59:59Z",
            datetime(9999, 12, 29, 23, 59, 59, tzinfo=UTC),
            id="latest-accepted",
        ),
    ],
)
def test_parse_when_accepts(value: Any, expected: datetime) -> None:
    parsed = parse_when(value, BERLIN, NOW)
    assert parsed == expected
    assert parsed.tzinfo is not None
    assert parsed.utcoffset() == expected.utcoffset()


@pytest.mark.parametrize(
    ("value", "zone"),
    [
        pytest.param("2027-05-01 12:00:00", BERLIN, id="wall-time-in-berlin"),
        pytest.param("2027-05-01 12:00:00", NEW_YORK, id="wall-time-in-new-york"),
        pytest.param(
            "2027-05-01 12:00:00",
            timezone(timedelta(hours=-5, minutes=-30)),
            id="wall-time-in-utc-minus-5-30",
        ),
    ],
)
def test_parse_when_reads_wall_times_in_the_zone(value: str, zone: tzinfo) -> None:
    parsed = parse_when(value, zone, NOW)
    assert parsed.tzinfo is zone
    assert (parsed.hour, parsed.minute) == (12, 0)


@pytest.mark.parametrize(
    "zone",
    [
        pytest.param(UTC, id="utc"),
        pytest.param(BERLIN, id="berlin"),
        pytest.param(NEW_YORK, id="new-york"),
    ],
)
def test_timestamp_is_an_instant_whatever_the_zone(zone: tzinfo) -> None:
    assert parse_when("1800000000", zone, NOW) == datetime(2027, 1, 15, 8, tzinfo=UTC)


def test_offset_value_is_kept_with_its_offset() -> None:
    parsed = parse_when("2027-05-01T12:00:00+02:00", NEW_YORK, NOW)
    assert parsed.utcoffset() == timedelta(hours=2)


def test_relative_times_drop_microseconds() -> None:
    now = datetime(2027, 5, 5, 10, 30, 15, 123456, tzinfo=UTC)
    assert parse_when("+1 day", UTC, now) == datetime(2027, 5, 6, 10, 30, 15, tzinfo=UTC)


def test_dst_gap_wall_time_takes_the_offset_before_the_change() -> None:
    # 02:30 does not exist in Berlin on 28 March 2027; zoneinfo's fold=0 reads it as +01:00.
    parsed = parse_when("2027-03-28 02:30:00", BERLIN, NOW)
    assert parsed.utcoffset() == timedelta(hours=1)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        pytest.param("next blursday", "unparsable date", id="unknown-weekday"),
        pytest.param("2027-02-30", "unparsable date", id="february-30"),
        pytest.param("2027-05-01 25:00:00", "unparsable date", id="hour-25"),
        pytest.param("", "not a date", id="empty"),
        pytest.param("   ", "not a date", id="blank"),
        pytest.param(True, "not a date", id="bool-true"),
        pytest.param(False, "not a date", id="bool-false"),
        pytest.param(None, "not a date", id="none"),
        pytest.param([], "not a date", id="list"),
        pytest.param({}, "not a date", id="object"),
        pytest.param("x" * 101, "not a date", id="over-100-characters"),
        pytest.param("2027-05-01 12:00:00" + " " * 90, "not a date", id="over-long-padded"),
        pytest.param("0001-01-01", "out of range", id="year-1-too-early"),
        pytest.param("0001-01-02T23:59:59Z", "out of range", id="just-before-earliest"),
        pytest.param("9999-12-31 00:00:00", "out of range", id="year-9999-too-late"),
        pytest.param("9999-12-30T00:00:00Z", "out of range", id="just-after-latest"),
        pytest.param("10000-01-01", "unparsable date", id="year-10000"),
        pytest.param("0000-01-01", "unparsable date", id="year-0"),
        pytest.param(-62135596800, "out of range", id="timestamp-year-1"),
        pytest.param("253402300799", "out of range", id="timestamp-end-of-9999"),
        pytest.param(10**12, "timestamp out of range", id="timestamp-too-large"),
        pytest.param(10**20, "timestamp out of range", id="timestamp-overflow"),
    ],
)
def test_parse_when_refuses(value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_when(value, BERLIN, NOW)


# ---- zone_abbreviation ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        pytest.param(datetime(2027, 1, 15, 12, tzinfo=UTC), "EST", id="winter"),
        pytest.param(datetime(2027, 7, 15, 12, tzinfo=UTC), "EDT", id="summer"),
        pytest.param(datetime(2027, 3, 14, 6, 59, 59, tzinfo=UTC), "EST", id="before-spring"),
        pytest.param(datetime(2027, 3, 14, 7, 0, 0, tzinfo=UTC), "EDT", id="at-spring-forward"),
        pytest.param(datetime(2027, 11, 7, 5, 59, 59, tzinfo=UTC), "EDT", id="before-fall"),
        pytest.param(datetime(2027, 11, 7, 6, 0, 0, tzinfo=UTC), "EST", id="at-fall-back"),
    ],
)
def test_zone_abbreviation_new_york(at: datetime, expected: str) -> None:
    assert zone_abbreviation("America/New_York", NEW_YORK, at) == expected


@pytest.mark.parametrize(
    ("name", "zone", "expected"),
    [
        pytest.param("Europe/Berlin", BERLIN, "CEST", id="berlin-summer"),
        pytest.param("Asia/Kolkata", ZoneInfo("Asia/Kolkata"), "IST", id="kolkata"),
        pytest.param("UTC", UTC, "UTC", id="utc-by-its-name"),
        pytest.param("UTC+2", timezone(timedelta(hours=2)), "UTC+2", id="offset-by-its-name"),
        pytest.param(
            "UTC-5:30", timezone(-timedelta(hours=5, minutes=30)), "UTC-5:30", id="offset-minutes"
        ),
    ],
)
def test_zone_abbreviation_other_zones(name: str, zone: tzinfo, expected: str) -> None:
    assert zone_abbreviation(name, zone, NOW) == expected


# ---- format_datetime and date_details ------------------------------------------------


@pytest.mark.parametrize(
    ("moment", "zone", "expected"),
    [
        pytest.param(NOW, None, "2027-05-05 10:30:15", id="as-it-is"),
        pytest.param(NOW, UTC, "2027-05-05 10:30:15", id="in-utc"),
        pytest.param(NOW, BERLIN, "2027-05-05 12:30:15", id="in-berlin"),
        pytest.param(NOW, NEW_YORK, "2027-05-05 06:30:15", id="in-new-york"),
        pytest.param(
            NOW, timezone(-timedelta(hours=5, minutes=30)), "2027-05-05 05:00:15", id="in-offset"
        ),
        pytest.param(
            datetime(2027, 1, 1, 0, 30, tzinfo=UTC),
            NEW_YORK,
            "2026-12-31 19:30:00",
            id="previous-day-and-year",
        ),
        pytest.param(datetime(5, 1, 2, 3, 4, 5), None, "0005-01-02 03:04:05", id="zero-padded"),
        pytest.param(
            datetime(2027, 5, 5, 10, 30, 15, 999999, tzinfo=UTC),
            None,
            "2027-05-05 10:30:15",
            id="microseconds-dropped",
        ),
    ],
)
def test_format_datetime(moment: datetime, zone: tzinfo | None, expected: str) -> None:
    assert format_datetime(moment, zone) == expected


def test_format_datetime_matches_strftime() -> None:
    moment = datetime(2027, 12, 31, 23, 59, 59, tzinfo=BERLIN)
    assert format_datetime(moment) == moment.strftime("%Y-%m-%d %H:%M:%S")


@pytest.mark.parametrize(
    ("moment", "expected"),
    [
        pytest.param(
            datetime(5, 1, 2, 3, 4, 5),
            {
                "year": "0005",
                "month": "01",
                "day": "02",
                "hour": "03",
                "minutes": "04",
                "seconds": "05",
            },
            id="zero-padded",
        ),
        pytest.param(
            datetime(2027, 12, 31, 23, 59, 59, tzinfo=BERLIN),
            {
                "year": "2027",
                "month": "12",
                "day": "31",
                "hour": "23",
                "minutes": "59",
                "seconds": "59",
            },
            id="two-digit-fields",
        ),
    ],
)
def test_date_details(moment: datetime, expected: dict[str, str]) -> None:
    assert date_details(moment) == expected
