"""The Events screen (`/desk/events/`): the API's event list as a table, with its filters,
sort and pages as GET parameters, and bulk publish, trash and restore through the API's
event service, record by record (app/desk/screens/record_actions.py).

What a caller sees is what the API's list shows them (their own drafts, others' published
events for authors and contributors; everything for editors): the list is asked with the
caller's Principal, never queried here."""

from typing import Annotated, Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends
from starlette.responses import Response

from app.core.app_services import services_of
from app.core.caching.cache import CountCache
from app.core.database.engine import Session
from app.core.errors import ApiError, InvalidParams, Problems
from app.core.rules.paging import Page
from app.core.rules.permissions import can_create_posts, can_publish
from app.core.settings import Settings
from app.desk.context import DeskContext, desk_reader, desk_writer
from app.desk.screens.event_rows import rows
from app.desk.screens.event_table import PENDING, STATUS_TABS, Pages, TableQuery
from app.desk.screens.record_actions import Action, KindName, Outcome, run
from app.events.listing import event_page
from app.http.context import RequestContext
from app.i18n import DESK_TEXTS
from app.terms.commands import TermQuery
from app.terms.repository import TermRecord
from app.terms.service import CATEGORIES, TermService
from app.users.service import Accounts

router = APIRouter()
Reader = Annotated[DeskContext, Depends(desk_reader)]
Writer = Annotated[DeskContext, Depends(desk_writer)]

MAX_CATEGORIES = 100  # the filter's choices: one page of the API's category list
BULK_ACTIONS: tuple[Action, ...] = ("publish", "trash", "restore")
BY_NAME: dict[str, Action] = {action: action for action in BULK_ACTIONS}
MAX_BULK = 100  # records in one bulk action: a page of the table at most


def _totals(desk: DeskContext) -> CountCache:
    return services_of(desk.request).event_totals


async def _logins(session: Session, settings: Settings) -> dict[int, str]:
    """Author IDs to logins (a desk has tens of users, not thousands)."""
    users = await Accounts(session, settings.app_password_pepper).list()
    return {user.id: user.login for user in users}


async def _categories(ctx: RequestContext) -> list[TermRecord]:
    query = TermQuery(hide_empty=False)
    terms, _ = await TermService(CATEGORIES, ctx).list(query, Page(1, MAX_CATEGORIES))
    return terms


async def table_count(ctx: RequestContext, totals: CountCache, status: str) -> int:
    """How many events of `status` the caller may see, as the table's tab of that status
    counts them: its window, and a series once (its first date), not each of its dates."""
    problems = Problems()
    query = TableQuery(filters={"status": status}).event_query(ctx.settings.site_zone, problems)
    found = await event_page(ctx, query, Page(1, 1), totals, problems=problems)
    return found.total


async def _pending_count(desk: DeskContext, ctx: RequestContext) -> int | None:
    """Events waiting for review, for those who review them (editors and up)."""
    if not desk.can.review:
        return None
    return await table_count(ctx, _totals(desk), PENDING)


def actions_for(desk: DeskContext, query: TableQuery) -> list[Action]:
    """The bulk actions this caller is offered for this view: what their role may do at
    all (the service still decides each record)."""
    user = desk.principal
    if query.status == "trash":
        return ["restore"] if can_create_posts(user) else []
    offered: list[Action] = []
    if can_publish(user):
        offered.append("publish")
    if can_create_posts(user):
        offered.append("trash")
    return offered


def _field_errors(error: ApiError, language: str) -> dict[str, str]:
    """A 400's notes by field (the API's parameter names are the form's)."""
    if isinstance(error, InvalidParams):
        params = error.body(language)["data"].get("params", {})
        return {str(name): str(text) for name, text in params.items()}
    return {"": str(error.body(language)["message"])}


async def render_table(
    desk: DeskContext, query: TableQuery, outcome: Outcome | None = None, status: int = 200
) -> Response:
    ctx = desk.api_context()
    totals = _totals(desk)
    values: dict[str, Any] = {
        "query": query,
        "tabs": STATUS_TABS,
        "categories": await _categories(ctx),
        "pending": await _pending_count(desk, ctx),
        "actions": actions_for(desk, query),
        # A copy as a draft (app/desk/events/duplicate.py): for those who may create events,
        # of events not in the trash.
        "duplicable": can_create_posts(desk.principal) and query.status != "trash",
        "outcome": outcome,
        "errors": {},
        "rows": [],
        "pages": None,
    }
    problems = Problems()
    zone = desk.settings.site_zone
    try:
        asked, page = query.event_query(zone, problems), query.paging(problems)
        found = await event_page(ctx, asked, page, totals, problems=problems)
    except ApiError as error:
        values["errors"] = _field_errors(error, desk.language)
        return desk.render("desk/events.html", status=error.status, **values)
    pages = Pages(page.number, page.size, found.total)
    values["pages"] = pages
    logins = await _logins(desk.db, desk.settings)
    values["rows"] = rows(found.records, desk.principal, logins, desk.language, zone)
    if pages.past_the_end:
        status = 404
    return desk.render("desk/events.html", status=status, **values)


@router.get("/events")
async def events_screen(desk: Reader) -> Response:
    desk.require(desk.can.posts)
    query = TableQuery.read(dict(desk.request.query_params.multi_items()))
    return await render_table(desk, query)


def _ids(values: list[str]) -> list[int] | None:
    """The checked rows' IDs; None if one is no ID (a tampered form)."""
    ids = []
    for value in values:
        if not value.isdigit() or len(value) > 18:
            return None
        ids.append(int(value))
    return list(dict.fromkeys(ids))


@router.post("/events/bulk")
async def bulk_action(desk: Writer) -> Response:
    desk.require(desk.can.posts)
    form = await desk.request.form()
    back = TableQuery.read({k: v[0] for k, v in parse_qs(str(form.get("back", ""))).items()})
    action = BY_NAME.get(str(form.get("action", "")))
    ids = _ids([str(value) for value in form.getlist("ids")])
    problem = None
    if action is None:
        problem = DESK_TEXTS.gettext(desk.language, "Choose an action.")
    elif not ids:
        problem = DESK_TEXTS.gettext(desk.language, "Choose at least one event.")
    elif len(ids) > MAX_BULK:
        problem = DESK_TEXTS.gettext(desk.language, "Choose at most %(max)d events.", max=MAX_BULK)
    if problem is not None or ids is None or action is None:
        outcome = Outcome(problem=problem)
        return await render_table(desk, back, outcome, status=400)
    items: list[tuple[KindName, int]] = [("event", record_id) for record_id in ids]
    outcome = await run(desk.api_context(), desk.language, action, items)
    if not outcome.failures:
        return desk.redirect(f"events/?{back.query()}", flash=done_message(desk, action, len(ids)))
    return await render_table(desk, back, outcome, status=outcome.status)


def done_message(desk: DeskContext, action: str, count: int) -> str:
    language = desk.language
    if action == "publish":
        return DESK_TEXTS.ngettext(
            language, "%(num)d event published.", "%(num)d events published.", count
        )
    if action == "trash":
        return DESK_TEXTS.ngettext(
            language,
            "%(num)d event moved to the trash.",
            "%(num)d events moved to the trash.",
            count,
        )
    return DESK_TEXTS.ngettext(
        language, "%(num)d event restored as a draft.", "%(num)d events restored as drafts.", count
    )
