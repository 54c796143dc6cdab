"""A series' rule in words, on its event page: "every Tuesday and Thursday until 12 May"."""

from babel.lists import format_list

from app.i18n import PAGE_TEXTS
from app.i18n.dates import Dates
from app.pages.calendar import rule_parts, rule_until, rule_weekdays

FREQUENCIES = {"DAILY": "day", "WEEKLY": "week", "MONTHLY": "month", "YEARLY": "year"}


def describe_series(recurrence: list[str], language: str) -> str:
    """A series' rule in words: "every Tuesday and Thursday until 12 May"."""
    dates = Dates(language)
    parts = rule_parts(recurrence)
    if parts is None or parts.get("FREQ") not in FREQUENCIES:
        return PAGE_TEXTS.gettext(language, "A series of dates")
    interval = int(parts.get("INTERVAL", "1") or 1) if parts.get("INTERVAL", "1").isdigit() else 1
    weekdays = rule_weekdays(parts)
    if parts["FREQ"] == "WEEKLY" and weekdays and interval == 1:
        names = format_list([dates.weekday(day, "wide") for day in weekdays], locale=dates.locale)
        result = PAGE_TEXTS.gettext(language, "every %(days)s", days=names)
    else:
        result = {
            "day": PAGE_TEXTS.ngettext(language, "every day", "every %(num)d days", interval),
            "week": PAGE_TEXTS.ngettext(language, "every week", "every %(num)d weeks", interval),
            "month": PAGE_TEXTS.ngettext(language, "every month", "every %(num)d months", interval),
            "year": PAGE_TEXTS.ngettext(language, "every year", "every %(num)d years", interval),
        }[FREQUENCIES[parts["FREQ"]]]
    until = rule_until(parts)
    if until is not None:
        result += " " + PAGE_TEXTS.gettext(language, "until %(date)s", date=dates.long_day(until))
    elif parts.get("COUNT", "").isdigit():
        count = int(parts["COUNT"])
        result += ", " + PAGE_TEXTS.ngettext(language, "%(num)d time", "%(num)d times", count)
    return result
