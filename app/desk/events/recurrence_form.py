"""The editor's recurrence builder <-> the RFC 5545 lines the API takes (app/events/recurrence.py).

A person picks "weekly on Tuesday and Thursday, every 2 weeks, 10 times" and never types
RRULE. What the builder cannot show (several rules, BYMONTH, hourly...) is kept as the lines
themselves ("custom"), so that opening and saving an event never changes its series.

Pure: no database, no HTTP. The API reads and checks the lines it gets; the builder only
writes the lines and reports what it cannot even write (a count that is no number).
"""

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
FREQUENCIES = ("daily", "weekly", "monthly", "yearly")
CUSTOM = "custom"
ENDS = ("never", "after", "on")
WEEKS = (1, 2, 3, 4, -1)  # "the first ... the fourth, the last" weekday of a month
MAX_INTERVAL = 999
MAX_COUNT = 1000
# Rule parts the builder shows; a rule with any other is kept as it is ("custom").
_SHOWN_PARTS = {"FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "COUNT", "UNTIL", "WKST"}


@dataclass
class RepeatForm:
    """The builder's fields, as the form sends them."""

    frequency: str = ""  # "" (no repetition), one of FREQUENCIES, or CUSTOM
    interval: int = 1
    weekdays: list[str] = field(default_factory=list)  # weekly
    monthly_by: str = "day"  # "day" (day N of the month) or "weekday" (the 2nd Tuesday)
    month_day: int = 1
    week: int = 1  # one of WEEKS
    weekday: str = "MO"
    ends: str = "never"
    count: int | None = None
    until: date | None = None
    extra_dates: list[date] = field(default_factory=list)  # RDATE (at the series' start time)
    excluded_dates: list[date] = field(default_factory=list)  # EXDATE
    # Lines kept as they are: all of them when CUSTOM, else lines the builder has no field for
    # (a date at another time than the series' start).
    kept_lines: list[str] = field(default_factory=list)

    @classmethod
    def starting(cls, start: date) -> "RepeatForm":
        """Defaults that fit a series starting on `start` (its weekday, its day of month)."""
        week = (start.day - 1) // 7 + 1
        return cls(
            weekdays=[WEEKDAYS[start.weekday()]],
            month_day=start.day,
            week=-1 if week == 5 else week,
            weekday=WEEKDAYS[start.weekday()],
        )


# ---- form -> lines ------------------------------------------------------------------------


def to_lines(form: RepeatForm) -> list[str]:
    """The API's `recurrence` lines of the builder's choice; [] for a single event."""
    if form.frequency == CUSTOM:
        return [line for line in form.kept_lines if line.strip()]
    if form.frequency not in FREQUENCIES:
        return []
    parts = [f"FREQ={form.frequency.upper()}"]
    if form.interval > 1:
        parts.append(f"INTERVAL={form.interval}")
    if form.frequency == "weekly" and form.weekdays:
        parts.append("BYDAY=" + ",".join(day for day in WEEKDAYS if day in form.weekdays))
    if form.frequency == "monthly":
        if form.monthly_by == "weekday":
            parts.append(f"BYDAY={form.week}{form.weekday}")
        else:
            parts.append(f"BYMONTHDAY={form.month_day}")
    if form.ends == "after" and form.count is not None:
        parts.append(f"COUNT={form.count}")
    elif form.ends == "on" and form.until is not None:
        parts.append(f"UNTIL={form.until:%Y%m%d}")  # the API: up to the end of that day
    lines = ["RRULE:" + ";".join(parts)]
    if form.extra_dates:
        lines.append("RDATE;VALUE=DATE:" + _day_list(form.extra_dates))
    if form.excluded_dates:
        lines.append("EXDATE;VALUE=DATE:" + _day_list(form.excluded_dates))
    return lines + [line for line in form.kept_lines if line.strip()]


def _day_list(days: list[date]) -> str:
    return ",".join(f"{day:%Y%m%d}" for day in sorted(set(days)))


# ---- lines -> form ------------------------------------------------------------------------


def from_lines(lines: list[str] | None, start: datetime, zone: str) -> RepeatForm:
    """The builder showing `lines` of a series that starts at `start` (local wall time) in
    `zone`. Whatever the builder cannot show makes it CUSTOM, with every line kept."""
    form = RepeatForm.starting(start.date())
    if not lines:
        return form
    try:
        _read(form, lines, start, _zone(zone))
    except _Unshown:
        return RepeatForm(frequency=CUSTOM, kept_lines=list(lines))
    return form


class _Unshown(Exception):
    """A line the builder has no fields for."""


def _zone(name: str) -> Any:
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError, OSError):
        return None  # UTC±H offsets: dates in UTC are then read as UTC


