"""Every recurrence rule answers within a bound (issue 40): hypothesis writes rules from
RFC 5545's parts, the sensible and the absurd (INTERVAL 0, every second of the day, days
that rarely or never come), and each is read and expanded as a series' materialisation,
the horizon's look and the desk's preview do, or refused with the 400 that says why."""

from datetime import datetime
from itertools import islice

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.errors import InvalidParams
from app.events.recurrence import parse_recurrence
from tests.bounds import within

FREQUENCIES = st.sampled_from(["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY"])
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def _numbers(low: int, high: int, most: int = 60) -> st.SearchStrategy[str]:
    values = st.lists(st.integers(low, high), min_size=1, max_size=most)
    return values.map(lambda items: ",".join(str(item) for item in items))


WEEKDAYS = st.lists(
    st.tuples(st.sampled_from(["", "1", "2", "-1", "53", "-5"]), st.sampled_from(DAYS)),
    min_size=1,
    max_size=10,
).map(lambda items: ",".join(f"{n}{day}" for n, day in items))
PARTS = {
    "INTERVAL": st.integers(0, 2000).map(str),
    "COUNT": st.integers(0, 5000).map(str),
    "UNTIL": st.dates(
        min_value=datetime(1990, 1, 1).date(), max_value=datetime(9999, 1, 1).date()
    ).map(lambda day: day.strftime("%Y%m%d")),
    "BYMONTH": _numbers(1, 12, 12),
    "BYMONTHDAY": _numbers(-31, 31),
    "BYYEARDAY": _numbers(-366, 366),
    "BYWEEKNO": _numbers(-53, 53),
    "BYDAY": WEEKDAYS,
    "BYHOUR": _numbers(0, 23, 24),
    "BYMINUTE": _numbers(0, 59),
    "BYSECOND": _numbers(0, 59),
    "BYSETPOS": _numbers(-366, 366, 5),
    "WKST": st.sampled_from(DAYS),
}


@st.composite
def rules(draw: st.DrawFn) -> str:
    names = draw(st.lists(st.sampled_from(sorted(PARTS)), max_size=6, unique=True))
    parts = [f"FREQ={draw(FREQUENCIES)}"] + [f"{name}={draw(PARTS[name])}" for name in names]
    return "RRULE:" + ";".join(parts)


STARTS = st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(9999, 12, 1))
BOUND = 5  # seconds for one rule's whole work; it takes milliseconds to a few tenths


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=rules(), start=STARTS.map(lambda moment: moment.replace(microsecond=0)))
def test_every_rule_answers_within_the_bound(line: str, start: datetime) -> None:
    with within(BOUND):
        try:
            recurrence = parse_recurrence([line], start, "Europe/Berlin")
        except InvalidParams as refused:
            notes = set(refused.notes)
            recurrence = None
        if recurrence is None:
            assert notes == {"recurrence"}, line  # a 400 that names the parameter
            return
        horizon = max(start, datetime(2026, 11, 28)).replace(year=min(start.year + 2, 9999))
        stored, _ = recurrence.stored(horizon, 1000)
        preview = list(islice(recurrence.starts(), 10))
    assert stored[0] == preview[0]  # the series begins where its preview does
    assert stored == sorted(stored)
    assert len(stored) <= 1000
