"""The messages to attendees, made in the transaction of what caused them and queued in the
outbox (app/mail): an RSVP's confirmation (with the event's .ics, the ticket's QR code and
the signed link to change or cancel it), a place on the waitlist, a move up from it, a
cancellation, and an organiser's message to every attendee of an event. Each in the
attendee's language (the `mail` catalog, app/i18n/locale), plain text and HTML.

The QR code (segno) encodes the signed check-in link the desk opens
(`Urls.check_in`); the .ics is the feeds' calendar of the event (app/feeds/builder.py): the
ticket's own date for a ticket of one date of a series, the whole series for a ticket of
all its dates."""

import dataclasses
import io
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Literal
from urllib.parse import urlsplit

import segno
from babel.dates import format_date

from app.core.rules.dates import parse_zone
from app.core.rules.html import html_to_text
from app.events.records import EventRecord
from app.events.repository.events import EventRepository
from app.events.serializer import render_events
from app.feeds.builder import FeedInfo, Item, calendar
from app.feeds.series import event_items
from app.http.context import RequestContext
from app.i18n import LANGUAGES, MAIL_TEXTS
from app.i18n.dates import format_moment
from app.mail.layout import Content, Image, Link, html_text, plain_text
from app.mail.letters import Letter, Part
from app.mail.service import queue
from app.posts.serializer import View
from app.tickets.links import check_in_url, manage_url
from app.tickets.records import AttendeeRecord, TicketRecord

log = logging.getLogger(__name__)

# going / not_going / waitlisted: the answer to an RSVP (or to its change); promoted: moved
# up from the waitlist; cancelled: the attendee's own cancellation (or an editor's).
AttendeeMail = Literal["going", "not_going", "waitlisted", "promoted", "cancelled"]
# The outbox's kind of an organiser's message to all attendees.
MESSAGE = "message"
# The mails that carry the ticket: its QR code and the event's .ics.
WITH_TICKET = ("going", "promoted")
QR_SCALE = 8  # pixels per module of the QR code's PNG
QR_MASK = 0


@dataclasses.dataclass(frozen=True, slots=True)
class About:
    """The event as an attendee's message tells of it, in the attendee's language."""

    record: EventRecord
    body: dict[str, object]
    title: str
    when: str
    where: str | None


async def queue_attendee_mail(
    ctx: RequestContext, kind: AttendeeMail, attendee: AttendeeRecord, ticket: TicketRecord
) -> None:
    """Queue the message of `kind` to `attendee` on `ctx.session` (the caller's transaction:
    committed with what caused it, or not at all)."""
    language = _language(ctx, attendee.language)
    about = await _about(ctx, attendee.event_id, language)
    if about is None:  # the event is gone: there is nothing to tell of
        log.warning("mail: no event %d for attendee %d", attendee.event_id, attendee.id)
        return

    def text(key: str) -> str:
        return MAIL_TEXTS.text(key, language, event=about.title)

    details: tuple[tuple[str, str], ...] = (
        (MAIL_TEXTS.text("when", language), about.when),
        *([(MAIL_TEXTS.text("where", language), about.where)] if about.where else []),
        (MAIL_TEXTS.text("ticket", language), ticket.name),
        (MAIL_TEXTS.text("places", language), str(attendee.quantity)),
    )
    parts: tuple[Part, ...] = ()
    image = None
    paragraphs = [text(kind)]
    if kind in WITH_TICKET:
        cid = f"ticket.{attendee.id}@{_host(ctx)}"
        image = Image(cid, MAIL_TEXTS.text("qr_alt", language), text("qr_code"))
        paragraphs.append(text("calendar"))
        parts = (
            Part(_qr_png(ctx, attendee), "image", "png", "ticket.png", f"<{cid}>"),
            Part(await _ics(ctx, about, ticket, language), "text", "calendar", "event.ics"),
        )
    links: tuple[Link, ...] = (_event_link(about, language),)
    if kind != "cancelled":  # a cancelled answer has nothing left to change
        links = (_manage_link(ctx, attendee, language), *links)
    subject = text(f"subject_{kind}")
    content = Content(
        language=language,
        title=subject,
        greeting=MAIL_TEXTS.text("greeting", language, name=attendee.name),
        paragraphs=tuple(paragraphs),
        details=details,
        image=image,
        links=links,
        footer=(MAIL_TEXTS.text("sent_by", language, site=_site(ctx)),),
    )
    await _queue(ctx, attendee, subject, content, kind, parts)