def _read(form: RepeatForm, lines: list[str], start: datetime, zone: Any) -> None:
    rules = [line for line in lines if _name(line) == "RRULE"]
    if len(rules) != 1:
        raise _Unshown
    for line in lines:
        name = _name(line)
        if name == "RRULE":
            _read_rule(form, line, zone)
        elif name in ("RDATE", "EXDATE"):
            days, others = _read_dates(line, start, zone)
            (form.extra_dates if name == "RDATE" else form.excluded_dates).extend(days)
            if others:
                form.kept_lines.append(others)
        else:
            raise _Unshown


def _name(line: str) -> str:
    return line.split(":", 1)[0].split(";", 1)[0].strip().upper()


def _read_rule(form: RepeatForm, line: str, zone: Any) -> None:
    body = line.split(":", 1)[1]
    parts = {k.upper(): v for k, _, v in (p.partition("=") for p in body.split(";") if p)}
    if set(parts) - _SHOWN_PARTS or parts.get("FREQ", "").lower() not in FREQUENCIES:
        raise _Unshown
    form.frequency = parts["FREQ"].lower()
    form.interval = _number(parts.get("INTERVAL", "1"), 1, MAX_INTERVAL)
    byday = [day for day in parts.get("BYDAY", "").upper().split(",") if day]
    if form.frequency == "weekly":
        if "BYMONTHDAY" in parts or any(day not in WEEKDAYS for day in byday):
            raise _Unshown
        form.weekdays = byday or form.weekdays
    elif form.frequency == "monthly":
        _read_monthly(form, parts, byday)
    elif byday or "BYMONTHDAY" in parts:
        raise _Unshown
    if "COUNT" in parts:
        form.ends, form.count = "after", _number(parts["COUNT"], 1, MAX_COUNT)
    elif "UNTIL" in parts:
        form.ends, form.until = "on", _until_day(parts["UNTIL"], zone)


def _read_monthly(form: RepeatForm, parts: dict[str, str], byday: list[str]) -> None:
    if "BYMONTHDAY" in parts and not byday:
        form.monthly_by = "day"
        form.month_day = _number(parts["BYMONTHDAY"], 1, 31)
    elif len(byday) == 1 and "BYMONTHDAY" not in parts:
        week, weekday = byday[0][:-2], byday[0][-2:]
        if weekday not in WEEKDAYS or not week or int(_signed(week)) not in WEEKS:
            raise _Unshown
        form.monthly_by, form.week, form.weekday = "weekday", int(_signed(week)), weekday
    elif byday or "BYMONTHDAY" in parts:
        raise _Unshown
    # FREQ=MONTHLY alone repeats on the start's day: the defaults show that already.


def _signed(text: str) -> str:
    if not text.lstrip("+-").isdigit():
        raise _Unshown
    return text.lstrip("+")


def _number(text: str, low: int, high: int) -> int:
    if not text.isdigit() or not low <= int(text) <= high:
        raise _Unshown
    return int(text)


def _stamp(text: str, zone: Any) -> datetime:
    """A DATE or DATE-TIME stamp as a local wall time (UTC ones moved into `zone`)."""
    text = text.strip()
    try:
        if len(text) == 8:
            return datetime.combine(date(int(text[:4]), int(text[4:6]), int(text[6:])), time())
        moment = datetime.strptime(text.rstrip("Z"), "%Y%m%dT%H%M%S")
    except ValueError:
        raise _Unshown from None
    if text.endswith("Z") and zone is not None:
        return moment.replace(tzinfo=UTC).astimezone(zone).replace(tzinfo=None)
    return moment


def _until_day(text: str, zone: Any) -> date:
    return _stamp(text, zone).date()


def _read_dates(line: str, start: datetime, zone: Any) -> tuple[list[date], str]:
    """The days of an RDATE/EXDATE line at the series' start time, and a line of the rest."""
    head, _, value = line.partition(":")
    params = {k.upper(): v for k, _, v in (p.partition("=") for p in head.split(";")[1:])}
    if set(params) - {"VALUE"}:
        raise _Unshown  # a TZID: kept as it is
    days: list[date] = []
    others: list[str] = []
    for item in value.split(","):
        moment = _stamp(item, zone)
        if len(item.strip()) == 8 or moment.time() == start.time():
            days.append(moment.date())
        else:
            others.append(item.strip())
    rest = f"{_name(line)}:{','.join(others)}" if others else ""
    return days, rest


# ---- the HTML form's fields ---------------------------------------------------------------

# The start date the builder's weekday, day of the month and "2nd Tuesday" were set for
# (a hidden field of a form whose builder is still at its defaults: a new event, one that
# does not repeat yet). While they are as set for that date, they follow the start date.
DEFAULTS_FIELD = "repeat_defaults"


