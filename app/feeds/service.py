"""What a feed holds: the events of a list request (the JSON list's filters, visibility and
order, through app/events/listing.py) or one event (the JSON single read's checks), and the
calendar's name."""

import asyncio
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any
from urllib.parse import urlsplit

from dateutil.relativedelta import relativedelta

from app.core.caching.cache import CountCache
from app.core.errors import Problems
from app.core.rules.constants import END_OF_DAY
from app.core.rules.dates import DATETIME_FORMAT
from app.core.rules.html import html_to_text
from app.core.rules.permissions import may
from app.events.kind import EVENTS
from app.events.listing import prepare
from app.events.query import EventQuery, ListWindow
from app.events.repository.events import EventRepository
from app.events.serializer import render_events
from app.feeds.builder import FeedInfo, Item, calendar
from app.feeds.series import event_items, list_items
from app.http.context import RequestContext
from app.i18n import FEED_TEXTS
from app.models import CATEGORY, TAG
from app.organizers.kind import ORGANIZERS
from app.posts.commands import ReadRequest
from app.posts.kind import PostKind
from app.posts.serializer import View
from app.posts.service import Key, PostService
from app.terms.repository import TermRepository
from app.venues.kind import VENUES

PAST_DAYS = 30  # the default window: from 00:00 thirty days ago...
AHEAD = relativedelta(years=1)  # ...to the end of the day one year ahead
NAMED_AT_MOST = 5  # terms, venues or organizers named in the calendar's name


def feed_window(zone: tzinfo, now: datetime, strict: bool = False) -> tuple[datetime, datetime]:
    """The feed's default window in site wall time (strict: to the second, else whole days)."""
    local_now = now.astimezone(zone).replace(tzinfo=None).replace(microsecond=0)
    start, end = local_now - timedelta(days=PAST_DAYS), local_now + AHEAD
    if strict:
        return start, end
    return datetime.combine(start.date(), time.min), datetime.combine(end.date(), END_OF_DAY)


def _info(ctx: RequestContext, name: str, source: str) -> FeedInfo:
    settings = ctx.settings
    host = urlsplit(ctx.urls.site).hostname or "localhost"
    site = settings.site_name or host
    return FeedInfo(
        name=f"{site} \u2013 {name}",
        site_timezone=settings.site_timezone,
        host=host,
        language=ctx.language,
        source=source,
        built=datetime.now(UTC),
    )


async def list_feed(
    ctx: RequestContext,
    query: EventQuery,
    limit: int,
    totals: CountCache,
    source: str,
    *,
    now: datetime | None = None,
    problems: Problems | None = None,
) -> bytes:
    """The feed of a list: its filters, the feed's own default window, no pages, at most
    `limit` events (`totals`: the list's, which also guide a search's plan); `source` is
    the feed's own URL."""
    prepared = await prepare(ctx, query, now=now, problems=problems, window=feed_window)
    records = await prepared.query.records(0, limit, totals)
    view = View(ctx.urls, ctx.settings.site_zone, ctx.user, query.password)
    bodies = render_events(records, view, False)
    repo = prepared.query.repo
    items = await list_items(repo, records, bodies, view, prepared.filters)
    name = await calendar_name(ctx, query, prepared.window)
    # About a millisecond per event (icalendar's objects and folding): large feeds are built
    # off the event loop, which keeps serving other requests meanwhile.
    return await asyncio.to_thread(calendar, _info(ctx, name, source), items, view)


async def event_feed(ctx: RequestContext, key: Key, request: ReadRequest) -> bytes:
    """The feed of one event, readable as its JSON route decides (a protected event needs
    its password, as there)."""
    service = PostService(EVENTS, ctx)
    record, password = await service.readable(key, request)
    view = View(ctx.urls, ctx.settings.site_zone, ctx.user, password)
    body = render_events([record], view, False)[0]
    source = ctx.urls.rest(f"/events/{record.id}.ics")
    repo = EventRepository(ctx.session, ctx.language, ctx.settings.default_language)
    items = await event_items(repo, view, record) or [Item(record, body)]
    return calendar(_info(ctx, html_to_text(body["title"]), source), items, view)


async def calendar_name(ctx: RequestContext, query: EventQuery, window: ListWindow) -> str:
    """ "Events", then what the filters select: category and tag names, venues and
    organizers the caller may see, featured or not, with tickets or not, the search words, the dates asked for
    (as the list applied them: whole days unless strict)."""
    language = ctx.language
    parts: list[str] = []
    for refs, taxonomy in ((query.categories, CATEGORY), (query.tags, TAG)):
        if refs:
            parts.extend(await _term_names(ctx, taxonomy, list(refs)))
    linked: tuple[tuple[PostKind[Any], tuple[int, ...] | None], ...] = (
        (VENUES, query.venues),
        (ORGANIZERS, query.organizers),
    )
    for kind, ids in linked:
        names = await _post_names(ctx, kind, list(ids or ()))
        if names:
            parts.append(f"{FEED_TEXTS.text(kind.name, language)}: {', '.join(names)}")
    for flag, key in ((query.featured, "featured"), (query.ticketed, "ticketed")):
        if flag is not None:
            parts.append(FEED_TEXTS.text(key if flag else f"not_{key}", language))
    if query.search:
        parts.append(FEED_TEXTS.text("quoted", language, text=query.search))
    asked = (
        (query.start_date, window.start_date, "from"),
        (query.end_date, window.end_date, "until"),
    )
    for moment, applied, key in asked:
        if moment is not None and applied is not None:
            shown = (
                applied.strftime(DATETIME_FORMAT) if query.strict else applied.date().isoformat()
            )
            parts.append(FEED_TEXTS.text(key, language, date=shown))
    events = FEED_TEXTS.text("events", language)
    return f"{events}: {', '.join(parts)}" if parts else events


async def _term_names(ctx: RequestContext, taxonomy: str, refs: list[int | str]) -> list[str]:
    terms = TermRepository(ctx.session, taxonomy, ctx.language, ctx.settings.default_language)
    found, _, _ = await terms.resolve(refs[:NAMED_AT_MOST])
    names = []
    for term_id in found:
        term = await terms.get(term_id)
        if term is not None:
            names.append(term.name if taxonomy == CATEGORY else f"#{term.name}")
    return names


async def _post_names(ctx: RequestContext, kind: PostKind[Any], ids: list[int]) -> list[str]:
    """Names of the venues or organizers the caller may read (others stay unnamed)."""
    if kind.posts is None:
        return []
    store = kind.posts(ctx)
    names = []
    for record_id in ids[:NAMED_AT_MOST]:
        record = await store.get(record_id)
        if record is not None and may(ctx.user, "read", record.author_id, record.status):
            names.append(record.name)
    return names
