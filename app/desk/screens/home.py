"""The desk's home: what the person has in hand (their events by status, for editors the
events waiting for review) and the screens their role may use."""

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from app.core.app_services import services_of
from app.core.caching.cache import CountCache
from app.desk.context import DeskContext, desk_reader
from app.desk.screens.events import table_count
from app.i18n import N_

router = APIRouter()

# (status, label): the counts the home page shows a person who writes events.
COUNTS = (
    ("draft", N_("Drafts")),
    ("pending", N_("Waiting for review")),
    ("future", N_("Scheduled")),
    ("publish", N_("Published")),
)


async def event_count(desk: DeskContext, totals: CountCache, status: str) -> int:
    """How many events of `status` the person may see, as the API's list counts them (an
    author's own drafts, an editor's all), and as the Events table's tab of that status
    counts them: its window and a series once (its first date), not each of its dates."""
    return await table_count(desk.api_context(), totals, status)


@router.get("")
async def home(request: Request, desk: Annotated[DeskContext, Depends(desk_reader)]) -> Response:
    """The dashboard."""
    counts = []
    if desk.can.posts:
        totals = services_of(request).event_totals
        for status, label in COUNTS:
            counts.append((status, label, await event_count(desk, totals, status)))
    return desk.render("desk/home.html", counts=counts)
