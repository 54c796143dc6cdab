"""A bound on work that could hang: `within(seconds)` fails the test (Overran) when
the block runs longer (a correctness bound on a request that must answer, not a speed
target). An in-process request that loops blocks the event loop, so no asyncio timeout could
fire: the bound is a real-time alarm, which interrupts Python code in the main thread."""

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Overran(Exception):
    """Not a TimeoutError: the app takes that for an unreachable database (a 503) and a
    retry could then run the work again without the bound."""


@contextmanager
def within(seconds: float) -> Iterator[None]:
    def expired(_signum: int, _frame: FrameType | None) -> None:
        raise Overran(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
