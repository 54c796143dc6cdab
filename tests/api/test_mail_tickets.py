"""The messages to attendees (app/tickets/mailing.py), queued in the caller's transaction
and delivered by the outbox's worker to a real mail server (aiosmtpd): the confirmation
with the ticket's QR code (the signed check-in link), the event's .ics and the signed link
to change or cancel, in the attendee's language; the waitlist's, the move up's and the
cancellation's; an organiser's message to all (through POST /attendees/message too); a
rolled-back cause sends nothing. Tickets and attendees are rows (tests/attendees.py), as an
RSVP leaves them."""

import io
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from email.message import EmailMessage
from typing import Any

import pytest
import segno
from httpx import AsyncClient
from icalendar import Calendar
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.settings import Settings, get_settings
from app.core.web.urls import Urls
from app.http.context import RequestContext
from app.mail.worker import MailWorker
from app.tickets.links import link_key, sign
from app.tickets.mailing import queue_attendee_mail, queue_event_message
from app.tickets.records import AttendeeRecord, TicketRecord
from app.tickets.rsvp import RsvpService
from tests.attendees import add_attendee, add_ticket
from tests.factories import API, Auth, AuthFor, create_record, make_event
from tests.mail_receiver import MailReceiver, mail_receiver
from tests.tickets import make_ticket, rsvp, ticketed_event

SITE = "https://calendar.example.org"
START = datetime(2030, 5, 17, 19, 30, tzinfo=UTC)
ATTENDEE_COLUMNS = (
    "id, ticket_id, event_id, name, email, quantity, status, language, secret, "
    "checked_in_at, checked_in_by, created_at, modified_at"
)


@pytest.fixture
def receiver() -> Iterator[MailReceiver]:
    with mail_receiver() as running:
        yield running


def settings_for(receiver: MailReceiver) -> Settings:
    return get_settings().model_copy(
        update={"smtp_url": receiver.url, "mail_from": "Calendar <calendar@example.org>"}
    )


def context(db: AsyncSession, settings: Settings) -> RequestContext:
    return RequestContext({}, "en", None, db, Urls(SITE, "", "", SITE), settings)


async def attendee_record(db: AsyncSession, attendee_id: int) -> AttendeeRecord:
    row = (
        await db.execute(
            text(f"SELECT {ATTENDEE_COLUMNS} FROM attendees WHERE id = :id"), {"id": attendee_id}
        )
    ).one()
    return AttendeeRecord(**row._mapping)


def ticket_record(ticket_id: int, event_id: int, name: str = "Hall") -> TicketRecord:
    now = datetime.now(UTC)
    return TicketRecord(
        id=ticket_id,
        event_id=event_id,
        series_id=event_id,
        occurrence_id=None,
        name=name,
        description="",
        capacity=50,
        taken=2,
        max_per_person=10,
        sale_starts=None,
        sale_ends=None,
        waitlist=True,
        price=Decimal(0),
        currency="EUR",
        event_start=START,
        created_at=now,
        modified_at=now,
    )


async def answer(
    db: AsyncSession, language: str = "en", status: str = "going", email: str = "ada@example.org"
) -> tuple[AttendeeRecord, TicketRecord]:
    event = await make_event(
        db, title="Jazz &amp; Wine", start=START, end=START + timedelta(hours=2)
    )
    ticket = await add_ticket(db, event, name="Hall", capacity=50, taken=2, waitlist=True)
    attendee = await add_attendee(
        db, ticket, "Ada Lovelace", email, quantity=2, status=status, language=language
    )
    return await attendee_record(db, attendee), ticket_record(ticket, event)


async def delivered(
    maker: async_sessionmaker[AsyncSession], settings: Settings, receiver: MailReceiver, count: int
) -> list[EmailMessage]:
    done = await MailWorker(settings).send_due(maker)
    assert done.sent == count
    return receiver.messages()


def body_text(message: EmailMessage, kind: str) -> str:
    part = message.get_body((kind,))
    assert isinstance(part, EmailMessage)
    return str(part.get_content()).replace("\r\n", "\n")


