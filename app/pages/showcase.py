"""The photo and summary views (the reference's Pro views): pages of upcoming events as the
list reads them (`views.upcoming_page`: the same query, the search's words, day and place,
`eventDisplay=past`), laid out as picture cards or as a compact programme by month and day."""

from collections.abc import Awaitable, Callable
from datetime import date
from itertools import groupby
from typing import Any

from starlette.convertors import Convertor, register_url_convertor

from app.core.settings import Settings
from app.events.query import EventQuery
from app.pages.calendar import by_day
from app.pages.content import Content, ListedEvent
from app.pages.pictures import card_picture
from app.pages.views import LIST_PAGE_SIZE, Search, upcoming_page

PHOTO_PAGE_SIZE = LIST_PAGE_SIZE  # the reference's one number of events per page
# The summary is a line an event, for long programmes: more a page than the list's cards.
SUMMARY_PAGE_SIZE = 30

View = Callable[[Content, Settings, Search, int, bool, EventQuery], Awaitable[dict[str, Any]]]
DayGroup = tuple[date, list[ListedEvent]]


async def photo_view(
    content: Content, settings: Settings, search: Search, number: int, past: bool, scope: EventQuery
) -> dict[str, Any]:
    """A page of cards: each event with its picture (or None: the card's placeholder) and
    whether it loads lazily (all but the page's first picture: the one a visitor sees
    first, the others when they come near)."""
    nearest = search.centre is not None and not past  # nearest first, as the list
    found = await upcoming_page(
        content, settings, search, number, past, scope, PHOTO_PAGE_SIZE, nearest
    )
    pictures = [card_picture(event.get("image")) for event in found.events]
    first = next((n for n, shown in enumerate(pictures) if shown is not None), None)
    cards = [
        (event, shown, n != first)
        for n, (event, shown) in enumerate(zip(found.events, pictures, strict=True))
    ]
    return {"number": number, "more": found.more, "past": past, "cards": cards}


def by_month(groups: list[DayGroup]) -> list[tuple[date, list[DayGroup]]]:
    """Days grouped under their month (its first day), in the days' order."""
    return [
        (month, list(days))
        for month, days in groupby(groups, key=lambda group: group[0].replace(day=1))
    ]


async def summary_view(
    content: Content, settings: Settings, search: Search, number: int, past: bool, scope: EventQuery
) -> dict[str, Any]:
    """A page of the programme by month, then day (an event under its first day, or today
    when it began before), one line an event."""
    found = await upcoming_page(content, settings, search, number, past, scope, SUMMARY_PAGE_SIZE)
    since = None if past else found.since.astimezone(settings.site_zone).date()
    days = by_day(found.events, since)
    if past:
        days.reverse()
    return {"number": number, "more": found.more, "past": past, "months": by_month(days)}


VIEWS: dict[str, View] = {"photo": photo_view, "summary": summary_view}


class ShowcaseConvertor(Convertor[str]):
    """`{name:showcase}` in a route: one of these views' names (app/pages/router.py)."""

    regex = "|".join(VIEWS)

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("showcase", ShowcaseConvertor())