def follow_start(values: dict[str, Any]) -> dict[str, Any]:
    """`values` with the builder's fields that are still the defaults of the day they were
    set for moved to the start date's (Weekly from a Thursday start repeats on Thursdays,
    whatever day the page was opened), and DEFAULTS_FIELD now the start date. A field the
    person changed is kept. The page's script does the same as the start date changes."""
    try:
        shown = date.fromisoformat(str(values.get(DEFAULTS_FIELD, "")).strip())
        start = date.fromisoformat(str(values.get("start_day", "")).strip())
    except ValueError:
        return values
    if shown == start:
        return values
    before, after = to_fields(RepeatForm.starting(shown)), to_fields(RepeatForm.starting(start))
    values = {**values, DEFAULTS_FIELD: start.isoformat()}
    if _list(values, "repeat_weekdays") == before["repeat_weekdays"]:
        values["repeat_weekdays"] = after["repeat_weekdays"]
    if str(values.get("repeat_month_day", "")).strip() == before["repeat_month_day"]:
        values["repeat_month_day"] = after["repeat_month_day"]
    names = ("repeat_week", "repeat_weekday")
    if all(str(values.get(name, "")).strip() == before[name] for name in names):
        values.update({name: after[name] for name in names})
    return values


def from_fields(values: dict[str, Any], errors: dict[str, str]) -> RepeatForm:
    """The builder from the submitted form (names `repeat_*`); what cannot be read goes to
    `errors` (field name -> message key) and is left at its default."""
    form = RepeatForm(frequency=str(values.get("repeat", "") or ""))
    if form.frequency not in (*FREQUENCIES, CUSTOM, ""):
        errors["repeat"] = "choose_one"
        form.frequency = ""
    form.interval = _field_number(values, "repeat_interval", 1, MAX_INTERVAL, errors) or 1
    form.weekdays = [day for day in _list(values, "repeat_weekdays") if day in WEEKDAYS]
    form.monthly_by = "weekday" if values.get("repeat_monthly") == "weekday" else "day"
    form.month_day = _field_number(values, "repeat_month_day", 1, 31, errors) or 1
    week = str(values.get("repeat_week", "1"))
    form.week = int(week) if week.lstrip("-").isdigit() and int(week) in WEEKS else 1
    weekday = str(values.get("repeat_weekday", "MO"))
    form.weekday = weekday if weekday in WEEKDAYS else "MO"
    form.ends = str(values.get("repeat_ends", "never"))
    if form.ends not in ENDS:
        form.ends = "never"
    if form.ends == "after":
        form.count = _field_number(values, "repeat_count", 1, MAX_COUNT, errors)
        if form.count is None and "repeat_count" not in errors:
            errors["repeat_count"] = "required"
    if form.ends == "on":
        form.until = _field_day(str(values.get("repeat_until", "")), "repeat_until", errors)
        if form.until is None and "repeat_until" not in errors:
            errors["repeat_until"] = "required"
    form.extra_dates = _days(values, "repeat_rdate", errors)
    form.excluded_dates = _days(values, "repeat_exdate", errors)
    kept = str(values.get("repeat_lines", "") or "")
    form.kept_lines = [line.strip() for line in kept.splitlines() if line.strip()]
    return form


def to_fields(form: RepeatForm) -> dict[str, Any]:
    """The form's values showing `form` (the inverse of from_fields)."""
    return {
        "repeat": form.frequency,
        "repeat_interval": str(form.interval),
        "repeat_weekdays": list(form.weekdays),
        "repeat_monthly": form.monthly_by,
        "repeat_month_day": str(form.month_day),
        "repeat_week": str(form.week),
        "repeat_weekday": form.weekday,
        "repeat_ends": form.ends,
        "repeat_count": "" if form.count is None else str(form.count),
        "repeat_until": form.until.isoformat() if form.until else "",
        "repeat_rdate": [day.isoformat() for day in form.extra_dates],
        "repeat_exdate": [day.isoformat() for day in form.excluded_dates],
        "repeat_lines": "\n".join(form.kept_lines),
    }


def _list(values: dict[str, Any], name: str) -> list[str]:
    value = values.get(name, [])
    items = value if isinstance(value, list) else [value]
    return [str(item).strip() for item in items if str(item).strip()]


def _field_number(
    values: dict[str, Any], name: str, low: int, high: int, errors: dict[str, str]
) -> int | None:
    text = str(values.get(name, "") or "").strip()
    if not text:
        return None
    if not text.isdigit() or not low <= int(text) <= high:
        errors[name] = "out_of_range"
        return None
    return int(text)


def _field_day(text: str, name: str, errors: dict[str, str]) -> date | None:
    if not text.strip():
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        errors[name] = "bad_date"
        return None


def _days(values: dict[str, Any], name: str, errors: dict[str, str]) -> list[date]:
    days = [_field_day(text, name, errors) for text in _list(values, name)]
    return [day for day in days if day is not None]