def manage_url(settings: Settings, attendee: AttendeeRecord, prefix: str) -> str:
    token = sign(link_key(settings.app_password_pepper), "manage", attendee.id, attendee.secret)
    return f"{SITE}{prefix}/rsvp/{attendee.id}/{token}/"


def check_in_png(settings: Settings, attendee: AttendeeRecord) -> bytes:
    code = sign(link_key(settings.app_password_pepper), "check_in", attendee.id, attendee.secret)
    buffer = io.BytesIO()
    url = f"{SITE}/desk/check-in/{attendee.id}/{code}/"
    segno.make(url, error="m", mask=0).save(buffer, kind="png", scale=8, border=2)
    return buffer.getvalue()


def part_of(message: EmailMessage, content_type: str) -> EmailMessage:
    found = [part for part in message.walk() if part.get_content_type() == content_type]
    assert len(found) == 1, content_type
    part = found[0]
    assert isinstance(part, EmailMessage)
    return part


async def test_going_carries_the_ticket_the_calendar_and_the_link(
    db: AsyncSession, maker: async_sessionmaker[AsyncSession], receiver: MailReceiver
) -> None:
    settings = settings_for(receiver)
    attendee, ticket = await answer(db)
    await queue_attendee_mail(context(db, settings), "going", attendee, ticket)
    await db.commit()
    (message,) = await delivered(maker, settings, receiver, 1)
    assert message["Subject"] == "Your ticket: Jazz & Wine"
    assert message["To"] == "Ada Lovelace <ada@example.org>"
    assert message["Content-Language"] == "en"
    plain = body_text(message, "plain")
    assert "Hello Ada Lovelace," in plain
    assert "You are going to Jazz & Wine." in plain
    assert "Places: 2" in plain
    assert "Ticket: Hall" in plain
    assert manage_url(settings, attendee, "") in plain
    html = body_text(message, "html")
    assert 'lang="en"' in html
    assert "Jazz &amp; Wine" in html  # escaped once, as HTML
    # The QR code: the signed check-in link, shown inside the HTML.
    qr = part_of(message, "image/png")
    assert qr.get_content() == check_in_png(settings, attendee)
    assert f'src="cid:{qr["Content-ID"].strip("<>")}"' in html
    # The event for a calendar: its title, its start.
    ics = part_of(message, "text/calendar")
    assert ics.get_filename() == "event.ics"
    (event,) = Calendar.from_ical(ics.get_content()).walk("VEVENT")
    assert str(event["SUMMARY"]) == "Jazz & Wine"
    assert event.decoded("DTSTART") == START
    assert (await db.scalar(text("SELECT kind FROM mail_outbox"))) == "going"


async def test_in_the_attendee_s_language_with_the_language_s_link(
    db: AsyncSession, maker: async_sessionmaker[AsyncSession], receiver: MailReceiver
) -> None:
    settings = settings_for(receiver)
    attendee, ticket = await answer(db, language="de")
    await queue_attendee_mail(context(db, settings), "promoted", attendee, ticket)
    await db.commit()
    (message,) = await delivered(maker, settings, receiver, 1)
    assert message["Subject"] == "Ein Platz für Sie: Jazz & Wine"
    assert message["Content-Language"] == "de"
    plain = body_text(message, "plain")
    assert "Hallo Ada Lovelace," in plain
    assert "Ein Platz ist frei geworden" in plain
    assert manage_url(settings, attendee, "/de") in plain
    part_of(message, "image/png")  # a move up carries the ticket too
    part_of(message, "text/calendar")


