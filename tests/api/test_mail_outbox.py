"""The mail outbox (app/mail) against a real mail server in the test (aiosmtpd,
tests/mail_receiver.py): a queued message is delivered once, with its Message-ID from its
row; a server that is down gets it on a retry; a refusal for good fails it at once, and the
end of MAIL_RETRY_SCHEDULE leaves it failed, on the desk, to be sent again; two workers on
separate connections never send one twice; the background task is woken by the commit;
without SMTP_URL nothing is sent; a recipient's messages are exported and forgotten."""

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.core.rules.paging import Page
from app.core.settings import Settings, get_settings
from app.mail.letters import Letter, Part
from app.mail.service import MAIL_QUEUED, Outbox, queue
from app.mail.smtp import SmtpTarget
from app.mail.worker import MailWorker
from tests.live.harness import free_port
from tests.mail_receiver import MailReceiver, mail_receiver

FROM = "Almanac <calendar@example.org>"
SOON = 0.05  # a retry schedule's wait that passes within the test


def settings_for(smtp_url: str | None, schedule: list[float] | None = None) -> Settings:
    update: dict[str, Any] = {
        "smtp_url": smtp_url,
        "mail_from": FROM,
        "mail_timeout": 5.0,
        "mail_poll_interval": 0.05,
    }
    if schedule is not None:
        update["mail_retry_schedule"] = schedule
    return get_settings().model_copy(update=update)


