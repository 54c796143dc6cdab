"""The Trash screen (`/desk/trash/`): trashed events, venues and organizers (what the API can
trash), read through the API's lists with `status=trash` as the caller, restored (as drafts)
or deleted permanently through the API's services. Deleting asks first, on a page of its
own, so that the confirmation works without JavaScript."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from starlette.responses import Response

from app.core.app_services import services_of
from app.core.errors import Problems
from app.core.rules.constants import TRASH
from app.core.rules.paging import Page
from app.core.rules.permissions import User, may
from app.desk.context import DeskContext, desk_reader, desk_writer
from app.desk.screens.event_rows import event_when
from app.desk.screens.event_table import TableQuery
from app.desk.screens.record_actions import (
    KINDS,
    Action,
    KindName,
    Outcome,
    name_of,
    run,
)
from app.events.listing import event_page
from app.events.records import EventRecord
from app.http.context import RequestContext
from app.i18n import DESK_TEXTS
from app.posts.commands import PostQuery
from app.posts.listing import list_posts

router = APIRouter()
Reader = Annotated[DeskContext, Depends(desk_reader)]
Writer = Annotated[DeskContext, Depends(desk_writer)]

PER_PAGE = 20
SECTIONS: tuple[KindName, ...] = ("event", "venue", "organizer")
MAX_ITEMS = 100


@dataclass(frozen=True)
class TrashRow:
    kind: KindName
    id: int
    name: str
    detail: str  # an event's dates, a venue's city
    may_restore: bool
    may_delete: bool

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"


@dataclass(frozen=True)
class Section:
    kind: KindName
    rows: list[TrashRow]
    number: int
    total: int

    @property
    def count(self) -> int:
        return -(-self.total // PER_PAGE) if self.total else 0


def _event_row(record: EventRecord, user: User, language: str) -> TrashRow:
    author = record.author_id or None
    return TrashRow(
        kind="event",
        id=record.id,
        name=record.title,
        detail=event_when(record, user, language),
        may_restore=may(user, "edit", author, TRASH),
        may_delete=may(user, "delete", author, TRASH),
    )


def _row(kind: KindName, body: dict[str, Any], user: User, language: str) -> TrashRow:
    author = int(body.get("author") or 0) or None
    name, detail = str(body.get(kind, "")), str(body.get("city", "") or "")
    return TrashRow(
        kind=kind,
        id=int(body["id"]),
        name=name,
        detail=detail,
        may_restore=may(user, "edit", author, TRASH),
        may_delete=may(user, "delete", author, TRASH),
    )


def _page_number(desk: DeskContext, kind: KindName) -> int:
    value = desk.request.query_params.get(f"{kind}s_page", "1")
    return int(value) if value.isdigit() and 0 < len(value) < 7 and int(value) > 0 else 1


async def _section(ctx: RequestContext, desk: DeskContext, kind: KindName) -> Section:
    number = _page_number(desk, kind)
    page = Page(number, PER_PAGE)
    if kind == "event":
        table = TableQuery(filters={"status": TRASH}, orderby="modified", order="desc")
        problems = Problems()
        query = table.event_query(ctx.settings.site_zone, problems)
        totals = services_of(desk.request).event_totals
        found = await event_page(ctx, query, page, totals, problems=problems)
        rows = [_event_row(record, ctx.user, desk.language) for record in found.records]
        return Section(kind, rows, number, found.total)
    post_kind = KINDS[kind]
    assert post_kind.posts is not None  # venues and organizers have their list
    trashed = PostQuery(statuses=[TRASH])
    bodies, total = await list_posts(post_kind, post_kind.posts(ctx), ctx, trashed, page)
    rows = [_row(kind, body, ctx.user, desk.language) for body in bodies]
    return Section(kind, rows, number, total)


async def render_trash(
    desk: DeskContext, outcome: Outcome | None = None, status: int = 200
) -> Response:
    ctx = desk.api_context()
    sections = [await _section(ctx, desk, kind) for kind in SECTIONS]
    return desk.render("desk/trash.html", status=status, sections=sections, outcome=outcome)


@router.get("/trash")
async def trash_screen(desk: Reader) -> Response:
    desk.require(desk.can.posts)
    return await render_trash(desk)


def parse_items(values: Iterable[str]) -> list[tuple[KindName, int]] | None:
    """`event:12` values of the checked rows; None if one is not such a value."""
    items: list[tuple[KindName, int]] = []
    for value in values:
        kind, _, number = value.partition(":")
        if kind not in SECTIONS or not number.isdigit() or len(number) > 18:
            return None
        items.append((kind, int(number)))
    return list(dict.fromkeys(items))


async def _chosen(desk: DeskContext) -> tuple[list[tuple[KindName, int]] | None, str | None]:
    """The items a form chose (a row's own button wins over the checkboxes), or why none."""
    form = await desk.request.form()
    only = form.get("only")
    values = [str(only)] if only else [str(value) for value in form.getlist("items")]
    items = parse_items(values)
    if items is None:
        message = "The form named something that is not in the trash."
        return None, DESK_TEXTS.gettext(desk.language, message)
    if not items:
        return None, DESK_TEXTS.gettext(desk.language, "Choose at least one item.")
    if len(items) > MAX_ITEMS:
        return None, DESK_TEXTS.gettext(
            desk.language, "Choose at most %(max)d items.", max=MAX_ITEMS
        )
    return items, None


async def _apply(desk: DeskContext, action: Action, items: list[tuple[KindName, int]]) -> Response:
    outcome = await run(desk.api_context(), desk.language, action, items)
    if not outcome.failures:
        count, language = len(outcome.done), desk.language
        if action == "restore":
            text = DESK_TEXTS.ngettext(
                language,
                "%(num)d item restored as a draft.",
                "%(num)d items restored as drafts.",
                count,
            )
        else:
            text = DESK_TEXTS.ngettext(
                language,
                "%(num)d item deleted permanently.",
                "%(num)d items deleted permanently.",
                count,
            )
        return desk.redirect("trash/", flash=text)
    return await render_trash(desk, outcome, status=outcome.status)


@router.post("/trash/restore")
async def restore(desk: Writer) -> Response:
    desk.require(desk.can.posts)
    items, problem = await _chosen(desk)
    if items is None:
        return await render_trash(desk, Outcome(problem=problem), status=400)
    return await _apply(desk, "restore", items)


@router.post("/trash/delete")
async def delete(desk: Writer) -> Response:
    """Without `confirmed`, the confirmation page (nothing is deleted); with it, delete."""
    desk.require(desk.can.posts)
    items, problem = await _chosen(desk)
    if items is None:
        return await render_trash(desk, Outcome(problem=problem), status=400)
    form = await desk.request.form()
    if form.get("confirmed") != "yes":
        ctx = desk.api_context()
        named = [
            (kind, record_id, await name_of(ctx, kind, record_id)) for kind, record_id in items
        ]
        return desk.render("desk/trash_confirm.html", items=named)
    return await _apply(desk, "delete", items)