@pytest.mark.parametrize(
    ("kind", "subject", "link"),
    [
        ("waitlisted", "On the waitlist: Jazz & Wine", True),
        ("not_going", "Your answer: Jazz & Wine", True),
        ("cancelled", "Cancelled: Jazz & Wine", False),
    ],
)
async def test_the_other_answers_carry_no_ticket(
    db: AsyncSession,
    maker: async_sessionmaker[AsyncSession],
    receiver: MailReceiver,
    kind: Any,
    subject: str,
    link: bool,
) -> None:
    settings = settings_for(receiver)
    attendee, ticket = await answer(db, status="cancelled" if kind == "cancelled" else kind)
    await queue_attendee_mail(context(db, settings), kind, attendee, ticket)
    await db.commit()
    (message,) = await delivered(maker, settings, receiver, 1)
    assert message["Subject"] == subject
    types = {part.get_content_type() for part in message.walk()}
    assert "image/png" not in types
    assert "text/calendar" not in types
    assert (manage_url(settings, attendee, "") in body_text(message, "plain")) is link


async def test_a_rolled_back_cause_sends_nothing(db: AsyncSession, receiver: MailReceiver) -> None:
    settings = settings_for(receiver)
    attendee, ticket = await answer(db)
    before = await db.scalar(text("SELECT count(*) FROM mail_outbox"))
    async with db.begin_nested() as cause:
        await queue_attendee_mail(context(db, settings), "going", attendee, ticket)
        assert await db.scalar(text("SELECT count(*) FROM mail_outbox")) == before + 1
        await cause.rollback()
    assert await db.scalar(text("SELECT count(*) FROM mail_outbox")) == before


async def test_an_organiser_s_message_to_each_in_their_language(
    db: AsyncSession, maker: async_sessionmaker[AsyncSession], receiver: MailReceiver
) -> None:
    settings = settings_for(receiver)
    ada, _ = await answer(db)
    bob = await attendee_record(
        db,
        await add_attendee(db, ada.ticket_id, "Bob", "bob@example.org", language="sk"),
    )
    body = "Doors open at 19:00.\nBring <your> ticket."
    queued = await queue_event_message(
        context(db, settings), ada.event_id, [ada, bob], "Doors at 7", body
    )
    assert queued == 2
    await db.commit()
    messages = await delivered(maker, settings, receiver, 2)
    by_to = {str(m["To"]): m for m in messages}
    for to, greeting, footer, prefix, person in (
        ("Ada Lovelace <ada@example.org>", "Hello Ada Lovelace,", "You receive", "", ada),
        ("Bob <bob@example.org>", "Dobrý deň, Bob,", "Túto správu dostávate", "/sk", bob),
    ):
        message = by_to[to]
        assert message["Subject"] == "Doors at 7"
        plain = body_text(message, "plain")
        assert greeting in plain
        assert body in plain
        assert footer in plain
        assert manage_url(settings, person, prefix) in plain
        assert "Bring &lt;your&gt; ticket." in body_text(message, "html")


async def test_the_message_to_all_through_the_api_reaches_each(
    client: AsyncClient,
    db: AsyncSession,
    auth: Auth,
    maker: async_sessionmaker[AsyncSession],
    receiver: MailReceiver,
) -> None:
    author = await auth("author")
    event = await make_event(db, author_id=author.id, title="Talk")
    ticket = await add_ticket(db, event)
    await add_attendee(db, ticket, "Ada", "ada@example.org")
    await add_attendee(db, ticket, "Cy", "cy@example.org", status="waitlisted")
    await add_attendee(db, ticket, "Dee", "dee@example.org", status="cancelled")
    payload = {"event": event, "subject": "Room change", "body": "Room 2 instead."}
    sent = await client.post(f"{API}/attendees/message", json=payload, headers=author.basic)
    assert sent.status_code == 200, sent.text
    messages = await delivered(maker, settings_for(receiver), receiver, 2)
    assert sorted(str(m["To"]) for m in messages) == [
        "Ada <ada@example.org>",
        "Cy <cy@example.org>",
    ]
    assert {m["Subject"] for m in messages} == {"Room change"}


# ---- through the RSVP (app/tickets/rsvp.py) ---------------------------------------------