def letter(to: str, subject: str = "Your ticket", language: str = "en") -> Letter:
    return Letter(
        recipient=to,
        recipient_name="Ann Example",
        subject=subject,
        text=f"Hello, {subject}",
        html=f"<p>Hello, {subject}</p><img src='cid:qr.1@example.org' alt=''>",
        language=language,
        parts=(
            Part(b"\x89PNG fake", "image", "png", "ticket.png", "<qr.1@example.org>"),
            Part(b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", "text", "calendar", "event.ics"),
        ),
    )


async def queued(
    maker: async_sessionmaker[AsyncSession], settings: Settings, *letters: Letter
) -> list[int]:
    """The letters written into the outbox in one committed transaction; their IDs."""
    async with maker() as session, session.begin():
        return [await queue(session, settings, one, kind="going") for one in letters]


async def row(db: AsyncSession, message_id: int) -> dict[str, Any]:
    found = await db.execute(
        text("SELECT attempts, sent_at, failed_at, last_error FROM mail_outbox WHERE id = :id"),
        {"id": message_id},
    )
    return dict(found.one()._mapping)


@pytest.fixture
def receiver() -> Iterator[MailReceiver]:
    with mail_receiver() as running:
        yield running


async def test_a_queued_message_is_delivered_once(
    maker: async_sessionmaker[AsyncSession], db: AsyncSession, receiver: MailReceiver
) -> None:
    settings = settings_for(receiver.url)
    ids = await queued(maker, settings, letter("ann@example.org"), letter("bob@example.org", "B"))
    worker = MailWorker(settings)
    done = await worker.send_due(maker)
    assert (done.sent, done.retried, done.failed) == (2, 0, 0)
    assert (await worker.send_due(maker)).claimed == 0  # sent once: nothing is due again
    taken = sorted(receiver.taken, key=lambda t: t.recipients)
    assert [t.recipients for t in taken] == [["ann@example.org"], ["bob@example.org"]]
    assert {t.sender for t in taken} == {"calendar@example.org"}
    message = taken[0].message
    assert message["Message-ID"].startswith(f"<outbox.{ids[0]}.")
    assert message["Message-ID"].endswith("@example.org>")
    assert message["To"] == "Ann Example <ann@example.org>"
    assert message["Content-Language"] == "en"
    # Plain text and HTML, the QR code inside the HTML, the .ics attached.
    assert message.get_body(("plain",)).get_content().strip() == "Hello, Your ticket"  # type: ignore[union-attr]
    types = [part.get_content_type() for part in message.walk()]
    assert types == [
        "multipart/mixed",
        "multipart/alternative",
        "text/plain",
        "multipart/related",
        "text/html",
        "image/png",
        "text/calendar",
    ]
    assert [a.get_filename() for a in message.iter_attachments()] == ["event.ics"]
    for message_id in ids:
        state = await row(db, message_id)
        assert state["sent_at"] is not None
        assert state["attempts"] == 1


async def test_a_message_is_retried_while_the_server_is_down(
    maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    port = free_port()  # nothing listens there yet
    settings = settings_for(f"smtp://127.0.0.1:{port}", [SOON, 60])
    (message_id,) = await queued(maker, settings, letter("ann@example.org"))
    worker = MailWorker(settings)
    done = await worker.send_due(maker)
    assert (done.sent, done.retried) == (0, 1)
    state = await row(db, message_id)
    assert state["attempts"] == 1
    assert state["sent_at"] is None
    assert state["failed_at"] is None
    assert state["last_error"]
    with mail_receiver(port=port) as receiver:
        await asyncio.sleep(SOON * 2)  # the first wait of the schedule
        assert (await worker.send_due(maker)).sent == 1
        assert [t.recipients for t in receiver.taken] == [["ann@example.org"]]
    state = await row(db, message_id)
    assert state["attempts"] == 2
    assert state["sent_at"] is not None
    assert state["last_error"] is None


async def test_the_schedule_s_end_leaves_it_failed_and_the_desk_sends_it_again(
    maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    port = free_port()
    settings = settings_for(f"smtp://127.0.0.1:{port}", [SOON])
    (message_id,) = await queued(maker, settings, letter("ann@example.org"))
    worker = MailWorker(settings)
    assert (await worker.send_due(maker)).retried == 1
    await asyncio.sleep(SOON * 2)
    assert (await worker.send_due(maker)).failed == 1  # the schedule is over
    state = await row(db, message_id)
    assert state["failed_at"] is not None
    assert state["attempts"] == 2
    await asyncio.sleep(SOON * 2)
    assert (await worker.send_due(maker)).claimed == 0  # failed: not tried again
    async with maker() as session, session.begin():
        outbox = Outbox(session)
        assert (await outbox.counts()).failed == 1
        entries, total = await outbox.page("failed", Page(1, 10))
        assert ([e.id for e in entries], total) == ([message_id], 1)
        assert entries[0].status == "failed"
        assert entries[0].last_error
        assert await outbox.send_again(message_id)
        assert not await outbox.send_again(message_id)  # waiting now, not failed
        assert session.info[MAIL_QUEUED]
    with mail_receiver(port=port) as receiver:
        assert (await worker.send_due(maker)).sent == 1
        assert len(receiver.taken) == 1


async def test_a_refusal_for_good_fails_at_once(
    maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    with mail_receiver(refused={"nobody@example.org"}) as receiver:
        settings = settings_for(receiver.url, [60, 60])
        bad, good = await queued(
            maker, settings, letter("nobody@example.org"), letter("ann@example.org")
        )
        done = await MailWorker(settings).send_due(maker)
        assert (done.sent, done.failed, done.retried) == (1, 1, 0)
        assert [t.recipients for t in receiver.taken] == [["ann@example.org"]]
    state = await row(db, bad)
    assert state["failed_at"] is not None
    assert state["last_error"].startswith("550")
    assert (await row(db, good))["sent_at"] is not None


async def test_without_smtp_url_messages_wait(
    maker: async_sessionmaker[AsyncSession], db: AsyncSession
) -> None:
    settings = settings_for(None)
    (message_id,) = await queued(maker, settings, letter("ann@example.org"))
    worker = MailWorker(settings)
    worker.start(maker)  # no task without a mail server
    assert worker._task is None
    async with maker() as session:
        counts = await Outbox(session).counts()
        entries, total = await Outbox(session).page("waiting", Page(1, 10))
    assert counts.waiting >= 1
    assert message_id in [e.id for e in entries]
    assert (await row(db, message_id))["attempts"] == 0


async def test_a_recipient_s_messages_are_exported_and_forgotten(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    settings = settings_for(None)
    ids = await queued(
        maker,
        settings,
        letter("Ann@Example.org", "One"),
        letter("bob@example.org", "Other"),
        letter("ann@example.org", "Two"),
    )
    async with maker() as session, session.begin():
        outbox = Outbox(session)
        exported = await outbox.export("ANN@example.org")
        assert [(e.id, e.subject, e.status) for e in exported] == [
            (ids[0], "One", "waiting"),
            (ids[2], "Two", "waiting"),
        ]
        assert await outbox.forget("ann@EXAMPLE.org") == 2
        assert await outbox.export("ann@example.org") == []
        assert [e.subject for e in await outbox.export("bob@example.org")] == ["Other"]


def test_smtp_urls_are_read() -> None:
    assert SmtpTarget.parse("smtp://mail.example.org") == SmtpTarget("mail.example.org", 25, False)
    assert SmtpTarget.parse("smtps://u%40x:p%3Aw%40d@mail.example.org:2465") == SmtpTarget(
        "mail.example.org", 2465, True, "u@x", "p:w@d"
    )
    for wrong in ("http://mail.example.org", "smtp://", "mail.example.org"):
        with pytest.raises(ValueError, match="SMTP_URL"):
            SmtpTarget.parse(wrong)


@pytest.mark.parametrize("wrong", ["http://mail.example.org", "smtp://", "smtp://h:99999"])
def test_a_wrong_smtp_url_is_refused_with_the_settings(wrong: str) -> None:
    with pytest.raises(ValidationError, match="SMTP_URL"):
        Settings(smtp_url=wrong)
    assert Settings(smtp_url=" ").smtp_url is None  # empty: unset


async def test_the_server_s_login_is_used(maker: async_sessionmaker[AsyncSession]) -> None:
    with mail_receiver(login=("almanac", "s3cret@x")) as receiver:
        settings = settings_for(f"smtp://almanac:s3cret%40x@127.0.0.1:{receiver.port}")
        await queued(maker, settings, letter("ann@example.org"))
        assert (await MailWorker(settings).send_due(maker)).sent == 1
    assert receiver.logins == ["almanac"]
    assert len(receiver.taken) == 1


# ---- on connections of their own: real transactions, real row locks --------------------


async def until_sent(maker: async_sessionmaker[AsyncSession], count: int) -> None:
    for _ in range(200):
        async with maker() as session:
            if (await Outbox(session).counts()).sent == count:
                return
        await asyncio.sleep(0.05)
    raise AssertionError(f"not {count} sent")


@pytest.fixture
async def committed(engine: AsyncEngine) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Sessions on the pool's connections, each committing for real (two workers' claims
    meet as two instances' would); the outbox is left empty afterwards."""
    maker = async_sessionmaker(engine, expire_on_commit=False)
    async with engine.begin() as conn:
        await conn.execute(text("DELETE FROM mail_outbox"))
    yield maker
    async with engine.begin() as conn:
        await conn.execute(text("DELETE FROM mail_outbox"))


async def test_two_workers_never_send_one_twice(
    committed: async_sessionmaker[AsyncSession],
) -> None:
    with mail_receiver(delay=0.01) as receiver:
        settings = settings_for(receiver.url)
        count = 40
        await queued(
            committed, settings, *(letter(f"p{n}@example.org", f"n{n}") for n in range(count))
        )
        workers = [MailWorker(settings), MailWorker(settings)]

        async def drain(worker: MailWorker) -> int:
            sent = 0
            while (done := await worker.send_due(committed, limit=5)).claimed:
                sent += done.sent
            return sent

        shares = await asyncio.gather(*(drain(worker) for worker in workers))
    assert sum(shares) == count
    assert all(share > 0 for share in shares)  # both worked, side by side
    subjects = sorted(m["Subject"] for m in receiver.messages())
    assert subjects == sorted(f"n{n}" for n in range(count))  # each once


async def test_the_commit_wakes_the_background_task(
    committed: async_sessionmaker[AsyncSession],
) -> None:
    with mail_receiver() as receiver:
        # A poll interval longer than the test: only the after-commit hook can wake it.
        settings = settings_for(receiver.url).model_copy(update={"mail_poll_interval": 60.0})
        worker = MailWorker(settings)
        worker.start(committed)
        try:
            await asyncio.sleep(0.2)  # its first look found nothing; it waits
            async with committed() as session:
                async with session.begin():
                    await queue(session, settings, letter("ann@example.org"), kind="going")
                await worker.after_write(session)  # as the request's session scope does
            assert [m["To"] for m in await receiver.wait_for(1, 10)] == [
                "Ann Example <ann@example.org>"
            ]
            # Taken by the server, then marked sent by the round's commit (a stop before
            # it would send the message again: the rare duplicate, docs/design.md#mail).
            await until_sent(committed, 1)
        finally:
            await worker.stop()
    async with committed() as session:
        entries, _ = await Outbox(session).page("sent", Page(1, 10))
    assert len(entries) == 1
    assert entries[0].sent_at is not None
    assert entries[0].sent_at <= datetime.now(UTC)


async def test_a_stop_lets_the_round_in_progress_record_what_it_sent(
    committed: async_sessionmaker[AsyncSession],
) -> None:
    with mail_receiver(delay=0.5) as receiver:
        settings = settings_for(receiver.url)
        await queued(committed, settings, letter("ann@example.org"))
        worker = MailWorker(settings)
        worker.start(committed)
        try:
            assert await asyncio.to_thread(receiver.receiving.wait, 10)  # mid-send
        finally:
            await worker.stop()  # as a deploy's SIGTERM does
        assert len(receiver.taken) == 1
    async with committed() as session:
        assert (await Outbox(session).counts()).sent == 1  # not to be sent again
