"""How far dateutil may walk a rule: a bound on the years it looks through.

dateutil's `rrule` checks `UNTIL` only against the dates it finds, so a rule whose periods
are empty for a long time ("every day that is a Monday 29 February", or any rule after its
last date) is walked period by period up to the year 9999: seconds of CPU for one request,
and no way to stop it from outside (issue 40). Its iterator gives up once the year passes
`datetime.MAXYEAR`, read from its module's `datetime`; here that module is seen through a
stand-in whose `MAXYEAR` is the bound of the walk in progress (a context variable, so
concurrent tasks and threads each keep their own), and the real one when no walk is bounded.

Every expansion of a series goes through `walk`, which also tells whether the walk stopped
at the bound rather than at the rule's own end (then the series is never marked complete).
"""

import datetime as real_datetime
import types
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import datetime

import dateutil.rrule
from dateutil.rrule import rrule

_LAST_YEAR: ContextVar[int] = ContextVar("rule_walk_last_year", default=real_datetime.MAXYEAR)


class _BoundedDatetime(types.ModuleType):
    """The `datetime` module as dateutil's rrule sees it: everything real but MAXYEAR."""

    def __init__(self) -> None:
        super().__init__("datetime")
        # Copied, not forwarded: dateutil looks up `datetime.date` for every date it makes.
        self.__dict__.update(
            (name, value) for name, value in vars(real_datetime).items() if name != "MAXYEAR"
        )

    @property
    def MAXYEAR(self) -> int:  # the module constant's name
        return _LAST_YEAR.get()


dateutil.rrule.datetime = _BoundedDatetime()  # type: ignore[attr-defined]


class Walk:
    """The dates of one rule, up to the end of `last_year` at most. `truncated` tells, once
    the walk has ended, whether it ended at that bound with the rule still going."""

    def __init__(self, rule: rrule, last_year: int) -> None:
        self.rule = rule
        self.last_year = min(last_year, real_datetime.MAXYEAR)
        self.found = 0
        self.ended = False

    def __iter__(self) -> Iterator[datetime]:
        dates = iter(self.rule)
        while True:
            token = _LAST_YEAR.set(self.last_year)
            try:
                moment = next(dates)
            except StopIteration:
                self.ended = True
                return
            finally:
                _LAST_YEAR.reset(token)
            self.found += 1
            yield moment

    @property
    def truncated(self) -> bool:
        """Whether the bound, not the rule, ended the walk (False while it has not ended)."""
        if not self.ended or self.last_year >= real_datetime.MAXYEAR:
            return False
        # The rule's own end, as dateutil keeps it (no public accessor).
        count: int | None = getattr(self.rule, "_count", None)
        until: datetime | None = getattr(self.rule, "_until", None)
        if count is not None and self.found >= count:
            return False
        return until is None or until.year > self.last_year

    def first_after(self, moment: datetime) -> datetime | None:
        """The rule's first date at or after `moment`, within the bound."""
        return next((found for found in self if found >= moment), None)