async def test_an_rsvp_s_confirmation_in_its_language_links_its_manage_url(
    client: AsyncClient,
    editor: AuthFor,
    maker: async_sessionmaker[AsyncSession],
    receiver: MailReceiver,
) -> None:
    _, made = await ticketed_event(client, editor, capacity=10)
    answered = await rsvp(client, made["id"], quantity=2, i18n_language="de")
    assert answered.status_code == 201, answered.text
    body = answered.json()
    (message,) = await delivered(maker, settings_for(receiver), receiver, 1)
    assert message["Subject"] == "Ihr Ticket: Concert"
    assert message["To"] == "Ada <ada@example.org>"
    plain = body_text(message, "plain")
    assert body["manage_url"] in plain  # the answer's own link, in the mail
    assert "/de/rsvp/" in body["manage_url"]
    assert "Plätze: 2" in plain
    part_of(message, "image/png")
    part_of(message, "text/calendar")


async def test_a_cancellation_mails_its_attendee_and_the_one_moved_up(
    client: AsyncClient,
    editor: AuthFor,
    db: AsyncSession,
    maker: async_sessionmaker[AsyncSession],
    receiver: MailReceiver,
) -> None:
    _, made = await ticketed_event(client, editor, capacity=1, waitlist=True)
    first = (await rsvp(client, made["id"], email="ada@example.org")).json()
    second = (await rsvp(client, made["id"], email="bob@example.org")).json()
    assert (first["status"], second["status"]) == ("going", "waitlisted")
    token = first["manage_url"].rstrip("/").rsplit("/", 1)[1]
    settings = get_settings()
    urls = Urls("http://testserver", "", "", "http://testserver")
    await RsvpService(RequestContext({}, "en", None, db, urls, settings)).cancel_by_link(
        first["id"], token
    )
    await db.commit()
    messages = await delivered(maker, settings_for(receiver), receiver, 4)
    sent = [(str(m["To"]), str(m["Subject"])) for m in messages]
    assert sent[:2] == [
        ("Ada <ada@example.org>", "Your ticket: Concert"),
        ("Ada <bob@example.org>", "On the waitlist: Concert"),
    ]
    assert set(sent[2:]) == {  # in the cancellation's transaction, both
        ("Ada <ada@example.org>", "Cancelled: Concert"),
        ("Ada <bob@example.org>", "A place for you: Concert"),
    }


async def test_the_calendar_of_a_series_ticket_and_of_one_date(
    client: AsyncClient,
    editor: AuthFor,
    maker: async_sessionmaker[AsyncSession],
    receiver: MailReceiver,
) -> None:
    """A ticket of the whole series: the series with its rules; a ticket of one date: that
    date alone, as an event of its own (its own UID, no rules)."""
    series = await create_record(
        client, editor, "events", "Weekly class", recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"]
    )
    listed = await client.get(
        f"{API}/events",
        params={"post_parent": series["id"], "start_date": "now", "end_date": "+1 year"},
    )
    first, second, _ = listed.json()["events"]
    pool = await make_ticket(client, editor, event=first["id"], name="Season")
    one = await make_ticket(client, editor, event=second["id"], name="Week 2")
    assert (await rsvp(client, pool["id"], email="season@example.org")).status_code == 201
    assert (await rsvp(client, one["id"], email="week@example.org")).status_code == 201
    messages = await delivered(maker, settings_for(receiver), receiver, 2)
    by_to = {str(m["To"]).split("<")[1].rstrip(">"): m for m in messages}

    def vevents(message: EmailMessage) -> list[Any]:
        ics = part_of(message, "text/calendar").get_content()
        return list(Calendar.from_ical(ics).walk("VEVENT"))

    (whole,) = vevents(by_to["season@example.org"])
    assert str(whole["UID"]).startswith(f"{first['id']}@")
    assert whole["RRULE"]["COUNT"] == [3]
    (date,) = vevents(by_to["week@example.org"])
    assert str(date["UID"]).startswith(f"{second['id']}@")
    assert "RRULE" not in date
    assert date.decoded("DTSTART").strftime("%Y-%m-%d %H:%M:%S") == second["start_date"]