async def queue_event_message(
    ctx: RequestContext,
    event_id: int,
    attendees: Sequence[AttendeeRecord],
    subject: str,
    body: str,
) -> int:
    """Queue an organiser's message (`subject`, plain-text `body`) to each of `attendees` of
    `event_id`; the number of messages queued. The body is the organiser's, as written;
    around it, in each attendee's language: the greeting, their link to change or cancel
    their answer, the event's page, and why they receive it."""
    abouts: dict[str, About | None] = {}
    queued = 0
    for attendee in attendees:
        language = _language(ctx, attendee.language)
        if language not in abouts:
            abouts[language] = await _about(ctx, event_id, language)
        about = abouts[language]
        if about is None:
            return queued
        content = Content(
            language=language,
            title=subject,
            greeting=MAIL_TEXTS.text("greeting", language, name=attendee.name),
            paragraphs=(body,),
            links=(_manage_link(ctx, attendee, language), _event_link(about, language)),
            footer=(
                MAIL_TEXTS.text("message_footer", language, event=about.title),
                MAIL_TEXTS.text("sent_by", language, site=_site(ctx)),
            ),
        )
        await _queue(ctx, attendee, subject, content, MESSAGE, ())
        queued += 1
    return queued


async def _queue(
    ctx: RequestContext,
    attendee: AttendeeRecord,
    subject: str,
    content: Content,
    kind: str,
    parts: tuple[Part, ...],
) -> None:
    letter = Letter(
        recipient=attendee.email,
        recipient_name=attendee.name,
        subject=subject,
        text=plain_text(content),
        html=html_text(content),
        language=content.language,
        parts=parts,
    )
    await queue(
        ctx.session,
        ctx.settings,
        letter,
        kind=kind,
        attendee_id=attendee.id,
        event_id=attendee.event_id,
    )


def _language(ctx: RequestContext, language: str) -> str:
    return language if language in LANGUAGES else ctx.settings.default_language


def _host(ctx: RequestContext) -> str:
    return urlsplit(ctx.urls.site).hostname or "localhost"


def _site(ctx: RequestContext) -> str:
    return ctx.settings.site_name or _host(ctx)


def _view(ctx: RequestContext) -> View:
    return View(ctx.urls, ctx.settings.site_zone, ctx.user, None)


async def _about(ctx: RequestContext, event_id: int, language: str) -> About | None:
    repo = EventRepository(ctx.session, language, ctx.settings.default_language)
    record = await repo.get(event_id)
    if record is None:
        return None
    body = render_events([record], _view(ctx), False)[0]
    zone = parse_zone(record.timezone)
    if record.all_day:
        when = str(format_date(record.start_local.date(), "full", locale=language))
    else:
        when = f"{format_moment(record.start_at, language, zone)} {record.timezone_abbr}"
    venue = body.get("venue")
    where = None
    if isinstance(venue, dict) and isinstance(venue.get("venue"), str):
        names = [html_to_text(venue["venue"]), venue.get("address"), venue.get("city")]
        where = ", ".join(str(name) for name in names if name)
    return About(record, body, html_to_text(str(body["title"])), when, where or None)


def _event_link(about: About, language: str) -> Link:
    label = MAIL_TEXTS.text("event_page", language)
    return Link(label, f"{label}:", str(about.body["url"]))


def _manage_link(ctx: RequestContext, attendee: AttendeeRecord, language: str) -> Link:
    return Link(
        MAIL_TEXTS.text("manage", language),
        MAIL_TEXTS.text("manage_text", language),
        manage_url(ctx.urls, ctx.settings, attendee),
    )


def _qr_png(ctx: RequestContext, attendee: AttendeeRecord) -> bytes:
    """The ticket's QR code: the signed check-in link, which the desk opens signed in."""
    buffer = io.BytesIO()
    # One fixed mask: choosing the best of the eight (segno's default) costs ~15 ms of CPU in
    # the RSVP's request, and readers read any.
    segno.make(check_in_url(ctx.urls, ctx.settings, attendee), error="m", mask=QR_MASK).save(
        buffer, kind="png", scale=QR_SCALE, border=2
    )
    return buffer.getvalue()


async def _ics(ctx: RequestContext, about: About, ticket: TicketRecord, language: str) -> bytes:
    """The event for the attendee's calendar: the ticket's date (a date of a series as an
    event of its own: its own UID, no rules), or the whole series for a ticket of all its
    dates."""
    view = _view(ctx)
    record = about.record
    items: list[Item] | None = None
    if record.recurrence is not None and ticket.occurrence_id is None:
        repo = EventRepository(ctx.session, language, ctx.settings.default_language)
        items = await event_items(repo, view, record)
    if items is None:
        items = [Item(dataclasses.replace(record, recurrence=None), about.body)]
    info = FeedInfo(
        name=f"{_site(ctx)} \u2013 {about.title}",
        site_timezone=ctx.settings.site_timezone,
        host=_host(ctx),
        language=language,
        source=ctx.urls.rest(f"/events/{record.id}.ics"),
        built=datetime.now(UTC),
    )
    return calendar(info, items, view)
